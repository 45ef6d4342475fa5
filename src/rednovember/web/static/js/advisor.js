// The advisor (issue 10): the "Hint" button beside the options of the seat to move, the request
// `hint` {seat} over the WebSocket, the progress while the server thinks, and the three plans it
// answers (to this connection alone) with their win chance and why. A click on a plan shows its
// route on the board. The end screen's note says whether hints were used, and by which seats.
// docs/protocol.md: "hint".

import { lang, raw, t } from "./i18n.js";
import { api } from "./net.js";
import { errorText } from "./ui.js";
import { actionText, gnomeName, itemName, join, roomName, roomShort, seatTitle, tokenName, trackName } from "./describe.js";
import { centre } from "./mobile.js";
import { attrs, esc } from "./svg.js";

const pct = (x) => Math.round(100 * x);

export class Advisor {
  constructor(page) {
    this.page = page; // the GamePage
    this.req = null; // {id, seat, version, turn, progress}: the hint under way
    this.answer = null; // the last "done" hint: {seat, version, turn, plans, ...}
    this.error = null; // the text of the last refusal
    this.picked = -1; // the plan whose route the board shows
  }

  mount(root) {
    this.root = root;
    const life = this.page.life;
    life.listen(root, "click", (e) => {
      const el = e.target.closest("[data-hint],[data-hint-plan],[data-hint-close]");
      if (!el || !root.contains(el)) return;
      if (el.dataset.hint !== undefined) this.ask();
      else if (el.dataset.hintClose !== undefined) this.clear();
      else this.pick(Number(el.dataset.hintPlan));
    });
    life.listen(root, "keydown", (e) => {
      const el = e.target.closest("[data-hint-plan]");
      if (el && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); this.pick(Number(el.dataset.hintPlan)); }
    });
  }

  enabled() { return this.page.summary?.settings?.hints !== false; }

  // Whether it is the turn of the gnome of the seat we look through (its own decisions).
  ownTurn(st, model) {
    if (!this.enabled() || !st || st.seat === null || st.seat === undefined) return false;
    const v = model.view;
    return !!st.your_turn && st.status === "playing" && !model.over && v.decider === v.active;
  }

  // Whether it may ask now: at the turn's moves, a hatch just opened included.
  canAsk(st, model) {
    return this.ownTurn(st, model) && ["move", "opened"].includes(model.view.phase);
  }

  // The button, in the head of the options (game.js renderActionsOnly): there for the whole turn,
  // greyed once the action is made (nothing left to advise), saying why.
  button(st, model) {
    if (!this.ownTurn(st, model)) return "";
    const can = this.canAsk(st, model);
    const busy = !!this.req;
    return `<button type="button" class="btn small hint-button" data-hint data-testid="hint-button" ${busy ? "aria-busy=\"true\"" : ""} ${busy || !can ? "disabled" : ""}
      title="${esc(raw("advisor", can ? "button_title" : "after_action"))}"><span class="hint-icon" aria-hidden="true">?</span>${esc(raw("advisor", "button"))}</button>`;
  }

  ask() {
    const st = this.page.state();
    const model = this.page.model();
    if (this.req || !st || !model || !this.canAsk(st, model)) return;
    const id = this.page.socket.send({ type: "hint", seat: st.seat });
    if (!id) { this.error = raw("web", "conn_closed"); this.page.render(); return; }
    this.req = { id, seat: st.seat, version: st.version, turn: model.view.turn, progress: 0 };
    this.answer = null;
    this.error = null;
    this.picked = -1;
    this.page.render();
  }

  clear() {
    this.answer = null;
    this.error = null;
    this.picked = -1;
    this.page.render();
  }

  pick(i) {
    this.picked = this.picked === i ? -1 : i;
    this.page.render();
  }

  onMessage(msg) {
    if (!this.req || msg.id !== this.req.id) return;
    if (msg.status === "thinking") {
      this.req.progress = msg.progress || 0;
      this.renderPanel();
      return;
    }
    const req = this.req;
    this.req = null;
    // an answer for a position that is gone (the player moved on meanwhile) is not shown
    this.answer = msg.stale || this.page.state()?.version !== req.version ? null : { ...msg, turn: req.turn, version: req.version };
    this.page.render();
    // the plans may be below the fold (a phone's sheet): bring them into sight
    this.root.querySelector("#advisor")?.scrollIntoView({ block: "nearest" });
  }

  // A refusal of our request: said in the panel (true), not as a toast.
  onError(msg) {
    if (!this.req || msg.id !== this.req.id) return false;
    this.req = null;
    const text = { hints_off: raw("advisor", "off"), not_to_move: raw("advisor", "not_now") }[msg.detail]
      || (msg.code === "not_your_turn" ? raw("advisor", "not_now") : errorText(msg));
    this.error = t("advisor", "error", { error: text });
    this.page.render();
    return true;
  }

  // Called at the end of each render of the game page.
  render(model, st) {
    // any change of the position (a move, a repair, a new turn), another seat's eyes or the
    // game's end: the old plans go
    const seat = st ? st.seat : null;
    if (this.answer && (!st || seat !== this.answer.seat || st.version !== this.answer.version || model.over)) {
      this.answer = null;
      this.picked = -1;
    }
    if (this.error && (!st || !this.canAsk(st, model))) this.error = null;
    this.renderPanel();
    this.highlight();
  }

  renderPanel() {
    const box = this.root?.querySelector("#advisor");
    if (!box) return;
    const model = this.page.model();
    let html = "";
    if (this.req) {
      const p = pct(this.req.progress);
      html = `<div class="hint-thinking" data-testid="hint-progress" role="status">
        <span>${esc(raw("advisor", "thinking"))}</span>
        <div class="hint-progress" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${p}"><span style="width:${Math.max(4, p)}%"></span></div></div>`;
    } else if (this.error) {
      html = `<p class="hint-error" data-testid="hint-error" role="alert">${esc(this.error)}</p>`;
    } else if (this.answer && model) {
      html = this.plansHTML(model, this.answer);
    }
    box.hidden = !html;
    if (box._html !== html) { box.innerHTML = html; box._html = html; }
  }

  plansHTML(model, a) {
    const head = `<div class="hint-head"><h3>${esc(raw("advisor", "heading"))}</h3>
      <button type="button" class="btn small" data-hint-close data-testid="hint-close">${esc(raw("advisor", "close"))}</button></div>
      <p class="muted hint-private">${esc(raw("advisor", "private"))}</p>`;
    const items = a.plans.map((p, i) => this.planHTML(model, p, i)).join("");
    const foot = `<p class="muted hint-foot">${esc(t("advisor", "rounds", { rounds: a.rounds, seconds: a.seconds.toLocaleString(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }) }))}</p>`;
    return `${head}<ol class="hint-plans" data-testid="hint-plans">${items}</ol>${foot}`;
  }

  planHTML(model, p, i) {
    const v = model.view;
    const end = p.route[p.route.length - 1];
    // the action described where it happens (the gnome in the plan's last room)
    const ctx = { data: model.data, config: model.config,
      view: { ...v, opened: -1, gnomes: v.gnomes.map((g) => (g.number === v.active ? { ...g, room: end } : g)) } };
    const act = actionText(ctx, { kind: p.kind, text: p.action, room: p.arg, item: null, n: p.arg, minutes: p.minutes_action });
    const c = p.chance;
    const lines = [];
    if (p.route.length > 1) lines.push(t("advisor", "walk", { rooms: p.route.map((r) => roomShort(model, r)).join(" → ") }));
    if (p.items.length) lines.push(t("advisor", "play", { items: join(p.items.map((id) => itemName(model, id))) }));
    lines.push(t("advisor", "minutes", { minutes: p.minutes }));
    const picked = this.picked === i;
    return `<li ${attrs({ class: `hint-plan${picked ? " picked" : ""}`, "data-hint-plan": i, "data-testid": `hint-plan-${i}`,
      tabindex: 0, role: "button", "aria-pressed": picked ? "true" : "false", title: raw("advisor", "show_route") })}>
      <div class="hint-top"><span class="hint-rank">${i + 1}</span><span class="hint-action" data-testid="hint-action-${i}">${esc(act)}</span>
        <span class="hint-chance" data-testid="hint-chance-${i}" title="${esc(t("advisor", "chance", { chance: pct(c.chance), low: pct(c.low), high: pct(c.high) }))}">${pct(c.chance)}%</span></div>
      <div class="hint-bar" aria-hidden="true"><span class="hint-ci" style="left:${pct(c.low)}%;width:${Math.max(1, pct(c.high) - pct(c.low))}%"></span><span class="hint-mark" style="left:${pct(c.chance)}%"></span></div>
      ${lines.map((l) => `<p class="hint-line">${esc(l)}</p>`).join("")}
      <p class="hint-why" data-testid="hint-why-${i}">${esc(this.why(model, p))}</p></li>`;
  }

  why(model, p) {
    const th = p.threat;
    const out = [];
    if (!th) out.push(raw("advisor", "threat_none"));
    else if (th.kind === "track") out.push(t("advisor", "threat_track", { track: trackName(model, th.track), level: th.level, end: th.end }));
    else if (th.kind === "token") out.push(t("advisor", "threat_token", { token: tokenName(model, th.token), space: th.space }));
    else if (th.kind === "fire" || th.kind === "flood") out.push(t("advisor", `threat_${th.kind}`, { room: roomName(model, th.room) }));
    else if (th.kind === "hatch") out.push(t("advisor", "threat_hatch", { room: roomName(model, th.to) }));
    else if (th.kind === "items") out.push(raw("advisor", "threat_items"));
    else if (th.kind === "trade") out.push(t("advisor", "threat_trade", { gnome: gnomeName(model, th.gnome) }));
    if (p.repair_chance !== null && p.repair_chance !== undefined) out.push(t("advisor", "repair", { chance: p.repair_chance }));
    out.push(t("advisor", "meets", p.meets));
    return t("advisor", "why", { reasons: out.join(raw("meta", "list_sep")) });
  }

  // The picked plan's route on the board: its rooms marked, in order.
  highlight() {
    const board = this.root?.querySelector("#board");
    if (!board) return;
    for (const el of board.querySelectorAll(".hint-route")) el.classList.remove("hint-route");
    for (const el of board.querySelectorAll(".hint-step")) el.remove();
    const p = this.answer && this.picked >= 0 ? this.answer.plans[this.picked] : null;
    if (!p) return;
    p.route.forEach((r, i) => {
      const g = board.querySelector(`g[data-room="${r}"]`);
      if (!g) return;
      g.classList.add("hint-route");
      const bg = g.querySelector(".room-bg");
      if (!bg) return;
      const x = Number(bg.getAttribute("x")) + Number(bg.getAttribute("width")) - 14;
      const y = Number(bg.getAttribute("y")) + 14;
      const ns = "http://www.w3.org/2000/svg";
      const mark = document.createElementNS(ns, "g");
      mark.setAttribute("class", "hint-step");
      mark.setAttribute("data-testid", `hint-step-${r}`);
      const circle = document.createElementNS(ns, "circle");
      circle.setAttribute("cx", x); circle.setAttribute("cy", y); circle.setAttribute("r", 10);
      const text = document.createElementNS(ns, "text");
      text.setAttribute("x", x); text.setAttribute("y", y + 4);
      text.textContent = String(i + 1);
      mark.append(circle, text);
      g.append(mark);
    });
    centre(board, [".hint-route"]); // a zoomed board on a phone pans to the route
  }
}

