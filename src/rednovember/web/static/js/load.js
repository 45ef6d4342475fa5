// Loading a game's page (the game itself or its replay): the data set and the game's summary,
// retried with back-off while the network or the server fails, with "Try now"; only a real 404
// says the game does not exist. `page` is the page object: its root, id and data are used, and
// stopLoading(page) (from its destroy) ends the waiting.

import { raw, t } from "./i18n.js";
import { api } from "./net.js";
import { normalizeData } from "./model.js";
import { esc } from "./svg.js";
import { errorText } from "./ui.js";
import { url } from "./root.js";

const LOAD_RETRY_FIRST_MS = 500;
const LOAD_RETRY_MAX_MS = 10000;

// The game's summary (page.data filled in on the way), or null when it does not exist or the
// page went away.
export async function loadGame(page) {
  for (let attempt = 0; !page.destroyed; attempt++) {
    try {
      if (!page.data) page.data = normalizeData(await api("/api/data"));
      return await api(`/api/games/${encodeURIComponent(page.id)}`);
    } catch (e) {
      if (e.status === 404) { showNotFound(page); return null; }
      await waitToRetry(page, e, Math.min(LOAD_RETRY_MAX_MS, LOAD_RETRY_FIRST_MS * 2 ** attempt));
    }
  }
  return null;
}

export function stopLoading(page) {
  page.destroyed = true;
  if (page.wakeLoad) page.wakeLoad();
}

function showNotFound(page) {
  page.root.innerHTML = `<div class="card notfound" data-testid="not-found"><h2>${esc(raw("web", "game_not_found"))}</h2>
    <p>${esc(t("web", "game_not_found_help", { id: page.id }))}</p><p><a href="${esc(url("/"))}">${esc(raw("web", "back_to_lobby"))}</a></p></div>`;
}

// Shows why loading failed and when it is tried again; "Try now" cuts the wait short.
function waitToRetry(page, e, ms) {
  const seconds = Math.ceil(ms / 1000);
  page.root.innerHTML = `<div class="card notfound" data-testid="load-retry" role="status"><h2>${esc(raw("web", "load_failed"))}</h2>
    <p>${esc(errorText(e))}</p><p class="muted">${esc(t("web", "load_retry_in", { seconds }))}</p>
    <p><button type="button" class="btn small" data-testid="load-retry-now">${esc(raw("web", "retry_now"))}</button>
    <a href="${esc(url("/"))}">${esc(raw("web", "back_to_lobby"))}</a></p></div>`;
  return new Promise((resolve) => {
    const done = () => { clearTimeout(page.loadTimer); page.wakeLoad = null; resolve(); };
    page.wakeLoad = done;
    page.loadTimer = setTimeout(done, ms);
    page.root.querySelector("[data-testid=load-retry-now]").addEventListener("click", done, { once: true });
  });
}
