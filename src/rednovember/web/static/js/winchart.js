// The win-chance graph of the replay viewer: the crew's chance to win at every point of a
// finished game (GET /api/games/{id}/winchance, computed by the server off its event loop: 202
// "computing" until ready, so this asks again), its 95% band, the step shown, and the turning
// points marked, numbered and listed; clicking one (or anywhere on the graph) jumps to that step.

import { raw, t } from "./i18n.js";
import { api } from "./net.js";
import { describeEntry } from "./describe.js";
import { esc } from "./svg.js";

const L = 40, R = 12, T = 12, B = 24; // the SVG's margins; its box is the card's width in px
const POLL_MS = 1000;

const pct = (x) => t("analyse", "percent", { value: Math.round(100 * x) });

// The minutes between the axis's two ends worth a label: every 10 (every 5 in a short game), each
// where the game first reached it (the x axis counts steps, not minutes), none nearer than 30px to
// another label or outside [from, to].
function minuteTicks(points, x, from, to) {
  if (points.length < 2) return [];
  const start = points[0].minute, end = points[points.length - 1].minute;
  const every = end - start > 40 ? 10 : 5;
  const ticks = [];
  for (let m = (Math.floor(start / every) + 1) * every; m < end; m += every) {
    const p = points.find((q) => q.minute >= m);
    const at = p ? Math.round(x(p.step)) : NaN;
    if (at >= from && at <= to && (!ticks.length || at - ticks[ticks.length - 1][0] >= 30)) ticks.push([at, m]);
  }
  return ticks;
}

export class WinChart {
  constructor(gameId, onJump, life) {
    this.id = gameId;
    this.onJump = onJump;
    this.data = null;
    this.state = "idle"; // idle, loading, done, unavailable, error
    this.el = null;
    this.step = 0;
    this.model = null;
    this.timer = null;
    this.stopped = false;
    life.listen(window, "resize", () => this.resized()); // the page's life (life.js) removes it
  }

