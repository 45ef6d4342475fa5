// Translations: the server's JSON catalogs (section -> key -> template), English as fallback.
// Templates use Python's str.format named fields: "{gnome} opens the hatch to {to_room}."

import { url } from "./root.js";

export const LANGUAGES = ["en", "de", "fr", "pl", "ru", "es"];

let current = { code: "en", texts: {} };
let english = { code: "en", texts: {} };
const listeners = new Set();

export function onLanguageChange(fn) { listeners.add(fn); }

export function lang() { return current.code; }

function lookup(cat, section, key) {
  const s = cat.texts[section];
  return s && Object.prototype.hasOwnProperty.call(s, key) ? s[key] : undefined;
}

export function raw(section, key) {
  const found = lookup(current, section, key);
  if (found !== undefined) return found;
  const en = lookup(english, section, key);
  return en !== undefined ? en : key;
}

// Grammar helpers, as in rednovember/i18n/__init__.py: a format spec "{n:# card|# cards}" picks a
// plural form ("one|other", Polish and Russian "one|few|many"; "#" is the number), and a spec
// naming a case of the catalog's "grammar" section ("{other:acc}") inflects the listed phrases.
function pluralIndex(code, n) {
  n = Math.abs(n);
  if (code === "fr") return n === 0 || n === 1 ? 0 : 1;
  if (code === "pl" || code === "ru") {
    if (n === 1 || (code === "ru" && n % 10 === 1 && n % 100 !== 11)) return 0;
    return [2, 3, 4].includes(n % 10) && ![12, 13, 14].includes(n % 100) ? 1 : 2;
  }
  return n === 1 ? 0 : 1;
}

const grammars = new Map();
function grammar(cat) {
  if (!grammars.has(cat.texts)) {
    const table = { ...((cat.texts && cat.texts.grammar) || {}) };
    const cases = new Set(String(table.cases || "").split(/\s+/).filter(Boolean));
    delete table.cases;
    const forms = {};
    for (const [phrase, spec] of Object.entries(table)) {
      forms[phrase] = {};
      for (const part of String(spec).split("|")) {
        const i = part.indexOf("=");
        if (i > 0) forms[phrase][part.slice(0, i).trim()] = part.slice(i + 1).trim();
      }
    }
    const phrases = Object.keys(forms).sort((a, b) => b.length - a.length)
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const pattern = phrases.length ? new RegExp(`(?<![\\p{L}\\p{N}_])(?:${phrases.join("|")})(?![\\p{L}\\p{N}_])`, "gu") : null;
    grammars.set(cat.texts, { cases, forms, pattern });
  }
  return grammars.get(cat.texts);
}

function applySpec(value, spec) {
  if (!spec) return String(value);
  if (spec.includes("|")) {
    const forms = spec.split("|");
    const n = Number.parseInt(value, 10);
    const i = Number.isNaN(n) ? forms.length - 1 : Math.min(pluralIndex(current.code, n), forms.length - 1);
    return forms[i].replaceAll("#", String(value));
  }
  const g = grammar(current);
  if (!g.cases.has(spec) || !g.pattern) return String(value);
  return String(value).replace(g.pattern, (m) => (g.forms[m] && g.forms[m][spec]) || m);
}

export function format(template, fields) {
  if (!fields) return template;
  return template.replace(/\{\{|\}\}|\{([a-zA-Z_][a-zA-Z0-9_]*)(?:![rs])?(?::([^{}]*))?\}/g, (m, name, spec) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    return Object.prototype.hasOwnProperty.call(fields, name) ? applySpec(fields[name], spec) : m;
  });
}

export function t(section, key, fields) { return format(raw(section, key), fields); }

export function section(name) {
  return { ...(english.texts[name] || {}), ...(current.texts[name] || {}) };
}

// The language a new visitor gets: a stored choice, else the browser's, else English.
export function preferredLanguage() {
  const stored = localStorage.getItem("rn.lang");
  if (stored && LANGUAGES.includes(stored)) return stored;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

let fetcher = async (code) => {
  const r = await fetch(url(`/api/i18n/${code}`));
  if (!r.ok) throw new Error(`catalog ${code}: HTTP ${r.status}`);
  return r.json();
};

export function setCatalogFetcher(fn) { fetcher = fn; }

const cache = new Map();
async function load(code) {
  if (!cache.has(code)) cache.set(code, fetcher(code).catch((e) => { cache.delete(code); throw e; }));
  return cache.get(code);
}

export async function setLanguage(code) {
  if (!english.texts.meta) english = { code: "en", texts: await load("en") };
  let texts;
  try {
    texts = code === "en" ? english.texts : await load(code);
  } catch (e) {
    console.warn(e);
    code = "en";
    texts = english.texts;
  }
  current = { code, texts };
  localStorage.setItem("rn.lang", code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}
