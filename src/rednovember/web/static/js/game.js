// The game page: one WebSocket, one `state` per held seat (hot-seat) or a spectator's, the board,
// the time track, the action panel, the crew, decks, log, seats table and the end screen.

import { lang, raw, t } from "./i18n.js";
import { api, GameSocket, store } from "./net.js";
import { configLine, describeDecision, gnomeName, playerName } from "./describe.js";
import { Model, normalizeData } from "./model.js";
import { renderBoard } from "./board.js";
import { renderTrack } from "./track.js";
import { boardTargets, renderActions, stepMinutes } from "./actions.js";
import { renderCrew, renderDecks, renderLog, renderSeats } from "./panels.js";
import { EndScreen, watchLink } from "./endscreen.js";
import { openRules } from "./rules.js";
import { attrs, esc } from "./svg.js";
import { navigate } from "./router.js";
import { errorText, toast } from "./ui.js";
import { ChatPanel } from "./chat.js";
import { Pings } from "./pings.js";
import { loadGame, stopLoading } from "./load.js";
import { Show } from "./show.js";
import { MobileLayout } from "./mobile.js";
import { adoptSeatLink, openSeatLink } from "./seatlink.js";
import { openRename } from "./rename.js";
import { renderClock } from "./timer.js";
import { absoluteUrl, url } from "./root.js";
import { Advisor } from "./advisor.js";
import { AwayBanner } from "./away.js";
import { PageLife } from "./life.js";
import { TurnNotices } from "./notices.js";
import { renderLegend } from "./legend.js";

const SPEC = "spec";

export class GamePage {
  constructor(root, id, ctx) {
    this.root = root;
    this.id = id;
    this.ctx = ctx;
    this.life = new PageLife(); // listeners, socket and timers: all end with destroy()
    this.data = ctx.data ? normalizeData(ctx.data) : null;
    this.summary = null;
    this.states = new Map(); // seat (number) or SPEC -> last state
    this.logs = new Map(); // same keys -> log entries
    this.fresh = new Map(); // same keys -> index of the first entry new in the last state
    this.changes = new Map(); // same keys -> what changed with the last state (highlights)
    this.held = []; // seats this connection holds
    this.reclaimable = []; // seats of our tokens that went to a bot (we may take them back)
    this.creator = false;
    this.current = null; // the seat (or SPEC) whose eyes we use
    this.pinned = false; // the player picked a seat tab: no automatic switching
    this.drawnSeat = null; // the seat whose eyes the page last drew a running game through
    this.passTo = null; // hot-seat with hidden hands: the seat the device goes to (a cover asks)
    this.busy = false;
    this.busyTimer = null;
    this.status = "idle";
    this.ui = { minutes: {}, pick: null, name: localStorage.getItem("rn.name") || "" };
    this.resultShown = false;
    this.legendLang = null; // the language the legend was drawn in
    this.revealEnd = false; // the game has just ended: bring its result into sight after this render
    this.socket = null;
    this.built = false;
    this.chat = new ChatPanel(this);
    this.pings = new Pings(this);
    this.end = new EndScreen(id, () => this.render(), () => this.readStory());
    this.show = new Show(this); // dice, cards and the keeper's walk of each new state; the recap
    this.mobile = new MobileLayout(this);
    this.advisor = new Advisor(this); // the "Hint" button and its plans (advisor.js)
    this.away = new AwayBanner(this); // the banner of an absent player to move (away.js)
    this.notices = new TurnNotices(this); // title, favicon dot, chime, notification (notices.js)
  }

  // --- lifecycle --------------------------------------------------------------------------------
  async start() {
    this.root.innerHTML = `<p class="loading">…</p>`;
    await adoptSeatLink(this.id);
    if (this.life.ended) return;
    this.summary = await loadGame(this);
    if (!this.summary || this.life.ended) return;
    this.build();
    const socket = this.socket = new GameSocket(this.id, {
      onMessage: (m) => this.onMessage(m),
      onStatus: (s) => this.setStatus(s),
      hello: () => ({ tokens: store.tokens(this.id), creator: store.get(this.id).creator || undefined }),
    });
    this.life.onEnd(() => socket.close());
    socket.connect();
    this.life.listen(window, "online", () => socket.reconnectNow());
    this.life.listen(document, "visibilitychange", () => { if (document.visibilityState === "visible") socket.reconnectNow(); });
    window.rnGame = this; // for tests and the curious
  }

  // The data tables and the game's summary; a failure other than a 404 is retried with back-off
  // (the server may be restarting). Null: the game does not exist, or the page was left.
  destroy() {
    stopLoading(this);
    this.built = false; // a render still queued draws nothing: #app may hold the next page
    this.life.end();
    clearTimeout(this.busyTimer);
    clearTimeout(this.handoverTimer);
    this.show.stop();
    this.pings.destroy();
    this.away.destroy();
    if (window.rnGame === this) window.rnGame = null;
  }