  // `over`: whether the game has ended (a running game has no curve: nothing is asked for).
  async load(over = true) {
    if (this.state !== "idle") return;
    if (!over) { this.state = "unavailable"; this.paint(); return; }
    this.state = "loading";
    this.started = performance.now();
    this.paint();
    const ask = async () => {
      if (this.stopped) return;
      try {
        const d = await api(`/api/games/${encodeURIComponent(this.id)}/winchance`);
        if (this.stopped) return;
        if (d && d.status === "computing") {
          this.progress = d.progress || null; // positions done of all, once the worker is on it
          this.paint();
          this.timer = setTimeout(ask, POLL_MS);
          return;
        }
        this.data = d;
        this.state = "done";
      } catch (e) {
        this.state = e.status === 409 ? "unavailable" : "error";
      }
      this.paint();
    };
    await ask();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  // The placeholder the replay page puts into its HTML; mount() fills it.
  placeholder() {
    return `<section class="card winchart-card" data-testid="winchart" aria-label="${esc(raw("analyse", "chart_title"))}"></section>`;
  }

  mount(el, step, model) {
    this.el = el;
    this.step = step;
    this.model = model;
    this.paint();
  }

  // While the server computes (it may take a minute): what it does, a progress bar (the positions
  // evaluated, when the server says; else one that only shows it is busy) and the time elapsed.
  // Built once, then only the bar and the numbers change (the status line is read out once).
  paintWaiting(head) {
    const el = this.el;
    if (!el.querySelector("[data-testid=winchart-progress]")) {
      el.innerHTML = `${head}<p class="muted" data-testid="winchart-status" role="status">${esc(raw("analyse", "web_loading"))}</p>
        <div class="wc-wait"><progress data-testid="winchart-progress" aria-label="${esc(raw("analyse", "web_loading"))}"></progress>
        <span class="muted wc-elapsed" data-testid="winchart-elapsed"></span></div>`;
    }
    const bar = el.querySelector("progress");
    const p = this.progress;
    const bits = [];
    if (p && p.total) {
      bar.max = p.total;
      bar.value = p.done;
      bits.push(t("analyse", "web_progress", { done: p.done, total: p.total }));
    } else {
      bar.removeAttribute("value"); // indeterminate: waiting for the worker
    }
    bits.push(t("analyse", "web_elapsed", { seconds: Math.round((performance.now() - this.started) / 1000) }));
    el.querySelector(".wc-elapsed").textContent = bits.join(" · ");
    el.dataset.progress = p && p.total ? String(p.done / p.total) : "";
  }

  sentence(tp) {
    const what = (tp.entries || []).map((e) => clause(describeEntry(this.model, e))).join(raw("meta", "list_sep"))
      || raw("analyse", "quiet");
    return t("analyse", "swing", { minute: tp.minute, space: tp.space, what, before: pct(tp.before), after: pct(tp.after) });
  }

  // A new width redraws the graph only: the list under it stays the same elements (a focused
  // item keeps its focus, and nothing a reader or a test holds is replaced mid-way).
  resized() {
    const el = this.el;
    const svg = el && el.isConnected && this.state === "done" ? el.querySelector("svg") : null;
    if (!svg) { this.paint(); return; }
    const { W } = this.size();
    if (W === this.width) return;
    const box = document.createElement("div");
    box.innerHTML = this.graph();
    svg.replaceWith(box.firstElementChild);
    this.listenGraph();
  }

  size() {
    const W = Math.max(280, Math.round(this.el.clientWidth - 28));
    return { W, H: W < 560 ? 160 : 200 };
  }

  paint() {
    const el = this.el;
    if (!el || !el.isConnected) return;
    el.dataset.state = this.state;
    const head = `<h3>${esc(raw("analyse", "chart_title"))}</h3>`;
    if (this.state === "loading") { this.paintWaiting(head); return; }
    if (this.state !== "done") {
      const key = { unavailable: "web_unavailable", error: "web_error" }[this.state] || "web_loading";
      el.innerHTML = `${head}<p class="muted" data-testid="winchart-status" role="status">${esc(raw("analyse", key))}</p>`;
      return;
    }
    const { turning } = this.data;
    const list = turning.length
      ? `<ol class="wc-list">${turning.map((tp, i) => `<li><button type="button" class="wc-item ${tp.after >= tp.before ? "up" : "down"}" data-step="${tp.step}" data-testid="winchart-turn-item"><span class="wc-num">${i + 1}</span> ${esc(this.sentence(tp))}</button></li>`).join("")}</ol>`
      : `<p class="muted">${esc(raw("analyse", "none"))}</p>`;
    el.innerHTML = `${head}${this.graph()}<p class="muted wc-legend">${esc(raw("analyse", "web_legend"))}</p>${list}`;
    this.listenGraph();
    for (const b of el.querySelectorAll(".wc-item")) b.onclick = () => this.onJump(Number(b.dataset.step));
  }

  // The graph's SVG at the card's present width (kept in this.width).
  graph() {
    const { points, turning, steps } = this.data;
    const { W, H } = this.size();
    this.width = W;
    const x = (s) => L + (W - L - R) * (steps ? s / steps : 0);
    const y = (p) => T + (H - T - B) * (1 - p);
    const line = points.map((p, i) => `${i ? "L" : "M"}${x(p.step).toFixed(1)},${y(p.chance).toFixed(1)}`).join("");
    const band = points.map((p) => `${x(p.step).toFixed(1)},${y(p.high).toFixed(1)}`)
      .concat(points.slice().reverse().map((p) => `${x(p.step).toFixed(1)},${y(p.low).toFixed(1)}`)).join(" ");
    const grid = [0, 0.5, 1].map((v) => `<line class="wc-grid" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/>`
      + `<text class="wc-axis" x="${L - 5}" y="${y(v) + 4}" text-anchor="end">${esc(pct(v))}</text>`).join("");
    const last = points[points.length - 1] || { minute: 0 };
    const first = `${raw("analyse", "axis_minute")} ${points[0]?.minute ?? 0}`;
    const axis = `<text class="wc-axis" x="${L}" y="${H - 6}">${esc(first)}</text>`
      + minuteTicks(points, x, L + 7 * first.length + 8, W - R - 24).map(([at, m]) =>
        `<line class="wc-tick" x1="${at}" x2="${at}" y1="${H - B}" y2="${H - B + 4}"/>`
        + `<text class="wc-axis" data-testid="winchart-tick" x="${at}" y="${H - 6}" text-anchor="middle">${m}</text>`).join("")
      + `<text class="wc-axis" x="${W - R}" y="${H - 6}" text-anchor="end">${esc(String(last.minute))}</text>`;
    const now = `<line class="wc-now" data-testid="winchart-now" x1="${x(this.step)}" x2="${x(this.step)}" y1="${T}" y2="${H - B}"/>`;
    const marks = turning.map((tp, i) => {
      const cls = tp.after >= tp.before ? "up" : "down";
      const cx = x(tp.step), cy = y(tp.after);
      return `<g class="wc-turn ${cls}${tp.step === this.step ? " current" : ""}" data-step="${tp.step}" data-testid="winchart-turn">`
        + `<title>${esc(this.sentence(tp))}</title><line x1="${x(tp.from_step)}" x2="${cx}" y1="${y(tp.before)}" y2="${cy}"/>`
        + `<circle cx="${cx}" cy="${cy}" r="9"/><text x="${cx}" y="${cy + 4}" text-anchor="middle">${i + 1}</text></g>`;
    }).join("");
    return `<svg class="wc-svg" viewBox="0 0 ${W} ${H}" role="img" data-testid="winchart-svg" aria-label="${esc(raw("analyse", "chart_title"))}">
        ${grid}<polygon class="wc-band" points="${band}"/><path class="wc-line" d="${line}"/>${now}${axis}${marks}
      </svg>`;
  }

  // Clicking a mark jumps to its step; anywhere else on the graph, to the nearest step.
  listenGraph() {
    const svg = this.el.querySelector("svg");
    const { steps } = this.data;
    const W = this.width;
    svg.addEventListener("click", (e) => {
      const turn = e.target.closest("[data-step]");
      if (turn) { this.onJump(Number(turn.dataset.step)); return; }
      const box = svg.getBoundingClientRect(); // anywhere else: the nearest step
      const sx = ((e.clientX - box.left) / box.width) * W;
      this.onJump(Math.max(0, Math.min(steps, Math.round(((sx - L) / (W - L - R)) * steps))));
    });
  }
}

// A log sentence as one clause of a list: without its closing stop or exclamation mark (and the
// ¡ that opens a Spanish one, wherever it stands), as analysis/turning.py's clause.
export function clause(sentence) {
  const text = sentence.replace(/[\s.]+$/u, "");
  if (!text.endsWith("!")) return text;
  const bare = text.replace(/[\s!]+$/u, "");
  const opened = bare.lastIndexOf("¡");
  return opened >= 0 ? bare.slice(0, opened) + bare.slice(opened + 1) : bare;
}
