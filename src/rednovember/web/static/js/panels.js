// Side panels: the crew (hands, intoxication, keepers), decks and stock, the game log, the seats
// table and the end-of-game summary.

import { raw, t } from "./i18n.js";
import {
  botName, cardName, describeEntry, describeResult, gnomeName, gnomeWon, itemName, roomShort, seatColours,
  seatTitle,
} from "./describe.js";
import { attrs, COLOURS, esc, gnomeGlyph } from "./svg.js";
import { seatLinkButton } from "./seatlink.js";
import { renameButton } from "./rename.js";

function miniGnome(colour, fainted = false) {
  return `<svg class="mini-gnome" viewBox="-17 -36 34 40" aria-hidden="true">${gnomeGlyph(colour, { fainted })}</svg>`;
}

function intoxMeter(level) {
  let s = `<span class="intox" ${attrs({ role: "img", "aria-label": `${raw("ui", "col_intox")} ${level}/4` })}>`;
  for (let i = 1; i <= 4; i++) s += `<span class="mug${i <= level ? " full" : ""}"></span>`;
  return s + `</span>`;
}

export function renderCrew(model) {
  const v = model.view;
  let s = `<h3>${esc(raw("ui", "crew"))}</h3><ul class="crew-list">`;
  const order = [...v.gnomes].sort((a, b) => a.number - b.number);
  for (const g of order) {
    const seat = model.seats.find((x) => x.seat === g.player);
    const status = !g.alive ? raw("ui", "dead") : g.abandoned ? raw("ui", "abandoned")
      : g.fainted ? raw("ui", "fainted") : "";
    const where = g.alive && !g.abandoned ? roomShort(model, g.room) : "";
    // outlined: the gnome whose player must decide now (a trade's gift or a defence is another
    // gnome's decision during the active gnome's turn)
    const active = (v.decider ?? v.active) === g.number && !v.result;
    let hand;
    if (g.hand === null || g.hand === undefined) {
      hand = Array.from({ length: g.hand_size || 0 }, () => `<span class="card-back" title="${esc(raw("web", "hidden_card"))}"></span>`).join("")
        + `<span class="sr-only">${esc(t("ui", "hidden_hand", { count: g.hand_size || 0 }))}</span>`;
    } else if (!g.hand.length) {
      hand = `<span class="muted">${esc(raw("ui", "empty_hand"))}</span>`;
    } else {
      hand = g.hand.map((id) => `<span class="item-chip" data-item="${esc(id)}" title="${esc(raw("item_help", id))}">${esc(itemName(model, id))}</span>`).join("");
    }
    const bot = seat && seat.kind === "bot" ? botBadge(seat) : "";
    const online = seat && seat.kind === "human" ? `<span class="dot ${seat.connected ? "on" : "off"}" title="${esc(raw("web", seat.connected ? "online" : "offline"))}"></span>` : "";
    const mine = model.viewer === g.player ? `<span class="badge mine">${esc(raw("web", "you"))}</span>` : "";
    s += `<li class="crew-gnome${active ? " active" : ""}${!g.alive || g.abandoned ? " gone" : ""}" ${attrs({
      "data-testid": `crew-gnome-${g.number}`, style: `--gc:${COLOURS[g.colour] || g.colour}` })}>
      ${miniGnome(g.colour, g.fainted)}
      <div class="crew-main">
        <div class="crew-name"><strong>${esc(gnomeName(model, g.number))}</strong>
          ${seat && seat.kind === "bot" && !seat.owner ? "" : `<span class="crew-player">${esc(model.seatName(g.player))}</span>`}${online}${bot}${mine}
          ${status ? `<span class="badge status">${esc(status)}</span>` : ""}</div>
        <div class="crew-facts">
          ${where ? `<span title="${esc(raw("ui", "col_where"))}">⌂ ${esc(where)}</span>` : ""}
          <span title="${esc(raw("ui", "col_keeper"))}">${esc(t("web", "keeper_short", { space: g.alive && !g.abandoned ? g.keeper : "–" }))}</span>
          ${intoxMeter(g.intoxication)}
        </div>
        <div class="hand" data-testid="hand-${g.number}" aria-label="${esc(raw("ui", "col_hand"))}">${hand}</div>
      </div></li>`;
  }
  return s + `</ul>`;
}

