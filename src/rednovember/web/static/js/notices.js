// Being told it is your turn (issue 20 §3): while a seat this page holds must decide, the tab's
// title reads "(1) Your turn — Red November" and the favicon wears a dot; optionally a short chime
// (WebAudio, off by default) and, while the tab is hidden, a system notification (asked for only
// from a click on its checkbox). Everything clears when the turn passes, and the notification
// also when the tab is shown again. The two choices are kept in localStorage.
//
// The game page calls update() on every state (not only when it draws: a hidden tab draws
// nothing, requestAnimationFrame waits for it to be shown) and on every render.

import { raw, t } from "./i18n.js";
import { esc } from "./svg.js";
import { url } from "./root.js";
import { RemoteNotices } from "./remote.js";

const SOUND_KEY = "rn.notice.sound";
const NOTIFY_KEY = "rn.notice.notify";

export class TurnNotices {
  constructor(page) {
    this.page = page; // the GamePage
    this.mine = 0; // how many held seats must decide now
    this.title = null; // the title before ours (restored when the turn passes)
    this.icon = null; // the favicon's own href
    this.dotted = null; // the favicon with a dot (a data: URL), drawn once
    this.note = null; // the notification shown (a Notification), when not through the worker
    this.audio = null;
    this.box = null;
    page.life.listen(document, "visibilitychange", () => { if (!document.hidden) this.closeNote(); });
    page.life.onEnd(() => this.clear());
  }

  get sound() { return localStorage.getItem(SOUND_KEY) === "on"; }
  get notify() { return localStorage.getItem(NOTIFY_KEY) === "on" && notePermission() === "granted"; }

  // --- the turn ---------------------------------------------------------------------------------
  update() {
    const p = this.page;
    const mine = p.held.filter((s) => {
      const st = p.states.get(s);
      return st && st.your_turn && st.status === "playing" && !st.view?.result;
    }).length;
    const began = mine > 0 && this.mine === 0;
    this.mine = mine;
    if (!mine) { this.clear(); return; }
    this.showTitle();
    this.showDot();
    if (began) {
      if (this.sound) this.chime();
      if (this.notify && document.hidden) this.showNote();
    }
  }

  showTitle() {
    const base = raw("ui", "title");
    const title = t("web", "title_your_turn", { count: this.mine, title: base });
    if (document.title !== title) {
      if (this.title === null) this.title = document.title;
      document.title = title;
    }
  }

  iconLink() { return document.querySelector("link[rel~=icon]"); }

  async showDot() {
    const link = this.iconLink();
    if (!link) return;
    if (this.icon === null) this.icon = link.getAttribute("href");
    if (!this.dotted) this.dotted = dottedIcon(this.icon).catch(() => null);
    const dotted = await this.dotted;
    if (dotted && this.mine && !this.page.life.ended) link.setAttribute("href", dotted);
  }

  clear() {
    if (this.title !== null) {
      // the language may have changed since: the page's own title in the current language
      document.title = raw("ui", "title");
      this.title = null;
    }
    if (this.icon !== null) this.iconLink()?.setAttribute("href", this.icon);
    this.closeNote();
  }

