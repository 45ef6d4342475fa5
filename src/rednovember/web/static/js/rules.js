// The rules reference in a dialog: the server's /api/rules/{lang}, plus the help of every item.

import { lang, raw } from "./i18n.js";
import { api } from "./net.js";
import { esc } from "./svg.js";
import { appPath, url } from "./root.js";

// The full rules page in the page's language; from a game (or its replay) it carries ?back= so the
// page can offer "Back to the game" (the server accepts only /g/{id} and /g/{id}/replay).
const GAME_PATH = /^\/g\/[A-Za-z0-9_-]{1,32}(\/replay)?$/;

export function fullRulesLink() {
  const path = appPath();
  const back = GAME_PATH.test(path) ? `?back=${encodeURIComponent(path)}` : "";
  return url(`/rules/${encodeURIComponent(lang())}${back}`);
}

export async function openRules(page, focusKey = null) {
  const dlg = document.getElementById("rules-dialog");
  const body = document.getElementById("rules-body");
  body.innerHTML = `<p class="muted">…</p>`;
  if (!dlg.open) dlg.showModal();
  dlg.querySelector("[data-close]").onclick = () => dlg.close();
  dlg.onclick = (e) => { if (e.target === dlg) dlg.close(); };
  let ref;
  try {
    ref = await api(`/api/rules/${encodeURIComponent(lang())}`);
  } catch {
    ref = { sections: [] };
  }
  const full = fullRulesLink();
  let html = `<p class="rules-full"><a class="btn primary small" data-testid="rules-full-page" href="${esc(full)}">${esc((ref.page && ref.page.open_full) || raw("web", "rules_full_page"))} →</a></p>`;
  const intro = (ref.page && ref.page.dialog_intro) || ref.intro;
  html += intro ? `<p>${esc(intro)}</p>` : "";
  html += `<nav class="rules-toc" aria-label="${esc(raw("web", "rules_contents"))}">`;
  for (const s of ref.sections || []) html += `<a href="#rules-${esc(s.id)}">${esc(s.title)}</a>`;
  html += `</nav>`;
  for (const s of ref.sections || []) {
    html += `<section id="rules-${esc(s.id)}" data-testid="rules-section-${esc(s.id)}"><h3>${esc(s.title)}</h3>`;
    if (s.text) html += `<p>${esc(s.text)}</p>`;
    if (s.entries && s.entries.length) {
      let inList = false;  // named entries make a definition list, an entry without a name a paragraph
      for (const e of s.entries) {
        const count = typeof e.count === "number" ? ` <small class="muted">×${e.count}</small>` : "";
        const plain = !e.name || e.name === e.key;
        if (plain === inList) { html += inList ? `</dl>` : `<dl>`; inList = !inList; }
        if (plain) html += `<p id="rule-${esc(s.id)}-${esc(e.key)}" class="plain">${esc(e.text || "")}</p>`;
        else html += `<dt id="rule-${esc(s.id)}-${esc(e.key)}">${esc(e.name)}${count}</dt><dd>${esc(e.text || "")}</dd>`;
      }
      if (inList) html += `</dl>`;
    }
    html += `</section>`;
  }
  if (!(ref.sections || []).length) html += `<p>${esc(raw("web", "rules_unavailable"))}</p>`;
  html += `<p class="muted"><a href="${esc(full)}">${esc(raw("web", "rules_full_page"))}</a></p>`;
  body.innerHTML = html;
  if (focusKey) {
    const el = body.querySelector(`#rule-${CSS.escape(focusKey)}`);
    if (el) { el.scrollIntoView({ block: "center" }); el.classList.add("flash"); }
  }
}
