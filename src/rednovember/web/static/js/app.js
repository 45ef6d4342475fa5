// Entry point: language, header, router (lobby at "/", a game at "/g/{id}"), toasts, rules.

import { LANGUAGES, lang, onLanguageChange, preferredLanguage, raw, setCatalogFetcher, setLanguage, t } from "./i18n.js";
import { api } from "./net.js";
import { LobbyPage } from "./lobby.js";
import { GamePage } from "./game.js";
import { ReplayPage } from "./replay.js";
import { LearnPage } from "./learn.js";
import { openRules } from "./rules.js";
import { appPath, url } from "./root.js";

setCatalogFetcher(async (code) => (await api(`/api/i18n/${encodeURIComponent(code)}`)).catalog);

let page = null;
const ctx = { languages: [], data: null, meta: null };

export function toast(message, kind = "info", ms = 6000, tag = null) {
  const box = document.getElementById("toasts");
  if (tag) for (const old of box.querySelectorAll(`[data-tag="${tag}"]`)) old.remove();
  const el = document.createElement("div");
  if (tag) el.dataset.tag = tag;
  el.className = `toast ${kind}`;
  el.setAttribute("role", kind === "error" ? "alert" : "status");
  el.dataset.testid = kind === "error" ? "error" : "toast";
  el.textContent = message;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast-close";
  close.textContent = "✕";
  close.setAttribute("aria-label", raw("web", "close"));
  close.onclick = () => el.remove();
  el.appendChild(close);
  box.appendChild(el);
  while (box.children.length > 4) box.firstElementChild.remove();
  if (ms) setTimeout(() => el.remove(), ms);
}

// Parameters of an error that are seats (0-based on the wire): shown as "Player n+1".
const SEAT_PARAMS = new Set(["seat", "to_move"]);

// A server error as a readable, translated sentence: the code's sentence, then the case's
// (`detail` with its `params`); the server's English `message` only when neither is known.
export function errorText(err) {
  const code = err && err.code ? err.code : "internal";
  const key = `error_${code}`;
  const text = raw("web", key);
  const base = text === key ? raw("web", "error_generic") : text;
  const detailKey = err && err.detail ? `error_detail_${err.detail}` : null;
  if (detailKey && raw("web", detailKey) !== detailKey) {
    const params = {};
    for (const [k, v] of Object.entries(err.params || {})) params[k] = SEAT_PARAMS.has(k) && Number.isInteger(v) ? v + 1 : v;
    return `${base} ${t("web", detailKey, params)}`;
  }
  const english = lang() === "en" || text === key;
  return err && err.message && code !== "network" && english ? `${base} (${err.message})` : base;
}

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
  page = learn ? new LearnPage(root, learn[1] || null, ctx) : r ? new ReplayPage(root, r[1], ctx) : m ? new GamePage(root, m[1], ctx) : new LobbyPage(root, ctx);
  page.start();
}

export function navigate(path) {
  history.pushState({}, "", url(path));
  route();
}

async function main() {
  const [langs, data, meta] = await Promise.all([
    api("/api/i18n").catch(() => ({ languages: [{ code: "en", name: "English" }] })),
    api("/api/data").catch(() => null),
    api("/api/meta").catch(() => null),
  ]);
  ctx.languages = langs.languages.length ? langs.languages : [{ code: "en", name: "English" }];
  ctx.data = data;
  ctx.meta = meta;
  const codes = ctx.languages.map((l) => l.code);
  let want = preferredLanguage();
  if (!codes.includes(want)) want = codes.includes("en") ? "en" : codes[0];
  await setLanguage(want);
  fillLanguages();
  applyStatic();
  document.getElementById("lang-select").addEventListener("change", async (e) => {
    await setLanguage(e.target.value);
  });
  onLanguageChange(() => { applyStatic(); fillLanguages(); if (page && page.render) page.render(); });
  document.getElementById("rules-btn").addEventListener("click", () => openRules(page));
  window.addEventListener("popstate", route);
  route();
}

window.rn = { toast, t, lang, LANGUAGES };
main().catch((e) => {
  console.error(e);
  document.getElementById("app").textContent = `Red November could not start: ${e.message || e}`;
});
