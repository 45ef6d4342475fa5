// The board's legend (issue 18 §9): what each mark on the board and the time track means, drawn
// with the same glyphs, and when a destruction token strikes. A closed <details> under the decks
// (on a phone: the Table tab), so it costs one line until it is opened.

import { raw } from "./i18n.js";
import { eventIcon, esc, flameIcon, gnomeGlyph, itemIcon, keeperGlyph, skullIcon } from "./svg.js";

const WATER = "#3b8fd0";

// [text key, the sample drawn in a 28×24 box centred on (14, 12)]
const ROWS = [
  ["fire", `<g transform="translate(14,13)">${flameIcon(0.8)}</g>`],
  ["low_water", `<rect x="2" y="3" width="24" height="18" rx="3" fill="#24303c"/><rect x="2" y="15" width="24" height="6" rx="2" fill="${WATER}"/>`],
  ["high_water", `<rect x="2" y="3" width="24" height="18" rx="3" fill="#24303c"/><rect x="2" y="8" width="24" height="13" rx="2" fill="${WATER}"/>`],
  ["blocked", `<circle cx="14" cy="12" r="9" fill="#8d99a6" stroke="#4b5561"/><g transform="translate(14,12)" fill="#c0392b" stroke="#5a120c"><rect x="-10" y="-2.5" width="20" height="5" rx="2" transform="rotate(45)"/><rect x="-10" y="-2.5" width="20" height="5" rx="2" transform="rotate(-45)"/></g>`],
  ["decider", `<g transform="translate(14,22) scale(.6)">${gnomeGlyph("red", { active: true })}</g>`],
  ["fainted", `<g transform="translate(10,22) scale(.6)">${gnomeGlyph("blue", { fainted: true })}</g>`],
  ["event_icon", `<g transform="translate(14,12) scale(1.3)">${eventIcon()}</g>`],
  ["item_icon", `<g transform="translate(14,12) scale(1.3)">${itemIcon()}</g>`],
  ["ghost", `<g transform="translate(14,21) scale(1.1)">${keeperGlyph("white", { ghost: true })}</g>`],
  ["token", `<rect x="1" y="6" width="26" height="12" rx="3" fill="#c0392b" stroke="#ffd7d2"/>`],
  ["skull", `<g transform="translate(14,14) scale(1.2)">${skullIcon()}</g>`],
];

export function renderLegend() {
  const rows = ROWS.map(([key, sample]) => `<li data-testid="legend-${key}"><svg class="legend-sample" viewBox="0 0 28 24" width="28" height="24" aria-hidden="true" focusable="false">${sample}</svg><span>${esc(raw("web_legend", key))}</span></li>`).join("");
  return `<details class="legend" data-testid="legend"><summary>${esc(raw("web_legend", "title"))}</summary><ul class="legend-list">${rows}</ul></details>`;
}
