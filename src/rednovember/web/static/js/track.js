// The time track 60..0 as SVG: two rows of spaces with their event / item icons, every keeper
// (stacks: the next to move on top), the ghost keeper and the destruction tokens.

import { raw, t } from "./i18n.js";
import { gnomeName, tokenName } from "./describe.js";
import { attrs, esc, eventIcon, itemIcon, keeperGlyph } from "./svg.js";

export const TRACK_W = 1000;
const SP = 31, X0 = 18, ROW_H = 90, CELL_Y = 40;

function spacePos(space, start) {
  const perRow = Math.ceil((start + 1) / 2);
  const idx = start - space; // 0 for the first space
  const row = idx < perRow ? 0 : 1;
  const col = row === 0 ? idx : idx - perRow;
  return [X0 + col * SP + SP / 2, 8 + row * ROW_H];
}

export function renderTrack(model, changes = null) {
  const { data, view } = model;
  const start = data.start || 60;
  const rows = 2;
  const height = rows * ROW_H + 20;  // room below the last row for a token's name
  const ev = new Set(data.event_icons), it = new Set(data.item_icons);
  let s = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${TRACK_W} ${height}" class="track-svg" role="group" aria-label="${esc(raw("ui", "time_track"))}">`;
  s += `<rect x="0" y="0" width="${TRACK_W}" height="${height}" rx="12" class="track-bg"/>`;
  const tokensAt = new Map();
  for (const [name, space] of Object.entries(view.tokens || {})) {
    if (!tokensAt.has(space)) tokensAt.set(space, []);
    tokensAt.get(space).push(name);
  }
  for (let space = start; space >= 0; space--) {
    const [cx, y] = spacePos(space, start);
    const cy = y + CELL_Y;
    const cls = space === 0 ? "cell rescued" : space % 10 === 0 ? "cell tens" : "cell";
    s += `<g ${attrs({ "data-testid": `space-${space}` })}>`;
    s += `<rect class="${cls}" x="${cx - SP / 2 + 1.5}" y="${cy}" width="${SP - 3}" height="24" rx="5"/>`;
    s += `<text class="cell-num" x="${cx}" y="${cy + 16.5}">${space}</text>`;
    const evIcon = (x) => `<g class="icon" transform="translate(${x},${cy + 32})"><title>${esc(t("web", "icon_event", { space }))}</title>${eventIcon()}</g>`;
    const itIcon = (x) => `<g class="icon" transform="translate(${x},${cy + 32})"><title>${esc(t("web", "icon_item", { space }))}</title>${itemIcon()}</g>`;
    if (ev.has(space) && it.has(space)) s += evIcon(cx - 6) + itIcon(cx + 6);
    else if (ev.has(space)) s += evIcon(cx);
    else if (it.has(space)) s += itIcon(cx);
    (tokensAt.get(space) || []).forEach((name, i) => {
      const ty = cy + 40 + i * 14;
      const full = tokenName(model, name);
      const w = Math.max(30, full.length * 5.4 + 8);  // the token's whole name, centred on its space
      const x = Math.max(4, Math.min(TRACK_W - 4 - w, cx - w / 2)); // ... but inside the panel
      s += `<g class="token" ${attrs({ "data-testid": `token-${name}`, role: "img",
        "aria-label": t("ui", "token_at", { token: full, space }) })}>
        <title>${esc(t("web", "token_help", { token: full, space }))}</title>
        <rect x="${x}" y="${ty}" width="${w}" height="13" rx="3"/>
        <text x="${x + w / 2}" y="${ty + 10}">${esc(full)}</text></g>`;
    });
    s += `</g>`;
  }
  if (view.active >= 0 && !view.result && view.ghost >= 0 && view.gnomes[view.active]?.alive) {
    const from = view.gnomes[view.active].keeper;
    for (let space = from; space > view.ghost; space--) {
      const [cx, y] = spacePos(space, start);
      s += `<rect class="spent" x="${cx - SP / 2}" y="${y + CELL_Y - 3}" width="${SP}" height="30" rx="3"/>`;
    }
  }
  // keepers: stacks, next to move on top; a stack on the ghost's space steps aside for it
  const ghostOn = view.active >= 0 && !view.result && view.ghost >= 0 && view.gnomes[view.active]?.alive
    ? view.ghost : null;
  const stacks = new Map();
  for (const g of view.gnomes) {
    if (!g.alive || g.abandoned) continue;
    if (!stacks.has(g.keeper)) stacks.set(g.keeper, []);
    stacks.get(g.keeper).push(g);
  }
  for (const [space, list] of stacks) {
    list.sort((a, b) => a.arrival - b.arrival); // bottom first
    const [cx, y] = spacePos(space, start);
    const step = Math.min(8, 22 / Math.max(list.length - 1, 1));
    const dx = ghostOn === space ? -6 : 0; // any gnome's keeper: the ghost would cover it
    list.forEach((g, i) => {
      const label = t("web", "keeper_label", { gnome: gnomeName(model, g.number), space });
      const moved = changes && changes.keepers.has(g.number);
      s += `<g class="keeper${view.active === g.number && !view.result ? " active" : ""}${moved ? " moved" : ""}" ${attrs({
        transform: `translate(${cx + dx},${y + CELL_Y - 4 - i * step})`, "data-testid": `keeper-${g.number}`,
        "data-space": space, role: "img", "aria-label": label })}><title>${esc(label)}</title><g transform="scale(1.2)">${keeperGlyph(g.colour, { light: true })}</g></g>`;
    });
  }
  if (ghostOn !== null) {
    const [cx, y] = spacePos(view.ghost, start);
    const sameStack = stacks.has(view.ghost);
    const label = t("web", "ghost_label", { gnome: gnomeName(model, view.active), space: view.ghost });
    s += `<g class="ghost" ${attrs({ transform: `translate(${cx + (sameStack ? 8 : 0)},${y + CELL_Y - 4})`,
      "data-testid": "ghost", "data-space": view.ghost, role: "img", "aria-label": label })}>
      <title>${esc(label)}</title><g transform="scale(1.2)">${keeperGlyph("white", { ghost: true })}</g></g>`;
  }
  s += `</svg>`;
  return s;
}