  // --- the chime --------------------------------------------------------------------------------
  audioContext() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    if (!this.audio) this.audio = new Ctx();
    if (this.audio.state === "suspended") this.audio.resume().catch(() => {});
    return this.audio;
  }

  // Two soft rising tones, about half a second.
  chime() {
    const ctx = this.audioContext();
    if (!ctx) return;
    const now = ctx.currentTime;
    [[0, 660], [0.16, 880]].forEach(([at, hz]) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.3);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + at);
      osc.stop(now + at + 0.32);
    });
  }

  // --- the system notification ------------------------------------------------------------------
  tag() { return `rn-turn-${this.page.id}`; }

  async showNote() {
    const p = this.page;
    const model = p.model();
    const body = model ? p.yourTurnText(model) : t("web", "title_your_turn", { count: this.mine, title: "" });
    const options = { body, tag: this.tag(), icon: this.icon || undefined, data: { url: location.href } };
    const reg = await workerRegistration();
    if (!this.mine || !document.hidden || p.life.ended) return; // the turn passed meanwhile
    try {
      if (reg) await reg.showNotification(raw("ui", "title"), options);
      else {
        this.note = new Notification(raw("ui", "title"), options);
        this.note.onclick = () => { window.focus(); this.closeNote(); };
      }
    } catch (e) { console.warn("notification", e); }
  }

  async closeNote() {
    if (this.note) { this.note.close(); this.note = null; }
    const reg = await workerRegistration();
    if (reg && reg.getNotifications) {
      for (const n of await reg.getNotifications({ tag: this.tag() })) n.close();
    }
  }

  // --- the card with the two choices, and those of remote.js (push, email) below them ----------
  mount(box) {
    this.box = box;
    box.innerHTML = `<div data-part="here"></div><div class="notices-away" data-part="away"></div>`;
    this.here = box.querySelector("[data-part=here]");
    this.remote = new RemoteNotices(this.page, box.querySelector("[data-part=away]"));
    this.page.life.listen(this.here, "change", (e) => this.onChange(e));
  }

  async onChange(e) {
    const el = e.target;
    if (el.dataset.notice === "sound") {
      localStorage.setItem(SOUND_KEY, el.checked ? "on" : "off");
      if (el.checked) this.chime(); // a click: the browser lets the page sound now
    } else if (el.dataset.notice === "notify") {
      let on = el.checked;
      if (on && notePermission() !== "granted" && notePermission() !== "unsupported") {
        on = (await Notification.requestPermission()) === "granted";
      }
      localStorage.setItem(NOTIFY_KEY, on ? "on" : "off");
      this.render(true);
    }
  }

  render(force = false) {
    const box = this.box;
    if (!box) return;
    box.hidden = !this.page.holdsAny();
    this.remote.render(force);
    const perm = notePermission();
    const state = `${this.sound}|${this.notify}|${perm}|${raw("web", "notices_title")}`;
    if (!force && this.here.dataset.state === state) return;
    this.here.dataset.state = state;
    const why = perm === "denied" ? "notices_blocked" : perm === "unsupported" ? "notices_unsupported" : null;
    this.here.innerHTML = `<h3>${esc(raw("web", "notices_title"))}</h3>
      <label class="check"><input type="checkbox" data-notice="sound" data-testid="notice-sound" ${this.sound ? "checked" : ""}>
        <span>${esc(raw("web", "notices_sound"))}</span></label>
      <label class="check"><input type="checkbox" data-notice="notify" data-testid="notice-notify" ${this.notify ? "checked" : ""} ${why ? "disabled" : ""}>
        <span>${esc(raw("web", "notices_notify"))}</span></label>
      ${why ? `<p class="muted" data-testid="notice-why">${esc(raw("web", why))}</p>` : ""}`;
  }
}

function notePermission() {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

// The service worker's registration when one controls this page (web/pwa.py): its notifications
// also work where `new Notification` is refused (Chrome on Android).
async function workerRegistration() {
  if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return null;
  try { return (await navigator.serviceWorker.getRegistration(url("/"))) || null; } catch { return null; }
}

// The favicon with a yellow dot in its top-right corner, as a PNG data: URL.
async function dottedIcon(href) {
  const img = new Image();
  img.src = href;
  await img.decode();
  const size = 64;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  const g = canvas.getContext("2d");
  g.drawImage(img, 0, 0, size, size);
  g.beginPath();
  g.arc(size - 15, 15, 13, 0, 2 * Math.PI);
  g.fillStyle = "#f1c40f";
  g.fill();
  g.lineWidth = 4;
  g.strokeStyle = "#0b2236";
  g.stroke();
  return canvas.toDataURL("image/png");
}
