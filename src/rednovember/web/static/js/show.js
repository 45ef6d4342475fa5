// "See what happens": an on-board show of the new log entries of each `state` (die rolls, event
// cards, item draws, the keeper's walk on the time track, faints and deaths), one step after the
// other, skippable; and a recap of what changed since the seat's own last action.
// The state itself is applied at once by game.js: this is only a visual queue on top, with
// pointer-events none everywhere except the Skip button (which sits where the board has no target).

import { lang, raw, t } from "./i18n.js";
import { cardName, describeEntry, entryArgs, gnomeName, itemName, kindName, respiteLeaves } from "./describe.js";
import { COLOURS, esc } from "./svg.js";

const STEP_MS = 1300; // one step on screen
const MAX_QUEUE = 40; // a long batch (bots playing fast) keeps only its last steps
const END_TAIL = 6; // once the game is over, only its last steps still wait: the result follows
const CATCH_UP = 8; // more steps waiting than this: each is shown for half the time
// the effects of an event card, shown on the card that caused them
const EFFECTS = new Set(["fire", "fire_spreads", "fire_flooded", "spread_none", "leak", "fire_out",
  "undercurrent", "hatch_blocked", "block_none", "track", "token", "token_already", "token_avoided",
  "hand_limit", "stumble", "stumble_none", "overheated"]);
// effects whose room came from the die
const ROLLED = new Set(["fire", "fire_flooded", "leak", "block_none", "hatch_blocked"]);
// what follows a repair roll and belongs to it
const AFTER_REPAIR = new Set(["track_reset", "token_cleared"]);
const INFO = new Set(["charm", "replacement", "won", "lost", "abandon", "stand_up"]);
// a seat's own choices (the recap starts after the last of them)
const OWN = new Set(["open", "enter", "stay", "play", "repair", "draw", "draw_stock", "trade", "attack", "no_action",
  "abandon", "discard", "give", "no_defence"]);
// what the recap lists
const RECAP = new Set([...EFFECTS, "repair", "event", "track_reset", "token_cleared", "death",
  "replacement", "faint_check", "lost", "won", "attack", "fight", "loot", "abandon", "charm", "give"]);

const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// The rooms an entry names on the board (for the highlight).
function entryRooms(e) {
  const a = entryArgs(e) || {};
  switch (e[0]) {
    case "fire": case "fire_spreads": case "fire_flooded": case "leak": case "fire_out": case "block_none":
    case "death": case "replacement": return [a.room];
    case "hatch_blocked": return [a.room, a.other];
    case "undercurrent": return [...(a.rooms || [])];
    default: return [];
  }
}

// Turns new log entries into show steps. `prev`/`next` are the views before and after them (the
// keeper's start and end: the log names only the spaces where icons were met).
export function buildSteps(entries, prev, next) {
  const steps = [];
  let gnome = prev && prev.active >= 0 ? prev.active : -1;
  let pos = gnome >= 0 ? prev.gnomes[gnome]?.keeper : undefined;
  const turnAt = [];
  entries.forEach((e, i) => { if (e[0] === "turn") turnAt.push(i); });
  // where the walk of the turn running at entry i ends
  const endOf = (i, g) => {
    const later = turnAt.find((j) => j > i && entries[j][1] === g);
    if (later !== undefined) return entries[later][2];
    const gn = next && next.gnomes[g];
    return gn && gn.alive && !gn.abandoned ? gn.keeper : undefined;
  };
  const walkTo = (space, icon) => {
    if (gnome < 0 || pos === undefined || space === undefined || space >= pos) return;
    steps.push({ kind: "walk", gnome, from: pos, to: space, icon });
    pos = space;
  };
  const finishWalk = (i) => { if (gnome >= 0) walkTo(endOf(i, gnome), null); };
  let card = null; // the event / roll step later effects attach to
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const mid = e[0];
    const a = entryArgs(e) || {};
    if (EFFECTS.has(mid)) {
      if (card && card.kind === "event") { card.effects.push(e); continue; }
      card = { kind: "effect", entry: e, effects: [e] };
      steps.push(card);
      continue;
    }
    if (AFTER_REPAIR.has(mid) && card && card.kind === "roll") { card.effects.push(e); continue; }
    card = null;
    switch (mid) {
      case "turn":
        finishWalk(i - 1);
        gnome = a.gnome; pos = a.space;
        break;
      case "repair": case "fight":
        // a repair is made where the gnome stands (it does not move again this turn)
        card = { kind: "roll", entry: e, effects: [], room: mid === "repair" ? next?.gnomes[a.gnome]?.room : undefined };
        steps.push(card);
        break;
      case "event":
        walkTo(a.space, "event");
        card = { kind: "event", entry: e, effects: [], space: a.space };
        steps.push(card);
        break;
      case "item_icon":
        walkTo(a.space, "item");
        steps.push({ kind: "items", entry: e, space: a.space });
        break;
      case "draw": case "draw_stock": case "loot":
        steps.push({ kind: "items", entry: e });
        break;
      case "charm":
        walkTo(a.space, "event");
        steps.push({ kind: "info", entry: e, space: a.space });
        break;
      case "faint_check":
        steps.push({ kind: "faint", entry: e });
        break;
      case "death":
        steps.push({ kind: "death", entry: e });
        break;
      default:
        if (INFO.has(mid)) steps.push({ kind: "info", entry: e });
    }
  }
  finishWalk(entries.length - 1);
  return steps;
}

