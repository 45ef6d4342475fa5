// Pings: a seated player marks a room, hatch, time-track space or destruction token for everyone
// ("I'll go here", "help", "danger"). The board's own click acts, so a ping has its own gesture: the
// Ping button (a mode: then click or tap a target) or right-click / long-press on a target; a small
// menu picks the kind. Every connected page shows a marker in the seat's colour for a few seconds;
// the server keeps the chat line (chat.js shows it through `talkLine`). Also the undo lines.
// Player names are text, never HTML (textContent / esc()).

import { raw, t } from "./i18n.js";
import { describeEntry, roomName, SEA, tokenName } from "./describe.js";
import { hatchKey } from "./board.js";
import { esc } from "./svg.js";
import { toast } from "./ui.js";

export const WHATS = ["go", "help", "danger"];
const SHOW_MS = 6000; // how long a marker stays on the board
const LONG_PRESS_MS = 550;
const TARGETS = "[data-room], g.hatch[data-testid], [data-testid^='space-'], g.token[data-testid]";

// --- targets ---------------------------------------------------------------------------------
// The ping target an element of the board or time track stands for, or null.
export function targetOf(el, data) {
  const node = el && el.closest ? el.closest(TARGETS) : null;
  if (!node) return null;
  const id = node.dataset.testid || "";
  if (node.dataset.room !== undefined) return { kind: "room", id: Number(node.dataset.room) };
  if (id.startsWith("hatch-")) {
    const key = id.slice(6);
    const index = data.hatches.findIndex(([a, b]) => hatchKey(a, b) === key);
    return index < 0 ? null : { kind: "hatch", id: index };
  }
  if (id.startsWith("space-")) return { kind: "space", id: Number(id.slice(6)) };
  if (id.startsWith("token-")) return { kind: "token", id: id.slice(6) };
  return null;
}

// The first target under a point (a gnome, keeper or flame lies over its room or space).
function targetAt(x, y, data, root) {
  for (const el of document.elementsFromPoint(x, y)) {
    if (!root.contains(el)) continue;
    const tg = targetOf(el, data);
    if (tg) return tg;
  }
  return null;
}

function targetTestId(target, data) {
  switch (target.kind) {
    case "room": return target.id === SEA ? "room-sea" : `room-${target.id}`;
    case "hatch": {
      const h = data.hatches[target.id];
      return h ? `hatch-${hatchKey(h[0], h[1])}` : null;
    }
    case "space": return `space-${target.id}`;
    case "token": return `token-${target.id}`;
    default: return null;
  }
}

export function targetName(ctx, target) {
  const { data } = ctx;
  switch (target.kind) {
    case "room": return roomName(ctx, target.id);
    case "hatch": {
      const [a, b] = data.hatches[target.id] || [0, 0];
      if (a === SEA || b === SEA) return t("web", "hatch_exterior", { room: roomName(ctx, a === SEA ? b : a) });
      return t("web", "hatch_between", { a: roomName(ctx, a), b: roomName(ctx, b) });
    }
    case "space": return t("web_talk", "target_space", { space: target.id });
    case "token": return t("web_talk", "target_token", { token: tokenName(ctx, target.id) });
    default: return "";
  }
}

// "I'll go here — room 1 Engine Room" in the page's language.
export function pingLine(ctx, target, what) {
  return t("web_talk", `line_${WHATS.includes(what) ? what : "go"}`, { target: targetName(ctx, target) });
}

// An icon per kind, drawn (no emoji font needed), in the seat's colour.
export function pingIcon(what, colour = "currentColor", size = 26) {
  const stroke = `stroke="#fff" stroke-width="2" stroke-linejoin="round"`;
  const shape = what === "danger"
    ? `<path d="M12,1.5 L23,21.5 L1,21.5 Z" fill="${colour}" ${stroke}/><rect x="10.8" y="7.5" width="2.4" height="8" rx="1.1" fill="#fff"/><circle cx="12" cy="18.2" r="1.4" fill="#fff"/>`
    : what === "help"
      ? `<circle cx="12" cy="12" r="10.5" fill="${colour}" ${stroke}/><path d="M8.9,9.3 A3.2,3.2 0 1 1 13.4,12.2 C12.4,12.8 12,13.3 12,14.6" fill="none" stroke="#fff" stroke-width="2.3" stroke-linecap="round"/><circle cx="12" cy="18" r="1.45" fill="#fff"/>`
      : `<path d="M12,23 C12,23 3,14 3,9 A9,9 0 0 1 21,9 C21,14 12,23 12,23 Z" fill="${colour}" ${stroke}/><circle cx="12" cy="9" r="3.4" fill="#fff"/>`;
  return `<svg viewBox="0 0 24 24" width="${size}" height="${size}" aria-hidden="true" class="ping-icon">${shape}</svg>`;
}

