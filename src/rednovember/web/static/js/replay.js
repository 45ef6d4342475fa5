// The replay viewer at /g/{id}/replay: any game stepped through move by move, the board and the
// time track at each step rebuilt by the server from the game's seed and action log, and what
// each move did. ?step=N in the address makes a step shareable; arrow keys step too.

import { raw, t } from "./i18n.js";
import { api } from "./net.js";
import { Model, normalizeData } from "./model.js";
import { renderBoard } from "./board.js";
import { renderTrack } from "./track.js";
import { renderCrew, renderLog, renderResult } from "./panels.js";
import { esc } from "./svg.js";
import { errorText } from "./ui.js";
import { loadGame, stopLoading } from "./load.js";
import { url } from "./root.js";
import { markScrollable } from "./scrollkeys.js";
import { WinChart } from "./winchart.js";
import { PageLife } from "./life.js";
import { centre } from "./mobile.js";

export class ReplayPage {
  constructor(root, id, ctx) {
    this.root = root;
    this.id = id;
    this.ctx = ctx;
    this.life = new PageLife();
    this.data = ctx.data ? normalizeData(ctx.data) : null;
    this.summary = null;
    this.at = null; // the server's answer for the step shown
    this.loading = 0;
    this.chart = new WinChart(id, (step) => this.go(step, true), this.life); // a turning point: show the board
  }

  async start() {
    this.root.innerHTML = `<p class="loading">…</p>`;
    this.summary = await loadGame(this);
    if (!this.summary || this.life.ended) return;
    const asked = new URLSearchParams(location.search).get("step");
    const want = asked === null || asked === "" ? NaN : Number(asked);
    this.life.listen(document, "keydown", (e) => this.key(e));
    await this.go(Number.isInteger(want) && want >= 0 ? want : null);  // no step: the last
    if (!this.life.ended) this.chart.load(this.at && this.at.over);
  }

  destroy() {
    stopLoading(this);
    this.life.end();
    this.chart.stop();
  }

  key(e) {
    if (!this.at || e.target.closest?.("input, select, textarea")) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (e.key in moves) { e.preventDefault(); this.go(this.at.step + moves[e.key]); }
  }

  // Shows a step; `reveal`: then scrolls the board into view unless most of it shows already.
  async go(step, reveal = false) {
    const last = this.at ? this.at.steps : Infinity;
    const target = step === null ? null : Math.max(0, Math.min(last, step));
    const ticket = ++this.loading;
    try {
      // without a step: first ask for step 0 to learn the number of steps, then show the last
      let at = await api(`/api/games/${encodeURIComponent(this.id)}/replay/${target ?? 0}`);
      if (target === null && at.steps > 0) at = await api(`/api/games/${encodeURIComponent(this.id)}/replay/${at.steps}`);
      if (ticket !== this.loading || this.life.ended) return; // a later click won, or the page went
      this.at = at;
      history.replaceState({}, "", url(`/g/${encodeURIComponent(this.id)}/replay?step=${at.step}`));
      this.render();
      if (reveal) this.revealBoard();
    } catch (e) {
      if (this.life.ended) return;
      this.root.querySelector("[data-testid=replay-status]")?.replaceChildren(document.createTextNode(errorText(e)));
    }
  }

  revealBoard() {
    const board = this.root.querySelector("[data-testid=board]");
    if (!board) return;
    const r = board.getBoundingClientRect();
    const shown = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
    if (r.top < 0 || shown < Math.min(r.height, innerHeight) * 0.75) board.scrollIntoView({ block: "start" });
  }

  model() {
    return new Model(this.data, this.at.view, this.summary.config, this.summary.seats, null);
  }

  render() {
    if (!this.at) return;
    const { step, steps } = this.at;
    const model = this.model();
    const actor = this.at.actor === null ? "" : ` — ${model.seatName(this.at.actor)}`;
    const log = this.at.log || [];
    this.root.innerHTML = `
      <div class="game replay" data-testid="replay-page" data-step="${step}" data-steps="${steps}">
        <div class="replay-bar card">
          <a href="${esc(url(`/g/${encodeURIComponent(this.id)}`))}" data-testid="replay-back">${esc(raw("web", "replay_back"))}</a>
          <h2>${esc(raw("web", "replay_title"))}</h2>
          <div class="replay-controls" role="group" aria-label="${esc(raw("web", "replay_title"))}">
            <button type="button" class="btn small" data-go="0" data-testid="replay-first" aria-label="${esc(raw("web", "replay_first"))}" ${step === 0 ? "disabled" : ""}>«</button>
            <button type="button" class="btn small" data-go="${step - 1}" data-testid="replay-prev" aria-label="${esc(raw("web", "replay_prev"))}" ${step === 0 ? "disabled" : ""}>◀</button>
            <input type="range" min="0" max="${steps}" value="${step}" data-testid="replay-slider" aria-label="${esc(raw("web", "replay_step_label"))}">
            <button type="button" class="btn small" data-go="${step + 1}" data-testid="replay-next" aria-label="${esc(raw("web", "replay_next"))}" ${step >= steps ? "disabled" : ""}>▶</button>
            <button type="button" class="btn small" data-go="${steps}" data-testid="replay-last" aria-label="${esc(raw("web", "replay_last"))}" ${step >= steps ? "disabled" : ""}>»</button>
          </div>
          <p class="muted" data-testid="replay-status" aria-live="polite">${esc(t("web", "replay_step", { step, steps }))}${esc(actor)}${this.at.over ? "" : " · " + esc(raw("web", "replay_running"))}</p>
        </div>
        ${this.chart.placeholder()}
        <div class="game-grid">
          <div class="col-board">
            <div id="board" class="board-wrap" data-testid="board">${renderBoard(model)}</div>
            <div id="track" class="track-wrap" data-testid="time-track">${renderTrack(model)}</div>
          </div>
          <aside class="col-side">
            ${this.at.result ? `<section class="card">${renderResult(model)}</section>` : ""}
            <section class="card log-card" data-testid="replay-log">${log.length ? renderLog(model, log, 0) : `<p class="muted">${esc(raw("web", "replay_start"))}</p>`}</section>
            <section class="card crew-card">${renderCrew(model)}</section>
          </aside>
        </div>
      </div>`;
    for (const b of this.root.querySelectorAll("[data-go]")) b.onclick = () => this.go(Number(b.dataset.go));
    const slider = this.root.querySelector("[data-testid=replay-slider]");
    slider.onchange = () => this.go(Number(slider.value));
    this.chart.mount(this.root.querySelector("[data-testid=winchart]"), step, model);
    // a phone's track pans: show the keeper who moves (at the end, the keepers)
    centre(this.root.querySelector("#track"), [".keeper.active, .ghost", ".keeper"]);
    markScrollable(this.root);
  }
}