// Whether log entry i came from an action a stand-in made for the seat (the state's
// `standins`: [start, end) ranges) rather than its player.
function standIn(i, standins) {
  return standins.some(([a, b]) => i >= a && i < b);
}

// The index of the seat's gnomes' last own choice in the log (-1: none yet): its player's, not
// one a bot, the turn timer or a deadline made for them.
function lastOwn(log, gnomes, standins = []) {
  for (let i = log.length - 1; i >= 0; i--) {
    if (OWN.has(log[i][0]) && gnomes.includes(log[i][1]) && !standIn(i, standins)) return i;
  }
  return -1;
}

// The entries a seat has not acted on: after its gnomes' last own choice (the whole log when
// they have made none yet), the notable ones, with the turn headers that precede them, and the
// choices made for the seat meanwhile (in `forYou`).
export function recapEntries(log, gnomes, standins = []) {
  const last = lastOwn(log, gnomes, standins);
  const out = [];
  const forYou = new Set();
  let header = null; // the turn the entries belong to (also the one the seat's last action was in)
  for (let i = last; i >= 0 && !header; i--) if (log[i][0] === "turn") header = log[i];
  for (let i = last + 1; i < log.length; i++) {
    const e = log[i];
    if (e[0] === "turn") { header = e; continue; }
    const mine = OWN.has(e[0]) && gnomes.includes(e[1]) && standIn(i, standins);
    if (!RECAP.has(e[0]) && !mine) continue;
    if (e[0] === "faint_check" && !e[4]) continue;
    if (header) { out.push(header); header = null; }
    out.push(e);
    if (mine) forYou.add(e);
  }
  out.forYou = forYou;
  return out;
}

function colourOf(model, n) {
  const g = model.view.gnomes[n];
  return g ? COLOURS[g.colour] || g.colour : "#888";
}

function die(value, cls = "") {
  return `<span class="show-die ${cls}" data-testid="show-die" aria-hidden="true">${esc(value)}</span>`;
}

function hiddenDraw(model, a) {
  if (!Array.isArray(a.items)) return true;
  if (!model.config.variants.includes("mad-gnomes")) return false;
  const g = model.view.gnomes[a.gnome];
  return !g || !model.viewerSeats().includes(g.player);
}

// One outcome line of a card: the sentence, with the die when the room was rolled.
function effectLine(model, e) {
  const a = entryArgs(e) || {};
  const rolled = ROLLED.has(e[0]) ? die(a.room, "small") : "";
  return `<li data-mid="${esc(e[0])}">${rolled}<span>${esc(describeEntry(model, e))}</span></li>`;
}

function lines(model, list) {
  return list.length ? `<ul class="show-lines" data-testid="show-lines">${list.map((e) => effectLine(model, e)).join("")}</ul>` : "";
}

