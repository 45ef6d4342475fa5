// Learn to play: the list of lessons and puzzles (/learn) and one lesson (/learn/{id}): the board,
// the time track and the actions of the game page, played against POST /api/learn/{id}
// (docs/protocol.md §3.7). The page keeps only the plays made so far; the server rebuilds the
// lesson from them and checks each new play. "Try again" is an empty list, "Take back" drops one.

import { lang, raw, t } from "./i18n.js";
import { api } from "./net.js";
import { Model, normalizeData } from "./model.js";
import { renderBoard } from "./board.js";
import { renderTrack } from "./track.js";
import { boardTargets, renderActions, stepMinutes } from "./actions.js";
import { renderCrew, renderLog } from "./panels.js";
import { gnomeName, itemName } from "./describe.js";
import { attrs, esc } from "./svg.js";
import { navigate } from "./router.js";
import { errorText, toast } from "./ui.js";
import { url } from "./root.js";
import { markScrollable } from "./scrollkeys.js";
import { PageLife } from "./life.js";
import { centre } from "./mobile.js";

// Arguments of a check or guidance text that name things: shown in the page's language.
function words(model, args) {
  const out = { ...(args || {}) };
  if (out.item) out.item = itemName(model, out.item);
  if (out.cause) out.cause = raw("loss_causes", out.cause);
  return out;
}

const text = (key, args) => t("learn", key, args);

export class LearnPage {
  constructor(root, id, ctx) {
    this.root = root;
    this.id = id; // null: the list
    this.ctx = ctx;
    this.life = new PageLife();
    this.data = ctx.data ? normalizeData(ctx.data) : null;
    this.list = null;
    this.lesson = null; // the last answer of the server
    this.plays = [];
    this.checks = []; // [{play, check}] of this attempt, newest last
    this.ui = { minutes: {}, pick: null };
    this.busy = false;
    this.solution = null;
  }

  async start() {
    document.getElementById("top-game").innerHTML = "";
    this.root.innerHTML = `<p class="loading">…</p>`;
    const on = (type, fn) => this.life.listen(this.root, type, fn);
    on("click", (e) => this.onClick(e));
    on("input", (e) => this.onInput(e));
    on("keydown", (e) => { // the board's hatches and rooms, like the game page
      if ((e.key === "Enter" || e.key === " ") && e.target.matches("g[data-act], g[data-pick]")) { e.preventDefault(); this.onClick(e); }
    });
    try {
      this.list = await api("/api/learn");
      if (this.id && !this.life.ended) await this.send(null);
    } catch (e) {
      if (!this.life.ended) this.root.innerHTML = `<p class="error" data-testid="learn-error">${esc(errorText(e))}</p>`;
      return;
    }
    if (this.life.ended) return;
    this.render();
    window.rnLearn = this;
  }

  destroy() {
    this.life.end();
    if (window.rnLearn === this) window.rnLearn = null;
  }

  order() { return [...this.list.lessons, ...this.list.puzzles].map((x) => x.id); }

  async send(action) {
    this.busy = true;
    try {
      const res = await api(`/api/learn/${encodeURIComponent(this.id)}`, { method: "POST", body: { plays: this.plays, action } });
      this.lesson = res;
      this.plays = res.plays;
      if (action !== null && res.check) this.checks.push({ play: action, check: res.check });
      this.ui.pick = null;
    } catch (e) {
      toast(() => errorText(e), "error");
    }
    this.busy = false;
  }

  async onClick(e) {
    const el = e.target.closest("[data-act],[data-pick],[data-minus],[data-plus],[data-learn-retry],[data-learn-back],[data-learn-solution],[data-learn-open]");
    if (!el || el.disabled || this.busy) return;
    if (el.dataset.learnOpen !== undefined) {
      e.preventDefault();
      navigate(el.dataset.learnOpen ? `/learn/${el.dataset.learnOpen}` : "/learn");
      return;
    }
    if (el.dataset.act !== undefined) {
      if (el.dataset.confirm && !window.confirm(el.dataset.confirm)) return;
      await this.send(el.dataset.act);
    } else if (el.dataset.learnRetry !== undefined) {
      this.plays = [];
      this.checks = [];
      this.solution = null;
      await this.send(null);
    } else if (el.dataset.learnBack !== undefined) {
      this.plays = this.plays.slice(0, -1);
      this.checks = this.checks.slice(0, -1);
      await this.send(null);
    } else if (el.dataset.learnSolution !== undefined) {
      this.solution = "thinking";
      this.render();
      try {
        this.solution = await api(`/api/learn/${encodeURIComponent(this.id)}/solution?lang=${encodeURIComponent(lang())}`);
        this.solution.lang = lang();
      } catch (err) { this.solution = null; toast(() => errorText(err), "error"); }
    } else if (el.dataset.pick !== undefined) {
      this.ui.pick = el.dataset.pick;
    } else {
      stepMinutes(this.root, this.ui, el);
    }
    this.render();
  }

