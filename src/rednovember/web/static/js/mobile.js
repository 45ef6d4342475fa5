// Phones and tablets: the side column's cards behind tabs (a bottom sheet over the page on a phone
// held upright, a side column on a phone held sideways; app.css decides which, by media
// queries), the sheet's collapse toggle, the board's zoom (pans sideways when zoomed) and scrolling
// the zoomed board to the choices on it. On a desktop the tabs are hidden and nothing here shows.

import { raw, t } from "./i18n.js";
import { trackName } from "./describe.js";
import { attrs, esc } from "./svg.js";
import { markScrollable } from "./scrollkeys.js";

// tab -> the side column's cards it shows
const TABS = [
  ["options", ["result", "reclaim", "actions", "recap"]],
  ["crew", ["crew"]],
  ["log", ["log"]],
  ["chat", ["chat"]],
  ["table", ["seats", "notices", "decks", "legend"]],
];
export const SHEET_QUERY = "(max-width: 700px)";
const SIDEWAYS_QUERY = "(min-width: 701px) and (max-height: 500px)";
const TRACK_TEXT = { asphyxiation: "--t-green", heat: "--t-red", pressure: "--t-blue" };

export class MobileLayout {
  constructor(page) {
    this.page = page; // the GamePage
    this.tab = null; // null: the default for the game's status
    this.open = true; // the sheet shows its tab (false: only the tab bar)
    this.zoom = localStorage.getItem("rn.zoom") !== "fit";
    this.wasTurn = null; // the seat whose turn the page last showed (null: none)
    this.wasOver = null; // null: no state seen yet
    this.shown = null; // the version and seat the board was last scrolled for
    this.chatSeen = null; // chat lines read; the history the game opens with counts as read
    this.root = null;
  }

  mount(root) {
    this.root = root;
    const side = root.querySelector(".col-side");
    for (const [tab, ids] of TABS) {
      for (const id of ids) {
        const card = root.querySelector(`#${id}`);
        if (card) card.dataset.panel = tab;
      }
    }
    const bar = document.createElement("div");
    bar.className = "sheet-bar";
    bar.dataset.testid = "sheet-bar";
    bar.innerHTML = `<div class="sheet-tabs" role="tablist">${TABS.map(([tab]) => `<button type="button" role="tab" ${attrs({
      class: "sheet-tab", "data-sheet-tab": tab, "data-testid": `sheet-tab-${tab}` })}><span class="sheet-tab-label"></span></button>`).join("")}</div>
      <button type="button" class="sheet-toggle" data-sheet-toggle data-testid="sheet-toggle"><span aria-hidden="true"></span></button>`;
    side.prepend(bar);
    const zoom = document.createElement("button");
    zoom.type = "button";
    zoom.className = "board-zoom";
    zoom.dataset.boardZoom = "";
    zoom.dataset.testid = "board-zoom";
    root.querySelector(".board-holder").append(zoom);
    // the disaster tracks on a phone: outside the board, which pans (app.css shows it on phones)
    this.strip = document.createElement("div");
    this.strip.className = "phone-tracks";
    this.strip.dataset.testid = "phone-tracks";
    root.querySelector(".board-holder").before(this.strip);
    this.page.life.listen(root, "click", (e) => this.onClick(e));
    // the board and time track fit under the page's head, however many lines the head takes
    if (window.ResizeObserver) {
      const watch = new ResizeObserver(() => this.fit());
      watch.observe(root.querySelector(".game"));
      this.page.life.onEnd(() => watch.disconnect());
    }
  }

  // Where the board starts (app.css sizes the board and the time track to the height below it).
  fit() {
    const game = this.root?.querySelector(".game");
    const holder = this.root?.querySelector(".board-holder");
    if (!game || !holder) return;
    this.placeStrip();
    const side = this.root.querySelector(".col-side");
    const strip = this.strip.parentElement === side ? `${this.strip.offsetHeight}px` : "0px";
    if (side.style.getPropertyValue("--strip-h") !== strip) side.style.setProperty("--strip-h", strip);
    const top = `${Math.round(holder.getBoundingClientRect().top + window.scrollY)}px`;
    if (game.style.getPropertyValue("--board-top") !== top) game.style.setProperty("--board-top", top);
    // and where the side column starts: on a desktop it ends at the window's foot (app.css)
    const grid = game.querySelector(".game-grid");
    const sideTop = grid ? `${Math.round(grid.getBoundingClientRect().top + window.scrollY)}px` : "";
    if (sideTop && game.style.getPropertyValue("--side-top") !== sideTop) game.style.setProperty("--side-top", sideTop);
    // screen pixels per board unit: app.css sizes the room labels by it (at least 11 px)
    const svg = holder.querySelector(".board-svg");
    const ppu = svg ? (svg.getBoundingClientRect().width / 1000).toFixed(3) : "1";
    if (svg && ppu > 0 && holder.style.getPropertyValue("--ppu") !== ppu) holder.style.setProperty("--ppu", ppu);
    if (svg && (this.isSheet() || window.matchMedia(SIDEWAYS_QUERY).matches)) fitNames(svg);
  }