// The card of one step (HTML; every text escaped).
export function stepHTML(model, step) {
  const e = step.entry;
  const a = e ? entryArgs(e) || {} : {};
  const head = (title, extra = "", icon = "") => `<div class="show-head">${icon}<strong class="show-title" data-testid="show-title">${esc(title)}</strong>${extra}</div>`;
  switch (step.kind) {
    case "roll": {
      if (e[0] === "fight") {
        return head(t("web_show", "fight_title", { attacker: gnomeName(model, a.attacker), defender: gnomeName(model, a.defender) }))
          + `<p class="show-dice">${die(a.roll_a)} <span>${esc(t("web_show", "fight_roll", { gnome: gnomeName(model, a.attacker), roll: a.roll_a, score: a.score_a }))}</span></p>`
          + `<p class="show-dice">${die(a.roll_d)} <span>${esc(t("web_show", "fight_roll", { gnome: gnomeName(model, a.defender), roll: a.roll_d, score: a.score_d }))}</span></p>`;
      }
      const ok = a.success && !a.doomed;
      const result = a.doomed ? "roll_doomed" : ok ? "roll_success" : "roll_failure";
      const chance = a.doomed ? 0 : Math.min(10, a.target) * 10;
      return head(t("web_show", "roll_title", { gnome: gnomeName(model, a.gnome), kind: kindName(a.kind) }), "", die(a.roll, ok ? "ok" : "bad"))
        + `<p class="show-chance" data-testid="show-chance">${esc(t("web_show", "roll_need", { minutes: a.minutes, target: a.target, chance }))}</p>`
        + `<p class="show-result ${ok ? "ok" : "bad"}" data-testid="show-result">${esc(t("web_show", result, { roll: a.roll }))}</p>`
        + lines(model, step.effects);
    }
    case "event": {
      const card = model.data.events[a.card] || {};
      const faint = card.faint === null || card.faint === undefined
        ? `<span class="show-faint none" data-testid="show-faint" title="${esc(raw("web_show", "no_faint"))}">–</span>`
        : `<span class="show-faint" data-testid="show-faint" title="${esc(t("web_show", "faint_number", { faint: card.faint }))}">${esc(card.faint)}</span>`;
      return `<p class="show-kicker">${esc(raw("web_show", "event_card"))} · ${esc(t("web_show", "drawn_on", { space: a.space }))}</p>`
        + head(raw("events", card.kind), faint)
        + `<p class="show-effect" data-testid="show-effect">${esc(raw("event_help", card.kind))}${
          respiteLeaves(model, a.card) ? ` ${esc(raw("term_plain", "respite_out"))}` : ""}</p>`
        + lines(model, step.effects);
    }
    case "effect":
      return lines(model, step.effects);
    case "items": {
      let title, body;
      if (e[0] === "item_icon") {
        title = t("web_show", "item_icon_title", { gnome: gnomeName(model, a.gnome), space: a.space });
        if (a.item < 0 && !hiddenDraw(model, { items: [], gnome: a.gnome })) body = `<p>${esc(raw("web_show", "items_none"))}</p>`;
        else if (a.item < 0 || hiddenDraw(model, { items: [a.item], gnome: a.gnome })) body = `<p class="show-hidden" data-testid="show-hidden">${esc(t("web_show", "items_hidden", { count: 1 }))}</p>`;
        else body = `<ul class="show-items">${itemChip(model, a.item)}</ul>`;
      } else {
        title = e[0] === "loot" ? t("web_show", "loot_title", { gnome: gnomeName(model, a.gnome), loser: gnomeName(model, a.loser) })
          : t("web_show", "draw_title", { gnome: gnomeName(model, a.gnome) });
        if (e[0] === "draw_stock") { // Grog from the captain's stock: public
          body = `<ul class="show-items">${Array.from({ length: a.count }, () => itemChip(model, model.data.stock_item)).join("")}</ul>`;
        } else if (hiddenDraw(model, a)) {
          const n = Array.isArray(a.items) ? a.items.length : a.items;
          body = `<p class="show-hidden" data-testid="show-hidden">${esc(t("web_show", "items_hidden", { count: n }))}</p>`;
        } else body = `<ul class="show-items">${a.items.map((x) => itemChip(model, x)).join("")}</ul>`;
      }
      return head(title) + body;
    }
    case "walk": {
      const meets = step.icon === "event" ? t("web_show", "walk_event", { space: step.to })
        : step.icon === "item" ? t("web_show", "walk_item", { space: step.to }) : "";
      return head(t("web_show", "walk_title", { gnome: gnomeName(model, step.gnome) }), "",
        `<span class="show-pawn" style="background:${esc(colourOf(model, step.gnome))}" aria-hidden="true"></span>`)
        + `<p class="show-walk" data-testid="show-walk">${esc(t("web_show", "walk_text", { from: step.from, to: step.to }))}</p>`
        + (meets ? `<p class="show-meets">${esc(meets)}</p>` : "");
    }
    case "faint": {
      const card = model.data.events[a.card] || {};
      return head(t("web_show", "faint_title", { gnome: gnomeName(model, a.gnome) }), card.faint === null || card.faint === undefined ? ""
        : `<span class="show-faint" data-testid="show-faint">${esc(card.faint)}</span>`)
        + `<p>${esc(t("web_show", "faint_against", { card: cardName(model, a.card), intoxication: a.intoxication }))}</p>`
        + `<p class="show-result ${a.fainted ? "bad" : "ok"}" data-testid="show-result">${esc(raw("web_show", a.fainted ? "fainted" : "steady"))}</p>`;
    }
    case "death":
      return `<div class="show-head"><span class="show-skull" aria-hidden="true">☠</span><strong class="show-title" data-testid="show-title">${esc(describeEntry(model, e).replace(/^☠\s*/, ""))}</strong></div>`;
    default:
      return `<p class="show-info" data-testid="show-title">${esc(describeEntry(model, e))}</p>`;
  }
}

