// The seat link: a seat's holder moves the seat to another device. The link carries the seat
// token in the URL fragment (/g/{id}#seat=TOKEN), which a browser never sends to the server; the
// server makes it (with its QR code) for the token sent as Bearer auth, never in a URL. Opening
// the link stores the token like taking the seat does, and the fragment leaves the address bar.

import { raw, t } from "./i18n.js";
import { api, store } from "./net.js";
import { esc } from "./svg.js";
import { errorText, keptDialog, toast } from "./ui.js";
import { seatColours, seatTitle } from "./describe.js";

const FRAGMENT = /^#seat=([A-Za-z0-9_-]{16,128})$/;

// Called first thing on a game page: a "#seat=TOKEN" fragment is taken (and removed from the
// address bar at once), checked with the server, and stored for this game. Resolves when done.
export async function adoptSeatLink(gameId) {
  const m = location.hash.match(FRAGMENT);
  if (!m) return;
  history.replaceState(history.state, "", location.pathname + location.search);
  const token = m[1];
  try {
    const st = await api(`/api/games/${encodeURIComponent(gameId)}/state`, { token });
    if (typeof st.seat !== "number") throw new Error("no seat");
    store.addSeat(gameId, st.seat, token);
    const seat = (st.seats || []).find((s) => s.seat === st.seat);
    toast(() => t("web_lobby", "adopted", { seat: seatName(seat, st.seat) }), "info", 5000);
  } catch (e) {
    toast(() => e && e.status === 401 ? raw("web_lobby", "link_invalid") : errorText(e), "error");
  }
}

// The seat as its player knows it: the player's name and the gnomes' colours ("Ada (Green)").
function seatName(seat, n) {
  if (!seat) return t("ui", "player_long", { seat: n + 1 });
  if (!seat.name) return seatTitle(seat);
  return `${seat.name} (${seatColours(seat).map((c) => raw("colours", c)).join(", ")})`;
}

// Asks the server for the seat's link and shows it with its QR code.
export async function openSeatLink(page, seat) {
  const token = page.tokenFor(seat);
  if (!token) return;
  let res;
  try {
    res = await api(`/api/games/${encodeURIComponent(page.id)}/seat-link`, { method: "POST", token,
      body: { origin: location.origin, seat } });
  } catch (e) { toast(() => errorText(e), "error"); return; }
  const info = (page.summary?.seats || []).find((s) => s.seat === seat);
  showDialog(res, seatName(info, seat));
}

function dialog() {
  return keptDialog("seatlink-dialog", "seat-link-dialog", "seatlink-title", "seatlink-dialog", (e) => {
    if (e.target.closest("[data-seatlink-copy]")) copy(e.currentTarget);
  });
}

function showDialog(res, seatText) {
  const d = dialog();
  // the SVG is the server's; it goes in as an image (a data: URL), never as markup of the page
  const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(res.qr_svg)}`;
  d.innerHTML = `<div class="dialog-head"><h2 id="seatlink-title">${esc(raw("web_lobby", "seat_link_title"))}</h2>
      <button type="button" class="btn ghost" data-close data-testid="seat-link-close" aria-label="${esc(raw("web", "close"))}">✕</button></div>
    <div class="seatlink-body">
      <img class="seatlink-qr" data-testid="seat-link-qr" width="240" height="240" alt="${esc(raw("web_lobby", "qr_alt"))}">
      <div class="seatlink-text">
        <p>${esc(t("web_lobby", "seat_link_text", { seat: seatText }))}</p>
        <p class="seatlink-warn">${esc(raw("web_lobby", "seat_link_warning"))}</p>
        <label class="field"><span>${esc(raw("web_lobby", "seat_link"))}</span>
          <input type="text" readonly data-testid="seat-link-url"></label>
        <button type="button" class="btn primary small" data-seatlink-copy data-testid="seat-link-copy">${esc(raw("web_lobby", "copy"))}</button>
      </div></div>`;
  d.querySelector("img").src = src;
  d.querySelector("input").value = res.url;
  if (!d.open) d.showModal();
}

function copy(d) {
  const input = d.querySelector("input");
  (navigator.clipboard ? navigator.clipboard.writeText(input.value) : Promise.reject())
    .then(() => toast(() => raw("web_lobby", "copied"), "info", 2500))
    .catch(() => { input.focus(); input.select(); });
}

// The button in the holder's own seat row (panels.js): only for seats this page holds.
export function seatLinkButton(seat) {
  return `<button type="button" class="btn ghost small seatlink-btn" data-seat-link="${Number(seat)}" data-testid="seat-link-${Number(seat)}"
    title="${esc(raw("web_lobby", "seat_link_button_help"))}">${esc(raw("web_lobby", "seat_link_button"))}</button>`;
}
