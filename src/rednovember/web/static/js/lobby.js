// The start page: create a game (players, gnomes, variants, seed, open or unlisted table, pace:
// real-time with a turn timer or turn-based with a deadline per decision), open a game by link or
// id, the open tables (listed, waiting for players) with their pace and free seats, and this
// browser's own games.

import { raw, t } from "./i18n.js";
import { api, store } from "./net.js";
import { COLOURS, esc } from "./svg.js";
import { navigate } from "./router.js";
import { errorText, toast } from "./ui.js";
import { durationText, paceText, timerText } from "./timer.js";
import { url } from "./root.js";
import { PageLife } from "./life.js";
import { deadlineText, myTurn, unreadLines } from "./mygames.js";

const VARIANTS = ["harder", "hardest", "less-deadly-death", "mad-gnomes"];
const LEVELS = { harder: "hardest", hardest: "harder" }; // one of the two at most
const TIMERS = [0, 30, 60, 120, 300]; // seconds per decision; 0: off
const AWAY_BOTS = [0, 60, 120, 300, 600]; // seconds an absent player's decision waits for a bot
const DEADLINES = [3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400]; // a turn-based table's seconds per decision
const OPEN_TABLE = 120; // an open table's turn timer and away bot unless the form says otherwise
const MY_GAMES = 12; // at most this many of the browser's own games are looked up

// A game's variants by their names ("Harder, Mad Gnomes"), without their explanations.
function variantNames(variants) {
  return variants.map((v) => raw("variants", v).split(" (")[0]).join(", ");
}

// The summaries of the browser's games with their activity (POST /api/me: one request, and the
// chat's length for the unread badge); one by one if that is refused (e.g. rate-limited).
async function myGames(ids) {
  if (!ids.length) return [];
  try {
    return (await api("/api/me", { method: "POST", body: { games: ids } })).games || [];
  } catch {
    const one = (id) => api(`/api/games/${encodeURIComponent(id)}`).catch(() => null);
    return (await Promise.all(ids.map(one))).filter(Boolean);
  }
}

// Whether a seat this browser holds must decide in the game (its summary).
function yourTurn(g) {
  return myTurn(g, store.get(g.id));
}

