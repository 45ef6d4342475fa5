// My games (/me, issue 20 §2): every game this browser holds a seat in (the tokens stay in its
// localStorage, net.js), with its status, whose turn it is, the deadline of the decision in play,
// the last activity and the unread chat lines; games in play first (this browser's turn first),
// finished and vanished ones at the bottom. POST /api/me gets the public summaries of all at once
// (the ids in the body, no token). "Move to another device" (movelink.js) carries every seat.

import { lang, raw, t } from "./i18n.js";
import { api, store } from "./net.js";
import { COLOURS, esc } from "./svg.js";
import { navigate } from "./router.js";
import { url } from "./root.js";
import { errorText, toast } from "./ui.js";
import { PageLife } from "./life.js";
import { adoptMoveLink, openMoveLink } from "./movelink.js";
import { configLine, seatColours, seatPlayer } from "./describe.js";

const REFRESH = 30000; // ms between two looks at the games while the page is open
const MAX_GAMES = 60; // what POST /api/me answers at once (web/mine.py)

export class MyGamesPage {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.life = new PageLife();
    this.games = null; // null: not looked up yet
    this.missing = [];
    this.fetched = Date.now();
  }

  start() {
    document.getElementById("top-game").innerHTML = "";
    adoptMoveLink();
    this.render();
    this.life.listen(this.root, "click", (e) => this.onClick(e));
    const timer = setInterval(() => this.refresh(), REFRESH);
    this.life.onEnd(() => clearInterval(timer));
    this.refresh();
  }

  destroy() { this.life.end(); }

  async refresh() {
    const ids = store.myGames().slice(-MAX_GAMES);
    let res = { games: [], missing: [] };
    try {
      if (ids.length) res = await api("/api/me", { method: "POST", body: { games: ids } });
    } catch (e) {
      if (!this.life.ended) toast(() => errorText(e), "error");
      return;
    }
    if (this.life.ended) return; // the page was left meanwhile: #app is another page's
    // a rematch started while nobody here looked: this browser's tokens hold its seats too
    if (store.followRematches(res.games || [])) { this.refresh(); return; }
    this.games = res.games || [];
    this.missing = res.missing || [];
    this.fetched = Date.now();
    this.render();
  }

  onClick(e) {
    const open = e.target.closest("a[data-open]");
    if (open && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
      e.preventDefault();
      navigate(`/g/${open.dataset.open}`);
    } else if (e.target.closest("[data-forget]")) {
      const id = e.target.closest("[data-forget]").dataset.forget;
      if (!confirm(t("web_me", "forget_confirm", { id }))) return;
      store.forget(id);
      this.games = (this.games || []).filter((g) => g.id !== id);
      this.missing = this.missing.filter((g) => g !== id);
      this.render();
    } else if (e.target.closest("[data-move]")) {
      openMoveLink(store.myGames().filter((g) => !this.missing.includes(g)).length, this.missing);
    } else if (e.target.closest("[data-home]")) {
      e.preventDefault();
      navigate("/");
    }
  }

  render() {
    document.title = `${raw("web_me", "title")} · ${raw("ui", "title")}`;
    const held = store.myGames().length;
    const rows = this.rows();
    const live = rows.filter((r) => r.g && r.g.status !== "over");
    const done = rows.filter((r) => !r.g || r.g.status === "over");
    let body;
    if (!held) body = `<p class="me-empty" data-testid="me-empty">${esc(raw("web_me", "empty"))}</p>`;
    else if (this.games === null) body = `<p class="muted">${esc(raw("web_me", "loading"))}</p>`;
    else {
      body = `<ul class="me-list" data-testid="me-list">${live.map((r) => this.row(r)).join("")}</ul>`;
      if (done.length) {
        body += `<h2 class="me-sub">${esc(raw("web_me", "finished"))}</h2>
          <ul class="me-list me-done" data-testid="me-done">${done.map((r) => this.row(r)).join("")}</ul>`;
      }
    }
    this.root.innerHTML = `<div class="me-page">
      <section class="card" aria-labelledby="me-h">
        <div class="me-head"><h1 id="me-h">${esc(raw("web_me", "title"))}</h1>
          ${held ? `<button type="button" class="btn small" data-move data-testid="me-move">${esc(raw("web_me", "move_button"))}</button>` : ""}</div>
        <p class="muted">${esc(raw("web_me", "intro"))}</p>
        ${body}
        <p><a class="btn small me-home" href="${esc(url("/"))}" data-home data-testid="me-lobby">${esc(raw("web", "back_to_lobby"))}</a></p>
      </section></div>`;
  }

  // Each game with what this browser holds in it, in the order shown.
  rows() {
    const found = new Map((this.games || []).map((g) => [g.id, g]));
    const rows = store.myGames().map((id) => ({ id, g: found.get(id) || null, mine: store.get(id) }))
      .filter((r) => r.g || this.missing.includes(r.id));
    const turn = (r) => (r.g && myTurn(r.g, r.mine) ? 0 : 1);
    const at = (r) => (r.g && r.g.activity ? r.g.activity.at : "");
    return rows.sort((a, b) => turn(a) - turn(b) || (at(a) < at(b) ? 1 : at(a) > at(b) ? -1 : 0));
  }

  row({ id, g, mine }) {
    const forget = `<button type="button" class="btn ghost small" data-forget="${esc(id)}" data-testid="me-forget-${esc(id)}"
      aria-label="${esc(t("web_me", "forget_label", { id }))}">${esc(raw("web_me", "forget"))}</button>`;
    if (!g) {
      return `<li class="me-game gone" data-testid="me-game-${esc(id)}"><div class="me-main">
        <span class="me-title">${esc(raw("web", "game"))} ${esc(id)}</span>
        <span class="muted">${esc(raw("web_me", "gone"))}</span></div><div class="me-acts">${forget}</div></li>`;
    }
    const seats = Object.keys(mine.seats).map(Number).sort((a, b) => a - b);
    const yours = myTurn(g, mine);
    // seats of this browser a bot plays now (handed over, or three deadlines let pass)
    const botPlays = g.status === "playing" && seats.some((s) => seatOf(g, s)?.kind === "bot");
    const you = seats.length ? t("web_me", "you", { seats: seats.map((s) => this.seatName(g, s)).join(", ") })
      : raw("web_me", "created_only");
    const swatches = seats.map((s) => this.swatch(g, s)).join("");
    const unread = unreadLines(g);
    const facts = [this.statusText(g), this.turnText(g, yours), deadlineText(g, this.fetched),
      g.activity ? t("web_me", "last_activity", { time: this.ago(g.activity.at) }) : ""].filter(Boolean);
    return `<li class="me-game${yours ? " your-turn" : ""}" data-testid="me-game-${esc(id)}">
      <div class="me-main">
        <span class="me-title">${esc(raw("web", "game"))} ${esc(id)}</span>
        <span class="muted me-config">${esc(configLine(g.config))}</span>
        <span class="me-you">${swatches}${esc(you)}</span>
        <span class="me-facts">${facts.map((f) => `<span>${f}</span>`).join("")}</span>
        ${botPlays ? `<span class="me-bot" data-testid="me-bot-${esc(id)}">${esc(raw("web_me", "bot_plays"))}</span>` : ""}
        ${unread ? `<span class="badge me-unread" data-testid="me-unread-${esc(id)}">${esc(t("web_me", "unread", { n: unread }))}</span>` : ""}
      </div>
      <div class="me-acts">
        <a class="btn small${yours ? " primary" : ""}" href="${esc(url(`/g/${id}`))}" data-open="${esc(id)}" data-testid="me-open-${esc(id)}"
          aria-label="${esc(t("web_me", "open_label", { id }))}">${esc(raw("web_me", "open"))}</a>
        ${forget}</div></li>`;
  }

  seatName(g, s) {
    const seat = (g.seats || []).find((x) => x.seat === s);
    return seat ? colourNames(seat) : t("ui", "player_long", { seat: s + 1 });
  }

  swatch(g, s) {
    const seat = (g.seats || []).find((x) => x.seat === s);
    return seat ? seatColours(seat).map((c) => `<span class="swatch" style="background:${COLOURS[c] || c}" aria-hidden="true"></span>`).join("") : "";
  }

  // The status (escaped HTML): waiting with its free seats, in play with the turn, or the result.
  statusText(g) {
    if (g.status === "waiting") {
      return esc(t("web_me", "waiting", { free: g.seats.filter((s) => s.kind === "free").length }));
    }
    if (g.status === "over") {
      const result = esc(raw("web_me", g.result && g.result.won ? "won" : "lost"));
      return g.rematch ? `${result} · <strong data-testid="me-rematch">${esc(raw("web_me", "rematch"))}</strong>` : result;
    }
    return esc(t("web_me", "playing", { turn: g.turn }));
  }

  turnText(g, yours) {
    if (g.status !== "playing") return "";
    if (yours) return `<strong class="me-turn" data-testid="me-your-turn">${esc(raw("web_me", "your_turn"))}</strong>`;
    const seat = (g.seats || []).find((s) => s.seat === g.to_move);
    if (!seat) return "";
    const name = seat.kind === "bot" ? seatPlayer(seat, seat.seat) : seat.name; // a bot by its label
    const who = name ? `${name} (${colourNames(seat)})` : colourNames(seat);
    return `<span data-testid="me-to-move">${esc(t("web_me", "to_move", { who }))}</span>`;
  }

  ago(iso) { return relative(Date.parse(iso)); }
}

