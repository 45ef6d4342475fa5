// One seat's picture of the game: the static data set, the engine's view and the table (seats).

import { seatPlayer } from "./describe.js";

export class Model {
  constructor(data, view, config, seats = [], viewer = null) {
    this.data = data;
    this.view = view;
    this.config = config || view.config || { players: 0, variants: [] };
    if (!this.config.variants) this.config.variants = [];
    this.seats = seats; // [{seat, name, kind: "human"|"bot"|null, bot, owner, connected}]
    this.viewer = viewer; // the seat whose eyes we use, or null (spectator)
    this._items = new Map((data.items || []).map((it) => [it.id, it]));
  }

  viewerSeats() { return this.viewer === null || this.viewer === undefined ? [] : [this.viewer]; }
  itemById(id) { return this._items.get(id); }
  water(room) { return Number((this.view.water || {})[String(room)] || 0); }
  burning(room) { return (this.view.fire || []).includes(room); }
  blocked(a, b) {
    return (this.view.blocked || []).some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  }
  seatName(seat) {
    return seatPlayer(this.seats.find((x) => x.seat === seat), seat);
  }
  gnomesOf(seat) { return this.view.gnomes.filter((g) => g.player === seat); }
  get over() { return !!this.view.result; }
}

// The server's /api/data (docs/protocol.md §3.2) in the shape the drawing code uses: room keys and
// layout by room number, repairs' tracks and tokens as indices.
export function normalizeData(api) {
  if (api.room_keys) return api; // already normalised
  const rooms = [...api.rooms].sort((a, b) => a.number - b.number);
  const tracks = api.tracks, tokens = api.tokens;
  const repairs = {};
  for (const [name, r] of Object.entries(api.room_repairs || {})) {
    repairs[name] = {
      room: r.room,
      track: r.track === null || r.track === undefined ? -1 : typeof r.track === "number" ? r.track : tracks.indexOf(r.track),
      token: r.token === null || r.token === undefined ? -1 : typeof r.token === "number" ? r.token : tokens.indexOf(r.token),
    };
  }
  const starts = Object.values(api.start_spaces || {});
  return {
    name: api.name, describe: api.describe,
    room_keys: rooms.map((r) => r.key),
    layout: Object.fromEntries(rooms.map((r) => [String(r.number), [r.x, r.y]])),
    hatches: api.hatches, interior_count: api.interior_hatches,
    tracks, track_length: api.track_length, reset_stars: api.reset_stars, tokens,
    items: api.items, events: api.events,
    event_icons: api.event_icons, item_icons: api.item_icons,
    start: starts.length ? Math.max(...starts) : 60,
    draw_rooms: api.draw_rooms || {}, room_repairs: repairs,
    blocked_tokens: api.blocked_hatch_tokens ?? 15,
    stock_item: api.stock_item, stock_count: api.stock_count,
    abandon_below: api.abandon_below,
  };
}
