// Small SVG helpers and the icons the board uses (drawn here: no image files, no emoji fonts).

export const esc = (s) => String(s).replace(/[&<>"']/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

export const COLOURS = {
  red: "#d7263d", blue: "#2a6fdb", green: "#2f9e44", yellow: "#f4c20d",
  purple: "#8e44ad", orange: "#f07f14", black: "#2d2d2d", brown: "#8b5a2b",
};
export const TRACK_COLOURS = { asphyxiation: "#2f9e44", heat: "#d7263d", pressure: "#2a6fdb" };

export function attrs(o) {
  return Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== false)
    .map(([k, v]) => `${k}="${esc(v)}"`).join(" ");
}

// A gnome standing with its feet on (0,0), about 32 units tall.
export function gnomeGlyph(colour, { fainted = false, active = false, scale = 1 } = {}) {
  const c = COLOURS[colour] || colour;
  const dark = colour === "black" ? "#000" : "#1d232b";
  const glow = active ? `<ellipse cx="0" cy="0" rx="13" ry="4.5" fill="#ffe066" opacity=".95"/>` : "";
  const body = `
    <path d="M-8.5,0 Q-10,-13 0,-14.5 Q10,-13 8.5,0 Z" fill="${c}" stroke="${dark}" stroke-width="1.1"/>
    <circle cx="0" cy="-17" r="5.2" fill="#f6d5b8" stroke="${dark}" stroke-width=".9"/>
    <path d="M-5,-16 Q0,-6.5 5,-16 Q0,-13 -5,-16 Z" fill="#fafafa" stroke="#9aa3ad" stroke-width=".6"/>
    <path d="M-6.5,-20 L0.5,-33 L6.5,-20 Z" fill="${c}" stroke="${dark}" stroke-width="1.1" stroke-linejoin="round"/>`;
  if (fainted) {
    return `<g transform="scale(${scale})">${glow}<g transform="translate(16,-9) rotate(-90)">${body}</g>
      <text x="-12" y="-21" class="zzz">z</text><text x="-6" y="-27" class="zzz small">z</text></g>`;
  }
  return `<g transform="scale(${scale})">${glow}${body}</g>`;
}

// A time keeper (pawn), feet on (0,0), about 18 units tall.
export function keeperGlyph(colour, { ghost = false, light = false } = {}) {
  const c = ghost ? "#ffffff" : COLOURS[colour] || colour;
  const stroke = ghost ? "#5b6b7c" : light ? "#e8eef3" : "#1d232b";
  const op = ghost ? ' fill-opacity=".8" stroke-dasharray="2 1.5"' : "";
  return `<path d="M-6,0 L6,0 L3.5,-6 Q6,-9 3.5,-11 A4.3,4.3 0 1 0 -3.5,-11 Q-6,-9 -3.5,-6 Z"
    fill="${c}" stroke="${stroke}" stroke-width="1.1"${op}/>`;
}

export function flameIcon(size = 1) {
  return `<g transform="scale(${size})"><path d="M0,-14 C6,-8 9,-4 8,2 C7,8 3,10 0,10 C-3,10 -8,8 -8,2
    C-8,-3 -4,-5 -4,-9 C-1,-7 -1,-4 0,-3 C1,-6 0,-10 0,-14 Z" fill="#ff7a1a" stroke="#b3300b" stroke-width="1"/>
    <path d="M0,-3 C3,0 4,3 3,6 C2,8 -2,8 -3,6 C-4,3 -1,1 0,-3 Z" fill="#ffd23f"/></g>`;
}

export function starPath(r = 6) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? r * 0.45 : r;
    pts.push(`${(rr * Math.cos(a)).toFixed(2)},${(rr * Math.sin(a)).toFixed(2)}`);
  }
  return `M${pts.join("L")}Z`;
}

export function skullIcon(size = 1) {
  return `<g transform="scale(${size})"><path d="M-6,1 Q-8,-9 0,-9 Q8,-9 6,1 L4,1 L4,4 L-4,4 L-4,1 Z" fill="#f4f4f4" stroke="#222" stroke-width=".9"/>
    <circle cx="-2.6" cy="-3" r="1.7" fill="#222"/><circle cx="2.6" cy="-3" r="1.7" fill="#222"/></g>`;
}

// An event card icon (small card with an exclamation mark).
export function eventIcon() {
  return `<rect x="-4.5" y="-6" width="9" height="12" rx="1.5" fill="#7b1e2b" stroke="#f6e7c8" stroke-width="1"/>
    <text x="0" y="3.6" class="icon-txt">!</text>`;
}

// An item icon (small crate).
export function itemIcon() {
  return `<rect x="-5" y="-5" width="10" height="10" rx="1.5" fill="#c98d3e" stroke="#5b3a12" stroke-width="1"/>
    <path d="M-5,-1 H5 M0,-5 V5" stroke="#5b3a12" stroke-width="1"/>`;
}

// Room symbols of the named rooms.
export const ROOM_ICONS = {
  engine_room: `<circle r="6.5" fill="none" stroke="#46505c" stroke-width="3" stroke-dasharray="3 2.1"/><circle r="2.5" fill="#46505c"/>`,
  oxygen_pumps: `<text class="room-sym" y="4">O₂</text>`,
  reactor_room: `<circle r="7" fill="#f4c20d" stroke="#46505c"/><path d="M0,0 L-6,-3.5 A7,7 0 0 1 -3.5,-6 Z M0,0 L6,-3.5 A7,7 0 0 0 3.5,-6 Z M0,0 L-2.5,6.5 A7,7 0 0 0 2.5,6.5 Z" fill="#46505c" transform="rotate(30)"/><circle r="1.6" fill="#46505c"/>`,
  missile_control: `<path d="M0,-8 C3,-5 3,2 2.5,5 L4.5,8 L-4.5,8 L-2.5,5 C-3,2 -3,-5 0,-8 Z" fill="#c0392b" stroke="#46505c" stroke-width=".8"/>`,
  equipment_stores: `<g transform="scale(1.2)">${itemIcon()}</g>`,
  captains_cabin: `<path d="M-8,2 Q0,-10 8,2 Z" fill="#1d2a44"/><rect x="-9" y="1" width="18" height="3" rx="1" fill="#1d2a44"/><circle cy="-2" r="1.6" fill="#f4c20d"/>`,
};