// The end screen's note: were hints used, and by which seats (GET /api/games/{id}, once a page).
const notes = new Map(); // game id -> {state, settings}

export function hintsNote(gameId, onChange) {
  let n = notes.get(gameId);
  if (!n) {
    n = { state: "loading", settings: null };
    notes.set(gameId, n);
    api(`/api/games/${encodeURIComponent(gameId)}`)
      .then((s) => { n.settings = s.settings || {}; n.seats = s.seats || []; n.state = "ready"; })
      .catch(() => { n.state = "failed"; })
      .finally(() => onChange());
  }
  if (n.state !== "ready") return "";
  const s = n.settings;
  let text;
  if (s.hints === false) text = raw("advisor", "end_off");
  else if (!s.hints_used || !s.hints_used.length) text = raw("advisor", "end_unused");
  else {
    const who = s.hints_used.map((seat) => {
      const row = n.seats.find((x) => x.seat === seat);
      // the seat as the crew table calls it; its holder may be a bot by now, playing it for its
      // player (``owner``), who is still named
      const label = row ? seatTitle(row) : t("ui", "player_long", { seat: seat + 1 });
      const name = row && (row.kind === "human" ? row.name : row.owner);
      return name ? `${name} (${label})` : label;
    });
    text = t("advisor", "end_used", { seats: join(who) });
  }
  return `<p class="end-hints" data-testid="end-hints">${esc(text)}</p>`;
}
