// The end screen of a finished game: the result said once, then the game's story from
// GET /api/games/{id}/story (docs/protocol.md): minutes survived, deaths, repairs per kind, a row
// per gnome and the disaster tracks (and fires / floods) over time as small SVG charts.
// The story is fetched once per page; until it arrives the result stands alone.

import { raw, t } from "./i18n.js";
import { api } from "./net.js";
import { botName, gnomeName, roomName } from "./describe.js";
import { attrs, COLOURS, esc, TRACK_COLOURS } from "./svg.js";
import { hintsNote } from "./advisor.js";

const FIRE_COLOUR = "#f07f14";
const FLOOD_COLOUR = "#4dabf7";

export class EndScreen {
  constructor(gameId, onChange, onRead = null) {
    this.id = gameId;
    this.onChange = onChange; // called when the story arrives (or fails): draw again
    this.onRead = onRead; // "Read the story": the page shows the end screen first (a phone's sheet)
    this.story = null;
    this.state = "idle"; // idle | loading | ready | failed
  }

  // The buttons of the end screen and of the board's end overlay.
  mount(...els) {
    for (const el of els) {
      el.addEventListener("click", (e) => {
        const b = e.target.closest("[data-end-retry],[data-read-story]");
        if (!b) return;
        if (b.dataset.endRetry !== undefined) { this.state = "idle"; this.onChange(); }
        else if (this.onRead) this.onRead();
        else this.readStory();
      });
    }
  }

  load() {
    if (this.state !== "idle") return;
    this.state = "loading";
    api(`/api/games/${encodeURIComponent(this.id)}/story`)
      .then((s) => { this.story = s; this.state = "ready"; })
      .catch(() => { this.state = "failed"; })
      .finally(() => this.onChange());
  }

  // "Read the story": the story itself (its first part below the result) comes to the top of the
  // window, whichever box scrolls it (the page, or a phone's sheet).
  readStory() {
    const result = document.getElementById("result");
    if (!result) return;
    this.toTop(result.querySelector("[data-testid=end-deaths]") || result); // past the headline
  }

  // Brings `el` to the top of whichever box scrolls it (the page, or a phone's sheet, whose tabs
  // stay on top of it: held sideways, below the disaster tracks' strip).
  toTop(el) {
    const bar = document.querySelector(".col-side .sheet-bar");
    const shown = bar && bar.offsetParent !== null;
    const below = shown ? bar.offsetHeight + (parseFloat(getComputedStyle(bar).top) || 0) + 8 : 0;
    el.style.scrollMarginTop = shown ? `${below}px` : "";
    el.scrollIntoView({ block: "start", behavior: "instant" });
  }

  // The overlay on the board when the game ends: won or lost, for the crew and (`mine`: true,
  // false, null for a spectator) for the player; it points to the end screen and its story, and
  // (`rematch`: "rematch" or "rematch_join", for those who may) to the next game; a spectator
  // gets a link to watch it once it started (`watch`: its address).
  overlay(model, mine = null, rematch = null, watch = null) {
    const won = mine === null ? model.view.result.won : mine;
    const key = mine === null ? (won ? "overlay_won" : "overlay_lost") : (won ? "overlay_you_won" : "overlay_you_lost");
    const next = rematch ? `<button type="button" class="btn primary" data-rematch data-testid="overlay-rematch">${esc(raw("web", rematch))}</button>`
      : watch ? watchLink(watch, "overlay-rematch-watch") : "";
    return `<div class="overlay-card ${won ? "won" : "lost"}" data-testid="end-overlay" data-won="${won}" role="dialog" aria-modal="false" aria-labelledby="end-overlay-title">
      <h2 id="end-overlay-title" data-testid="end-overlay-title">${esc(raw("web_end", key))}</h2>
      <p class="end-overlay-buttons">${next}<button type="button" class="btn${next ? "" : " primary"}" data-read-story data-testid="read-story">${esc(raw("web_end", "read_story"))}</button>
      <button type="button" class="btn" data-close-overlay data-testid="close-overlay">${esc(raw("web", "see_board"))}</button></p></div>`;
  }