function itemChip(model, x) {
  return `<li class="show-item" data-testid="show-item">${esc(itemName(model, x))}</li>`;
}

// The rooms to highlight while a step is shown (a repair: where the gnome stands).
function stepRooms(step) {
  if (step.kind === "roll") return [...(step.room > 0 ? [step.room] : []), ...step.effects.flatMap(entryRooms)];
  if (step.kind === "event" || step.kind === "effect" || step.kind === "roll") return step.effects.flatMap(entryRooms);
  if (step.entry) return entryRooms(step.entry);
  return [];
}

export class Show {
  constructor(page) {
    this.page = page;
    this.queue = [];
    this.current = null;
    this.timer = null;
    this.walkTimer = null;
    this.shown = 0; // steps shown since the page opened (for tests)
    this.pace = STEP_MS; // ms a step stays (tests may hold a step by raising it)
    this.version = -1; // the newest state version already turned into steps
    this.recap = null; // {seat, entries}
    this.recapSeat = null;
    this.lang = lang();
  }

  // Adds the show's elements: the stage over the board, the marks over the time track, the recap
  // after the action panel.
  mount(root) {
    this.root = root;
    const holder = root.querySelector(".board-holder");
    this.stage = document.createElement("div");
    this.stage.className = "show-stage";
    this.stage.dataset.testid = "show-stage";
    this.stage.dataset.queued = "0";
    this.stage.dataset.shown = "0";
    this.stage.innerHTML = `<div class="show-rings"></div>
      <div class="show-card" data-testid="show-card" role="status" aria-live="polite" hidden>
        <div class="show-body"></div>
        <div class="show-foot"><button type="button" class="btn small show-skip" data-testid="show-skip"></button></div></div>`;
    holder.appendChild(this.stage);
    this.card = this.stage.querySelector(".show-card");
    this.stage.querySelector(".show-skip").addEventListener("click", (ev) => { ev.stopPropagation(); this.skip(); });
    const col = root.querySelector(".col-board");
    this.marks = document.createElement("div");
    this.marks.className = "show-marks";
    this.marks.innerHTML = `<div class="show-walker" data-testid="show-walker" hidden></div>`;
    col.appendChild(this.marks);
    this.walker = this.marks.firstElementChild;
    this.recapBox = document.createElement("section");
    this.recapBox.className = "card show-recap";
    this.recapBox.id = "recap"; // on a phone: in the sheet's Options tab (mobile.js)
    this.recapBox.dataset.testid = "recap";
    this.recapBox.hidden = true;
    this.recapBox.addEventListener("click", (ev) => {
      if (ev.target.closest("[data-recap-close]")) { this.recap = null; this.renderRecap(); }
    });
    root.querySelector("#actions").after(this.recapBox);
    this.onKey = (ev) => { if (ev.key === "Escape" && this.active()) this.skip(); };
    this.page.life.listen(document, "keydown", this.onKey);
  }