// A seat of a game's summary.
function seatOf(g, s) {
  return (g.seats || []).find((x) => x.seat === s) || null;
}

// Whether a seat this browser holds (`mine`, net.js's entry) must decide in the game (its
// summary): not one a bot plays for it.
export function myTurn(g, mine) {
  if (g.status !== "playing" || !mine || !mine.seats || !(String(g.to_move) in mine.seats)) return false;
  return seatOf(g, g.to_move)?.kind !== "bot";
}

// The end of the decision in play (ms since the epoch), or null: the summary's `deadline` (an
// instant) where it has one, else the turn timer's clock (its seconds remaining when the summary
// was fetched, at `fetched`).
export function deadlineAt(g, fetched) {
  if (g.status !== "playing") return null;
  const d = g.deadline && typeof g.deadline === "object" ? g.deadline.at : g.deadline; // {seat, at, …}
  let end = null;
  if (typeof d === "string" || typeof d === "number") {
    end = typeof d === "number" ? d * (d < 1e12 ? 1000 : 1) : Date.parse(d);
  } else if (g.clock && typeof g.clock.remaining === "number") {
    end = fetched + g.clock.remaining * 1000;
  }
  return Number.isFinite(end) ? end : null;
}

// "Deadline: 14:05 (in 3 hours)" (escaped HTML), or "" when the decision has none.
export function deadlineText(g, fetched, testid = "me-deadline") {
  const end = deadlineAt(g, fetched);
  if (end === null) return "";
  const day = new Date(end).toDateString() === new Date().toDateString();
  const locale = navigator.language && navigator.language.startsWith(lang()) ? navigator.language : lang();
  const when = new Intl.DateTimeFormat(locale, day ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" })
    .format(new Date(end));
  return `<span class="me-deadline" data-testid="${esc(testid)}">${esc(t("web_me", "deadline", { time: `${when} (${relative(end)})` }))}</span>`;
}

// How many of a game's table talk lines (its summary's `activity`) this browser has not shown.
export function unreadLines(g) {
  return Math.max(0, (g.activity?.chat || 0) - store.chatSeen(g.id));
}

// "in 3 hours", "2 days ago", in the page's language.
function relative(ms) {
  const s = (ms - Date.now()) / 1000;
  const fmt = new Intl.RelativeTimeFormat(lang(), { numeric: "auto" });
  const a = Math.abs(s);
  if (a < 45) return fmt.format(0, "second");
  if (a < 3600) return fmt.format(Math.round(s / 60), "minute");
  if (a < 86400) return fmt.format(Math.round(s / 3600), "hour");
  return fmt.format(Math.round(s / 86400), "day");
}

// A seat by its gnomes' colours ("Red / Blue"), as the game page names its gnomes.
function colourNames(seat) {
  return seatColours(seat).map((c) => raw("colours", c)).join(" / ");
}
