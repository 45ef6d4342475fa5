// Installed app and offline start (issue 20 §4): registers the service worker (/sw.js, web/pwa.py)
// and, when the page was opened without the network (the worker answered with the app shell),
// shows "You are offline; reconnecting…" and tries again by itself — as soon as the browser is
// back online, else after 1, 2, 4… up to 10 seconds.

import { ApiError } from "./net.js";
import { preferredLanguage } from "./i18n.js";
import { url } from "./root.js";

// After the page's own files have loaded: the worker's first install fetches the whole shell,
// which should not slow the first page down.
export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  const register = () => navigator.serviceWorker.register(url("/sw.js"), { scope: url("/") })
    .catch((e) => console.warn("service worker", e));
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

// The sentence in the player's language: the page carries it in every language (no catalog yet).
function offlineText() {
  let texts = {};
  try { texts = JSON.parse(document.getElementById("offline-texts")?.textContent || "{}"); } catch { /* none */ }
  return texts[preferredLanguage()] || texts.en || "You are offline; reconnecting…";
}

function showOffline(on) {
  const conn = document.getElementById("conn");
  const app = document.getElementById("app");
  // the language list and the rules need the server: not offered meanwhile
  for (const el of document.querySelectorAll(".lang-pick, #rules-btn")) el.hidden = on;
  if (on) {
    const text = offlineText();
    conn.dataset.state = "offline";
    conn.textContent = text;
    if (!app.querySelector("[data-testid=offline-note]")) {
      app.innerHTML = `<p class="offline-note" data-testid="offline-note"></p>`;
      app.firstElementChild.textContent = text;
    }
  } else if (conn.dataset.state === "offline") {
    conn.dataset.state = "idle";
    conn.textContent = "";
    app.innerHTML = `<p class="loading">…</p>`;
  }
}

function online(ms) {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); window.removeEventListener("online", done); resolve(); };
    const timer = setTimeout(done, ms);
    window.addEventListener("online", done);
  });
}

// load() until it does not fail for want of the network (other failures are thrown).
export async function untilOnline(load) {
  for (let retry = 0; ; retry++) {
    try {
      const out = await load();
      showOffline(false);
      return out;
    } catch (e) {
      if (!(e instanceof ApiError && e.code === "network")) throw e;
    }
    showOffline(true);
    await online(Math.min(10000, 1000 * 2 ** retry));
  }
}
