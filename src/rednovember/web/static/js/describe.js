// The text layer of the client: names, log sentences, action labels with cost / chance / R7
// warnings, decisions and results — a port of rednovember/i18n/describe.py, translated with the
// server's catalogs (i18n.js). `ctx` is a Model (model.js): the static data and one seat's view.

import { raw, t } from "./i18n.js";

export const SEA = 0;
export const REPAIRS = ["unblock_hatch", "extinguish_fire", "pump_water", "fix_engine",
  "fix_oxygen_pumps", "fix_reactor", "stop_missile_launch", "kill_kraken"];
const NO_ARG = new Set(["enter", "stay", "no_action", "abandon", "end", "done", "defend", "yield"]);
const ROOM_ARG = new Set(["open", "exit", "spread", "block"]);
const ITEM_ARG = new Set(["play", "discard", "keep", "give"]);
const INT_ARG = new Set(["draw", "trade", "attack"]);

// --- names ---------------------------------------------------------------------------------
// A player as the table names them: their name, else "Player N" (`seat` counts from 0).
export function playerName(name, seat) {
  return name || t("ui", "player_long", { seat: seat + 1 });
}

// A bot as players see it ("Strong bot"), from its name in the API ("search").
export function botName(key) {
  return raw("bot_names", key || "");
}

// A game's configuration in a line: its seed once the game is over (the summary hides it before:
// with it and the moves anyone could rebuild the hidden hands and the decks' order).
export function configLine(cfg) {
  return cfg.seed == null ? t("web", "config_players", { players: cfg.players })
    : t("web", "config_line", { players: cfg.players, seed: cfg.seed });
}

// Who plays a seat, by name: its player; for a bot seat, the player it plays for (who may take
// it back), else the bot.
export function seatPlayer(s, seat) {
  if (s && s.kind === "bot") return s.owner || botName(s.bot || s.name);
  return playerName(s?.name, seat);
}

// A seat as the seats list and the crew table name it, whoever holds it: "Red · Player 1".
export function seatTitle(seat) {
  return `${raw("colours", seat.colour)} · ${t("ui", "player_long", { seat: seat.seat + 1 })}`;
}

// A seat's gnomes' colours: two in a 2-player game (R16).
export function seatColours(seat) {
  return seat.colours && seat.colours.length ? seat.colours : [seat.colour];
}

export function gnomeName(ctx, n) {
  const g = ctx.view.gnomes[n];
  return g ? raw("colours", g.colour) : String(n);
}

export function roomName(ctx, n) {
  if (n === SEA) return raw("rooms", "sea");
  const key = ctx.data.room_keys[n] || "";
  const name = key ? raw("rooms", key) : key;
  if (key && name !== key) return t("room_format", "named", { number: n, name });
  return t("room_format", "plain", { number: n });
}

export function roomShort(ctx, n) {
  if (n === SEA) return raw("room_format", "sea_short");
  const key = ctx.data.room_keys[n] || "";
  const name = key ? raw("rooms", key) : key;
  if (key && name !== key) return t("room_format", "short_named", { number: n, name });
  return t("room_format", "short_plain", { number: n });
}

// The room's own name without its number ("" for plain rooms).
export function roomTitle(ctx, n) {
  if (n === SEA) return raw("room_format", "sea_short");
  const key = ctx.data.room_keys[n] || "";
  const name = key ? raw("rooms", key) : key;
  return name !== key ? name : "";
}

export function itemId(ctx, x) { return typeof x === "number" ? ctx.data.items[x]?.id : x; }
export function itemName(ctx, x) { return raw("items", itemId(ctx, x)); }

export function join(words) {
  const parts = [...words];
  if (!parts.length) return raw("list", "none");
  if (parts.length === 1) return parts[0];
  return parts.slice(0, -1).join(raw("list", "sep")) + raw("list", "last") + parts[parts.length - 1];
}

export function itemsText(ctx, kinds) {
  const counts = new Map();
  for (const k of kinds) counts.set(k, (counts.get(k) || 0) + 1);
  return join([...counts].map(([k, n]) => itemName(ctx, k) + (n > 1 ? ` ×${n}` : "")));
}