export function renderDecks(model) {
  const v = model.view;
  const top = v.event_discard_top;
  const blockedLeft = (model.data.blocked_tokens ?? 15) - (v.blocked || []).length;
  const played = Object.entries(v.played || {});
  let s = `<h3>${esc(raw("ui", "decks_title"))}</h3><dl class="decks-grid">`;
  s += `<dt>${esc(raw("ui", "deck_events"))}</dt><dd data-testid="event-deck">${v.event_deck_size} · ${esc(t("ui", "deck_discard", { count: (v.event_discard || []).length }))}</dd>`;
  s += `<dt>${esc(raw("web", "last_event"))}</dt><dd data-testid="last-event">${top === null || top === undefined ? "–" : esc(cardName(model, top))}</dd>`;
  s += `<dt>${esc(raw("ui", "deck_items"))}</dt><dd data-testid="item-deck">${v.item_deck_size} · ${esc(t("ui", "deck_discard", { count: (v.item_discard || []).length }))}</dd>`;
  s += `<dt>${esc(raw("ui", "deck_stock"))}</dt><dd data-testid="stock">${esc(t("ui", "deck_stock_value", { count: v.stock }))}</dd>`;
  s += `<dt>${esc(raw("ui", "deck_blocked"))}</dt><dd>${esc(t("ui", "deck_blocked_value", { count: blockedLeft }))}</dd>`;
  if (v.kraken_aside) s += `<dt></dt><dd class="muted">${esc(raw("ui", "kraken_aside"))}</dd>`;
  s += `</dl>`;
  if (played.length && v.active >= 0 && !v.result) {
    const items = played.map(([id, n]) => itemName(model, id) + (n > 1 ? ` ×${n}` : "")).join(", ");
    s += `<p class="played" data-testid="played">${esc(t("ui", "played", { gnome: gnomeName(model, v.active), items }))}</p>`;
  }
  return s;
}

const LOG_CLASS = {
  turn: "turn", death: "death", lost: "lost", won: "won", event: "event", repair: "repair",
  token: "danger", track: "danger", fire: "danger", fire_spreads: "danger", leak: "danger",
};

export function renderLog(model, log, freshFrom) {
  let s = `<h3>${esc(raw("web", "log_title"))}</h3><ol class="log-list" data-testid="log" aria-live="polite">`;
  const start = Math.max(0, log.length - 400);
  for (let i = start; i < log.length; i++) {
    const e = log[i];
    const cls = [LOG_CLASS[e[0]] || "", i >= freshFrom ? "fresh" : ""].join(" ").trim();
    s += `<li ${attrs({ class: cls || undefined, "data-testid": "log-entry", "data-mid": e[0] })}>${esc(describeEntry(model, e))}</li>`;
  }
  return s + `</ol>`;
}

export function renderResult(model) {
  const lines = describeResult(model);
  if (!lines.length) return "";
  const won = model.view.result.won;
  let s = `<div class="result-box ${won ? "won" : "lost"}" data-testid="game-over">`;
  s += `<h2 data-testid="result-headline">${esc(lines[0])}</h2><ul>`;
  model.view.gnomes.forEach((g, i) => {
    const w = gnomeWon(model, g.number);
    s += `<li class="${w ? "won" : "lost"}">${miniGnome(g.colour)} ${esc(lines[i + 1])}</li>`;
  });
  return s + `</ul></div>`;
}

// Whether a seat's buttons stay in the compact list (every seat taken): a seat whose player is
// away (it may go to a bot) and a bot seat (its strength may change).
function keepsActions(seat, mine) {
  return seat.kind === "bot" || (seat.kind === "human" && !mine && !seat.connected);
}

// Another's seat may go to a bot once its player has been gone for the takeover grace
// (`handover_in`, stamped on arrival by GamePage.stampHandovers).
// Another player's seat may go to a bot: they left a while ago, at a real-time table (at a
// turn-based one its deadlines decide that, docs/protocol.md §3.10).
function handoverOpen(seat, page) {
  if (page.summary?.settings?.pace === "turn-based") return false;
  return !seat.connected && !(seat._handoverAt > performance.now());
}