  stop() {
    clearTimeout(this.timer);
    clearInterval(this.walkTimer);
    if (this.onKey) document.removeEventListener("keydown", this.onKey);
  }

  active() { return !!this.current || this.queue.length > 0; }

  // A `state` arrived for `key` (the page has stored it and picked the seat it looks through).
  // Only a state that continues the log of the seat we look through adds steps: a hello / sync
  // (full log) or a state we already showed through another held seat adds none.
  onState(key, st, prev, before) {
    if (!this.stage) return;
    const page = this.page;
    if (key !== page.current) return;
    const log = page.logs.get(key) || [];
    const incremental = prev && (st.log_start || 0) > 0 && st.version > this.version;
    if (st.version > this.version) this.version = st.version;
    if (incremental && log.length > before) {
      this.enqueue(buildSteps(log.slice(before), prev.view, st.view), !!st.view.result);
    }
    this.updateRecap(key, st, prev);
  }

  enqueue(steps, ended = false) {
    if (!steps.length) return;
    this.queue.push(...steps);
    const keep = ended ? END_TAIL : MAX_QUEUE;
    if (this.queue.length > keep) this.queue.splice(0, this.queue.length - keep);
    this.stage.dataset.queued = String(this.queue.length);
    if (!this.current) this.next();
    else this.updateSkip();
  }

  next() {
    clearTimeout(this.timer);
    clearInterval(this.walkTimer);
    const step = this.queue.shift();
    this.stage.dataset.queued = String(this.queue.length);
    if (!step) { this.clear(); return; }
    this.current = step;
    this.shown += 1;
    this.stage.dataset.shown = String(this.shown);
    this.draw();
    this.timer = setTimeout(() => this.next(), this.stepMs(step));
  }

  // How long a step stays: less when far behind (bots playing fast) or while our own turn
  // timer runs (the show of the turns before ours must not eat our time).
  stepMs(step) {
    const extra = step.kind === "event" ? 300 * Math.max(0, (step.effects || []).length - 1) : 0;
    const st = this.page.state();
    const hurry = this.queue.length > CATCH_UP || Boolean(st && st.your_turn && st.clock);
    return (step.kind === "walk" ? Math.min(1500, 500 + 90 * (step.from - step.to)) : STEP_MS + Math.min(900, extra))
      * (this.pace / STEP_MS) * (hurry ? 0.45 : 1);
  }

  // Shows the current step again (also after a language change).
  draw() {
    const step = this.current;
    const model = this.page.model();
    if (!step || !model) return;
    this.card.hidden = false;
    this.card.className = `show-card kind-${step.kind}`;
    this.card.dataset.kind = step.kind;
    this.card.querySelector(".show-body").innerHTML = stepHTML(model, step);
    this.stage.dataset.active = "1";
    if (!reduced()) {
      void this.card.offsetWidth; // a reflow between: the entrance animation runs again for each step
      this.card.classList.add("enter");
    }
    this.updateSkip();
    this.ringRooms(stepRooms(step));
    // the walker stays on the icon it reached while that icon's card is shown
    if (step.kind === "walk") this.walk(step);
    else if (step.space === undefined || this.walker.dataset.space !== String(step.space)) this.walker.hidden = true;
  }

  updateSkip() {
    const btn = this.stage.querySelector(".show-skip");
    const n = this.queue.length;
    btn.textContent = n ? t("web_show", "skip_count", { count: n }) : raw("web_show", "skip");
    btn.title = raw("web_show", "skip_title");
  }

  skip() {
    this.queue = [];
    this.clear();
  }

  clear() {
    clearTimeout(this.timer);
    clearInterval(this.walkTimer);
    this.current = null;
    this.card.hidden = true;
    this.walker.hidden = true;
    this.stage.dataset.active = "";
    this.stage.dataset.queued = "0";
    this.stage.querySelector(".show-rings").innerHTML = "";
    this.page.showEnded?.(); // the game's end waits for the show's last step (game.js)
  }