export function cardName(ctx, id) {
  const c = ctx.data.events[id];
  if (!c) return String(id);
  const name = raw("events", c.kind);
  if (c.faint === null || c.faint === undefined) return t("event_format", "no_faint", { name });
  return t("event_format", "faint", { name, faint: c.faint });
}

export function tokenName(ctx, x) {
  return raw("tokens", typeof x === "number" ? ctx.data.tokens[x] : x);
}

export function trackName(ctx, x) {
  return raw("tracks", typeof x === "number" ? ctx.data.tracks[x] : x);
}

export function kindName(kind) { return raw("action_kinds", kind); }

// --- log entries ---------------------------------------------------------------------------
export const ENTRY_ARGS = {
  setup: ["gnomes:int", "space:int", "data_set:str"],
  scenario: ["name:str"],
  turn: ["gnome:gnome", "space:int"],
  stand_up: ["gnome:gnome"],
  open: ["gnome:gnome", "from_room:room", "to_room:room"],
  enter: ["gnome:gnome", "from_room:room", "to_room:room"],
  stay: ["gnome:gnome"],
  fire_out: ["room:room"],
  reflow: ["a:room", "b:room"],
  play: ["gnome:gnome", "item:item"],
  repair: ["gnome:gnome", "kind:kind", "minutes:int", "target:int", "roll:int", "success:bool",
    "doomed:bool", "hatch:int"],
  track_reset: ["track:track", "value:int"],
  token_cleared: ["token:token"],
  draw: ["gnome:gnome", "items:items"],
  draw_stock: ["gnome:gnome", "count:int"],
  item_reshuffle: [],
  trade: ["gnome:gnome", "other:gnome"],
  attack: ["gnome:gnome", "other:gnome"],
  no_action: ["gnome:gnome"],
  abandon: ["gnome:gnome"],
  discard: ["gnome:gnome", "item:item"],
  stumble: ["gnome:gnome", "kept:item", "lost:items"],
  give: ["gnome:gnome", "other:gnome", "item:item"],
  hatch_blocked: ["room:room", "other:room"],
  fight: ["attacker:gnome", "roll_a:int", "score_a:int", "defender:gnome", "roll_d:int",
    "score_d:int"],
  no_defence: ["gnome:gnome"],
  loot: ["gnome:gnome", "loser:gnome", "items:items"],
  won: [],
  faint_check: ["gnome:gnome", "card:card", "intoxication:int", "fainted:bool"],
  item_icon: ["gnome:gnome", "space:int", "item:item"],
  charm: ["gnome:gnome", "space:int"],
  death: ["gnome:gnome", "cause:cause", "room:room"],
  replacement: ["gnome:gnome", "room:room"],
  lost: ["cause:loss"],
  event_reshuffle: ["kraken:bool"],
  event: ["card:card", "space:int"],
  track: ["track:track", "value:int"],
  fire: ["room:room"],
  fire_spreads: ["room:room"],
  fire_flooded: ["room:room"],
  spread_none: [],
  leak: ["room:room"],
  undercurrent: ["rooms:rooms"],
  block_none: ["room:room"],
  token_already: ["token:token"],
  token_avoided: ["token:token"],
  token: ["token:token", "space:int"],
  hand_limit: ["gnome:gnome", "items:items"],
  stumble_none: ["gnome:gnome"],
  overheated: ["gnome:gnome", "intoxication:int"],
};

// Mad Gnomes hides hands: a card that went into another seat's hand reads as -1 or a count.
function hiddenFor(ctx, ...gnomes) {
  if (!ctx.config.variants.includes("mad-gnomes")) return false;
  const seats = ctx.viewerSeats();
  return gnomes.every((x) => { const g = ctx.view.gnomes[x]; return !g || !seats.includes(g.player); });
}

