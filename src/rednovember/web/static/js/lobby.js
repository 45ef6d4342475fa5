// The start page: create a game (players, gnomes, variants, seed), open a game by link or id,
// and the list of recent games (yours marked).

import { raw, t } from "./i18n.js";
import { api, store } from "./net.js";
import { esc } from "./svg.js";
import { errorText, navigate, toast } from "./app.js";

const VARIANTS = ["harder", "hardest", "less-deadly-death", "mad-gnomes"];

export class LobbyPage {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.games = [];
    this.form = { players: 4, per: null, variants: new Set(), seed: "" };
  }

  start() {
    this.render();
    this.refresh();
    document.getElementById("top-game").innerHTML = "";
  }

  destroy() {}

  async refresh() {
    try {
      this.games = (await api("/api/games?limit=30")).games || [];
    } catch { this.games = []; }
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
          <h3>${esc(raw("web", "recent_games"))}</h3>
          <div id="games" data-testid="game-list"></div>
        </section>
      </div>`;
    const el = (id) => this.root.querySelector(id);
    el("#f-players").onchange = (e) => { f.players = Number(e.target.value); f.per = null; this.render(); this.renderGames(); };
    if (el("#f-per")) el("#f-per").onchange = (e) => { f.per = Number(e.target.value); };
    for (const box of this.root.querySelectorAll(".variants input")) {
      box.onchange = () => { if (box.checked) f.variants.add(box.value); else f.variants.delete(box.value); };
    }
    el("#f-seed").oninput = (e) => { f.seed = e.target.value; };
    el("#create-form").onsubmit = (e) => { e.preventDefault(); this.create(); };
    el("#join-form").onsubmit = (e) => {
      e.preventDefault();
      const v = el("#f-join").value.trim();
      const m = v.match(/([A-Za-z0-9_-]{6,64})\/?$/);
      if (m) navigate(`/g/${m[1]}`);
    };
    this.renderGames();
  }

  renderGames() {
    const box = this.root.querySelector("#games");
    if (!box) return;
    if (!this.games.length) { box.innerHTML = `<p class="muted">${esc(raw("web", "no_games"))}</p>`; return; }
    const mine = new Set(store.myGames());
    box.innerHTML = `<ul class="game-list">${this.games.map((g) => {
      const status = raw("web", `status_${g.status}`);
      const free = g.seats.filter((s) => s.kind === "free").length;
      const vs = (g.config.variants || []).length ? " · " + g.config.variants.join(", ") : "";
      return `<li><a href="/g/${esc(g.id)}" data-id="${esc(g.id)}" data-testid="game-${esc(g.id)}">
        <span class="gl-id">${esc(g.id)}</span>
        <span class="gl-info">${esc(t("web", "game_line", { players: g.config.players, turn: g.turn, free }))}${esc(vs)}</span>
        <span class="badge status-${esc(g.status)}">${esc(status)}</span>${mine.has(g.id) ? `<span class="badge mine">${esc(raw("web", "yours"))}</span>` : ""}</a></li>`;
    }).join("")}</ul>`;
    for (const a of box.querySelectorAll("a[data-id]")) {
      a.onclick = (e) => { e.preventDefault(); navigate(`/g/${a.dataset.id}`); };
    }
  }

  async create() {
    const f = this.form;
    const body = { players: f.players, gnomes_per_player: this.perRange() ? (f.per ?? this.perRange()[2]) : null,
      variants: [...f.variants], seed: f.seed === "" ? null : Number(f.seed) };
    try {
      const res = await api("/api/games", { method: "POST", body });
      store.setCreator(res.game.id, res.creator_token);
      navigate(`/g/${res.game.id}`);
    } catch (e) {
      toast(errorText(e), "error");
    }
  }
}