  // Rings around the rooms a step names (positions read from the drawn board).
  ringRooms(rooms) {
    const box = this.stage.querySelector(".show-rings");
    const base = this.stage.getBoundingClientRect();
    let s = "";
    for (const r of new Set(rooms)) {
      const el = this.root.querySelector(`#board [data-testid="room-${r}"] .room-frame`) || this.root.querySelector(`#board [data-testid="room-${r}"]`);
      if (!el) continue;
      const b = el.getBoundingClientRect();
      s += `<div class="show-ring" data-testid="show-ring" data-room="${esc(r)}" style="left:${b.left - base.left - 4}px;top:${b.top - base.top - 4}px;width:${b.width + 8}px;height:${b.height + 8}px"></div>`;
    }
    box.innerHTML = s;
  }

  // The keeper's walk: a ring steps space by space along the time track (at once with reduced motion).
  walk(step) {
    const base = this.marks.getBoundingClientRect();
    const place = (space) => {
      const cell = this.root.querySelector(`#track [data-testid="space-${space}"] rect`);
      if (!cell) return false;
      const b = cell.getBoundingClientRect();
      Object.assign(this.walker.style, { left: `${b.left - base.left - 3}px`, top: `${b.top - base.top - 3}px`,
        width: `${b.width + 6}px`, height: `${b.height + 6}px` });
      this.walker.dataset.space = String(space);
      return true;
    };
    const model = this.page.model();
    this.walker.style.borderColor = model ? colourOf(model, step.gnome) : "";
    this.walker.hidden = !place(reduced() ? step.to : step.from);
    if (reduced()) return;
    let space = step.from;
    const each = Math.max(40, Math.min(110, 900 / Math.max(1, step.from - step.to)));
    this.walkTimer = setInterval(() => {
      space -= 1;
      place(space);
      if (space <= step.to) clearInterval(this.walkTimer);
    }, each);
  }

  // --- the recap -----------------------------------------------------------------------------
  // Shown when the seat we look through must decide again (or on a reconnect / page load with
  // something to tell); gone when dismissed or once the seat has acted.
  updateRecap(key, st, prev) {
    if (key === null || key === undefined || key === "spec" || st.status !== "playing" || st.view.result) {
      this.recap = null; this.renderRecap(); return;
    }
    const gnomes = st.view.gnomes.filter((g) => g.player === key).map((g) => g.number);
    const log = this.page.logs.get(key) || [];
    const becameMine = !prev ? true : st.your_turn && !prev.your_turn;
    const standins = st.standins || [];
    const last = lastOwn(log, gnomes, standins);
    if (becameMine || this.recapSeat !== key) {
      const entries = recapEntries(log, gnomes, standins);
      this.recap = entries.length ? { seat: key, entries, last } : null;
      this.recapSeat = key;
    } else if (this.recap && last !== this.recap.last) {
      this.recap = null; // the seat acted since
    }
    this.renderRecap();
  }

  renderRecap() {
    if (!this.recapBox) return;
    const model = this.page.model();
    if (!this.recap || !model) { this.recapBox.hidden = true; this.recapBox.innerHTML = ""; return; }
    let items = "";
    for (const e of this.recap.entries) {
      if (e[0] === "turn") {
        items += `<li class="recap-turn"><span class="swatch" style="background:${esc(colourOf(model, e[1]))}"></span>${esc(t("web_show", "recap_turn", { gnome: gnomeName(model, e[1]) }))}</li>`;
      } else {
        const text = describeEntry(model, e);
        items += this.recap.entries.forYou?.has(e)
          ? `<li data-testid="recap-entry" data-mid="${esc(e[0])}" data-for-you class="recap-for-you">${esc(t("web_show", "recap_for_you", { entry: text }))}</li>`
          : `<li data-testid="recap-entry" data-mid="${esc(e[0])}">${esc(text)}</li>`;
      }
    }
    this.lang = lang();
    this.recapBox.hidden = false;
    this.recapBox.innerHTML = `<div class="recap-head"><h3>${esc(raw("web_show", "recap_title"))}</h3>
      <button type="button" class="btn small ghost" data-recap-close data-testid="recap-close" aria-label="${esc(raw("web_show", "recap_close"))}" title="${esc(raw("web_show", "recap_close"))}">✕</button></div>
      <ul class="recap-list">${items}</ul>`;
  }

  // After a language change (the page redraws): the texts again.
  render() {
    if (this.lang === lang()) return;
    this.lang = lang();
    if (this.current) {
      this.card.querySelector(".show-body").innerHTML = stepHTML(this.page.model(), this.current);
      this.updateSkip();
    }
    this.renderRecap();
  }
}