export class LobbyPage {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.life = new PageLife();
    this.games = [];
    this.mine = [];
    this.form = { players: 4, per: null, variants: new Set(), seed: "", listed: false, timer: 0, hints: true,
      away: 0, pace: "real-time", deadline: 86400, touched: new Set() };
  }

  start() {
    this.render();
    this.refresh();
    document.getElementById("top-game").innerHTML = "";
  }

  destroy() { this.life.end(); }

  async refresh() {
    const ids = store.myGames().slice(-MY_GAMES).reverse();
    const [open, mine] = await Promise.all([
      api("/api/games?limit=30").then((r) => r.games || []).catch(() => []),
      myGames(ids),
    ]);
    if (this.life.ended) return; // the lobby was left meanwhile: #app is another page's
    // a rematch started while nobody here looked: this browser's tokens hold its seats too
    if (store.followRematches(mine)) { this.refresh(); return; }
    this.fetched = Date.now();
    this.games = open;
    // the games where this browser's seat must decide first, then the newest
    const turn = (g) => (yourTurn(g) ? 0 : 1);
    this.mine = mine.filter(Boolean).sort((a, b) => turn(a) - turn(b) || (a.created < b.created ? 1 : -1));
    this.renderGames();
  }

  perRange() {
    const p = this.form.players;
    if (p === 1) return [3, 8, 3];
    return null;
  }

  render() {
    const f = this.form;
    const variants = this.ctx.meta?.variants || VARIANTS;
    const range = this.perRange();
    let per = "";
    if (range) {
      const [lo, hi, def] = range;
      const cur = f.per ?? def;
      per = `<label class="field"><span>${esc(raw("web", "gnomes_per_player"))}</span>
        <select id="f-per" data-testid="create-gnomes">${Array.from({ length: hi - lo + 1 }, (_, i) => lo + i)
          .map((n) => `<option value="${n}" ${n === cur ? "selected" : ""}>${n}</option>`).join("")}</select>
        <small>${esc(raw("web", "gnomes_per_player_help"))}</small></label>`;
    } else if (f.players === 2) {  // R16: two players run exactly two gnomes each
      per = `<p class="field-note" data-testid="create-gnomes-note">${esc(raw("web", "gnomes_per_player_help"))}</p>`;
    }
    this.root.innerHTML = `
      <div class="lobby">
        <section class="card intro">
          <h1>${esc(raw("ui", "title"))}</h1>
          <p>${esc(raw("web", "intro"))}</p>
          <p><a class="btn" href="${esc(url("/learn"))}" data-testid="learn-link">${esc(raw("learn", "open"))}</a></p>
        </section>
        <section class="card open-tables" aria-labelledby="open-h">
          <h2 id="open-h">${esc(raw("web_lobby", "open_tables"))}</h2>
          <div id="games" data-testid="game-list"></div>
        </section>
        <section class="card create" aria-labelledby="create-h">
          <h2 id="create-h">${esc(raw("web", "create_title"))}</h2>
          <form id="create-form" data-testid="create-form">
            <label class="field"><span>${esc(raw("web", "players"))}</span>
              <select id="f-players" data-testid="create-players">${[1, 2, 3, 4, 5, 6, 7, 8]
                .map((n) => `<option value="${n}" ${n === f.players ? "selected" : ""}>${n}</option>`).join("")}</select></label>
            ${per}
            <fieldset class="field variants"><legend>${esc(raw("web", "variants"))}</legend>
              ${variants.map((v) => `<label class="check"><input type="checkbox" value="${esc(v)}" data-testid="variant-${esc(v)}" ${f.variants.has(v) ? "checked" : ""}>
                <span>${esc(raw("variants", v))}</span></label>`).join("")}
            </fieldset>
            <label class="field"><span>${esc(raw("web_lobby", "pace"))}</span>
              <select id="f-pace" data-testid="create-pace">${["real-time", "turn-based"].map((p) => `<option value="${p}" ${p === f.pace ? "selected" : ""}>${esc(raw("web_lobby", `pace_${p.replace("-", "_")}`))}</option>`).join("")}</select>
              ${f.pace === "turn-based" ? `<small>${esc(raw("web_lobby", "pace_help"))}</small>` : ""}</label>
            ${f.pace === "turn-based" ? `<label class="field"><span>${esc(raw("web_lobby", "move_deadline"))}</span>
              <select id="f-deadline" data-testid="create-deadline">${DEADLINES.map((s) => `<option value="${s}" ${s === f.deadline ? "selected" : ""}>${esc(durationText(s))}</option>`).join("")}</select></label>` : `
            <label class="field"><span>${esc(raw("web_lobby", "turn_timer"))}</span>
              <select id="f-timer" data-testid="create-timer">${TIMERS.map((s) => `<option value="${s}" ${s === f.timer ? "selected" : ""}>${esc(s ? t("web_lobby", "timer_setting", { time: timerText(s) }) : raw("web_lobby", "timer_off"))}</option>`).join("")}</select></label>
            <label class="field"><span>${esc(raw("web_lobby", "away_bot"))}</span>
              <select id="f-away" data-testid="create-away-bot">${AWAY_BOTS.map((s) => `<option value="${s}" ${s === f.away ? "selected" : ""}>${esc(s ? t("web_lobby", "away_bot_after", { time: timerText(s) }) : raw("web_lobby", "timer_off"))}</option>`).join("")}</select>
              <small>${esc(raw("web_lobby", "away_bot_help"))}</small></label>`}
            <label class="check listed-check"><input type="checkbox" id="f-listed" data-testid="create-listed" ${f.listed ? "checked" : ""}>
              <span>${esc(raw("web_lobby", "listed"))}<small>${esc(raw("web_lobby", "listed_help"))}</small></span></label>
            <label class="check hints-check"><input type="checkbox" id="f-hints" data-testid="create-hints" ${f.hints ? "checked" : ""}>
              <span>${esc(raw("advisor", "setting"))}<small>${esc(raw("advisor", "setting_help"))}</small></span></label>
            <label class="field"><span>${esc(raw("web", "seed"))}</span>
              <input id="f-seed" type="number" inputmode="numeric" min="0" step="1" placeholder="${esc(raw("web", "seed_random"))}" value="${esc(f.seed)}" data-testid="create-seed"></label>
            <button class="btn primary" type="submit" data-testid="create-game">${esc(raw("web", "create_button"))}</button>
          </form>
        </section>
        <section class="card join" aria-labelledby="join-h">
          <h2 id="join-h">${esc(raw("web", "join_title"))}</h2>
          <form id="join-form" class="inline">
            <input id="f-join" type="text" placeholder="${esc(raw("web", "join_placeholder"))}" aria-label="${esc(raw("web", "join_placeholder"))}" data-testid="join-input">
            <button class="btn" type="submit" data-testid="join-button">${esc(raw("web", "join_button"))}</button>
          </form>
          <h3>${esc(raw("web_lobby", "your_games"))}</h3>
          <div id="my-games" data-testid="my-games"></div>
          <p><a class="btn small" href="${esc(url("/me"))}" data-testid="lobby-my-games">${esc(raw("web_me", "title"))} →</a></p>
        </section>
      </div>`;
    const el = (id) => this.root.querySelector(id);
    el("#f-players").onchange = (e) => { f.players = Number(e.target.value); f.per = null; this.render(); this.renderGames(); };
    if (el("#f-per")) el("#f-per").onchange = (e) => { f.per = Number(e.target.value); };
    for (const box of this.root.querySelectorAll(".variants input")) {
      box.onchange = () => {
        if (!box.checked) { f.variants.delete(box.value); return; }
        f.variants.add(box.value);
        // Harder and Hardest are two levels: Hardest has Harder's rule too (RULES §12)
        const other = LEVELS[box.value];
        if (other && f.variants.delete(other)) {
          const o = this.root.querySelector(`.variants input[value="${other}"]`);
          if (o) o.checked = false;
        }
      };
    }
    el("#f-seed").oninput = (e) => { f.seed = e.target.value; };
    el("#f-pace").onchange = (e) => { f.pace = e.target.value; this.render(); el("#f-pace").focus(); };
    if (el("#f-deadline")) el("#f-deadline").onchange = (e) => { f.deadline = Number(e.target.value); };
    if (el("#f-timer")) el("#f-timer").onchange = (e) => { f.timer = Number(e.target.value); f.touched.add("timer"); };
    if (el("#f-away")) el("#f-away").onchange = (e) => { f.away = Number(e.target.value); f.touched.add("away"); };
    el("#f-listed").onchange = (e) => {  // an open table: a turn timer and an away bot, unless chosen
      f.listed = e.target.checked;
      for (const k of ["timer", "away"]) {
        if (f.touched.has(k)) continue;
        f[k] = f.listed ? OPEN_TABLE : 0;
        if (el(`#f-${k}`)) el(`#f-${k}`).value = String(f[k]);
      }
    };
    el("#f-hints").onchange = (e) => { f.hints = e.target.checked; };
    el("#create-form").onsubmit = (e) => { e.preventDefault(); this.create(); };
    el("[data-testid=learn-link]").onclick = (e) => { e.preventDefault(); navigate("/learn"); };
    el("[data-testid=lobby-my-games]").onclick = (e) => { e.preventDefault(); navigate("/me"); };
    el("#join-form").onsubmit = (e) => {
      e.preventDefault();
      const v = el("#f-join").value.trim();
      const m = v.match(/([A-Za-z0-9_-]{6,64})\/?$/);
      if (m) navigate(`/g/${m[1]}`);
    };
    this.renderGames();
  }

  renderGames() {
    this.renderOpen();
    const box = this.root.querySelector("#my-games");
    if (!box) return;
    if (!this.mine.length) { box.innerHTML = `<p class="muted">${esc(raw("web_lobby", "no_your_games"))}</p>`; return; }
    box.innerHTML = `<ul class="game-list">${this.mine.map((g) => {
      const status = raw("web", `status_${g.status}`);
      const free = g.seats.filter((s) => s.kind === "free").length;
      // a table still waiting: its free seats; one in play or over: its turn (no seat is free)
      const line = g.status === "waiting" ? t("web_lobby", "table_line", { players: g.config.players, free })
        : t("web", "game_line", { players: g.config.players, turn: g.turn });
      const vs = (g.config.variants || []).length ? " · " + variantNames(g.config.variants) : "";
      const mark = yourTurn(g) ? `<span class="badge gl-turn" data-testid="lobby-your-turn">${esc(raw("web_me", "your_turn"))}</span>` : "";
      const due = deadlineText(g, this.fetched, "lobby-deadline");
      const unread = unreadLines(g);
      const talk = unread ? `<span class="badge me-unread" data-testid="lobby-unread">${esc(t("web_me", "unread", { n: unread }))}</span>` : "";
      return `<li${mark ? ' class="your-turn"' : ""}><a href="${esc(url(`/g/${g.id}`))}" data-id="${esc(g.id)}" data-testid="game-${esc(g.id)}">
        <span class="gl-id">${esc(g.id)}</span>
        <span class="gl-info">${esc(line)}${esc(vs)}${due ? ` · ${due}` : ""}</span>
        ${talk}${mark}<span class="badge status-${esc(g.status)}">${esc(status)}</span></a></li>`;
    }).join("")}</ul>`;
    for (const a of box.querySelectorAll("a[data-id]")) {
      a.onclick = (e) => { e.preventDefault(); navigate(`/g/${a.dataset.id}`); };
    }
  }

  // The open tables: each with its players, variants, turn timer, free seats (colours) and Join.
  renderOpen() {
    const box = this.root.querySelector("#games");
    if (!box) return;
    if (!this.games.length) { box.innerHTML = `<p class="muted" data-testid="no-open-tables">${esc(raw("web_lobby", "no_open_tables"))}</p>`; return; }
    box.innerHTML = `<ul class="open-list">${this.games.map((g) => {
      const free = g.seats.filter((s) => s.kind === "free");
      const vs = variantNames(g.config.variants || []);
      const timer = g.settings?.pace === "turn-based"
        ? `<span class="badge timer pace" data-testid="open-table-pace">${esc(paceText(g.settings))}</span>`
        : g.settings && g.settings.turn_timer ? `<span class="badge timer">${esc(timerText(g.settings.turn_timer))}</span>` : "";
      const swatches = free.map((s) => `<span class="swatch" style="background:${COLOURS[s.colour] || s.colour}" title="${esc(raw("colours", s.colour))}"></span>`).join("");
      const names = free.map((s) => raw("colours", s.colour)).join(", ");
      return `<li class="open-table" data-testid="open-table-${esc(g.id)}">
        <div class="ot-main"><span class="ot-line">${esc(t("web_lobby", "table_line", { players: g.config.players, free: free.length }))}</span>
          ${vs ? `<span class="muted ot-variants">${esc(vs)}</span>` : ""}${timer}</div>
        <div class="ot-seats" aria-label="${esc(t("web_lobby", "free_seats", { colours: names }))}">${swatches}<span class="sr-only">${esc(t("web_lobby", "free_seats", { colours: names }))}</span></div>
        <button type="button" class="btn primary small" data-join="${esc(g.id)}" data-testid="join-table-${esc(g.id)}">${esc(raw("web_lobby", "join"))}</button></li>`;
    }).join("")}</ul>`;
    for (const b of box.querySelectorAll("button[data-join]")) b.onclick = () => navigate(`/g/${b.dataset.join}`);
  }

  async create() {
    const f = this.form;
    const body = { players: f.players, gnomes_per_player: this.perRange() ? (f.per ?? this.perRange()[2]) : null,
      variants: [...f.variants], seed: f.seed === "" ? null : Number(f.seed), listed: f.listed,
      turn_timer: f.timer || null, hints: f.hints, away_bot: f.away || null };
    if (f.pace === "turn-based") Object.assign(body, { pace: "turn-based", move_deadline: f.deadline, turn_timer: null, away_bot: null });
    try {
      const res = await api("/api/games", { method: "POST", body });
      store.setCreator(res.game.id, res.creator_token);
      navigate(`/g/${res.game.id}`);
    } catch (e) {
      toast(() => errorText(e), "error");
    }
  }
}