  render(model) {
    const r = model.view.result;
    if (!r) return "";
    this.load();
    const s = this.state === "ready" ? this.story : null;
    let out = `<div class="end-screen" data-testid="end-screen" data-story="${esc(this.state)}">`;
    out += this.headline(model, s);
    out += hintsNote(this.id, this.onChange); // were hints used (advisor.js)
    if (s) {
      out += this.deaths(model, s) + this.repairs(s) + this.crew(model, s) + this.charts(model, s);
    } else if (this.state === "failed") {
      out += `<p class="end-note" role="alert">${esc(raw("web_end", "failed"))}
        <button type="button" class="btn small" data-end-retry data-testid="end-retry">${esc(raw("web_end", "retry"))}</button></p>`;
    } else {
      out += `<p class="end-note muted" data-testid="end-loading">${esc(raw("web_end", "loading"))}</p>`;
    }
    return out + `</div>`;
  }

  // --- parts -----------------------------------------------------------------------------------
  headline(model, s) {
    const r = model.view.result;
    const text = r.won ? raw("result", "won") : t("result", "lost", { cause: raw("loss_causes", r.cause) });
    let out = `<div class="result-box end-result ${r.won ? "won" : "lost"}" data-testid="game-over">
      <h2 data-testid="result-headline">${esc(text)}</h2>`;
    for (const g of model.view.gnomes.filter((x) => x.abandoned)) {
      const won = r.won !== g.abandoned;
      out += `<p class="end-abandoned" data-testid="end-abandoned">${esc(t("web_end", won ? "abandoned_won" : "abandoned_lost",
        { gnome: gnomeName(model, g.number), player: model.seatName(g.player) }))}</p>`;
    }
    if (s) {
      out += `<p class="end-survived" data-testid="end-survived">${esc(t("web_end", "survived",
        { minutes: s.minutes, start: s.start }))} · ${esc(t("web_end", "turns", { turns: s.turns }))}</p>`;
    }
    return out + `</div>`;
  }

  deaths(model, s) {
    let out = `<section class="end-part" data-testid="end-deaths"><h3>${esc(raw("web_end", "deaths_title"))}</h3>`;
    if (!s.deaths.length) return out + `<p class="muted" data-testid="end-no-deaths">${esc(raw("web_end", "no_deaths"))}</p></section>`;
    out += `<ol class="end-deaths">`;
    for (const d of s.deaths) {
      const colour = COLOURS[d.colour] || d.colour;
      const where = d.room >= 0 ? roomName(model, d.room) : "";
      out += `<li data-testid="end-death" data-gnome="${d.gnome}" style="--gc:${esc(colour)}">
        <span class="end-dot" aria-hidden="true"></span>
        <span><strong>${esc(t("web_end", "death_line", { gnome: gnomeName(model, d.gnome), cause: raw("death_causes", d.cause) }))}</strong>
        <small>${esc(t("web_end", "death_when", { room: where, minute: d.minute, space: s.start - d.minute, turn: d.turn }))}${d.replaced ? " · " + esc(raw("web_end", "replaced")) : ""}</small></span></li>`;
    }
    return out + `</ol></section>`;
  }

  fate(model, row) {
    const r = model.view.result;
    const what = row.abandoned ? "fate_abandoned" : !row.alive ? "fate_died" : r.won ? "fate_rescued" : "fate_sank";
    return { text: raw("web_end", what), won: row.won };
  }