  setStatus(s) {
    if (this.life.ended) return; // the closed socket of a page left: the header is the next page's
    if (s === "open" && this.everOpen) this.reconnects = (this.reconnects || 0) + 1;
    if (s === "open") this.everOpen = true;
    this.status = s;
    const el = document.getElementById("conn");
    const said = s === "reconnecting" && !navigator.onLine ? "offline" : s; // the browser knows why
    el.dataset.state = said;
    el.textContent = raw("web", `conn_${said}`);
    if (s !== "open") this.setBusy(false);
    const btn = this.root.querySelector("#reconnect");
    if (btn) btn.hidden = s === "open" || s === "connecting";
  }

  // The same seats play again: this browser's seat tokens (and creator token) hold in the new game.
  followRematch(next) {
    const mine = store.get(this.id);
    if (!Object.keys(mine.seats).length && !mine.creator) {
      // a spectator stays (they may be reading the story) and is offered the next game to watch
      this.summary = { ...this.summary, rematch: next };
      toast(() => t("web", "rematch_started", {}), "info", 8000);
      this.render();
      return;
    }
    store.followRematch(this.id, next, true);
    navigate(`/g/${next}`);
  }

  // --- seats held -------------------------------------------------------------------------------
  heldSeats() { return this.held; }
  holdsAny() { return this.held.length > 0; }
  isCreator() { return this.creator || !!store.get(this.id).creator; }
  tokenFor(seat) { return store.get(this.id).seats[String(seat)]; }

  // --- messages ---------------------------------------------------------------------------------
  onMessage(msg) {
    this.away.onMessage(msg);
    switch (msg.type) {
      case "welcome": {
        this.summary = msg.game;
        this.held = [...(msg.seats || [])].sort((a, b) => a - b);
        this.reclaimable = (msg.reclaimable || []).map((r) => r.seat);
        this.creator = !!msg.creator;
        if (msg.rejected && msg.rejected.length) {
          // tokens that no longer hold a seat (e.g. handed to a bot): forget them
          const tokens = store.tokens(this.id);
          const bad = new Set(msg.rejected.map((i) => tokens[i]));
          const v = store.get(this.id);
          for (const [seat, tok] of Object.entries(v.seats)) if (bad.has(tok)) delete v.seats[seat];
          store.set(this.id, v);
        }
        this.states.clear();
        this.logs.clear();
        this.chat.setHistory(msg.chat);
        if (!this.held.includes(this.current)) this.current = this.held.length ? this.held[0] : SPEC;
        break;
      }
      case "state": this.onState(msg); return;
      case "chat": this.chat.add(msg.message); this.mobile.render(); return;
      case "ping": this.pings.show(msg); return;
      case "hint": this.advisor.onMessage(msg); return;
      case "rematch": this.followRematch(msg.next); return;
      case "seats": this.onSeats(msg.seats); break;
      case "ack":
        this.setBusy(false);
        // (unless the seat's new state came first: dropLostSeats said hello again already)
        if (msg.ref === "reclaim" && this.reclaimable.includes(this.reclaiming)) this.socket.rehello();
        // the rematch had started already (its broadcast came while this page was away)
        if (msg.ref === "rematch" && msg.next) { this.followRematch(msg.next); return; }
        break;
      case "error":
        if (this.advisor.onError(msg)) break;
        this.setBusy(false);
        toast(() => errorText(msg, (s) => this.seatLabel(s)), "error");
        if (msg.code === "stale") this.socket.send({ type: "sync" });
        break;
      default: return;
    }
    this.render();
  }

  onState(st) {
    const key = st.seat === null || st.seat === undefined ? SPEC : st.seat;
    const shown = this.current;
    const prev = this.states.get(key);
    let log = this.logs.get(key) || [];
    const start = Math.min(st.log_start || 0, log.length);
    const before = log.length;
    log = log.slice(0, start).concat(st.log || []);
    this.logs.set(key, log);
    this.fresh.set(key, prev ? Math.min(before, start) : log.length);
    this.changes.set(key, prev ? diffViews(prev.view, st.view) : null);
    this.states.set(key, st);
    this.summary = { ...this.summary, seats: st.seats || this.summary.seats, status: st.status, version: st.version };
    if (this.held.includes(key) || key === SPEC) this.dropLostSeats();
    // hot-seat: follow the held seat that must decide
    if (this.held.length > 1 && !this.pinned) {
      const mover = this.held.find((s) => this.states.get(s)?.your_turn);
      if (mover !== undefined && mover !== this.current) {
        this.current = mover;
        const g = st.view.gnomes.find((x) => x.player === mover);
        const model = this.model();
        // (with hidden hands the page's cover says it, and a toast would lie over the turn's
        // banner when it lifts: renderPassCover)
        if (!hidesHands(st.view)) {
          toast(() => t("web", "now_playing", { seat: this.seatLabel(mover), gnome: g ? gnomeName(model, g.number) : "" }), "info", 2500, "now-playing");
        }
      }
    }
    if (this.held.length && !this.held.includes(this.current)) this.current = this.held[0];
    this.show.onState(key, st, prev, before);
    this.notices.update(); // now: a hidden tab does not draw (requestAnimationFrame waits)
    // redraw for the seat we look through, also when another seat's state made us switch to it
    if (key === this.current || this.current !== shown) this.scheduleRender();
  }