// A chat line that no player typed (chat.js): a ping or an undo line, or null for a message.
export function talkLine(page, m, who) {
  if (m.kind !== "ping" && m.kind !== "undo") return null;
  const ctx = page.model() || (page.data ? { data: page.data, view: { gnomes: [] }, config: { variants: [] } } : null);
  const li = document.createElement("li");
  li.dataset.testid = "chat-message";
  li.dataset.kind = m.kind;
  li.className = `chat-${m.kind}`;
  const text = document.createElement("span");
  text.className = "chat-text";
  if (m.kind === "ping") {
    const valid = ctx && m.target && typeof m.target === "object";
    const seat = (page.summary?.seats || []).find((s) => s.seat === m.seat);
    const icon = document.createElement("span");
    icon.className = "chat-ping-icon";
    icon.innerHTML = pingIcon(m.what, seat ? `var(--c-${seat.colour})` : "#888", 16);
    text.textContent = valid ? pingLine(ctx, m.target, m.what) : m.text; // never as HTML
    li.append(who, document.createTextNode(": "), icon, text);
    if (valid && page.pings) {
      const again = document.createElement("button");
      again.type = "button";
      again.className = "chat-ping-again";
      again.dataset.testid = "ping-again";
      again.title = raw("web_talk", "show_again");
      again.setAttribute("aria-label", raw("web_talk", "show_again"));
      again.innerHTML = pingIcon("go", "#6b7785", 14);
      again.addEventListener("click", () => page.pings.show({ ...m, again: true }));
      li.append(again);
    }
    return li;
  }
  const entries = Array.isArray(m.log) ? m.log : [];
  const said = undoSaid(ctx, m);
  if (said) text.textContent = t("web_talk", "took_back", { action: said });
  else if (!entries.length) text.textContent = raw("web_talk", "took_back_nothing");
  else text.textContent = m.text;
  li.append(who, document.createTextNode(" "), text);
  return li;
}

// What an undo line took back, in the page's language ("" when it cannot be said).
function undoSaid(ctx, m) {
  const entries = Array.isArray(m.log) ? m.log : [];
  return ctx && ctx.view && ctx.view.gnomes.length && entries.length
    ? entries.map((e) => describeEntry(ctx, e)).join(" ") : "";
}

// Several undo lines of one seat in a row (chat.js folds them): one line with their number and
// the last one; every one of them in its tooltip.
export function foldedUndoLine(page, run, who) {
  const ctx = page.model() || (page.data ? { data: page.data, view: { gnomes: [] }, config: { variants: [] } } : null);
  const li = document.createElement("li");
  li.dataset.testid = "chat-message";
  li.dataset.kind = "undo";
  li.dataset.count = String(run.length);
  li.className = "chat-undo";
  const said = run.map((m) => undoSaid(ctx, m) || m.text);
  const last = undoSaid(ctx, run[run.length - 1]);
  const text = document.createElement("span");
  text.className = "chat-text";
  text.textContent = last ? t("web_talk", "took_back_many", { count: run.length, action: last })
    : t("web_talk", "took_back_many_nothing", { count: run.length });
  li.title = said.join("\n");
  li.append(who, document.createTextNode(" "), text);
  return li;
}

// --- the gesture, the menu and the markers ----------------------------------------------------
export class Pings {
  constructor(page) {
    this.page = page; // the GamePage: socket, seats, data, summary
    this.mode = false;
    this.markers = []; // {seat, target, what, name, el, timer}
    this.menuFor = null; // the target the open menu is for
    this.press = null; // a long press under way
    this.swallowClick = false;
    this.col = null;
  }

  seated() { return typeof this.page.current === "number"; }