  onInput(e) {
    const key = e.target.dataset.minutes;
    if (!key) return;
    this.ui.minutes[key] = Number(e.target.value);
    this.ui.pick = key;
    this.renderPlay();
  }

  model() {
    const st = this.lesson.state;
    return new Model(this.data, st.view, st.view.config, st.seats, 0);
  }

  render() {
    if (!this.list) return;
    if (!this.id) { this.renderList(); return; }
    if (!this.lesson) return;
    if (this.solution && this.solution.lang && this.solution.lang !== lang()) this.solution = null; // asked again
    if (!this.root.querySelector(".learn-lesson")) this.build();
    this.renderSide();
    this.renderPlay();
    markScrollable(this.root);
  }

  renderList() {
    const item = (x, i) => `<li><a href="${esc(url(`/learn/${x.id}`))}" ${attrs({ "data-learn-open": x.id, "data-testid": `learn-${x.id}` })}>
      <span class="learn-num">${i + 1}</span><span><strong>${esc(text(`${x.id}_title`))}</strong>
      <small>${esc(text(`${x.id}_goal`))}</small></span></a></li>`;
    this.root.innerHTML = `<div class="learn-list" data-testid="learn-page">
      <section class="card"><h1>${esc(raw("learn", "title"))}</h1><p>${esc(raw("learn", "intro"))}</p></section>
      <section class="card"><h2>${esc(raw("learn", "lessons"))}</h2><ol class="learn-items">${this.list.lessons.map(item).join("")}</ol></section>
      <section class="card"><h2>${esc(raw("learn", "puzzles"))}</h2><ol class="learn-items">${this.list.puzzles.map(item).join("")}</ol></section>
    </div>`;
    document.title = `${raw("learn", "title")} · ${raw("ui", "title")}`;
  }

  build() {
    this.root.innerHTML = `<div class="learn-lesson game" data-testid="learn-lesson">
      <div class="game-grid learn-grid">
        <div class="col-board">
          <div class="board-holder"><div id="board" class="board-wrap" data-testid="board"></div></div>
          <div id="track" class="track-wrap" data-testid="time-track"></div>
        </div>
        <aside class="col-side">
          <section id="learn-panel" class="card learn-panel" data-testid="learn-panel" aria-live="polite"></section>
          <section id="actions" class="card actions-card" data-testid="actions"></section>
          <section id="crew" class="card crew-card" data-testid="crew"></section>
          <section id="log" class="card log-card"></section>
        </aside>
      </div></div>`;
  }