const DEFAULT_BOT = "heuristic"; // preselected for a player's seat: quick, and plays well
// The bots weakest first, as the picker lists them (an unknown one last).
const STRENGTH = ["random", "heuristic", "search:fast", "search", "search:strong"];
function byStrength(bots) {
  const rank = (b) => (STRENGTH.includes(b) ? STRENGTH.indexOf(b) : STRENGTH.length);
  return [...bots].sort((a, b) => rank(a) - rank(b));
}

// A bot seat's badge: which bot plays it ("Strong bot").
function botBadge(seat) {
  return `<span class="badge bot">${esc(botName(seat.bot || seat.name))}</span>`;
}

function seatWho(seat) {
  if (seat.kind === "free") return `<span class="muted">${esc(raw("web", "seat_free"))}</span>`;
  if (seat.kind === "bot") return `${seat.owner ? `${esc(seat.owner)} ` : ""}${botBadge(seat)}`;
  return `${esc(seat.name || "")} <span class="dot ${seat.connected ? "on" : "off"}" title="${esc(raw("web", seat.connected ? "online" : "offline"))}"></span>`;
}

function botPicker(seat, bots) {
  const options = byStrength(bots).map((b) => `<option value="${esc(b)}"${b === (seat.bot || DEFAULT_BOT) ? " selected" : ""}>${esc(botName(b))}</option>`).join("");
  const label = raw("web", seat.kind === "bot" ? "change_bot" : "give_to_bot");
  return `<span class="bot-pick"><select ${attrs({ "data-bot-select": seat.seat, "data-testid": `bot-select-${seat.seat}`,
    "aria-label": t("web", "bot_for", { colour: raw("colours", seat.colour) }) })}>${options}</select>
    <button type="button" class="btn small" ${attrs({ "data-bot": seat.seat, "data-testid": `bot-seat-${seat.seat}` })}>${esc(label)}</button></span>`;
}

export function renderSeats(model, page, compact = false) {
  const seats = model.seats;
  const canBot = page.holdsAny() || page.isCreator();
  const bots = page.ctx.meta?.bots || ["random"];
  let s = `<div class="seats-head"><h3>${esc(raw("web", "seats_title"))}</h3>`;
  if ((compact || page.ui.showSeats) && canBot && !model.over) {
    s += `<button type="button" class="btn ghost small" data-manage-seats data-testid="manage-seats" aria-expanded="${!compact}">${esc(raw("web", compact ? "manage_seats" : "manage_seats_done"))}</button>`;
  }
  s += `</div><ul class="seat-list">`;
  for (const seat of seats) {
    const mine = page.heldSeats().includes(seat.seat);
    const colours = seatColours(seat).map((c) => `<span class="swatch" style="background:${COLOURS[c] || c}" title="${esc(raw("colours", c))}"></span>`).join("");
    let buttons = "";
    if (seat.kind === "free") {
      buttons += `<button type="button" class="btn primary small" ${attrs({ "data-take": seat.seat, "data-testid": `take-seat-${seat.seat}`,
        "aria-label": t("web", "take_seat_as", { colour: raw("colours", seat.colour) }) })}>${esc(raw("web", "take_seat"))}</button>`;
    }
    const botOk = canBot && (seat.kind === "free" || seat.kind === "bot" || (seat.kind === "human" && (mine || handoverOpen(seat, page))));
    if (botOk && !model.over) buttons += botPicker(seat, bots);
    const cls = `seat-row${mine ? " mine" : ""}${keepsActions(seat, mine) ? " keeps-actions" : ""}`;
    s += `<li class="${cls}" data-testid="seat-${seat.seat}" data-kind="${esc(seat.kind)}">
      <span class="seat-colours">${colours}</span>
      <span class="seat-label">${esc(seatTitle(seat))}</span>
      <span class="seat-who">${seatWho(seat)}${mine ? ` <span class="badge mine">${esc(raw("web", "you"))}</span>` : ""}${mine && !model.over ? seatLinkButton(seat.seat) : ""}${mine && !model.over && seat.kind === "human" ? renameButton(seat.seat) : ""}</span>
      <span class="seat-actions">${buttons}</span></li>`;
  }
  s += `</ul>`;
  return s;
}
