// Talking to the server: JSON over HTTP, and one WebSocket per tab that reconnects by itself.

import { url, wsUrl } from "./root.js";

export class ApiError extends Error {
  constructor(code, message, status, detail = null, params = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.detail = detail;
    this.params = params;
  }
}

export async function api(path, { method = "GET", body, token, creator } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (creator) headers["X-Creator-Token"] = creator;
  let r;
  try {
    r = await fetch(url(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError("network", String(e), 0);
  }
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(err.code || "internal", err.message || `HTTP ${r.status}`, r.status, err.detail, err.params);
  }
  return data;
}

// Tokens kept in localStorage per game: {seats: {"0": token, …}, creator: token|null, names}
export const store = {
  key: (id) => `rn.game.${id}`,
  get(id) {
    try {
      const v = JSON.parse(localStorage.getItem(this.key(id)) || "null");
      if (v && typeof v === "object") return { seats: {}, creator: null, ...v };
    } catch { /* broken entry: start afresh */ }
    return { seats: {}, creator: null };
  },
  set(id, v) { localStorage.setItem(this.key(id), JSON.stringify(v)); },
  addSeat(id, seat, token) { const v = this.get(id); v.seats[String(seat)] = token; this.set(id, v); },
  dropSeat(id, seat) { const v = this.get(id); delete v.seats[String(seat)]; this.set(id, v); },
  setCreator(id, token) { const v = this.get(id); v.creator = token; this.set(id, v); },
  tokens(id) { return Object.values(this.get(id).seats); },
  // How many of the game's chat lines this browser has shown (My games counts the newer ones).
  seenKey: (id) => `rn.chat.${id}`,
  chatSeen(id) { return Number(localStorage.getItem(this.seenKey(id))) || 0; },
  markChatSeen(id, n) { if (n > this.chatSeen(id)) localStorage.setItem(this.seenKey(id), String(n)); },
  forget(id) { localStorage.removeItem(this.key(id)); localStorage.removeItem(this.seenKey(id)); },
  holds(id) { return localStorage.getItem(this.key(id)) !== null; },
  // The rematch `next` of game `id`: the same tokens hold its seats, so this browser holds it as
  // it held `id`. Once per game (the old entry remembers it: a rematch forgotten here stays
  // forgotten); true when `next` was added. `replace`: the game page follows the rematch even
  // over an entry it already has.
  followRematch(id, next, replace = false) {
    const { followed, ...mine } = this.get(id);
    if (!next || (!Object.keys(mine.seats).length && !mine.creator)) return false;
    if (followed === next && !replace) return false;
    this.set(id, { ...mine, followed: next });
    if (this.holds(next) && !replace) return false;
    this.set(next, mine);
    return true;
  },
  // Follows the rematches of these games' summaries (My games, the start page): how many games
  // were added.
  followRematches(games) {
    return games.filter((g) => g && g.rematch && this.followRematch(g.id, g.rematch)).length;
  },
  myGames() {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith("rn.game.")) out.push(k.slice(8));
    }
    return out;
  },
};

// A WebSocket to one game: sends hello on every (re)connection, reconnects with back-off.
export class GameSocket {
  constructor(gameId, { onMessage, onStatus, hello }) {
    this.gameId = gameId;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.hello = hello; // () => {tokens, creator}
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.nextId = 1;
    this.timer = null;
    this.pingTimer = null;
  }

  url() {
    return wsUrl(`/ws/games/${encodeURIComponent(this.gameId)}`);
  }

  connect() {
    if (this.closed) return;
    this.onStatus("connecting");
    let ws;
    try { ws = new WebSocket(this.url()); } catch { this.schedule(); return; }
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.sendRaw({ type: "hello", ...this.hello() });
      this.onStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.sendRaw({ type: "ping" }), 25000);
    };
    ws.onmessage = (ev) => {
      if (this.closed) return; // the page that opened it is gone
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed || ev.code === 4404) { this.onStatus(ev.code === 4404 ? "gone" : "closed"); return; }
      this.schedule();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  schedule() {
    this.onStatus("reconnecting");
    const delay = Math.min(5000, 400 * 2 ** this.retry++);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  // Used by the "reconnect now" button and when the browser comes back online.
  reconnectNow() {
    if (this.closed) return;
    clearTimeout(this.timer);
    if (this.ws && this.ws.readyState <= 1) return;
    this.retry = 0;
    this.connect();
  }

  sendRaw(obj) {
    if (this.ws && this.ws.readyState === 1) { this.ws.send(JSON.stringify(obj)); return true; }
    return false;
  }

  send(obj) {
    const id = `c${this.nextId++}`;
    return this.sendRaw({ ...obj, id }) ? id : null;
  }

  rehello() { this.sendRaw({ type: "hello", ...this.hello() }); }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}
