// What every page shows the same way: toasts, and a server error as a translated sentence.

import { lang, raw, t } from "./i18n.js";

// The text of each toast on screen (its element -> a function of the page's language), so that
// a toast says itself again when the language is switched (`retellToasts`).
const texts = new WeakMap();

// `message`: the text, or a function that gives it in the page's language at the time.
export function toast(message, kind = "info", ms = 6000, tag = null) {
  const box = document.getElementById("toasts");
  if (tag) for (const old of box.querySelectorAll(`[data-tag="${tag}"]`)) old.remove();
  const el = document.createElement("div");
  if (tag) el.dataset.tag = tag;
  el.className = `toast ${kind}`;
  el.setAttribute("role", kind === "error" ? "alert" : "status");
  el.dataset.testid = kind === "error" ? "error" : "toast";
  texts.set(el, typeof message === "function" ? message : () => message);
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast-close";
  close.textContent = "✕";
  close.onclick = () => el.remove();
  el.append(document.createTextNode(""), close);
  tell(el);
  box.appendChild(el);
  while (box.children.length > 4) box.firstElementChild.remove();
  if (ms) setTimeout(() => el.remove(), ms);
}

function tell(el) {
  el.firstChild.textContent = texts.get(el)();
  el.querySelector(".toast-close").setAttribute("aria-label", raw("web", "close"));
}

// The toasts on screen, in the page's (new) language.
export function retellToasts() {
  for (const el of document.querySelectorAll("#toasts > .toast")) if (texts.has(el)) tell(el);
}

// How long to wait before trying again, in words: "40 s", "12 min", "2 h".
function waitText(seconds) {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 90) return t("web_lobby", "seconds", { n: s });
  if (s < 5400) return t("web_lobby", "minutes", { n: Math.ceil(s / 60) });
  return t("web_lobby", "hours", { n: Math.ceil(s / 3600) });
}

// Parameters of an error that are seats (0-based on the wire): shown as "Player n+1".
const SEAT_PARAMS = new Set(["seat", "to_move"]);

// A server error as a readable, translated sentence: the code's sentence, then the case's
// (`detail` with its `params`); the server's English `message` only when neither is known.
// An error's text in the page's language; `seatName` (seat -> "Bob") names the seat of its
// parameters as `player` ("Player 2" without it), and a wait (`seconds`) reads as `wait`.
export function errorText(err, seatName = null) {
  const code = err && err.code ? err.code : "internal";
  const key = `error_${code}`;
  const text = raw("web", key);
  const base = text === key ? raw("web", "error_generic") : text;
  const detailKey = err && err.detail ? `error_detail_${err.detail}` : null;
  if (detailKey && raw("web", detailKey) !== detailKey) {
    const params = {};
    for (const [k, v] of Object.entries(err.params || {})) params[k] = SEAT_PARAMS.has(k) && Number.isInteger(v) ? v + 1 : v;
    if (Number.isFinite(err.params?.seconds)) params.wait = waitText(err.params.seconds);
    const seat = err.params?.seat;
    if (Number.isInteger(seat)) params.player = seatName ? seatName(seat) : t("ui", "player_long", { seat: seat + 1 });
    return `${base} ${t("web", detailKey, params)}`;
  }
  const english = lang() === "en" || text === key;
  return err && err.message && code !== "network" && english ? `${base} (${err.message})` : base;
}

// A <dialog> made on first use and kept in the body (the seat link, the move link, a new name),
// titled by the element `titleId`: its ✕ ([data-close]) or a click on its backdrop closes it;
// `onClick` gets the other clicks, and `setup(d)` adds what else it listens to, once.
export function keptDialog(id, testid, titleId, className, onClick = () => {}, setup = () => {}) {
  let d = document.getElementById(id);
  if (d) return d;
  d = document.createElement("dialog");
  d.id = id;
  d.className = className;
  d.dataset.testid = testid;
  d.setAttribute("aria-labelledby", titleId);
  d.addEventListener("click", (e) => {
    if (e.target === d || e.target.closest("[data-close]")) d.close();
    else onClick(e);
  });
  setup(d);
  document.body.appendChild(d);
  return d;
}
