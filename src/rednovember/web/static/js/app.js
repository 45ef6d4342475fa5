// Entry point: language, header, router (lobby at "/", a game at "/g/{id}"), toasts, rules.

import { LANGUAGES, lang, onLanguageChange, preferredLanguage, raw, setCatalogFetcher, setLanguage, t } from "./i18n.js";
import { api } from "./net.js";
import { LobbyPage } from "./lobby.js";
import { GamePage } from "./game.js";
import { ReplayPage } from "./replay.js";
import { LearnPage } from "./learn.js";
import { MyGamesPage } from "./mygames.js";
import { openRules } from "./rules.js";
import { appPath } from "./root.js";
import { onNavigate } from "./router.js";
import { retellToasts, toast } from "./ui.js";
import { registerWorker, untilOnline } from "./offline.js";

setCatalogFetcher(async (code) => (await api(`/api/i18n/${encodeURIComponent(code)}`)).catalog);

let page = null;
const ctx = { languages: [], data: null, meta: null };

function applyStatic() {
  for (const el of document.querySelectorAll("[data-i18n]")) {
    const [section, key] = el.dataset.i18n.split(".");
    el.textContent = raw(section, key);
  }
  document.getElementById("lang-select").setAttribute("aria-label", raw("web", "language"));
  document.querySelector("[data-testid=rules-close]").setAttribute("aria-label", raw("web", "close"));
  const title = raw("rules_ref", "title");
  document.getElementById("rules-title").textContent = title !== "title" ? title : raw("web", "rules_title");
  document.title = raw("ui", "title");
  const conn = document.getElementById("conn");
  conn.textContent = raw("web", `conn_${conn.dataset.state}`);
}

function fillLanguages() {
  const sel = document.getElementById("lang-select");
  sel.innerHTML = "";
  for (const l of ctx.languages) {
    const o = document.createElement("option");
    o.value = l.code;
    o.textContent = l.name;
    o.dataset.testid = `lang-${l.code}`;
    sel.appendChild(o);
  }
  sel.value = lang();
}

function route() {
  const path = appPath();
  const m = path.match(/^\/g\/([A-Za-z0-9_-]{1,64})\/?$/);
  const r = path.match(/^\/g\/([A-Za-z0-9_-]{1,64})\/replay\/?$/);
  const learn = path.match(/^\/learn(?:\/([a-z_]{1,32}))?\/?$/);
  if (page && page.destroy) page.destroy();
  const root = document.getElementById("app");
  page = path.match(/^\/me\/?$/) ? new MyGamesPage(root, ctx)
    : learn ? new LearnPage(root, learn[1] || null, ctx) : r ? new ReplayPage(root, r[1], ctx) : m ? new GamePage(root, m[1], ctx) : new LobbyPage(root, ctx);
  page.start();
}


// A failure of the server falls back; a failure of the network is retried (offline.js).
const soft = (promise, fallback) => promise.catch((e) => { if (e.code === "network") throw e; return fallback; });

async function load() {
  const [langs, data, meta] = await Promise.all([
    soft(api("/api/i18n"), { languages: [{ code: "en", name: "English" }] }),
    soft(api("/api/data"), null),
    soft(api("/api/meta"), null),
  ]);
  ctx.languages = langs.languages.length ? langs.languages : [{ code: "en", name: "English" }];
  ctx.data = data;
  ctx.meta = meta;
  const codes = ctx.languages.map((l) => l.code);
  let want = preferredLanguage();
  if (!codes.includes(want)) want = codes.includes("en") ? "en" : codes[0];
  await setLanguage(want);
}

async function main() {
  registerWorker();
  await untilOnline(load);
  fillLanguages();
  applyStatic();
  document.getElementById("lang-select").addEventListener("change", async (e) => {
    await setLanguage(e.target.value);
  });
  onLanguageChange(() => { applyStatic(); fillLanguages(); retellToasts(); if (page && page.render) page.render(); });
  document.getElementById("rules-btn").addEventListener("click", () => openRules(page));
  onNavigate(route);
  window.addEventListener("popstate", route);
  route();
}

window.rn = { toast, t, lang, LANGUAGES };
main().catch((e) => {
  console.error(e);
  document.getElementById("app").textContent = `Red November could not start: ${e.message || e}`;
});
