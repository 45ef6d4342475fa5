// Moving all of this browser's games to another device (issue 20 §2), like the seat link does for
// one seat (seatlink.js): one link, /me#move=ENTRIES, with every seat's token in the URL fragment,
// which a browser never sends to a server. ENTRIES are "GAME.SEAT.TOKEN" (SEAT "c": the creator
// token) joined by "~" (game ids and tokens are made of A-Z a-z 0-9 _ - only). The link and its QR
// code are made here, in the page: no server sees the tokens for it. Opening the link adds the
// seats to this browser's store (asking before it replaces a different token of the same seat) and
// takes the fragment out of the address bar at once.

import { raw, t } from "./i18n.js";
import { store } from "./net.js";
import { absoluteUrl } from "./root.js";
import { esc } from "./svg.js";
import { keptDialog, toast } from "./ui.js";
import { renderSVG } from "./uqr.js";

const FRAGMENT = /^#move=([A-Za-z0-9_.~-]{1,20000})$/;
const ENTRY = /^([A-Za-z0-9_-]{1,32})\.(\d|c)\.([A-Za-z0-9_-]{16,128})$/;

// Every seat (and creator token) this browser holds, as the link's fragment text (but those of
// the games in `gone`, which no longer exist).
export function moveEntries(gone = []) {
  const out = [];
  for (const id of store.myGames().filter((g) => !gone.includes(g))) {
    const v = store.get(id);
    for (const [seat, token] of Object.entries(v.seats)) out.push(`${id}.${seat}.${token}`);
    if (v.creator) out.push(`${id}.c.${v.creator}`);
  }
  return out.filter((e) => ENTRY.test(e)).join("~");
}

export function parseMove(text) {
  return text.split("~").map((e) => e.match(ENTRY)).filter(Boolean)
    .map(([, id, seat, token]) => ({ id, seat, token }));
}

// Called first thing on /me: a "#move=…" fragment is taken (and removed from the address bar at
// once) and its seats are stored here. Returns how many seats it added or replaced.
export function adoptMoveLink() {
  const m = location.hash.match(FRAGMENT);
  if (!m) return 0;
  history.replaceState(history.state, "", location.pathname + location.search);
  const entries = parseMove(m[1]);
  if (!entries.length) { toast(() => raw("web_me", "link_bad"), "error"); return 0; }
  let added = 0;
  for (const { id, seat, token } of entries) {
    if (seat === "c") {
      if (!store.get(id).creator) store.setCreator(id, token);
      continue;
    }
    const held = store.get(id).seats[seat];
    if (held === token) continue;
    if (held && !confirm(t("web_me", "adopt_replace", { seat: Number(seat) + 1, id }))) continue;
    store.addSeat(id, seat, token);
    added += 1;
  }
  if (added) toast(() => t("web_me", "adopted", { n: added }), "info", 5000);
  return added;
}

function dialog() {
  return keptDialog("movelink-dialog", "move-dialog", "movelink-title", "seatlink-dialog", (e) => {
    if (e.target.closest("[data-move-copy]")) copy(e.currentTarget);
  });
}

// Shows the link with all seats and its QR code (or why there is none: too long for one code).
export function openMoveLink(games, gone = []) {
  const link = absoluteUrl("/me") + "#move=" + moveEntries(gone);
  let qr = null;
  try {
    qr = renderSVG(link, { ecc: "L", border: 3, pixelSize: 4, blackColor: "#111", whiteColor: "#fff" });
  } catch { qr = null; } // more than a QR code holds
  const d = dialog();
  d.innerHTML = `<div class="dialog-head"><h2 id="movelink-title">${esc(raw("web_me", "move_title"))}</h2>
      <button type="button" class="btn ghost" data-close data-testid="move-close" aria-label="${esc(raw("web", "close"))}">✕</button></div>
    <div class="seatlink-body">
      ${qr ? `<img class="seatlink-qr" data-testid="move-qr" width="240" height="240" alt="${esc(raw("web_me", "qr_alt"))}">`
    : `<p class="seatlink-warn" data-testid="move-qr-too-long">${esc(raw("web_me", "qr_too_long"))}</p>`}
      <div class="seatlink-text">
        <p>${esc(t("web_me", "move_text", { n: games }))}</p>
        <p class="seatlink-warn">${esc(raw("web_me", "move_warning"))}</p>
        <label class="field"><span>${esc(raw("web_me", "move_link"))}</span>
          <input type="text" readonly data-testid="move-url"></label>
        <button type="button" class="btn primary small" data-move-copy data-testid="move-copy">${esc(raw("web_lobby", "copy"))}</button>
      </div></div>`;
  // the SVG goes in as an image (a data: URL), never as markup of the page
  if (qr) d.querySelector("img").src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr)}`;
  d.querySelector("input").value = link;
  if (!d.open) d.showModal();
}

function copy(d) {
  const input = d.querySelector("input");
  (navigator.clipboard ? navigator.clipboard.writeText(input.value) : Promise.reject())
    .then(() => toast(() => raw("web_me", "copied"), "info", 2500))
    .catch(() => { input.focus(); input.select(); });
}