  // The disaster-track strip: above the board on a phone held upright, atop the side column on a
  // phone held sideways (where the board needs the window's whole height).
  placeStrip() {
    const sideways = window.matchMedia(SIDEWAYS_QUERY).matches;
    const side = this.root.querySelector(".col-side");
    if (sideways && this.strip.parentElement !== side) side.prepend(this.strip);
    else if (!sideways && this.strip.parentElement === side) this.root.querySelector(".board-holder").before(this.strip);
  }

  renderStrip() {
    const model = this.page.model();
    if (!model) { this.strip.innerHTML = ""; this.strip._html = ""; return; }
    const { data, view } = model;
    const html = data.tracks.map((name) => {
      const value = (view.tracks || {})[name] || 1;
      const said = t("ui", "track_value", { value, length: data.track_length });
      const dots = Array.from({ length: data.track_length }, (_, i) => {
        const k = i + 1;
        const cls = `pt-dot${k === value ? " on" : ""}${k >= data.track_length - 2 ? " danger" : ""}`;
        return `<span class="${cls}">${k === value ? k : ""}</span>`;
      }).join("");
      return `<div ${attrs({ class: "pt-row", style: `--tc: var(${TRACK_TEXT[name] || "--text"})`, "data-testid": `phone-track-${name}`,
        "data-value": value, role: "img", "aria-label": `${trackName(model, name)}: ${said}` })}>
        <span class="pt-name" aria-hidden="true">${esc(trackName(model, name))}</span><span class="pt-dots" aria-hidden="true">${dots}</span>
        <span class="pt-val" aria-hidden="true">${esc(said)}</span></div>`;
    }).join("");
    if (this.strip._html !== html) { this.strip.innerHTML = html; this.strip._html = html; }
  }

  onClick(e) {
    const el = e.target.closest("[data-sheet-tab],[data-sheet-toggle],[data-board-zoom]");
    if (!el || !this.root.contains(el)) return;
    if (el.dataset.sheetTab !== undefined) {
      const tab = el.dataset.sheetTab;
      // a tap on the open tab folds the sheet away (on a phone held upright), on another opens it
      if (tab === this.current() && this.open && this.isSheet()) this.open = false;
      else { this.tab = tab; this.open = true; }
    } else if (el.dataset.sheetToggle !== undefined) {
      this.open = !this.open;
    } else {
      this.zoom = !this.zoom;
      localStorage.setItem("rn.zoom", this.zoom ? "zoom" : "fit");
      this.shown = null;
    }
    this.render();
    if (el.dataset.sheetTab !== undefined) {
      const side = this.root.querySelector(".col-side");
      side.scrollTop = 0;
      const log = side.querySelector(".log-list");  // drawn while hidden: show its newest lines
      if (log && el.dataset.sheetTab === "log") log.scrollTop = log.scrollHeight;
    }
  }

  isSheet() { return window.matchMedia(SHEET_QUERY).matches; }

  current() {
    if (this.tab) return this.tab;
    const st = this.page.state();
    return !st || st.status === "waiting" ? "table" : "options";
  }