function variant(ctx, mid, a) {
  switch (mid) {
    case "repair": return a.doomed ? "doomed" : a.success ? "success" : "failure";
    case "draw": return typeof a.items === "number" || hiddenFor(ctx, a.gnome) ? "hidden" : "visible";
    case "stumble": return typeof a.kept === "number" && a.kept < 0 ? "hidden" : "visible";
    case "give": return a.item < 0 ? "hidden" : "visible";
    case "loot": return typeof a.items === "number" ? "hidden" : "visible";
    case "faint_check": return a.fainted ? "fainted" : "steady";
    case "item_icon":
      if (hiddenFor(ctx, a.gnome)) return "hidden";
      return a.item < 0 ? "none" : "visible";
    case "event_reshuffle": return a.kraken ? "kraken" : "plain";
    case "undercurrent": return a.rooms && a.rooms.length ? "rooms" : "none";
    default: return "";
  }
}

function fmt(ctx, type, v) {
  switch (type) {
    case "gnome": return gnomeName(ctx, v);
    case "room": return roomName(ctx, v);
    case "rooms": return join((v || []).map((r) => roomName(ctx, r)));
    case "item": return v >= 0 ? itemName(ctx, v) : "";
    case "items": return Array.isArray(v) ? itemsText(ctx, v) : String(v);
    case "card": return cardName(ctx, v);
    case "token": return tokenName(ctx, v);
    case "track": return trackName(ctx, v);
    case "kind": return kindName(v);
    case "cause": return raw("death_causes", v);
    case "loss": return raw("loss_causes", v);
    default: return String(v);
  }
}

export function entryArgs(entry) {
  const [mid, ...args] = entry;
  const spec = ENTRY_ARGS[mid];
  if (!spec || spec.length !== args.length) return null;
  const out = {};
  spec.forEach((s, i) => { out[s.split(":")[0]] = args[i]; });
  return out;
}

export function describeEntry(ctx, entry) {
  if (!entry || !entry.length) return "";
  const [mid, ...args] = entry;
  const spec = ENTRY_ARGS[mid];
  if (!spec || spec.length !== args.length) return `${mid}: ${args.join(", ")}`;
  const a = {};
  const fields = {};
  spec.forEach((s, i) => {
    const [name, type] = s.split(":");
    a[name] = args[i];
    fields[name] = fmt(ctx, type, args[i]);
  });
  fields.length = String(ctx.data.track_length);
  if (mid === "draw" || mid === "loot" || mid === "stumble") {
    const v = mid === "stumble" ? a.lost : a.items;
    fields.count = String(Array.isArray(v) ? v.length : v);
  }
  if (mid === "repair") {
    const rep = ctx.data.room_repairs[a.kind];
    fields.token = rep && rep.token >= 0 ? tokenName(ctx, rep.token) : "";
    if (a.hatch >= 0) fields.kind = t("log", "unblock_kind", { room: roomName(ctx, a.hatch) });
  }
  const v = variant(ctx, mid, a);
  const text = t("log", v ? `${mid}.${v}` : mid, fields);
  return mid === "event" && respiteLeaves(ctx, a.card) ? `${text} ${raw("term_plain", "respite_out")}` : text;
}

// Harder and Hardest: a drawn Respite card leaves the game (i18n/describe.py respite_leaves).
export function respiteLeaves(ctx, card) {
  const c = ctx.data.events[card];
  const v = ctx.config.variants;
  return Boolean(c) && c.kind === "respite" && (v.includes("harder") || v.includes("hardest"));
}

// --- actions -------------------------------------------------------------------------------
export function parseAction(text) {
  const w = text.trim().split(/\s+/);
  const kind = w[0];
  const room = (s) => (s === "sea" ? SEA : Number(s));
  if (NO_ARG.has(kind)) return { kind, text };
  if (ROOM_ARG.has(kind)) return { kind, room: room(w[1]), text };
  if (ITEM_ARG.has(kind)) return { kind, item: w[1], text };
  if (INT_ARG.has(kind)) return { kind, n: Number(w[1]), text };
  if (kind === "unblock_hatch") return { kind, room: Number(w[1]), minutes: Number(w[2]), text };
  return { kind, minutes: Number(w[1]), text };
}

export const isRepair = (a) => REPAIRS.includes(a.kind);

// The bonus one more card of ``itemIdStr`` would add to a repair.
export function itemBonus(ctx, itemIdStr, kind) {
  const b = ctx.itemById(itemIdStr)?.bonus || {};
  return (b[kind] || 0) + (b["*"] || 0);
}

