// Being told it is your turn with the page closed (issue 20 §3), in the turn-alerts card under
// the page's own alerts (notices.js): a box for Web Push, shown where the browser has the Push API,
// and an address for emails, shown where the server sends them (GET /api/notices says so, with
// the key to subscribe with). Both apply to every seat this page holds, each sent with its own
// token (docs/protocol.md §3.11, §3.12). The games whose seats this browser subscribed to pushes
// are kept in localStorage.

import { lang, raw, t } from "./i18n.js";
import { api } from "./net.js";
import { esc } from "./svg.js";
import { url } from "./root.js";
import { errorText } from "./ui.js";

const PUSH_KEY = "rn.notice.push";
const EMAIL = /^[^@\s]{1,64}@[^@\s]+\.[^@\s]+$/; // as the server's (web/mail_api.py)
// what the card says of the seat's address, by whether its owner confirmed it (web/mail.py)
const EMAIL_STATUS = { confirmed: "notices_email_on", unconfirmed: "notices_email_wait", refused: "notices_email_refused" };

let asked = null; // GET /api/notices, once per page load

function serverNotices() {
  if (!asked) {
    asked = api("/api/notices").catch(() => {
      asked = null; // ask again next time
      return { push_key: null, mail: false };
    });
  }
  return asked;
}

export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && typeof Notification !== "undefined";
}

function pushedGames() {
  try {
    const v = JSON.parse(localStorage.getItem(PUSH_KEY) || "[]");
    return Array.isArray(v) ? v : [];
  } catch { return []; }
}

function markPushed(game, on) {
  const games = pushedGames().filter((g) => g !== game);
  if (on) games.push(game);
  localStorage.setItem(PUSH_KEY, JSON.stringify(games.slice(-200)));
}