  // Called at the end of every GamePage.render().
  render() {
    if (!this.root) return;
    const st = this.page.state();
    const turn = !!(st && st.your_turn);
    const over = !!(st && st.view.result);
    // our choice (a seat's turn begins; in hot-seat, the next held seat's), or the game's end:
    // show it. A page without a state for a moment (it said hello again: a seat went to a bot)
    // has no new turn for it.
    const turnOf = turn ? st.seat : null;
    if ((turn && turnOf !== this.wasTurn) || (over && this.wasOver === false)) { this.tab = "options"; this.open = true; }
    if (st) { this.wasTurn = turnOf; this.wasOver = over; }
    const tab = this.current();
    const chat = this.page.chat.messages.length;
    if ((tab === "chat" && this.open) || (st && this.chatSeen === null)) this.chatSeen = chat;
    this.page.chat.noteSeen();
    const side = this.root.querySelector(".col-side");
    side.dataset.tab = tab;
    side.classList.toggle("collapsed", !this.open);
    this.root.querySelector(".game").classList.toggle("sheet-open", this.open);
    for (const btn of side.querySelectorAll("[data-sheet-tab]")) {
      const name = btn.dataset.sheetTab;
      const on = name === tab;
      btn.classList.toggle("current", on);
      btn.setAttribute("aria-selected", String(on));
      btn.classList.toggle("ready", name === "options" && turn && !(on && this.open));
      btn.classList.toggle("unread", name === "chat" && chat > (this.chatSeen ?? chat) && !(on && this.open));
      btn.querySelector(".sheet-tab-label").textContent = raw("web_mobile", `tab_${name}`);
    }
    side.querySelector(".sheet-tabs").setAttribute("aria-label", raw("web_mobile", "panels"));
    const toggle = side.querySelector("[data-sheet-toggle]");
    toggle.setAttribute("aria-expanded", String(this.open));
    toggle.setAttribute("aria-label", raw("web_mobile", this.open ? "sheet_collapse" : "sheet_expand"));
    toggle.title = toggle.getAttribute("aria-label");
    const holder = this.root.querySelector(".board-holder");
    holder.classList.toggle("zoomed", this.zoom);
    const zoom = holder.querySelector("[data-board-zoom]");
    zoom.innerHTML = `<span aria-hidden="true">${this.zoom ? "⤡" : "⤢"}</span><span class="sr-only">${esc(raw("web_mobile", this.zoom ? "zoom_fit" : "zoom_in"))}</span>`;
    zoom.title = raw("web_mobile", this.zoom ? "zoom_fit" : "zoom_in");
    zoom.setAttribute("aria-pressed", String(this.zoom));
    this.renderStrip();
    this.fit();
    const key = st ? `${st.version}:${st.seat}` : null;
    if (key !== this.shown) { this.shown = key; this.scrollBoard(); }
    markScrollable(this.root);
  }

  // A zoomed board wider than the screen: bring the choices on it (else the gnome whose turn it
  // is) into view; likewise the time track at the keeper whose turn it is.
  scrollBoard() {
    centre(this.root.querySelector("#board"), [".target", ".gnome.active"]);
    centre(this.root.querySelector("#track"), this.keepers());
  }

  // What the time track shows first: on our turn our keeper and its ghost; else our own keepers
  // (the one who moves only for a spectator).
  keepers() {
    const st = this.page.state();
    const mine = st && st.seat !== null && st.seat !== undefined
      ? st.view.gnomes.filter((g) => g.player === st.seat).map((g) => `[data-testid="keeper-${g.number}"]`) : [];
    if (!mine.length) return [".keeper.active, .ghost"];
    return st.your_turn ? [[...mine, ".ghost"].join(", ")] : [mine.join(", ")];
  }
}

// A room name enlarged for a phone that runs past its room is narrowed to the room's width.
function fitNames(svg) {
  for (const el of svg.querySelectorAll(".room-name[data-fit]")) {
    if (!el.getClientRects().length) continue;  // hidden (the board shown whole shows numbers)
    const room = Number(el.dataset.fit);
    el.removeAttribute("textLength");
    if (el.getComputedTextLength() > room) {
      el.setAttribute("textLength", String(room));
      el.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
}

// Scrolls a box that pans sideways so that the elements of the first selector that has any are
// in the middle (the lesson and replay pages use it for their time track too).
export function centre(wrap, selectors) {
  if (!wrap || wrap.scrollWidth <= wrap.clientWidth + 1) return;
  let els = [];
  for (const sel of selectors) if (!els.length) els = [...wrap.querySelectorAll(sel)];
  if (!els.length) return;
  const box = wrap.getBoundingClientRect();
  const rects = els.map((el) => el.getBoundingClientRect());
  const left = Math.min(...rects.map((r) => r.left)), right = Math.max(...rects.map((r) => r.right));
  const mid = (left + right) / 2 - box.left + wrap.scrollLeft;
  wrap.scrollLeft = Math.max(0, Math.min(wrap.scrollWidth - wrap.clientWidth, mid - wrap.clientWidth / 2));
}