  renderSide() {
    const L = this.lesson, id = this.id, model = this.model();
    const order = this.order();
    const next = order[order.indexOf(id) + 1];
    const puzzle = L.lesson.kind === "puzzle";
    const last = this.checks.length ? this.checks[this.checks.length - 1].check : null;
    let check = "";
    if (last && last.key) {
      const cls = last.verdict === "right" || last.verdict === "goal" ? "ok" : last.verdict === "wrong" ? "bad" : last.verdict === "failed" ? "lost" : "";
      const label = { right: "right", goal: "solved", wrong: "wrong", failed: "lost" }[last.verdict];
      check = `<div class="learn-check ${cls}" data-testid="learn-check" data-verdict="${esc(last.verdict)}">
        ${label ? `<strong>${esc(raw("learn", label))}</strong> ` : ""}<span>${esc(text(last.key, words(model, last.args)))}</span></div>`;
    }
    const g = L.guidance;
    const stepLine = !puzzle && L.step !== null && L.status === "playing" && !L.off_path
      ? `<p class="muted" data-testid="learn-step">${esc(text("step_of", { n: L.step + 1, total: L.lesson.steps }))}</p>` : "";
    const done = L.status === "goal";
    const repeated = last && last.key === g.key; // the check already says it (the goal, a loss)
    let sol = "";
    if (puzzle) {
      if (this.solution === "thinking") sol = `<p class="muted" data-testid="learn-solution-wait">${esc(raw("learn", "solution_thinking"))}</p>`;
      else if (this.solution) sol = this.solutionHTML();
      else if (L.status !== "playing") sol = `<button type="button" class="btn" data-learn-solution data-testid="learn-solution-button">${esc(raw("learn", "show_solution"))}</button>`;
      else sol = `<p class="muted small">${esc(raw("learn", "solution_after"))}</p>`;
    }
    const html = `
      <p class="learn-crumb"><a href="${esc(url("/learn"))}" data-learn-open="" data-testid="learn-all">← ${esc(raw("learn", "all"))}</a></p>
      <h1 data-testid="learn-title">${esc(text(`${id}_title`))}</h1>
      <p class="learn-idea">${esc(text(`${id}_intro`))}</p>
      <p class="learn-goal"><strong>${esc(text("label", { label: raw("learn", "goal") }))}</strong> <span data-testid="learn-goal">${esc(text(`${id}_goal`))}</span></p>
      ${puzzle ? `<p class="muted small">${esc(raw("learn", "puzzle_note"))}</p>` : ""}
      ${check}
      <div class="learn-guide ${done ? "done" : ""}" data-testid="learn-guidance" data-status="${esc(L.status)}" ${repeated ? "hidden" : ""}>
        ${stepLine}<p>${esc(text(g.key, words(model, g.args)))}</p></div>
      <div class="learn-buttons">
        <button type="button" class="btn" data-learn-back data-testid="learn-back" ${this.plays.length ? "" : "disabled"}>↶ ${esc(raw("learn", "take_back"))}</button>
        <button type="button" class="btn" data-learn-retry data-testid="learn-retry" ${this.plays.length ? "" : "disabled"}>⟲ ${esc(raw("learn", "try_again"))}</button>
        ${done && next ? `<a class="btn primary" href="${esc(url(`/learn/${next}`))}" data-learn-open="${esc(next)}" data-testid="learn-next">${esc(raw("learn", "next"))} →</a>` : ""}
      </div>
      ${sol}`;
    const panel = this.root.querySelector("#learn-panel");
    panel.innerHTML = html;
    document.title = `${text(`${id}_title`)} · ${raw("ui", "title")}`;
  }

  solutionHTML() {
    const s = this.solution;
    const model = this.model();
    const rows = s.plays.map((p) => `<li><span class="learn-min">${esc(String(p.ghost))}</span>
      <span class="learn-who" style="border-color:var(--c-${esc(p.colour)})">${esc(gnomeName(model, p.gnome))}</span> ${esc(p.sentence)}</li>`).join("");
    return `<div class="learn-solution" data-testid="learn-solution"><h2>${esc(raw("learn", "solution_title"))}</h2>
      <p>${esc(raw("learn", s.reached ? "solution_reached" : "solution_missed"))}</p><ol>${rows}</ol></div>`;
  }

  // The state with the plays the lesson's step accepts as the main choice (none: the page's usual)
  withWanted(st) {
    const wanted = this.lesson.wanted || [];
    return wanted.length ? { ...st, wanted } : st;
  }

  renderPlay() {
    const st = this.lesson.state, model = this.model();
    const targets = st.your_turn ? boardTargets(model, st.actions || []) : { rooms: {}, hatches: {}, gnomes: {} };
    this.root.querySelector("#board").innerHTML = renderBoard(model, targets);
    const track = this.root.querySelector("#track");
    track.innerHTML = renderTrack(model, null);
    centre(track, [".keeper.active, .ghost"]); // a phone's track pans: show the keeper who moves
    const box = this.root.querySelector("#actions");
    box.hidden = !st.your_turn;
    const focusKey = document.activeElement?.dataset?.minutes;
    box.innerHTML = `<div class="actions-head"><h3>${esc(raw("web", "actions_title"))}</h3></div>`
      + (st.your_turn ? renderActions(model, this.withWanted(st), this.ui, this.busy) : "");
    if (focusKey) box.querySelector(`input[data-minutes="${CSS.escape(focusKey)}"]`)?.focus();
    this.root.querySelector("#crew").innerHTML = renderCrew(model);
    const log = st.log || [];
    this.root.querySelector("#log").innerHTML = renderLog(model, log, Math.max(0, log.length - 12));
    const list = this.root.querySelector("#log ol");
    if (list) list.scrollTop = list.scrollHeight;
    this.root.querySelector(".learn-lesson").dataset.plays = String(this.plays.length);
  }
}