export function actionText(ctx, a) {
  const v = ctx.view;
  const active = v.active >= 0 ? v.gnomes[v.active] : null;
  const here = active ? active.room : SEA;
  switch (a.kind) {
    case "open":
      return a.room === SEA ? raw("actions", "open_sea") : t("actions", "open", { room: roomName(ctx, a.room) });
    case "enter":
      if (v.opened === SEA) return raw("actions", "enter_sea");
      return t("actions", here === SEA ? "enter_from_sea" : "enter", { room: roomName(ctx, v.opened) });
    case "stay": return t("actions", "stay", { room: roomName(ctx, here) });
    case "play": {
      const id = a.item;
      const mad = id === "crowbar" && ctx.config.variants.includes("mad-gnomes");
      return t("actions", "play", { item: itemName(ctx, id), help: raw("item_help", mad ? "crowbar_mad" : id) });
    }
    case "unblock_hatch":
      return t("actions", "unblock_hatch", { room: roomName(ctx, a.room), minutes: a.minutes });
    case "draw": {
      const spec = ctx.data.draw_rooms[String(here)];
      const stock = spec && spec[0] === "captains_stock";
      return t("actions", stock ? "draw_stock" : "draw_deck", { count: a.n });
    }
    case "trade": case "attack": return t("actions", a.kind, { gnome: gnomeName(ctx, a.n) });
    case "abandon": return t("actions", "abandon", { minutes: v.ghost });
    case "end": return raw("actions", v.phase === "after_action" ? "end" : "end_no_action");
    case "exit": case "spread": return t("actions", a.kind, { room: roomName(ctx, a.room) });
    case "block": {
      const room = v.pending && v.pending.length ? v.pending[0][2] : here;
      return t("actions", "block", { room: roomName(ctx, room), other: roomName(ctx, a.room) });
    }
    case "discard": case "keep": return t("actions", a.kind, { item: itemName(ctx, a.item) });
    case "give": {
      const other = v.pending && v.pending.length ? v.pending[0][2] : -1;
      return t("actions", "give", { item: itemName(ctx, a.item), gnome: gnomeName(ctx, other) });
    }
    case "yield": return t("actions", "yield", { gnome: gnomeName(ctx, v.decider) });
    default:
      if (isRepair(a)) return t("actions", "repair", { kind: kindName(a.kind), minutes: a.minutes });
      return raw("actions", a.kind);
  }
}

// --- decisions and results -----------------------------------------------------------------
export function describeDecision(ctx) {
  const v = ctx.view;
  if (v.result) return describeResult(ctx)[0];
  if (v.phase === "decide" && v.pending && v.pending.length) {
    const [kind, gnome, info] = v.pending[0];
    return t("decisions", kind, {
      gnome: gnomeName(ctx, gnome), limit: info,
      room: kind === "block" ? roomName(ctx, info) : "",
      other: kind === "give" || kind === "defend" ? gnomeName(ctx, info) : "",
    });
  }
  const key = { move: "move", opened: "opened", after_action: "after_action", extra_move: "extra_move" }[v.phase] || "move";
  return t("decisions", key, {
    gnome: gnomeName(ctx, v.active), minutes: v.ghost, ghost: v.ghost,
    room: v.phase === "opened" ? roomName(ctx, v.opened) : "",
  });
}

export function gnomeWon(ctx, n) {
  const r = ctx.view.result;
  if (!r) return null;
  return r.won !== ctx.view.gnomes[n].abandoned;
}

export function describeResult(ctx) {
  const v = ctx.view;
  if (!v.result) return [];
  const lines = [v.result.won ? raw("result", "won")
    : t("result", "lost", { cause: raw("loss_causes", v.result.cause) })];
  for (const g of v.gnomes) {
    const player = ctx.seatName(g.player);
    let line = t("result", gnomeWon(ctx, g.number) ? "gnome_won" : "gnome_lost",
      { gnome: gnomeName(ctx, g.number), player });
    if (g.abandoned) line += " — " + raw("result", "abandoned_note");
    lines.push(line);
  }
  return lines;
}
