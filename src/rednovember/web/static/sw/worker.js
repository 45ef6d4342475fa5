// The service worker's code (issue 20 §4). /sw.js (web/pwa.py) sets self.RN_SHELL first: this
// build's version, the root path, the shell page and the URLs of the app shell (content-hashed).
//
// - install: the shell goes into the cache "rn-shell-<version>"; activate: older shells deleted.
// - a page (navigation): the network first, the cached shell page when it cannot be reached (the
//   front-end then says it is offline and tries again by itself: static/js/offline.js).
// - a static file: its hashed name never changes content, so the cache first; a plain name (a
//   style sheet's url()) from the network, the same file by its hashed name when offline.
// - /api, the WebSocket, /sw.js and anything else: never cached, never answered here.
// - push: the server's notice becomes a notification; a click on any notification focuses (or
//   opens) the game's page.

const { version, root, page, urls } = self.RN_SHELL;
const PREFIX = "rn-shell-";
const CACHE = PREFIX + version;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(urls)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// The server's own paths that the worker leaves alone, even as a navigation (a download).
const UNTOUCHED = ["/api/", "/ws/", "/docs", "/redoc", "/openapi.json", "/sw.js", "/manifest.webmanifest"];

function inApp(u) {
  if (u.origin !== self.location.origin) return false;
  if (u.pathname !== root && !u.pathname.startsWith(`${root}/`)) return false;
  const path = u.pathname.slice(root.length);
  return !UNTOUCHED.some((p) => path === p || path.startsWith(p));
}

function isStatic(u) {
  return u.pathname.startsWith(`${root}/static/`);
}

async function pageOrShell(request) {
  try {
    return await fetch(request);
  } catch (e) {
    const shell = await caches.match(page, { cacheName: CACHE });
    if (shell) return shell;
    throw e;
  }
}

// A static file's plain name (what a style sheet's url() names) → its hashed name in the shell.
const HASHED = new Map(urls.map((u) => [u.replace(/\.[0-9a-f]{12}(\.[A-Za-z0-9]+)$/, "$1"), u]));

async function staticFile(request, path) {
  const hit = await caches.match(request, { cacheName: CACHE });
  if (hit) return hit;
  try {
    return await fetch(request);
  } catch (e) {
    const kept = HASHED.has(path) && await caches.match(HASHED.get(path), { cacheName: CACHE });
    if (kept) return kept;
    throw e;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const u = new URL(request.url);
  if (!inApp(u)) return;
  if (request.mode === "navigate") event.respondWith(pageOrShell(request));
  else if (isStatic(u)) event.respondWith(staticFile(request, u.pathname));
  // anything else: the network, untouched
});

// Web Push (issue 20 §3; web/push.py): the server's notice that a seat must decide while its
// player is away, shown even with every page of the site closed. It carries {title, body, url,
// game, tag}: url is the game page's path relative to the app (never a token: the browser holds
// it). It is shown with the same tag and data as the page's own notification
// (static/js/notices.js), so a click below and the page's clearing work for both. Every push
// shows a notification (browsers allow push only so).
const ICON = urls.find((u) => /\/img\/icon-192\.[0-9a-f]{12}\.png$/.test(u));

function pushedPage(path) {
  try {
    const u = new URL(typeof path === "string" ? path : "", `${self.location.origin}${root}/`);
    return inApp(u) ? u.href : new URL(page, self.location.origin).href;
  } catch (e) {
    return new URL(page, self.location.origin).href;
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try { data = (event.data && event.data.json()) || {}; } catch (e) { data = {}; }
  const game = typeof data.game === "string" ? data.game : "";
  const title = typeof data.title === "string" && data.title ? data.title : "Red November";
  const options = {
    body: typeof data.body === "string" ? data.body : "",
    tag: game ? `rn-turn-${game}` : "rn-turn",
    data: { url: pushedPage(data.url) },
    renotify: true,
  };
  if (ICON) options.icon = ICON;
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = (event.notification.data && event.notification.data.url) || page;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
    const tab = tabs.find((c) => c.url === target) || tabs.find((c) => new URL(c.url).pathname === new URL(target, self.location.href).pathname);
    return tab ? tab.focus() : self.clients.openWindow(target);
  }));
});