  crew(model, s) {
    const cols = ["turns", "actions", "repairs", "items", "faints"];
    let out = `<section class="end-part" data-testid="end-crew"><h3>${esc(raw("web_end", "crew_title"))}</h3>
      <div class="end-table"><table class="end-crew"><thead><tr><th scope="col">${esc(raw("web_end", "col_gnome"))}</th>`;
    for (const c of cols) out += `<th scope="col" title="${esc(raw("web_end", `help_${c}`))}">${esc(raw("web_end", `col_${c}`))}</th>`;
    out += `</tr></thead><tbody>`;
    for (const row of s.gnomes) {
      const f = this.fate(model, row);
      const colour = COLOURS[row.colour] || row.colour;
      const result = raw("web_end", f.won ? "wins" : "loses");
      out += `<tr data-testid="end-gnome-${row.number}" class="${f.won ? "won" : "lost"}" style="--gc:${esc(colour)}">
        <th scope="row"><span class="end-dot" aria-hidden="true"></span><strong>${esc(gnomeName(model, row.number))}</strong>
          <span class="end-player" data-testid="end-player-${row.number}">${esc(endPlayer(model, row.seat))}</span>
          <span class="end-fate" data-testid="end-fate-${row.number}">${esc(f.text)} · <b>${esc(result)}</b></span></th>
        <td>${row.turns}</td><td>${row.actions}</td>
        <td title="${esc(t("web_end", "made_of", { made: row.repairs_made, tried: row.repairs_tried }))}">${row.repairs_made}/${row.repairs_tried}</td>
        <td>${row.items_used}</td><td>${row.faints}</td></tr>`;
    }
    return out + `</tbody></table></div></section>`;
  }

  repairs(s) {
    const kinds = Object.entries(s.repairs);
    const tried = kinds.reduce((n, [, v]) => n + v.tried, 0);
    const made = kinds.reduce((n, [, v]) => n + v.made, 0);
    let out = `<section class="end-part" data-testid="end-repairs"><h3>${esc(raw("web_end", "repairs_title"))}</h3>`;
    out += `<p class="muted" data-testid="end-repairs-total">${esc(t("web_end", "repairs_total", { made, tried }))}</p><ul class="end-repairs">`;
    for (const [kind, v] of kinds) {
      out += `<li class="${v.tried ? "" : "none"}" data-testid="end-repair-${esc(kind)}"><span>${esc(raw("action_kinds", kind))}</span>
        <b title="${esc(t("web_end", "made_of", { made: v.made, tried: v.tried }))}">${v.made}/${v.tried}</b></li>`;
    }
    return out + `</ul></section>`;
  }

  charts(model, s) {
    return `<section class="end-part" data-testid="end-charts"><h3>${esc(raw("web_end", "tracks_title"))}</h3>
      ${trackChart(s)}${boardChart(s)}</section>`;
  }
}

// --- charts ----------------------------------------------------------------------------------------
const W = 400, PAD_L = 26, PAD_R = 34, PAD_T = 8;

// A spectator's way to the rematch the players started: a link to watch it (`href`: its address).
export function watchLink(href, testid) {
  return `<a class="btn primary" href="${esc(href)}" data-testid="${testid}">${esc(raw("web", "rematch_watch"))}</a>`;
}

function xOf(minute, start) { return PAD_L + (minute / Math.max(1, start)) * (W - PAD_L - PAD_R); }

// A step line (a level holds until the next point) through the points [[minute, value]].
function steps(points, x, y) {
  let d = "";
  points.forEach(([m, v], i) => {
    if (i === 0) d += `M${x(m).toFixed(1)},${y(v).toFixed(1)}`;
    else d += `H${x(m).toFixed(1)}V${y(v).toFixed(1)}`;
  });
  return d;
}

function xAxis(start, bottom) {
  let g = `<line class="axis" x1="${PAD_L}" x2="${W - PAD_R}" y1="${bottom}" y2="${bottom}"/>`;
  for (let m = 0; m <= start; m += 10) {
    const x = xOf(m, start).toFixed(1);
    g += `<line class="tick" x1="${x}" x2="${x}" y1="${bottom}" y2="${bottom + 3}"/><text class="lbl" x="${x}" y="${bottom + 13}" text-anchor="middle">${m}</text>`;
  }
  return g;
}

