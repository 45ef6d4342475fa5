// A seat's new name: its holder renames it (POST /api/games/{id}/seats/{seat}/name with the
// seat's own token, docs/protocol.md §2). Everyone's seat list follows the game's next summary,
// and the table talk says who is now called what.

import { raw } from "./i18n.js";
import { api } from "./net.js";
import { esc } from "./svg.js";
import { errorText, keptDialog } from "./ui.js";

const MAX_NAME = 40; // characters (web/protocol.py MAX_NAME_CHARS)
let shown = null; // the game page the dialog was last opened on (the dialog outlives a page)

// The button in the holder's own seat row (panels.js), beside "Seat link".
export function renameButton(seat) {
  return `<button type="button" class="btn ghost small seatlink-btn" data-rename="${Number(seat)}" data-testid="rename-${Number(seat)}"
    title="${esc(raw("web", "rename_help"))}">${esc(raw("web", "rename"))}</button>`;
}

// Opens the dialog for a seat this page holds, its field holding the seat's name now.
export function openRename(page, seat) {
  if (!page.tokenFor(seat)) return;
  const info = (page.summary?.seats || []).find((s) => s.seat === seat);
  shown = page;
  const d = dialog();
  d.dataset.seat = String(seat);
  d.innerHTML = `<div class="dialog-head"><h2 id="rename-title">${esc(raw("web", "rename_title"))}</h2>
      <button type="button" class="btn ghost" data-close data-testid="rename-close" aria-label="${esc(raw("web", "close"))}">✕</button></div>
    <form class="rename-body" data-testid="rename-form" novalidate>
      <label class="field"><span>${esc(raw("web", "your_name"))}</span>
        <input type="text" name="name" maxlength="${MAX_NAME}" autocomplete="nickname" data-testid="rename-name" value="${esc(info?.name || "")}"></label>
      <p class="rename-why" role="status" data-testid="rename-why"></p>
      <button type="submit" class="btn primary" data-testid="rename-save">${esc(raw("web", "rename_save"))}</button>
    </form>`;
  d.showModal();
  const input = d.querySelector("input");
  input.focus();
  input.select();
}

function dialog() {
  return keptDialog("rename-dialog", "rename-dialog", "rename-title", "seatlink-dialog rename-dialog",
    () => {}, (d) => {
      d.addEventListener("input", () => { d.querySelector("[data-testid=rename-why]").textContent = ""; });
      d.addEventListener("submit", (e) => {
        e.preventDefault();
        save(shown, d);
      });
    });
}

async function save(page, d) {
  const seat = Number(d.dataset.seat);
  const name = d.querySelector("input").value.trim();
  const why = d.querySelector("[data-testid=rename-why]");
  if (!name) {
    why.textContent = raw("web", "name_first");
    return;
  }
  const button = d.querySelector("[data-testid=rename-save]");
  button.disabled = true;
  try {
    await api(`/api/games/${encodeURIComponent(page.id)}/seats/${seat}/name`, { method: "POST",
      token: page.tokenFor(seat), body: { name } });
    localStorage.setItem("rn.name", name); // the next seat taken starts from it
    d.close();
  } catch (e) {
    why.textContent = errorText(e, (s) => page.seatLabel(s));
  } finally {
    button.disabled = false;
  }
}