  mount(col) {
    this.col = col;
    col.classList.add("ping-host");
    this.bar = document.createElement("div");
    this.bar.className = "ping-bar";
    this.bar.innerHTML = `<span class="ping-hint" data-testid="ping-hint" role="status" aria-live="polite"></span>
      <button type="button" class="btn small ping-toggle" data-testid="ping-button" aria-pressed="false"></button>`;
    // over the board's lower right corner (open sea): a row of its own would push the time track
    // out of the window (the board and the track are sized to fit it)
    col.querySelector(".board-holder").append(this.bar);
    this.layer = document.createElement("div");
    this.layer.className = "ping-layer";
    this.layer.dataset.testid = "ping-layer";
    col.append(this.layer);
    this.menu = document.createElement("div");
    this.menu.className = "ping-menu";
    this.menu.dataset.testid = "ping-menu";
    this.menu.setAttribute("role", "menu");
    this.menu.hidden = true;
    col.append(this.menu);
    this.bar.querySelector("button").addEventListener("click", () => this.setMode(!this.mode));
    this.menu.addEventListener("click", (e) => this.onMenuClick(e));
    this.menu.addEventListener("keydown", (e) => this.onMenuKey(e));
    col.addEventListener("click", (e) => this.onClick(e), true);
    col.addEventListener("keydown", (e) => this.onKey(e), true);
    col.addEventListener("contextmenu", (e) => this.onContextMenu(e));
    col.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) col.addEventListener(type, () => this.cancelPress());
    col.addEventListener("pointermove", (e) => {
      if (this.press && Math.hypot(e.clientX - this.press.x, e.clientY - this.press.y) > 10) this.cancelPress();
    });
    this.onResize = () => this.place();
    this.page.life.listen(window, "resize", this.onResize);
    this.onDocDown = (e) => { if (!this.menu.hidden && !this.menu.contains(e.target)) this.closeMenu(); };
    this.page.life.listen(document, "pointerdown", this.onDocDown, true);
    // the toasts keep clear of the button: it moves with the board (zoomed, the window resized)
    // and widens with its text ("✕ Cancel")
    if (window.ResizeObserver) {
      const watch = new ResizeObserver(() => this.clearToasts());
      watch.observe(col.querySelector(".board-holder"));
      watch.observe(this.bar.querySelector("button"));
      this.page.life.onEnd(() => watch.disconnect());
    }
    this.render();
  }

  destroy() {
    window.removeEventListener("resize", this.onResize);
    document.removeEventListener("pointerdown", this.onDocDown, true);
    document.getElementById("toasts")?.style.removeProperty("--ping-lane");
    for (const m of this.markers) clearTimeout(m.timer);
  }

  // After every page render: the button (seated players only), texts, focusable targets, markers.
  render() {
    if (!this.col) return;
    const seated = this.seated() && !!this.page.state();
    if (!seated && this.mode) this.setMode(false);
    this.bar.hidden = !seated;
    const btn = this.bar.querySelector("button");
    btn.innerHTML = this.mode ? `✕ ${esc(raw("web_talk", "cancel"))}` : `${pingIcon("go", "currentColor", 16)}<span class="ping-label">${esc(raw("web_talk", "ping"))}</span>`;
    btn.title = raw("web_talk", "ping_help");
    btn.setAttribute("aria-label", this.mode ? raw("web_talk", "cancel") : raw("web_talk", "ping_help"));
    this.bar.querySelector(".ping-hint").textContent = this.mode ? raw("web_talk", "ping_hint") : "";
    if (this.mode) this.makeFocusable();
    this.place();
    this.clearToasts();
  }

  // The toasts (ui.js, at the window's foot) end left of the button, however far the page is
  // scrolled: on a phone it sticks above the sheet's tabs, where they show, and lay over it.
  // --ping-lane (app.css): from the button's left edge to the window's right one, and a gap.
  clearToasts() {
    const toasts = document.getElementById("toasts");
    if (!toasts || !this.bar) return;
    const r = this.bar.querySelector("button").getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    if (this.bar.hidden || !r.width || r.left >= width || r.right <= 0) toasts.style.removeProperty("--ping-lane");
    else toasts.style.setProperty("--ping-lane", `${Math.ceil(width - r.left + 8)}px`);
  }

  setMode(on) {
    this.mode = on && this.seated();
    this.col.classList.toggle("ping-mode", this.mode);
    this.bar.querySelector("button").setAttribute("aria-pressed", String(this.mode));
    if (!this.mode) {
      for (const el of this.col.querySelectorAll("[data-ping-tab]")) { el.removeAttribute("tabindex"); el.removeAttribute("data-ping-tab"); }
      this.closeMenu();
    }
    this.render();
  }

  // In ping mode every target can be reached with the keyboard (Enter opens the menu).
  makeFocusable() {
    for (const el of this.col.querySelectorAll(TARGETS)) {
      if (el.closest(".ping-layer, .ping-menu") || el.hasAttribute("tabindex")) continue;
      el.setAttribute("tabindex", "0");
      el.dataset.pingTab = "";
    }
  }

  mine(el) { return el && (this.bar.contains(el) || this.menu.contains(el)); }

  onClick(e) {
    if (this.mine(e.target)) return;
    if (this.swallowClick) { // the click that ends a long press
      this.swallowClick = false;
      e.preventDefault(); e.stopPropagation();
      return;
    }
    if (!this.mode) return;
    e.preventDefault(); e.stopPropagation(); // in ping mode the board does not act
    const target = targetAt(e.clientX, e.clientY, this.page.data, this.col) || targetOf(e.target, this.page.data);
    if (target) this.openMenu(target, e.clientX, e.clientY);
  }

  onKey(e) {
    if (e.key === "Escape" && (this.mode || !this.menu.hidden)) {
      if (!this.menu.hidden) this.closeMenu(); else this.setMode(false);
      e.stopPropagation();
      return;
    }
    if (!this.mode || this.mine(e.target) || (e.key !== "Enter" && e.key !== " ")) return;
    const target = targetOf(e.target, this.page.data);
    if (!target) return;
    e.preventDefault(); e.stopPropagation();
    const r = e.target.getBoundingClientRect();
    this.openMenu(target, r.left + r.width / 2, r.top + r.height / 2);
  }

  onContextMenu(e) {
    if (!this.seated() || this.mine(e.target)) return;
    const target = targetOf(e.target, this.page.data) || targetAt(e.clientX, e.clientY, this.page.data, this.col);
    if (!target) return;
    e.preventDefault();
    if (this.press) this.cancelPress();
    if (!this.menu.hidden && this.menuFor && sameTarget(this.menuFor, target)) return; // the long press opened it
    this.openMenu(target, e.clientX, e.clientY);
  }

  onPointerDown(e) {
    if (e.pointerType === "mouse" || !this.seated() || this.mine(e.target)) return;
    const target = targetOf(e.target, this.page.data);
    if (!target) return;
    this.cancelPress();
    const { clientX: x, clientY: y } = e;
    this.press = { x, y, timer: setTimeout(() => {
      this.press = null;
      this.swallowClick = true;
      setTimeout(() => { this.swallowClick = false; }, 800);
      this.openMenu(target, x, y);
    }, LONG_PRESS_MS) };
  }

  cancelPress() {
    if (!this.press) return;
    clearTimeout(this.press.timer);
    this.press = null;
  }

  // The top of a phone's sheet of tabs (fixed at the window's foot, over the board), or Infinity.
  sheetTop() {
    const side = document.querySelector(".col-side");
    if (!side || getComputedStyle(side).position !== "fixed") return Infinity;
    return side.getBoundingClientRect().top;
  }

  openMenu(target, x, y) {
    const ctx = this.page.model();
    if (!ctx || !this.seated()) return;
    this.menuFor = target;
    const title = t("web_talk", "menu_title", { target: targetName(ctx, target) });
    const seat = (this.page.summary?.seats || []).find((s) => s.seat === this.page.current);
    const colour = seat ? `var(--c-${seat.colour})` : "#888";
    this.menu.innerHTML = `<p class="ping-menu-title">${esc(title)}</p>`
      + WHATS.map((w) => `<button type="button" role="menuitem" class="ping-choice ping-${w}" data-what="${w}" data-testid="ping-${w}">${pingIcon(w, colour, 20)}<span>${esc(raw("web_talk", `what_${w}`))}</span></button>`).join("")
      + `<button type="button" class="ping-close" data-close aria-label="${esc(raw("web_talk", "cancel"))}" data-testid="ping-cancel">✕</button>`;
    this.menu.setAttribute("aria-label", title);
    this.menu.hidden = false;
    const box = this.col.getBoundingClientRect();
    const w = this.menu.offsetWidth, h = this.menu.offsetHeight;
    let left = x - box.left + 8, top = y - box.top + 8;
    left = Math.max(4, Math.min(left, box.width - w - 4));
    // below the press if it fits above whatever covers the column's foot: the window's edge, or
    // a phone's sheet of tabs (fixed over the board); else above the press (audit, stop 64)
    const floor = Math.min(box.bottom, window.innerHeight, this.sheetTop()) - box.top;
    if (top + h > floor - 4) top = Math.max(4, Math.max(0, -box.top) + 4, y - box.top - h - 8);
    this.menu.style.left = `${left}px`;
    this.menu.style.top = `${top}px`;
    this.menu.querySelector("button").focus({ preventScroll: true });
  }

  closeMenu() {
    this.menu.hidden = true;
    this.menuFor = null;
  }

  onMenuClick(e) {
    const btn = e.target.closest("button");
    if (!btn) return;
    if (btn.dataset.close !== undefined) { this.closeMenu(); return; }
    const what = btn.dataset.what;
    const target = this.menuFor;
    this.closeMenu();
    if (this.mode) this.setMode(false);
    if (target && WHATS.includes(what)) this.send(target, what);
  }

  onMenuKey(e) {
    const items = [...this.menu.querySelectorAll("button")];
    const i = items.indexOf(document.activeElement);
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      items[(i + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length].focus();
    }
  }

  send(target, what) {
    const seat = this.page.current;
    if (typeof seat !== "number") return;
    const status = this.page.status;
    if (!this.page.socket.send({ type: "ping", seat, target, what })) toast(() => raw("web", `conn_${status}`), "error");
  }

  // A ping from the server (or a chat line's "show again"): a marker for a few seconds.
  show(p) {
    if (!this.col || !p || !p.target) return;
    const seat = (this.page.summary?.seats || []).find((s) => s.seat === p.seat);
    const ctx = this.page.model();
    for (const old of this.markers.filter((m) => m.seat === p.seat)) this.drop(old);
    const el = document.createElement("div");
    el.className = `ping-marker ping-${WHATS.includes(p.what) ? p.what : "go"}`;
    el.dataset.testid = "ping-marker";
    el.dataset.target = `${p.target.kind}-${p.target.id}`;
    el.dataset.seat = String(p.seat);
    el.style.setProperty("--ping-colour", seat ? `var(--c-${seat.colour})` : "#888");
    const who = p.name || this.page.seatLabel(p.seat);
    const line = ctx ? pingLine(ctx, p.target, p.what) : p.text || "";
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", t("web_talk", "marker", { who, line }));
    el.innerHTML = `<span class="ping-ring"></span><span class="ping-ring two"></span>${pingIcon(p.what, "var(--ping-colour)", 30)}<span class="ping-label"></span>`;
    el.querySelector(".ping-label").textContent = `${who}: ${raw("web_talk", `what_${WHATS.includes(p.what) ? p.what : "go"}`)}`;
    const marker = { seat: p.seat, target: p.target, el, timer: 0 };
    marker.timer = setTimeout(() => this.drop(marker), SHOW_MS);
    this.markers.push(marker);
    this.layer.append(el);
    this.place();
    // another player's ping out of sight (a phone's zoomed board panned elsewhere, the page
    // scrolled): the marker alone would go unseen, so it is said at the foot of the window too
    if (!this.page.heldSeats().includes(p.seat) && !this.inSight(p.target)) {
      toast(() => `${p.name || this.page.seatLabel(p.seat)}: ${this.page.model() ? pingLine(this.page.model(), p.target, p.what) : p.text || ""}`,
        "info", SHOW_MS);
    }
  }

  // Whether a target's middle shows: inside its board's or track's visible part and the window.
  inSight(target) {
    const id = targetTestId(target, this.page.data);
    const el = id ? this.col.querySelector(`[data-testid="${CSS.escape(id)}"]`) : null;
    const r = el?.getBoundingClientRect();
    if (!r || !r.width) return false;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const clip = el.closest(".board-wrap, .track-wrap")?.getBoundingClientRect();
    const inside = (b) => x >= b.left && x <= b.right && y >= b.top && y <= b.bottom;
    return inside({ left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight })
      && (!clip || inside(clip));
  }

  drop(marker) {
    clearTimeout(marker.timer);
    this.markers = this.markers.filter((m) => m !== marker);
    marker.el.classList.add("leaving");
    setTimeout(() => marker.el.remove(), 400);
  }

  // Puts every marker on its target as the board and track are drawn now (they re-render and resize).
  place() {
    if (!this.col || !this.markers.length) return;
    const box = this.col.getBoundingClientRect();
    for (const m of this.markers) {
      const id = targetTestId(m.target, this.page.data);
      const el = id ? this.col.querySelector(`[data-testid="${CSS.escape(id)}"]`) : null;
      const r = el ? el.getBoundingClientRect() : null;
      m.el.hidden = !r || !r.width;
      if (!r) continue;
      // a room or the Sea: a little below its middle (clear of its name); a hatch, space, token: its centre
      const roomish = m.target.kind === "room";
      m.el.style.left = `${r.left - box.left + r.width / 2}px`;
      m.el.style.top = `${r.top - box.top + (roomish ? r.height * 0.6 : r.height / 2)}px`;
    }
  }
}

function sameTarget(a, b) { return a.kind === b.kind && a.id === b.id; }