// The VAPID key (base64url) as pushManager.subscribe wants it.
function keyBytes(b64) {
  const text = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function registration() {
  const sw = navigator.serviceWorker;
  const reg = (await sw.getRegistration(url("/"))) || (await sw.register(url("/sw.js"), { scope: url("/") }));
  await sw.ready;
  return reg;
}

export class RemoteNotices {
  constructor(page, part) {
    this.page = page; // the GamePage
    this.part = part;
    this.server = null; // {push_key, mail}, once known
    this.email = null; // the address the first held seat gave (null: none)
    this.address = null; // whether its owner confirmed it: "confirmed", "unconfirmed", "refused"
    this.confirmation = null; // "failed": the confirmation email could not be sent (a typo?)
    this.unsent = false; // saved just now, and no confirmation email went (asked too recently)
    this.emailOf = null; // "seat:token" it was read for
    this.problem = null; // what went wrong last: () => its sentence in the page's language now
    this.pushing = false; // a push subscription under way
    this.pushWant = null; // while the player's click on the box is under way: what it asked for
    this.mailing = false; // an address on its way to the server
    this.mailed = 0; // addresses begun and done sending: a read that overlapped one is out of date
    this.typed = false; // the player has typed in the address field since it was last saved
    this.synced = new Set(); // "seat:token" whose push subscription the server has from this page
    this.tried = new Set(); // "seat:token" syncPush tried (once per page: no retry storm)
    page.life.listen(part, "change", (e) => this.onChange(e));
    page.life.listen(part, "submit", (e) => this.onSubmit(e));
    page.life.listen(part, "click", (e) => this.onClick(e));
    page.life.listen(part, "input", (e) => { if (e.target.dataset.testid === "notice-email") this.typed = true; });
    // back from the mail program where the address was confirmed: read it again
    page.life.listen(window, "focus", () => {
      if (this.address !== "unconfirmed") return;
      this.emailOf = null;
      this.render();
    });
    serverNotices().then((s) => { this.server = s; this.render(); });
  }

  path(seat, tail) { return `/api/games/${encodeURIComponent(this.page.id)}/seats/${seat}/${tail}`; }

  get pushOn() { return pushedGames().includes(this.page.id); }

  // --- push -------------------------------------------------------------------------------------
  async onChange(e) {
    if (e.target.dataset.remote !== "push" || this.pushing) return;
    this.pushing = true;
    this.pushWant = e.target.checked; // what the box shows meanwhile
    this.problem = null;
    try {
      if (e.target.checked) await this.subscribe();
      else await this.unsubscribe();
    } catch (err) {
      const wanted = e.target.checked; // (the box is drawn anew meanwhile)
      this.problem = () => (wanted ? raw("web", "notices_push_failed") : errorText(err));
      if (e.target.checked) markPushed(this.page.id, false);
    }
    this.pushing = false;
    this.pushWant = null;
    this.render(true);
  }

  // The seats this page holds whose subscription it has not sent yet (a seat taken since, or a
  // page opened again: the browser's subscription may have changed), once push is on.
  syncPush() {
    const p = this.page;
    if (!this.pushOn || this.pushing || !this.server?.push_key || !pushSupported()
        || Notification.permission !== "granted") return;
    const fresh = p.held.filter((s) => !this.tried.has(`${s}:${p.tokenFor(s)}`));
    if (!fresh.length) return;
    for (const s of fresh) this.tried.add(`${s}:${p.tokenFor(s)}`);
    this.pushing = true;
    this.subscribe(fresh).catch((e) => console.warn("push", e)).finally(() => { this.pushing = false; });
  }

  async subscribe(seats = this.page.held) {
    if (Notification.permission !== "granted" && (await Notification.requestPermission()) !== "granted") {
      throw new Error("no permission");
    }
    const reg = await registration();
    const sub = (await reg.pushManager.getSubscription())
      || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(this.server.push_key) }));
    const body = { ...sub.toJSON(), lang: lang() };
    for (const seat of seats) {
      const token = this.page.tokenFor(seat);
      await api(this.path(seat, "push"), { method: "POST", token, body });
      this.synced.add(`${seat}:${token}`);
      this.tried.add(`${seat}:${token}`);
    }
    this.part.dataset.synced = [...this.synced].map((k) => k.split(":")[0]).sort().join(",");
    markPushed(this.page.id, true);
  }

  async unsubscribe() {
    markPushed(this.page.id, false);
    this.synced.clear();
    this.tried.clear();
    delete this.part.dataset.synced;
    const reg = await navigator.serviceWorker.getRegistration(url("/"));
    const sub = reg && (await reg.pushManager.getSubscription());
    if (!sub) return;
    for (const seat of this.page.held) {
      await api(this.path(seat, "push/off"), { method: "POST", token: this.page.tokenFor(seat), body: { endpoint: sub.endpoint } });
    }
  }

  // --- email ------------------------------------------------------------------------------------
  async readEmail() {
    const seat = this.page.held[0];
    const key = `${seat}:${this.page.tokenFor(seat)}`;
    if (!this.server?.mail || seat === undefined || this.emailOf === key) return;
    this.emailOf = key;
    const sent = this.mailed;
    try {
      const got = await api(this.path(seat, "notify"), { token: this.page.tokenFor(seat) });
      // (an address saved meanwhile wins: this answer may have been read before it was stored)
      if (sent === this.mailed && !this.mailing) {
        [this.email, this.address, this.confirmation] = [got.email, got.address, got.confirmation];
        this.unsent = false;
      }
    } catch { this.emailOf = null; }
    this.render();
  }

  async onSubmit(e) {
    e.preventDefault();
    const address = this.part.querySelector("[data-testid=notice-email]").value.trim();
    if (!EMAIL.test(address)) {
      this.problem = () => raw("web", "notices_email_bad");
      this.render(true);
      return;
    }
    await this.setEmail(address);
  }

  onClick(e) {
    if (e.target.closest("[data-remote=email-stop]")) this.setEmail(null);
  }

  async setEmail(address) {
    if (this.mailing) return;
    this.mailing = true;
    this.mailed += 1;
    this.problem = null;
    try {
      let got = null, sent = false;
      for (const seat of this.page.held) {
        got = await api(this.path(seat, "notify"), { method: "POST", token: this.page.tokenFor(seat), body: { email: address, lang: lang() } });
        sent ||= got?.confirmation === "sent";
      }
      this.email = address;
      this.address = got?.address ?? null;
      this.confirmation = got?.confirmation ?? null;
      // no link went now (one went a moment ago, or today's are used up): not "we sent a link"
      this.unsent = this.address === "unconfirmed" && !sent && this.confirmation === null;
      this.typed = false; // the field shows the address saved
    } catch (err) {
      this.problem = () => (err.code === "bad_message" ? raw("web", "notices_email_bad") : errorText(err));
    }
    this.mailing = false;
    this.mailed += 1;
    this.render(true, address === null ? "" : null);
  }

  // --- the card's part --------------------------------------------------------------------------
  emailStatus() {
    if (this.address === "unconfirmed" && this.confirmation === "failed") return "notices_email_unsent";
    if (this.address === "unconfirmed" && this.unsent) return "notices_email_later";
    return EMAIL_STATUS[this.address] || EMAIL_STATUS.unconfirmed;
  }

  render(force = false, draft = null) {
    const s = this.server;
    if (!s) return;
    this.readEmail();
    this.syncPush();
    const push = pushSupported() && !!s.push_key;
    const perm = typeof Notification === "undefined" ? "unsupported" : Notification.permission;
    const ticked = this.pushWant ?? (this.pushOn && perm === "granted");
    const state = [push, s.mail, ticked, perm, this.email, this.address, this.confirmation, this.problem?.(), lang()].join("|");
    if (!force && this.part.dataset.state === state) return;
    this.part.dataset.state = state;
    const input = this.part.querySelector("[data-testid=notice-email]");
    // the player's draft while they type; else the seat's address (the field's first, empty
    // drawing is no draft: the address read afterwards fills it)
    const value = draft ?? (input && this.typed ? input.value : this.email || "");
    const status = this.emailStatus();
    this.part.innerHTML = `${push ? `<label class="check"><input type="checkbox" data-remote="push" data-testid="notice-push"
        ${ticked ? "checked" : ""} ${perm === "denied" ? "disabled" : ""}>
        <span>${esc(raw("web", "notices_push"))}</span></label>` : ""}
      ${s.mail ? `<form class="notice-email" data-testid="notice-email-form" novalidate>
        <label class="field"><span>${esc(raw("web", "notices_email"))}</span>
          <input type="email" data-testid="notice-email" autocomplete="email" maxlength="254" value="${esc(value)}"></label>
        <div class="notice-email-row"><button class="btn small primary" type="submit" data-testid="notice-email-save">${esc(raw("web", "notices_email_save"))}</button>
          ${this.email ? `<button class="btn small" type="button" data-remote="email-stop" data-testid="notice-email-stop">${esc(raw("web", "notices_email_stop"))}</button>` : ""}</div>
        ${this.email ? `<p class="${status === "notices_email_unsent" ? "warn" : "muted"}" data-testid="notice-email-status" data-address="${esc(this.address || "")}">${esc(t("web", status, { email: this.email }))}</p>` : ""}
      </form>` : ""}
      ${this.problem ? `<p class="muted" role="status" data-testid="notice-remote-why">${esc(this.problem())}</p>` : ""}`;
  }
}