  // Who sits where and who is connected (sent when a connection opens or closes).
  onSeats(seats) {
    if (!Array.isArray(seats)) return;
    this.summary = { ...this.summary, seats };
    this.dropLostSeats();
  }

  // A held seat that is no person's any more (handed to a bot): its tab and view go, and a new
  // hello tells which of our tokens may take a seat back. A seat of ours a bot played that is a
  // person's again (taken back, in another tab of this browser or on another device with the
  // same token): a new hello makes this page its player's too.
  dropLostSeats() {
    const seats = this.summary?.seats || [];
    const kind = (s) => seats.find((x) => x.seat === s)?.kind;
    const lost = this.held.filter((s) => kind(s) !== "human");
    const back = this.reclaimable.filter((s) => kind(s) === "human");
    if (!lost.length && !back.length) return;
    this.held = this.held.filter((s) => !lost.includes(s));
    this.reclaimable = this.reclaimable.filter((s) => !back.includes(s));
    for (const s of lost) { this.states.delete(s); this.logs.delete(s); }
    if (!this.held.includes(this.current)) this.current = this.held.length ? this.held[0] : SPEC;
    this.socket.rehello();
  }

  scheduleRender() {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => { this.renderQueued = false; this.render(); });
  }

  state() { return this.states.get(this.current) || this.states.get(SPEC) || [...this.states.values()][0]; }

  model() {
    const st = this.state();
    if (!st) return null;
    const seats = (this.summary?.seats || []).map((s) => ({ ...s }));
    return new Model(this.data, st.view, this.summary?.config, seats, st.seat ?? null);
  }

  seatLabel(seat) {
    const s = (this.summary?.seats || []).find((x) => x.seat === seat);
    if (s && s.kind === "bot") return raw("web", "bot");
    return playerName(s?.name, seat);
  }

  // Who must decide now: the gnome, and whose it is ("Blue (Ada)", "Blue (bot)").
  deciderLabel(model, st) {
    const v = model.view;
    const decider = v.decider >= 0 ? v.gnomes[v.decider] : null;
    if (!decider) return this.seatLabel(st.to_move);
    return `${gnomeName(model, decider.number)} (${this.seatLabel(decider.player)})`;
  }

  // --- acting -----------------------------------------------------------------------------------
  setBusy(b) {
    if (this.life.ended) return;
    this.busy = b;
    clearTimeout(this.busyTimer);
    if (b) this.busyTimer = setTimeout(() => { this.busy = false; this.render(); }, 6000);
    for (const el of this.root.querySelectorAll("[data-act]")) if (el.tagName === "BUTTON") el.disabled = b;
  }

  // Sends an action for a seat (the current one by default). Also used by tests.
  sendAct(text, seat = this.current) {
    const st = this.states.get(seat);
    if (seat === SPEC || seat === null || seat === undefined) { toast(() => raw("web", "error_spectator"), "error"); return false; }
    this.setBusy(true);
    this.pinned = false;
    const id = this.socket.send({ type: "act", seat, action: text, version: st ? st.version : undefined });
    if (!id) this.httpAct(seat, text, st);
    return true;
  }

  async httpAct(seat, text, st) {
    try {
      await api(`/api/games/${encodeURIComponent(this.id)}/act`, { method: "POST", token: this.tokenFor(seat),
        body: { action: text, version: st ? st.version : undefined } });
    } catch (e) { toast(() => errorText(e), "error"); }
    this.setBusy(false);
  }

  undo() {
    const seat = this.current;
    if (seat === SPEC) return;
    this.setBusy(true);
    const st = this.states.get(seat);
    if (!this.socket.send({ type: "undo", seat, version: st ? st.version : undefined })) {
      api(`/api/games/${encodeURIComponent(this.id)}/undo`, { method: "POST", token: this.tokenFor(seat), body: {} })
        .catch((e) => toast(() => errorText(e), "error")).finally(() => this.setBusy(false));
    }
  }

  async takeSeat(seat) {
    const nameEl = this.root.querySelector("#seat-name");
    const name = (nameEl ? nameEl.value : this.ui.name).trim();
    if (!name) { // the others would read "Player 2", in this page's language and not theirs
      if (nameEl) {
        nameEl.setAttribute("aria-invalid", "true");
        nameEl.scrollIntoView({ block: "center", behavior: "instant" });
        nameEl.focus();
      }
      toast(() => raw("web", "name_first"), "info", 6000);
      return;
    }
    nameEl?.removeAttribute("aria-invalid");
    this.ui.name = name;
    localStorage.setItem("rn.name", name);
    try {
      const res = await api(`/api/games/${encodeURIComponent(this.id)}/seats`, { method: "POST", body: { seat, name } });
      store.addSeat(this.id, res.seat, res.token);
      this.summary = res.game;
      this.current = res.seat;
      this.pinned = false;
      this.socket.rehello();
    } catch (e) { toast(() => errorText(e), "error"); }
  }

  // Takes back our seat that went to a bot, with the token we took it with.
  reclaim(seat) {
    const token = this.tokenFor(seat);
    if (!token) return;
    const name = this.ui.name.trim() || undefined;
    this.reclaiming = seat;
    if (this.socket.send({ type: "reclaim", seat, token, name })) return;
    api(`/api/games/${encodeURIComponent(this.id)}/seats/${seat}/reclaim`, { method: "POST", token, body: { name } })
      .then(() => this.socket.rehello()).catch((e) => toast(() => errorText(e), "error"));
  }

  giveToBot(seat, bot) {
    if (!this.socket.send({ type: "bot", seat, bot })) {
      const token = this.held.length ? this.tokenFor(this.held[0]) : undefined;
      api(`/api/games/${encodeURIComponent(this.id)}/seats/${seat}/bot`, { method: "POST", body: { bot },
        token, creator: store.get(this.id).creator || undefined }).catch((e) => toast(() => errorText(e, (s) => this.seatLabel(s)), "error"));
    }
  }

  // The show of the last states ended (or was skipped): a finished game shows its result now.
  showEnded() {
    if (this.built && this.state()?.view?.result) this.render();
  }

  // "Read the story" (the board's end overlay): the end screen in view (a phone's sheet opened on
  // its tab first), the overlay closed as "See the board" closes it (the end screen has its buttons).
  readStory() {
    this.overlayClosed = true;
    this.mobile.tab = "options";
    this.mobile.open = true;
    this.render();
    this.end.readStory();
  }

  // Whether the seats this page plays won (true / false), or null for a spectator; a gnome that
  // abandoned its comrades wins exactly when the crew loses.
  myOutcome(model) {
    const r = model.view.result;
    // (a seat a bot played for this page's player, which they may take back, is theirs too)
    const ours = (p) => this.held.includes(p) || this.reclaimable.includes(p);
    const mine = model.view.gnomes.filter((g) => ours(g.player));
    if (!r || !mine.length) return null;
    return mine.some((g) => r.won !== !!g.abandoned);
  }

  // --- rendering --------------------------------------------------------------------------------
  build() {
    this.root.innerHTML = `
      <div class="game" data-testid="game-page">
        <section class="table-bar" id="table-bar"></section>
        <div class="game-grid">
          <div class="col-board">
            <div id="turn-banner" class="turn-banner" data-testid="turn-banner" role="status" aria-live="polite"></div>
            <div class="board-holder"><div id="board" class="board-wrap" data-testid="board"></div>
              <div id="board-overlay" class="board-overlay" hidden></div></div>
            <div id="track" class="track-wrap" data-testid="time-track"></div>
          </div>
          <aside class="col-side">
            <section id="result" class="result" hidden></section>
            <section id="reclaim" class="card reclaim-card" data-testid="reclaim-note" role="status" hidden></section>
            <section id="actions" class="card actions-card" data-testid="actions" aria-label=""></section>
            <section id="advisor" class="card advisor-card" data-testid="advisor" data-panel="options" aria-live="polite" hidden></section>
            <section id="seats" class="card seats-card" data-testid="seats">
              <div id="seats-list"></div>
              <label class="field inline-field" id="seat-name-row"><span data-i18n="web.your_name"></span>
                <input type="text" id="seat-name" maxlength="40" autocomplete="nickname" data-testid="seat-name"></label>
            </section>
            <section id="notices" class="card notices-card" data-testid="notices" hidden></section>
            <section id="crew" class="card crew-card" data-testid="crew"></section>
            <section id="decks" class="card decks-card" data-testid="decks"></section>
            <section id="chat" class="card chat-card" data-testid="chat"></section>
            <section id="log" class="card log-card"></section>
            <section id="legend" class="card legend-card"></section>
          </aside>
        </div>
      </div>
      <div id="pass-cover" class="pass-cover" data-testid="pass-cover" role="dialog" aria-modal="true" aria-labelledby="pass-title" hidden></div>`;
    this.chat.mount(this.root.querySelector("#chat"));
    this.pings.mount(this.root.querySelector(".col-board"));
    this.end.mount(this.root.querySelector("#result"), this.root.querySelector("#board-overlay"));
    this.show.mount(this.root);
    this.advisor.mount(this.root);
    this.mobile.mount(this.root);
    this.notices.mount(this.root.querySelector("#notices"));
    const on = (type, fn) => this.life.listen(this.root, type, fn);
    on("click", (e) => this.onClick(e));
    on("keydown", (e) => {
      if ((e.key === "Enter" || e.key === " ") && e.target.matches("g[data-act], g[data-pick]")) { e.preventDefault(); this.onClick(e); }
    });
    on("input", (e) => this.onInput(e));
    on("change", (e) => {
      if (e.target.id === "seat-name") { this.ui.name = e.target.value; localStorage.setItem("rn.name", this.ui.name); }
    });
    this.built = true;
  }

  onInput(e) {
    const key = e.target.dataset.minutes;
    if (key) {
      this.ui.minutes[key] = Number(e.target.value);
      this.ui.pick = key;
      this.renderActionsOnly();
    }
    if (e.target.id === "seat-name") this.ui.name = e.target.value;
  }

  onClick(e) {
    const el = e.target.closest("[data-close-overlay],[data-act],[data-pick],[data-take],[data-reclaim],[data-bot],[data-manage-seats],[data-seat-tab],[data-minus],[data-plus],[data-help],[data-undo],[data-copy],#reconnect,[data-show-result],[data-rematch],[data-seat-link],[data-rename],[data-pass-ready]");
    if (!el || !this.root.contains(el)) return;
    if (el.disabled) return;
    if (el.dataset.passReady !== undefined) {
      this.passTo = null;
      this.render();
    } else if (el.dataset.closeOverlay !== undefined) {
      this.overlayClosed = true;
      this.render();
    } else if (el.dataset.seatLink !== undefined) {
      openSeatLink(this, Number(el.dataset.seatLink));
    } else if (el.dataset.rename !== undefined) {
      openRename(this, Number(el.dataset.rename));
    } else if (el.dataset.rematch !== undefined) {
      this.socket.send({ type: "rematch" });
    } else if (el.dataset.act !== undefined) {
      if (this.busy) return;
      if (el.dataset.confirm && !window.confirm(el.dataset.confirm)) return;
      this.sendAct(el.dataset.act);
    } else if (el.dataset.pick !== undefined) {
      this.ui.pick = el.dataset.pick;
      this.renderActionsOnly();
      const box = this.root.querySelector(`[data-group="${CSS.escape(el.dataset.pick)}"]`);
      if (box) { box.scrollIntoView({ block: "nearest", behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" }); box.querySelector("input")?.focus(); }
    } else if (el.dataset.take !== undefined) {
      this.takeSeat(Number(el.dataset.take));
    } else if (el.dataset.bot !== undefined) {
      const sel = this.root.querySelector(`[data-bot-select="${el.dataset.bot}"]`);
      this.giveToBot(Number(el.dataset.bot), sel ? sel.value : "random");
    } else if (el.dataset.reclaim !== undefined) {
      this.reclaim(Number(el.dataset.reclaim));
    } else if (el.dataset.manageSeats !== undefined) {
      this.ui.showSeats = !this.ui.showSeats;
      this.render();
    } else if (el.dataset.seatTab !== undefined) {
      const v = el.dataset.seatTab;
      this.current = v === SPEC ? SPEC : Number(v);
      this.pinned = true;
      this.render();
    } else if (el.dataset.minus !== undefined || el.dataset.plus !== undefined) {
      if (stepMinutes(this.root, this.ui, el)) this.renderActionsOnly();
    } else if (el.dataset.help !== undefined) {
      openRules(this, el.dataset.help);
    } else if (el.dataset.undo !== undefined) {
      this.undo();
    } else if (el.dataset.copy !== undefined) {
      const link = absoluteUrl(`/g/${this.id}`);
      (navigator.clipboard ? navigator.clipboard.writeText(link) : Promise.reject())
        .then(() => toast(() => raw("web", "link_copied"), "info", 2500))
        .catch(() => { const inp = this.root.querySelector("#share-link"); inp?.select(); });
    } else if (el.id === "reconnect") {
      this.socket.reconnectNow();
    } else if (el.dataset.showResult !== undefined) {
      this.resultShown = !this.resultShown;
      this.render();
    }
  }

  renderTableBar(model) {
    const st = this.state();
    const bar = this.root.querySelector("#table-bar");
    const link = absoluteUrl(`/g/${this.id}`);
    const cfg = this.summary.config;
    const variants = (cfg.variants || []).map((v) => raw("variants", v).split(" (")[0]).join(", ");
    let tabs = "";
    if (this.held.length) {
      tabs = `<div class="seat-tabs" role="tablist" aria-label="${esc(raw("web", "your_seats"))}">` + this.held.map((s) => {
        const seat = (this.summary.seats || []).find((x) => x.seat === s) || { colour: "red" };
        const ready = this.states.get(s)?.your_turn;
        return `<button type="button" role="tab" class="seat-tab${s === this.current ? " current" : ""}${ready ? " ready" : ""}" aria-selected="${s === this.current}"
          data-seat-tab="${s}" data-testid="seat-tab-${s}"><span class="swatch" style="background:var(--c-${seat.colour})"></span>${esc(this.seatLabel(s))}${ready ? " •" : ""}</button>`;
      }).join("") + `</div>`;
    } else if (this.reclaimable.length) {  // while the game runs, the card below offers it back
      const key = this.model()?.over ? "spectating_stand_in_over" : "spectating_stand_in";
      tabs = `<span class="badge spectator" data-testid="stand-in-badge">${esc(raw("web", key))}</span>`;
    } else {
      tabs = `<span class="badge spectator" data-testid="spectator-badge">${esc(raw("web", "spectating"))}</span>`;
    }
    setHTML(bar, `
      <div class="game-id"><span class="muted">${esc(raw("web", "game"))}</span> <code data-testid="game-id">${esc(this.id)}</code>
        <span class="muted">· ${esc(configLine(cfg))}${variants ? " · " + esc(variants) : ""}</span></div>
      <div class="share"><label class="sr-only" for="share-link">${esc(raw("web", "share_link"))}</label>
        <input id="share-link" readonly value="${esc(link)}" data-testid="share-link" aria-label="${esc(raw("web", "share_link"))}">
        <button type="button" class="btn small" data-copy data-testid="copy-link">${esc(raw("web", "copy_link"))}</button></div>
      ${tabs}
      <a class="btn small" href="${esc(url(`/g/${encodeURIComponent(this.id)}/replay`))}" data-testid="replay-link">${esc(raw("web", "replay_link"))}</a>
      <button type="button" class="btn small" id="reconnect" data-testid="reconnect" ${this.status === "open" || this.status === "connecting" ? "hidden" : ""}>${esc(raw("web", "reconnect"))}</button>`);
    void st; void model;
  }

  // "Your turn — Red"; when our gnome answers during another gnome's turn (a trade offer):
  // "Your decision — Green, on Red's turn".
  yourTurnText(model) {
    const v = model.view;
    const gnome = v.decider >= 0 ? gnomeName(model, v.decider) : "";
    if (v.active >= 0 && v.decider >= 0 && v.active !== v.decider) {
      return t("web", "your_decision", { gnome, active: gnomeName(model, v.active) });
    }
    return t("web", "your_turn", { gnome });
  }

  renderBanner(model, st) {
    const el = this.root.querySelector("#turn-banner");
    let cls = "turn-banner", text, sub = "";
    if (st.status === "waiting") {
      const free = (this.summary.seats || []).filter((s) => s.kind === "free").length;
      text = t("web", "waiting_for_seats", { count: free });
      cls += " waiting";
    } else if (model.over) {
      text = raw("web", "game_finished"); // the result itself: once, on the end screen
      cls += model.view.result.won ? " won" : " lost";
    } else {
      const v = model.view;
      const decider = v.decider >= 0 ? v.gnomes[v.decider] : null;
      if (st.your_turn) { text = this.yourTurnText(model); cls += " mine"; }
      else text = t("web", "waiting_for", { who: decider ? this.deciderLabel(model, st) : "" });
      sub = describeDecision(model);
      if (decider) cls += ` c-${decider.colour}`;
    }
    el.className = cls;
    // while seats wait: the link to share right where the banner asks for it (on a phone the
    // table bar's copy button sits far below, behind the sheet)
    const copy = st.status === "waiting"
      ? ` <button type="button" class="btn small" data-copy data-testid="banner-copy-link">${esc(raw("web", "copy_link"))}</button>` : "";
    el.innerHTML = `<strong data-testid="turn-text">${esc(text)}</strong>${copy}${sub ? `<span class="sub" data-testid="decision-text">${esc(sub)}</span>` : ""}`;
    renderClock(el, st, this.summary);
  }

  // Our seats that went to a bot while we were away (or that we handed over): say so, offer them back.
  renderReclaim(model) {
    const box = this.root.querySelector("#reclaim");
    const seats = (this.summary.seats || []).filter((s) => this.reclaimable.includes(s.seat) && s.kind === "bot");
    box.hidden = !seats.length || model.over;
    setHTML(box, seats.map((s) => `<p>${esc(t("web", "reclaim_note", { colour: raw("colours", s.colour),
      player: s.owner || t("ui", "player_long", { seat: s.seat + 1 }), bot: s.bot ? raw("bot_levels", s.bot) : "" }))}</p>
      <p class="muted">${esc(raw("web", "reclaim_help"))}</p>
      <button type="button" class="btn primary small" ${attrs({ "data-reclaim": s.seat, "data-testid": `reclaim-seat-${s.seat}` })}>${esc(raw("web", "reclaim"))}</button>`).join(""));
  }

  // Hot-seat when the gnomes' cards are hidden from each other (Mad Gnomes): the page turning from
  // one seat's eyes to another's (the next held seat to decide, a seat tab tapped, a seat handed
  // to a bot), or showing a hot-seat's first cards (the game just started, the page reloaded), is
  // covered until that seat's player says they hold the device, so that nobody sees another's
  // cards. (Seats taken while the table waits have no cards yet.)
  renderPassCover(model, st) {
    const cover = this.root.querySelector("#pass-cover");
    const seat = st.seat ?? null;
    const hidden = hidesHands(model.view);
    const last = this.drawnSeat;
    if (seat !== null && st.status === "playing") {
      if (hidden && seat !== last && (last !== null || this.held.length > 1)) {
        this.passTo = seat;
        // the board's show card still up, drawn for the last seat (its own draw, by name): drawn
        // again through the next seat's eyes (a count of hidden cards)
        if (last !== null) this.show.draw();
      }
      this.drawnSeat = seat;
    }
    if (this.passTo !== null && (this.passTo !== seat || model.over)) this.passTo = null;
    const on = this.passTo !== null;
    const was = !cover.hidden;
    cover.hidden = !on;
    this.root.querySelector(".game").inert = on;
    if (!on) { setHTML(cover, ""); return; }
    const g = model.view.gnomes.find((x) => x.player === seat);
    const who = { seat: this.seatLabel(seat), gnome: g ? gnomeName(model, g.number) : "" };
    const colour = g ? g.colour : "";
    setHTML(cover, `<div class="pass-box${colour ? ` c-${esc(colour)}` : ""}">
      <h2 id="pass-title" data-testid="pass-title">${esc(t("web", "pass_title", who))}</h2>
      <p>${esc(t("web", "pass_note", who))}</p>
      <button type="button" class="btn primary" data-pass-ready data-testid="pass-ready">${esc(t("web", "pass_ready", who))}</button></div>`);
    if (!was) cover.querySelector("[data-pass-ready]").focus();
  }

  renderActionsOnly() {
    const st = this.state();
    const model = this.model();
    if (!st || !model) return;
    const box = this.root.querySelector("#actions");
    const scroll = box.scrollTop;
    const focusKey = document.activeElement?.dataset?.minutes;
    box.setAttribute("aria-label", raw("web", "actions_title"));
    let head = `<div class="actions-head"><h3>${esc(raw("web", "actions_title"))}</h3>`;
    if (st.seat !== null && st.seat !== undefined && !model.over && st.status !== "waiting") {
      head += `<span class="actions-tools"><button type="button" class="btn small" data-undo data-testid="undo" ${st.can_undo && !this.busy ? "" : "disabled"}
        title="${esc(raw("web", "undo_help"))}">↶ ${esc(raw("web", "undo"))}</button>`;
      head += `${this.advisor.button(st, model)}</span>`;
    }
    head += `</div>`;
    let body;
    if (model.over) {
      body = `<p>${esc(raw("web", "game_finished"))}</p><button type="button" class="btn" data-show-result data-testid="show-result">${esc(raw("web", "show_result"))}</button>`;
    } else if (st.seat === null || st.seat === undefined) {
      const free = (this.summary.seats || []).some((s) => s.kind === "free");
      // a full table watched from a browser that holds no seat of it: perhaps the player's own
      // seat, taken in another browser (an email's link opened on the phone)
      const yours = !free && !this.reclaimable.length ? ` ${raw("web", "spectator_yours")}` : "";
      // (a player whose seat a bot plays is not told every seat is taken: the card above offers
      // theirs back)
      body = !free && this.reclaimable.length ? ""
        : `<p class="muted" data-testid="spectator-note">${esc(raw("web", free ? "spectator_note" : "spectator_note_full") + yours)}</p>`;
    } else if (st.status === "waiting") {
      body = `<p class="muted">${esc(raw("web", "waiting_note"))}</p>`;
    } else if (!st.your_turn) {
      body = `<p class="muted" data-testid="wait-note">${esc(t("web", "wait_note", { who: this.deciderLabel(model, st) }))}</p>`;
    } else {
      body = renderActions(model, st, this.ui, this.busy);
    }
    box.innerHTML = head + body;
    box.hidden = !body;  // (a player whose seat a bot plays: the reclaim card above says it all)
    box.scrollTop = scroll;
    if (focusKey) box.querySelector(`input[data-minutes="${CSS.escape(focusKey)}"]`)?.focus();
  }

  // A seat's `handover_in` counts from when its message came (every message is rendered at once):
  // the page notes when another's seat may go to a bot, and renders again then, so "Give to a bot"
  // appears when the server will take it.
  stampHandovers() {
    const now = performance.now();
    let next = Infinity;
    for (const s of this.summary?.seats || []) {
      if (s.handover_in > 0 && s._handoverAt === undefined) s._handoverAt = now + s.handover_in * 1000;
      if (s._handoverAt > now) next = Math.min(next, s._handoverAt);
    }
    clearTimeout(this.handoverTimer);
    if (next < Infinity) this.handoverTimer = setTimeout(() => this.render(), next - now + 50);
  }

  render() {
    if (!this.built) return;
    this.stampHandovers();
    this.away.render();
    const st = this.state();
    const model = this.model();
    const gameEl = this.root.querySelector(".game");
    this.renderTableBar(model);
    this.chat.render();
    if (!st || !model) {
      delete gameEl.dataset.version;
      delete gameEl.dataset.seat;
      this.root.querySelector("#turn-banner").textContent = raw("web", `conn_${this.status}`) || "…";
      this.mobile.render();
      return;
    }
    this.renderPassCover(model, st);
    this.renderBanner(model, st);
    gameEl.classList.toggle("playing", st.status === "playing");
    gameEl.classList.toggle("over", st.status === "over" || model.over);
    const targets = st.your_turn ? boardTargets(model, st.actions || []) : { rooms: {}, hatches: {}, gnomes: {} };
    const key = st.seat ?? SPEC;
    targets.changes = this.changes.get(key);
    setHTML(this.root.querySelector("#board"), renderBoard(model, targets));
    setHTML(this.root.querySelector("#track"), renderTrack(model, targets.changes));
    this.renderActionsOnly();
    this.renderReclaim(model);
    this.show.render();
    const seatsBox = this.root.querySelector("#seats");
    const showSeats = (this.summary.seats || []).some((s) => s.kind === "free") || st.status === "waiting" || this.ui.showSeats;
    setHTML(seatsBox.querySelector("#seats-list"), renderSeats(model, this, !showSeats));
    seatsBox.classList.toggle("compact", !showSeats);
    const nameRow = seatsBox.querySelector("#seat-name-row");
    nameRow.hidden = !(this.summary.seats || []).some((s) => s.kind === "free");
    nameRow.querySelector("span").textContent = raw("web", "your_name");
    const nameInput = nameRow.querySelector("input");
    nameInput.placeholder = raw("web", "name_placeholder");
    if (document.activeElement !== nameInput && nameInput.value !== this.ui.name) nameInput.value = this.ui.name;
    setHTML(this.root.querySelector("#crew"), renderCrew(model));
    setHTML(this.root.querySelector("#decks"), renderDecks(model));
    if (this.legendLang !== lang()) { // drawn once per language: an opened legend stays open
      this.legendLang = lang();
      this.root.querySelector("#legend").innerHTML = renderLegend();
    }
    const logBox = this.root.querySelector("#log");
    const list = logBox.querySelector("ol");
    const atBottom = !list || list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    logBox.innerHTML = renderLog(model, this.logs.get(key) || [], this.fresh.get(key) ?? 0);
    const newList = logBox.querySelector("ol");
    if (atBottom || !list) newList.scrollTop = newList.scrollHeight;
    else newList.scrollTop = list.scrollTop;
    const res = this.root.querySelector("#result");
    const overlay = this.root.querySelector("#board-overlay");
    // the result comes after the show's last step (the last event card, die or walk), not over it
    const ended = model.over && !this.show.active();
    overlay.hidden = !ended || this.overlayClosed;
    gameEl.classList.toggle("ended", ended);
    // who may start the rematch (or join it, once started): its players and the creator
    const mayRematch = this.holdsAny() || this.isCreator() || this.reclaimable.length > 0;
    const rematchKey = this.summary.rematch ? "rematch_join" : "rematch";
    const watch = !mayRematch && this.summary.rematch ? url(`/g/${encodeURIComponent(this.summary.rematch)}`) : null;
    if (ended && !this.overlayClosed) {
      setHTML(overlay, this.end.overlay(model, this.myOutcome(model), mayRematch ? rematchKey : null, watch));
    }
    if (ended) {
      res.hidden = false;
      const again = mayRematch
        ? `<button type="button" class="btn primary" data-rematch data-testid="rematch">${esc(raw("web", rematchKey))}</button> `
        : watch ? `${watchLink(watch, "rematch-watch")} ` : "";
      setHTML(res, this.end.render(model) + `<p class="export">${again}<a class="btn small" href="${esc(url(`/g/${encodeURIComponent(this.id)}/replay`))}" data-testid="result-replay">${esc(raw("web", "replay_link"))}</a>
        <a href="${esc(url(`/api/games/${encodeURIComponent(this.id)}/export`))}" download="red-november-${esc(this.id)}.json" data-testid="export-link">${esc(raw("web", "download_record"))}</a></p>`);
      if (!this.resultShown) { this.resultShown = true; this.revealEnd = true; }
    } else {
      res.hidden = true;
      setHTML(res, "");
    }
    // what the page now shows (a state arrives before the next frame draws it): for tests
    gameEl.dataset.version = String(st.version);
    gameEl.dataset.seat = String(key);
    this.pings.render();
    this.notices.update();
    this.notices.render();
    this.advisor.render(model, st);
    this.mobile.render();
    // the game just ended: its result in sight (a phone's sheet opens on it), and the board's
    // overlay saying won or lost too, once the layout has settled
    if (this.revealEnd) {
      this.revealEnd = false;
      this.end.toTop(res); // its headline, not its last buttons, when it is taller than the box
      if (!overlay.hidden) overlay.scrollIntoView({ block: "nearest" });
    }
  }
}

// Whether a seat's view hides other gnomes' cards from it (Mad Gnomes).
function hidesHands(view) {
  return view.gnomes.some((g) => g.hand === null || g.hand === undefined);
}

// Replaces an element's content only when it differs (keeps focus, animations and scroll).
function setHTML(el, html) {
  if (el._html === html) return;
  el.innerHTML = html;
  el._html = html;
}

// What changed between two views of the same seat: rooms, gnomes that moved, tracks, hatches.
export function diffViews(a, b) {
  const rooms = new Set(), gnomes = new Set(), tracks = new Set(), hatches = new Set(), keepers = new Set();
  if (!a || !b) return { rooms, gnomes, tracks, hatches, keepers };
  const fa = new Set(a.fire || []), fb = new Set(b.fire || []);
  for (const r of new Set([...fa, ...fb])) if (fa.has(r) !== fb.has(r)) rooms.add(r);
  for (const r of new Set([...Object.keys(a.water || {}), ...Object.keys(b.water || {})])) {
    if ((a.water || {})[r] !== (b.water || {})[r]) rooms.add(Number(r));
  }
  for (const g of b.gnomes) {
    const o = a.gnomes[g.number];
    if (!o) continue;
    if (o.room !== g.room || o.fainted !== g.fainted || o.drew_room !== g.drew_room) gnomes.add(g.number);
    if (o.keeper !== g.keeper) keepers.add(g.number);
  }
  for (const [k, v] of Object.entries(b.tracks || {})) if ((a.tracks || {})[k] !== v) tracks.add(k);
  const key = (p) => [...p].sort((x, y) => x - y).join("-");
  const ha = new Set((a.blocked || []).map(key)), hb = new Set((b.blocked || []).map(key));
  for (const h of new Set([...ha, ...hb])) if (ha.has(h) !== hb.has(h)) hatches.add(h);
  return { rooms, gnomes, tracks, hatches, keepers };
}
