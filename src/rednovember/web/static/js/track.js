// The time track 60..0 as SVG: two rows of spaces with their event / item icons, every keeper
// (stacks: the next to move on top), the ghost keeper and the destruction tokens.

import { raw, t } from "./i18n.js";
import { gnomeName, tokenName } from "./describe.js";
import { attrs, esc, eventIcon, itemIcon, keeperGlyph } from "./svg.js";

export const TRACK_W = 1000;
const SP = 31, X0 = 18, ROW_H = 100, CELL_Y = 42;

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
  const height = rows * ROW_H + 8;
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
    if (ev.has(space) && it.has(space)) {
      s += `<g transform="translate(${cx - 6},${cy + 32})">${eventIcon()}</g><g transform="translate(${cx + 6},${cy + 32})">${itemIcon()}</g>`;
    } else if (ev.has(space)) s += `<g transform="translate(${cx},${cy + 32})">${eventIcon()}</g>`;
    else if (it.has(space)) s += `<g transform="translate(${cx},${cy + 32})">${itemIcon()}</g>`;
    (tokensAt.get(space) || []).forEach((name, i) => {
      const ty = cy + 40 + i * 14;
      s += `<g class="token" ${attrs({ "data-testid": `token-${name}`, role: "img",
        "aria-label": t("ui", "token_at", { token: tokenName(model, name), space }) })}>
        <title>${esc(t("ui", "token_at", { token: tokenName(model, name), space }))}</title>
        <rect x="${cx - 15}" y="${ty}" width="30" height="13" rx="3"/>
        <text x="${cx}" y="${ty + 10}">${esc(raw("tokens_short", name))}</text></g>`;
    });
    s += `</g>`;
  }
  if (!Object.keys(view.tokens || {}).length) {
    // nothing
  }
  if (view.active >= 0 && !view.result && view.ghost >= 0 && view.gnomes[view.active]?.alive) {
    const from = view.gnomes[view.active].keeper;
    for (let space = from; space > view.ghost; space--) {
      const [cx, y] = spacePos(space, start);
      s += `<rect class="spent" x="${cx - SP / 2}" y="${y + CELL_Y - 3}" width="${SP}" height="30" rx="3"/>`;
    }
  }
  // keepers: stacks, next to move on top
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
    const ghostHere = view.active >= 0 && !view.result && view.ghost === space && list.some((g) => g.number === view.active);
    const dx = ghostHere ? -6 : 0;
    list.forEach((g, i) => {
      const label = t("web", "keeper_label", { gnome: gnomeName(model, g.number), space });
      const moved = changes && changes.keepers.has(g.number);
      s += `<g class="keeper${view.active === g.number && !view.result ? " active" : ""}${moved ? " moved" : ""}" ${attrs({
        transform: `translate(${cx + dx},${y + CELL_Y - 4 - i * step})`, "data-testid": `keeper-${g.number}`,
        "data-space": space, role: "img", "aria-label": label })}><title>${esc(label)}</title><g transform="scale(1.2)">${keeperGlyph(g.colour, { light: true })}</g></g>`;
    });
  }
  if (view.active >= 0 && !view.result && view.ghost >= 0 && view.gnomes[view.active]?.alive) {
    const [cx, y] = spacePos(view.ghost, start);
    const sameStack = view.gnomes[view.active].keeper === view.ghost;
    const label = t("web", "ghost_label", { gnome: gnomeName(model, view.active), space: view.ghost });
    s += `<g class="ghost" ${attrs({ transform: `translate(${cx + (sameStack ? 8 : 0)},${y + CELL_Y - 4})`,
      "data-testid": "ghost", "data-space": view.ghost, role: "img", "aria-label": label })}>
      <title>${esc(label)}</title><g transform="scale(1.2)">${keeperGlyph("white", { ghost: true })}</g></g>`;
  }
  s += `</svg>`;
  return s;
}
