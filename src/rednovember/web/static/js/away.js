// An absent player (issue 18): when the seat to move has no connection open, every other page shows
// a banner at its top: who is gone, a countdown to when the seat may go to a bot (`away.handover_in`
// from the server, which also refuses earlier), the server's own deadline under the table's
// `away_bot` setting (`away.bot_in`), and one button that gives the seat to a bot. The countdowns
// start from the server's numbers when each message arrives, never from a guess here. Also the
// chat lines of the server's notes about absent players (chat.js asks `awayLine`).

import { raw, t } from "./i18n.js";
import { attrs, esc } from "./svg.js";
import { formatSeconds } from "./timer.js";
import { playerName } from "./describe.js";

const BOT = "heuristic"; // the bot the banner's button gives the seat to
const NOTES = new Set(["away", "to_bot", "back", "deadline", "renamed"]); // deadline: a turn-based table's (issue 20)

export class AwayBanner {
  constructor(page) {
    this.page = page; // the GamePage
    this.info = null; // the last `away` the server sent (null: nobody to wait for)
    this.handoverAt = 0; // performance.now() when the seat may go to a bot
    this.botAt = null; // performance.now() when the server gives it to a bot by itself
    this.pressed = false;
    this.el = null;
    this.ticker = null;
  }

  // `welcome` (its summary), `state` and `seats` carry `away`.
  onMessage(msg) {
    const away = msg.type === "welcome" ? msg.game?.away
      : msg.type === "state" || msg.type === "seats" ? msg.away : undefined;
    if (away === undefined) return;
    const now = performance.now();
    if (!away || !this.info || away.seat !== this.info.seat) this.pressed = false;
    this.info = away;
    if (away) {
      this.handoverAt = now + away.handover_in * 1000;
      this.botAt = away.bot_in === null || away.bot_in === undefined ? null : now + away.bot_in * 1000;
    }
  }

  mount() {
    const game = this.page.root.querySelector(".game");
    if (!game) return;
    this.el = document.createElement("section");
    this.el.className = "away-banner";
    this.el.dataset.testid = "away-banner";
    this.el.hidden = true;
    this.el.addEventListener("click", (e) => {
      const btn = e.target.closest("[data-away-give]");
      if (!btn || btn.disabled) return;
      this.pressed = true;
      btn.disabled = true;
      this.page.giveToBot(Number(btn.dataset.awayGive), BOT);
    });
    game.prepend(this.el);
  }

  // Called with every GamePage.render().
  render() {
    if (!this.el) this.mount();
    if (!this.el) return;
    const a = this.info;
    const st = this.page.state();
    const show = !!a && (!st || st.status === "playing") && !this.page.heldSeats().includes(a.seat);
    this.el.hidden = !show;
    if (!show) { this.stopTicking(); this.el._key = null; return; }
    const seat = (this.page.summary?.seats || []).find((s) => s.seat === a.seat);
    const colour = seat ? raw("colours", seat.colour) : "";
    const player = a.name || this.page.seatLabel(a.seat);
    const can = (this.page.holdsAny() || this.page.isCreator())
      && this.page.summary?.settings?.pace !== "turn-based"; // (its deadlines decide, §3.10)
    const key = JSON.stringify([a.seat, player, colour, can, this.botAt !== null]);
    if (this.el._key !== key) {
      this.el._key = key;
      this.el.className = `away-banner${seat ? ` c-${seat.colour}` : ""}`;
      this.el.innerHTML = `<div class="away-text">
          <strong role="status" data-testid="away-title">${esc(t("web", "away_title", { player, colour }))}</strong>
          <span role="timer" data-testid="away-countdown"></span>
          <span role="timer" class="away-auto" data-testid="away-auto"></span>
        </div>
        ${can ? `<button type="button" class="btn primary" ${attrs({ "data-away-give": a.seat, "data-testid": "away-give" })}>${esc(raw("web", "away_give"))}</button>` : ""}`;
    }
    this.tick();
    if (!this.ticker) this.ticker = setInterval(() => this.tick(), 250);
  }

  tick() {
    const a = this.info;
    if (!a || !this.el || this.el.hidden) { this.stopTicking(); return; }
    const now = performance.now();
    const wait = (this.handoverAt - now) / 1000;
    const can = !!this.el.querySelector("[data-away-give]");
    const player = a.name || this.page.seatLabel(a.seat);
    const count = !can ? t("web", "away_watch", { player })
      : wait > 0 ? t("web", "away_wait", { time: formatSeconds(wait) }) : t("web", "away_ready", { player });
    setText(this.el.querySelector("[data-testid=away-countdown]"), count);
    const auto = this.botAt === null ? "" : t("web", "away_auto", { time: formatSeconds((this.botAt - now) / 1000) });
    setText(this.el.querySelector("[data-testid=away-auto]"), auto);
    const btn = this.el.querySelector("[data-away-give]");
    if (btn) btn.disabled = wait > 0 || this.pressed;
    this.el.dataset.ready = String(wait <= 0);
  }

  stopTicking() {
    clearInterval(this.ticker);
    this.ticker = null;
  }

  destroy() {
    this.stopTicking();
    this.el?.remove();
    this.el = null;
  }
}

function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}

// The chat line of a server's note about an absent player (kinds in web/hub/away.py), or null.
export function awayLine(page, m) {
  if (!NOTES.has(m.system)) return null;
  const li = document.createElement("li");
  li.dataset.testid = `chat-${m.system}`;
  li.className = "chat-system chat-away";
  // once the game is over nobody can take a seat back: the handover is told in the past
  const over = m.system === "to_bot" && page.summary?.status === "over" ? "_over" : "";
  // a seat given away after its deadlines passed, or its player away, or by a player (talk.py)
  const how = m.system === "to_bot" && m.missed ? "_deadlines" : m.auto ? "_auto" : "";
  const key = `away_chat_${m.system}${how}${over}`;
  // the note's own name (the seat's then): a bot may hold the seat by now
  const text = t("web", key, { player: playerName(m.player, m.for_seat),
    colour: raw("colours", m.colour || ""), bot: m.bot ? raw("bot_levels", m.bot) : "", missed: m.missed || 0,
    old: m.old || "" });
  li.textContent = oneStop(text);
  return li;
}

// A sentence that ends in a name ending in a stop ("… is now called Ada L.") keeps one stop, as
// talk.py's English line does.
export function oneStop(text) {
  return text.replace(/([.!?…])\.$/u, "$1");
}
