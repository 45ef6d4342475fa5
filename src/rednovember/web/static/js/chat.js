// Table talk: the game's chat, shown with each writer's seat name and colour. Messages are text,
// never HTML (textContent only). Seated players write as the seat they look through, a player
// whose seat a bot plays as that seat (under their own name, which the server knows); spectators
// read. The server keeps the last messages with the game and sends them on connecting; pings and
// undo lines come in the same history (pings.js says them in the page's language).

import { raw, t } from "./i18n.js";
import { foldedUndoLine, talkLine } from "./pings.js";
import { timeoutLine } from "./timer.js";
import { awayLine } from "./away.js";
import { store } from "./net.js";
import { playerName, seatTitle } from "./describe.js";

const MAX = 300;

export class ChatPanel {
  constructor(page) {
    this.page = page; // the GamePage: its socket, seats held and the seat looked through
    this.messages = [];
    this.unread = 0;
    this.el = null;
  }

  mount(el) {
    this.el = el;
    el.innerHTML = `<h3 class="chat-title"></h3>
      <ol class="chat-list" data-testid="chat-list" aria-live="polite"></ol>
      <form class="chat-form" data-testid="chat-form">
        <input id="chat-text" type="text" maxlength="${MAX}" autocomplete="off" data-testid="chat-input">
        <button type="submit" class="btn small" data-testid="chat-send"></button>
      </form>
      <p class="muted chat-readonly" data-testid="chat-readonly" hidden></p>`;
    el.querySelector("form").addEventListener("submit", (e) => { e.preventDefault(); this.send(); });
    this.render();
  }

  setHistory(list) { this.messages = [...(list || [])]; this.render(); }

  add(msg) {
    if (this.messages.some((m) => m.idx === msg.idx)) return;
    this.messages.push(msg);
    if (this.messages.length > 200) this.messages.shift();
    this.render();
  }

  // The lines shown count as read for My games (mygames.js): only while the chat is on screen
  // (on a phone, while its tab is open). Called by mobile.js after every render of the page.
  noteSeen() {
    if (!this.el || !this.messages.length) return;
    const shown = this.el.checkVisibility ? this.el.checkVisibility() : this.el.offsetParent !== null;
    if (shown) store.markChatSeen(this.page.id, Math.max(-1, ...this.messages.map((m) => m.idx).filter(Number.isInteger)) + 1);
  }

  // The seat this page writes as: the one looked through, else one a bot plays for its player.
  seat() {
    if (typeof this.page.current === "number") return this.page.current;
    return this.page.reclaimable.length ? this.page.reclaimable[0] : null;
  }

  // How the input names the writer: the seat's name; for the seat a bot plays for this player,
  // the player's name (the server writes the line under it), else the seat's colour.
  writer(seat) {
    if (seat === this.page.current) return this.page.seatLabel(seat);
    const s = (this.page.summary?.seats || []).find((x) => x.seat === seat);
    if (s && s.owner) return s.owner;
    return s ? seatTitle(s) : playerName(null, seat);
  }

  send() {
    const input = this.el.querySelector("#chat-text");
    const text = input.value.trim();
    const seat = this.seat();
    if (!text || typeof seat !== "number") return;
    if (this.page.socket.send({ type: "chat", seat, text })) input.value = "";
  }

  render() {
    if (!this.el) return;
    const seat = this.seat();
    const seated = typeof seat === "number";
    const form = this.el.querySelector("form");
    const input = this.el.querySelector("#chat-text");
    form.hidden = !seated;
    const readonly = this.el.querySelector("[data-testid=chat-readonly]");
    readonly.hidden = seated;
    readonly.textContent = raw("web", "chat_spectator");
    this.el.querySelector(".chat-title").textContent = raw("web", "chat_title");
    this.el.querySelector("[data-testid=chat-send]").textContent = raw("web", "chat_send");
    input.placeholder = seated ? t("web", "chat_as", { name: this.writer(seat) }) : "";
    input.setAttribute("aria-label", input.placeholder || raw("web", "chat_title"));
    const list = this.el.querySelector(".chat-list");
    list.replaceChildren(...foldUndos(this.messages).map((run) => (run.length > 1
      ? foldedUndoLine(this.page, run, this.who(run[0])) : this.line(run[0]))));
    list.scrollTop = list.scrollHeight;
  }

  who(m) {
    const seat = (this.page.summary?.seats || []).find((s) => s.seat === m.seat);
    const who = document.createElement("strong");
    who.className = "chat-who";
    who.style.color = seat ? `var(--t-${seat.colour})` : "";  // readable on the card
    who.textContent = playerName(m.name, m.seat);
    return who;
  }

  line(m) {
    if (m.system === "timeout") return timeoutLine(this.page, m);
    if (m.system) return awayLine(this.page, m) || document.createElement("li");
    const li = document.createElement("li");
    li.dataset.testid = "chat-message";
    const who = this.who(m);
    const said = talkLine(this.page, m, who); // a ping or an undo line (pings.js)
    if (said) return said;
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = m.text; // never as HTML
    li.append(who, document.createTextNode(": "), text);
    return li;
  }
}

// Consecutive undo lines of one seat (opening a hatch and taking it back, again and again) are
// shown as one line; every other line stands alone. Folded when drawn, from the stored history,
// so a reload and every server process show the same.
export function foldUndos(messages) {
  const runs = [];
  for (const m of messages) {
    const last = runs[runs.length - 1];
    if (m.kind === "undo" && last && last[0].kind === "undo" && last[0].seat === m.seat) last.push(m);
    else runs.push([m]);
  }
  return runs;
}