function trackChart(s) {
  const H = 170, bottom = H - 22, L = s.track_length, start = s.start;
  const y = (v) => PAD_T + ((L - v) / Math.max(1, L - 1)) * (bottom - PAD_T - 6);
  const x = (m) => xOf(m, start);
  const last = s.timeline[s.timeline.length - 1];
  const summary = s.tracks.map((name, i) => `${raw("tracks", name)} ${last.tracks[i]}/${L}`).join(", ");
  let svg = `<svg class="end-chart" data-testid="end-chart" viewBox="0 0 ${W} ${H}" role="img" ${attrs({
    "aria-label": t("web_end", "tracks_label", { minutes: s.minutes, levels: summary }) })}>`;
  for (let v = 1; v <= L; v++) {
    svg += `<line class="grid${v === L ? " doom" : ""}" x1="${PAD_L}" x2="${W - PAD_R}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/>`;
    if (v === 1 || v === L || v % 3 === 0) svg += `<text class="lbl" x="${PAD_L - 5}" y="${(y(v) + 3.5).toFixed(1)}" text-anchor="end">${v}</text>`;
  }
  svg += `<text class="lbl doom" x="${W - PAD_R + 4}" y="${(y(L) + 3.5).toFixed(1)}">☠</text>`;
  svg += xAxis(start, bottom);
  const xs = x(s.minutes).toFixed(1);
  svg += `<line class="end-at" x1="${xs}" x2="${xs}" y1="${PAD_T}" y2="${bottom}"/>`;
  s.tracks.forEach((name, i) => {
    const off = (i - 1) * 1.6; // lines on the same level stay apart
    const pts = s.timeline.map((p) => [p.minute, p.tracks[i]]);
    const colour = TRACK_COLOURS[name] || "#ccc";
    svg += `<path class="line" data-testid="end-line-${esc(name)}" d="${steps(pts, x, (v) => y(v) + off)}" stroke="${colour}"/>`;
    const v = last.tracks[i];
    svg += `<g data-testid="end-mark-${esc(name)}" data-level="${v}"><circle cx="${xs}" cy="${(y(v) + off).toFixed(1)}" r="4" fill="${colour}"/>
      <text class="val" x="${(x(s.minutes) + 7 + i * 9).toFixed(1)}" y="${(y(v) + 4).toFixed(1)}" fill="${colour}">${v}</text></g>`;
  });
  svg += `</svg>`;
  const legend = s.tracks.map((name, i) => `<li><span class="swatch" style="background:${TRACK_COLOURS[name] || "#ccc"}"></span>${esc(raw("tracks", name))} <b>${last.tracks[i]}/${L}</b></li>`).join("");
  return svg + `<ul class="end-legend">${legend}<li class="muted">${esc(t("web_end", "axis_minutes", {}))}</li></ul>`;
}

function boardChart(s) {
  const H = 96, bottom = H - 22, start = s.start;
  const top = Math.max(3, ...s.timeline.map((p) => Math.max(p.fires, p.floods)));
  const y = (v) => PAD_T + ((top - v) / top) * (bottom - PAD_T);
  const x = (m) => xOf(m, start);
  const last = s.timeline[s.timeline.length - 1];
  let svg = `<svg class="end-chart small" data-testid="end-board-chart" viewBox="0 0 ${W} ${H}" role="img" ${attrs({
    "aria-label": t("web_end", "board_label", { fires: last.fires, floods: last.floods }) })}>`;
  for (const v of [0, top]) {
    svg += `<line class="grid" x1="${PAD_L}" x2="${W - PAD_R}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/><text class="lbl" x="${PAD_L - 5}" y="${(y(v) + 3.5).toFixed(1)}" text-anchor="end">${v}</text>`;
  }
  svg += xAxis(start, bottom);
  for (const [key, colour, off] of [["fires", FIRE_COLOUR, -1], ["floods", FLOOD_COLOUR, 1]]) {
    svg += `<path class="line thin" data-testid="end-line-${key}" d="${steps(s.timeline.map((p) => [p.minute, p[key]]), x, (v) => y(v) + off)}" stroke="${colour}"/>`;
  }
  svg += `</svg>`;
  return svg + `<ul class="end-legend"><li><span class="swatch" style="background:${FIRE_COLOUR}"></span>${esc(raw("web_end", "fires"))} <b>${last.fires}</b></li>
    <li><span class="swatch" style="background:${FLOOD_COLOUR}"></span>${esc(raw("web_end", "floods"))} <b>${last.floods}</b></li></ul>`;
}

// Who played a gnome's seat at the end: its player; a seat a bot plays for its player names both
// ("Bea · Easy bot").
function endPlayer(model, seat) {
  const s = model.seats.find((x) => x.seat === seat);
  return s && s.kind === "bot" && s.owner ? `${s.owner} · ${botName(s.bot || s.name)}` : model.seatName(seat);
}
