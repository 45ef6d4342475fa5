// The submarine as SVG: rooms, hatches (interior, exterior, blocked), fire, water, gnomes, the
// Sea, the "drew items" areas and the disaster tracks. Pure rendering: `renderBoard(model, targets)`
// returns the SVG markup; clickable targets carry data-act (the action text to send) or
// data-pick (a UI choice such as a repair group), and a data-testid for tests.

import { raw, t } from "./i18n.js";
import { gnomeName, kindName, roomName, roomTitle, SEA, trackName, tokenName } from "./describe.js";
import {
  attrs, esc, flameIcon, gnomeGlyph, itemIcon, ROOM_ICONS, skullIcon, starPath, TRACK_COLOURS,
} from "./svg.js";

const W = 150, H = 118, X0 = 95, Y0 = 40, RW = 128, RH = 96;
export const VIEW_W = 1000, VIEW_H = 600;

function centre(layout, r) {
  const p = layout[String(r)] || [0, 0];
  return [X0 + p[0] * W, Y0 + p[1] * H];
}

function rect(layout, r) {
  const [x, y] = centre(layout, r);
  return { x: x - RW / 2, y: y - RH / 2, w: RW, h: RH, cx: x, cy: y };
}

// Where a segment from a room's centre leaves its rectangle.
function exitPoint(rc, dx, dy) {
  const tx = dx ? (RW / 2) / Math.abs(dx) : Infinity;
  const ty = dy ? (RH / 2) / Math.abs(dy) : Infinity;
  const k = Math.min(tx, ty);
  return [rc.cx + dx * k, rc.cy + dy * k];
}

const DEFAULT_SIDES = { 3: "down", 6: "up", 9: "right" };
const DIRS = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };

// Which side of a room its exterior hatch is drawn on.
function exteriorSide(data, room) {
  const layout = data.layout;
  const standard = JSON.stringify(layout) === JSON.stringify(STANDARD_LAYOUT);
  if (standard && DEFAULT_SIDES[room]) return DEFAULT_SIDES[room];
  const p = layout[String(room)];
  const rooms = data.room_keys.map((_, i) => i).filter((i) => i !== SEA);
  const cx = rooms.reduce((s, i) => s + layout[String(i)][0], 0) / rooms.length;
  const cy = rooms.reduce((s, i) => s + layout[String(i)][1], 0) / rooms.length;
  let best = "up", score = -Infinity;
  for (const [name, [dx, dy]] of Object.entries(DIRS)) {
    const occupied = rooms.some((i) => i !== room && Math.abs(layout[String(i)][0] - p[0] - dx) < 0.6
      && Math.abs(layout[String(i)][1] - p[1] - dy) < 0.6);
    const s = (p[0] - cx) * dx + (p[1] - cy) * dy - (occupied ? 100 : 0);
    if (s > score) { score = s; best = name; }
  }
  return best;
}

const STANDARD_LAYOUT = {
  0: [5, 0], 1: [0, 2], 2: [1, 2], 3: [1, 3], 4: [2, 3], 5: [3, 2],
  6: [3, 1], 7: [4, 2], 8: [4, 3], 9: [5, 3], 10: [4.5, 4],
};

export function hatchKey(a, b) {
  if (a === SEA || b === SEA) return `${a === SEA ? b : a}-sea`;
  return a < b ? `${a}-${b}` : `${b}-${a}`;
}

// Geometry of every hatch: {key, a, b, x, y, angle, x1, y1, x2, y2, exterior}
export function hatchGeometry(data) {
  const out = [];
  data.hatches.forEach(([a, b], i) => {
    if (i < data.interior_count) {
      const ra = rect(data.layout, a), rb = rect(data.layout, b);
      const dx = rb.cx - ra.cx, dy = rb.cy - ra.cy;
      const [x1, y1] = exitPoint(ra, dx, dy);
      const [x2, y2] = exitPoint(rb, -dx, -dy);
      out.push({ key: hatchKey(a, b), a, b, x: (x1 + x2) / 2, y: (y1 + y2) / 2, x1, y1, x2, y2,
        angle: Math.atan2(dy, dx) * 180 / Math.PI, exterior: false });
    } else {
      const room = a === SEA ? b : a;
      const r = rect(data.layout, room);
      const [dx, dy] = DIRS[exteriorSide(data, room)];
      const x1 = r.cx + dx * RW / 2, y1 = r.cy + dy * RH / 2;
      const x2 = x1 + dx * 18, y2 = y1 + dy * 18;
      out.push({ key: hatchKey(room, SEA), a: room, b: SEA, x: x1 + dx * 11, y: y1 + dy * 11,
        x1, y1, x2, y2, angle: Math.atan2(dy, dx) * 180 / Math.PI, exterior: true });
    }
  });
  return out;
}

function hullPath(data) {
  if (JSON.stringify(data.layout) === JSON.stringify(STANDARD_LAYOUT)) {
    return "M60,212 L466,212 L466,118 Q466,94 490,94 L600,94 Q624,94 624,118 L624,212 L780,212 "
      + "C884,212 944,300 944,398 C944,492 884,584 790,584 L745,584 C672,584 660,460 588,460 "
      + "L160,460 C70,460 12,420 12,350 L12,290 C12,240 26,212 60,212 Z";
  }
  const rooms = data.room_keys.map((_, i) => i).filter((i) => i !== SEA).map((i) => rect(data.layout, i));
  const x0 = Math.min(...rooms.map((r) => r.x)) - 18, x1 = Math.max(...rooms.map((r) => r.x + r.w)) + 18;
  const y0 = Math.min(...rooms.map((r) => r.y)) - 16, y1 = Math.max(...rooms.map((r) => r.y + r.h)) + 16;
  return `M${x0 + 40},${y0} L${x1 - 60},${y0} Q${x1},${y0} ${x1},${(y0 + y1) / 2} Q${x1},${y1} ${x1 - 60},${y1}`
    + ` L${x0 + 40},${y1} Q${x0},${y1} ${x0},${(y0 + y1) / 2} Q${x0},${y0} ${x0 + 40},${y0} Z`;
}

function defs() {
  return `<defs>
    <linearGradient id="sea-grad" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#1d4e74"/><stop offset="1" stop-color="#0b2236"/></linearGradient>
    <linearGradient id="hull-grad" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#8d99a6"/><stop offset=".5" stop-color="#6d7987"/><stop offset="1" stop-color="#4b5561"/></linearGradient>
    <linearGradient id="fire-grad" x1="0" y1="1" x2="0" y2="0">
      <stop offset="0" stop-color="#ff5a1f" stop-opacity=".75"/><stop offset="1" stop-color="#ffb347" stop-opacity=".25"/></linearGradient>
    <linearGradient id="water-grad" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#4aa3df" stop-opacity=".75"/><stop offset="1" stop-color="#1d5f9c" stop-opacity=".85"/></linearGradient>
    <pattern id="rivets" width="24" height="24" patternUnits="userSpaceOnUse">
      <circle cx="12" cy="12" r="1.1" fill="#3e4650" opacity=".55"/></pattern>
    <filter id="glow" x="-50%" y="-50%" width="200%" height="200%">
      <feGaussianBlur stdDeviation="3" result="b"/><feMerge><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge></filter>
  </defs>`;
}

function seaBackground() {
  let waves = "";
  for (let y = 30; y < VIEW_H; y += 46) {
    const off = (y / 46) % 2 ? 0 : 30;
    let d = `M${-30 + off},${y}`;
    for (let x = -30 + off; x < VIEW_W + 60; x += 60) d += ` q15,-6 30,0 t30,0`;
    waves += `<path d="${d}" class="wave"/>`;
  }
  return `<rect x="0" y="0" width="${VIEW_W}" height="${VIEW_H}" fill="url(#sea-grad)"/>${waves}`;
}

// A room's name in lines, never squeezed (issue 18: "Ausrüstungslager" was pressed to 6 px):
// whole words where they fit, a word wider than a line broken with a hyphen at a syllable-like
// place. `widths`: the width of each line (the last repeats); at most three lines.
const NAME_FONT = '700 11px "DejaVu Sans Condensed", "Liberation Sans Narrow", sans-serif';
let measurer = null;
function textWidth(text) {
  if (measurer === null) measurer = document.createElement("canvas").getContext("2d") || false;
  if (!measurer) return text.length * 6.4;
  measurer.font = NAME_FONT;
  return measurer.measureText(text).width;
}

export function nameLines(title, widths, max = 3) {
  const words = title.split(/\s+/).filter(Boolean);
  const lines = [];
  let cur = "";
  const width = () => widths[Math.min(lines.length, widths.length - 1)];
  while (words.length) {
    const word = words.shift();
    const joined = cur ? `${cur} ${word}` : word;
    if (textWidth(joined) <= width()) cur = joined;
    else if (cur) { lines.push(cur); cur = ""; words.unshift(word); }
    else { const [head, tail] = breakWord(word, width()); lines.push(head); words.unshift(tail); }
  }
  if (cur) lines.push(cur);
  if (lines.length > max) lines.splice(max - 1, lines.length, `${lines[max - 1]}…`);
  return lines;
}

const VOWEL = /[aeiouyàáâäãåæèéêëìíîïòóôöõøœùúûüýÿąęаеёиоуыэюяіїє]/iu;
const LETTER = /\p{L}/u;
const KEEP = new Set(["ch", "ck", "st", "sz", "cz", "rz", "dz", "ng"]); // pairs not split
// Where to break a long word: the longest head (with its hyphen) that fits, preferring a place
// between two consonants, then one before a consonant that starts a syllable.
function breakWord(word, width) {
  const ch = [...word];
  const cons = (c) => LETTER.test(c) && !VOWEL.test(c);
  let best = 1, score = -1;
  for (let k = 2; k <= ch.length - 2; k++) {
    if (textWidth(`${ch.slice(0, k).join("")}-`) > width) break;
    const a = ch[k - 1], b = ch[k];
    const kind = cons(a) && cons(b) && !KEEP.has((a + b).toLowerCase()) ? 2
      : VOWEL.test(a) && cons(b) && VOWEL.test(ch[k + 1] || "") ? 1 : 0;
    if (kind * 100 + k > score) { best = k; score = kind * 100 + k; }
  }
  return [`${ch.slice(0, best).join("")}-`, ch.slice(best).join("")];
}

function roomSvg(model, r, targets) {
  const { data } = model;
  const rc = rect(data.layout, r);
  const key = data.room_keys[r];
  const fire = model.burning(r), water = model.water(r);
  const target = targets.rooms[r];
  const drawArea = data.draw_rooms[String(r)];
  const changed = targets.changes && targets.changes.rooms.has(r);
  const state = roomName(model, r) + (fire ? ", " + raw("ui", "fire") : "")
    + (water === 1 ? ", " + raw("ui", "low_water") : water === 2 ? ", " + raw("ui", "high_water") : "");
  const here = Object.entries(data.room_repairs).filter(([, rep]) => rep.room === r).map(([k]) => kindName(k));
  const help = here.length ? `${state}\n${t("web", "repair_here", { kinds: here.join(", ") })}` : state;
  let s = `<g class="room${target ? " target" : ""}${fire ? " burning" : ""}${changed ? " changed" : ""}" ${attrs({
    "data-testid": `room-${r}`, "data-room": r, "data-act": target?.act, "data-pick": target?.pick,
    role: target ? "button" : "img", tabindex: target ? 0 : undefined,
    "aria-label": target ? target.label : state,
  })}><title>${esc(target ? `${target.label}\n${help}` : help)}</title>`;
  s += `<rect class="room-bg" x="${rc.x}" y="${rc.y}" width="${rc.w}" height="${rc.h}" rx="10"/>`;
  if (fire) s += `<rect x="${rc.x}" y="${rc.y}" width="${rc.w}" height="${rc.h}" rx="10" fill="url(#fire-grad)" class="fire-tint"/>`;
  if (water) {
    const level = water === 2 ? 0.7 : 0.3;
    const top = rc.y + rc.h * (1 - level);
    s += `<clipPath id="clip-room-${r}"><rect x="${rc.x}" y="${rc.y}" width="${rc.w}" height="${rc.h}" rx="10"/></clipPath>`;
    let d = `M${rc.x},${top}`;
    for (let x = rc.x; x < rc.x + rc.w; x += 16) d += ` q4,-3.5 8,0 t8,0`;
    d += ` L${rc.x + rc.w},${rc.y + rc.h} L${rc.x},${rc.y + rc.h} Z`;
    s += `<path clip-path="url(#clip-room-${r})" d="${d}" fill="url(#water-grad)" class="water water-${water === 2 ? "high" : "low"}"/>`;
  }
  if (drawArea) {
    const ax = rc.x + rc.w - 40, ay = rc.y + 24;
    s += `<rect class="drew-area" x="${ax}" y="${ay}" width="36" height="${rc.h - 28}" rx="6"/>`;
    s += `<g transform="translate(${ax + 18},${ay + 11})" class="drew-icon"><title>${esc(raw("ui", "drew_items"))}</title>${itemIcon()}</g>`;
  }
  s += `<rect class="room-frame" x="${rc.x}" y="${rc.y}" width="${rc.w}" height="${rc.h}" rx="10"/>`;
  // number badge and name
  s += `<circle class="room-num-bg" cx="${rc.x + 14}" cy="${rc.y + 14}" r="10"/>`;
  s += `<text class="room-num" x="${rc.x + 14}" y="${rc.y + 14}">${r}</text>`;
  const title = roomTitle(model, r);
  if (title) {
    // the first line beside the number, above the draw area; the next ones beside it
    const widths = [rc.w - 36, rc.w - 28 - (drawArea ? 44 : 8)];
    const lines = nameLines(title, widths);
    lines.forEach((ln, i) => {
      const avail = widths[Math.min(i, widths.length - 1)];
      // the next lines one line height lower: app.css enlarges the names on a phone, where
      // mobile.js fits a line that then overflows (data-fit)
      s += `<text class="room-name" x="${rc.x + 28}" y="${rc.y + 13}" dy="${i * 1.1}em" data-fit="${avail}">${esc(ln)}</text>`;
    });
  }
  if (ROOM_ICONS[key]) {
    s += `<g class="room-icon" transform="translate(${rc.x + rc.w - (drawArea ? 52 : 14)},${rc.y + rc.h - 14})" opacity=".55">${ROOM_ICONS[key]}</g>`;
  }
  if (fire) s += `<g class="flame" transform="translate(${drawArea ? rc.x + 16 : rc.x + rc.w - 16},${rc.y + 46})">${flameIcon(1.1)}</g>`;
  if (target) s += `<rect class="target-ring" x="${rc.x - 3}" y="${rc.y - 3}" width="${rc.w + 6}" height="${rc.h + 6}" rx="12"/>`;
  s += `</g>`;
  return s;
}

function hatchSvg(model, h, targets) {
  const blocked = !h.exterior && model.blocked(h.a, h.b);
  const target = targets.hatches[h.key];
  const label = h.exterior ? t("web", "hatch_exterior", { room: roomName(model, h.a) })
    : t("web", "hatch_between", { a: roomName(model, h.a), b: roomName(model, h.b) });
  const changed = targets.changes && targets.changes.hatches.has(h.key);
  let s = `<g class="hatch${blocked ? " blocked" : ""}${h.exterior ? " exterior" : ""}${target ? " target" : ""}${changed ? " changed" : ""}" ${attrs({
    "data-testid": `hatch-${h.key}`, "data-act": target?.act, "data-pick": target?.pick,
    role: target ? "button" : "img", tabindex: target ? 0 : undefined,
    "aria-label": target ? target.label : label + (blocked ? " — " + raw("web", "blocked") : ""),
  })}><title>${esc((target ? target.label + "\n" : "") + label + (blocked ? " — " + raw("web", "blocked") : ""))}</title>`;
  s += `<line class="corridor" x1="${h.x1}" y1="${h.y1}" x2="${h.x2}" y2="${h.y2}"/>`;
  s += `<g transform="translate(${h.x},${h.y})">`;
  // an invisible hit circle around a hatch that may be tapped (board.css widens it on touch screens)
  if (target) s += `<circle class="hit" r="20"/><circle class="target-ring" r="15"/>`;
  s += `<circle class="hatch-door" r="10"/>`;
  s += `<g class="wheel"><circle r="5.5"/><path d="M-7,0 H7 M0,-7 V7 M-5,-5 L5,5 M-5,5 L5,-5"/></g>`;
  if (blocked) s += `<g class="bar"><rect x="-13" y="-3.5" width="26" height="7" rx="2" transform="rotate(45)"/><rect x="-13" y="-3.5" width="26" height="7" rx="2" transform="rotate(-45)"/></g>`;
  s += `</g></g>`;
  return s;
}

// Slots for gnomes inside a room: the main area and (rooms 8/10) the drew-items area.
// Returns [x, y, scale] per gnome.
function gnomeSlots(rc, list, area) {
  const n = list.length;
  const pts = [];
  if (area === true) {
    const x = rc.x + rc.w - 22, top = rc.y + 58;
    const sc = n > 2 ? 0.6 : 0.75;
    for (let i = 0; i < n; i++) pts.push([x + (n > 1 ? (i % 2 ? 6 : -6) : 0), top + Math.floor(i / 2) * 20 + (i % 2) * 10, sc]);
    return pts;
  }
  const width = rc.w - 16 - (area === false ? 40 : 0);
  const rows = n > 4 ? 2 : 1;
  const sc = rows === 2 ? 0.78 : 1;
  const perRow = Math.ceil(n / rows);
  const wide = (g) => (g.fainted ? 30 : 22) * sc;
  for (let row = 0; row < rows; row++) {
    const part = list.slice(row * perRow, (row + 1) * perRow);
    const total = part.reduce((a, g) => a + wide(g), 0);
    const gap = Math.min(4, Math.max(0, (width - total) / Math.max(part.length - 1, 1)));
    let x = rc.x + 8 + (width - total - gap * (part.length - 1)) / 2;
    const y = rows === 2 ? rc.y + 62 + row * 30 : rc.y + 86;
    for (const g of part) {
      pts.push([x + wide(g) / 2, y, sc]);
      x += wide(g) + gap;
    }
  }
  return pts;
}

function gnomesSvg(model, targets) {
  const { data, view } = model;
  let s = "";
  const byRoom = new Map();
  for (const g of view.gnomes) {
    if (!g.alive || g.abandoned || g.room < 0) continue;
    const area = data.draw_rooms[String(g.room)] && g.drew_room === g.room;
    const key = `${g.room}:${area ? "d" : "m"}`;
    if (!byRoom.has(key)) byRoom.set(key, []);
    byRoom.get(key).push(g);
  }
  for (const [key, list] of byRoom) {
    const [roomS, part] = key.split(":");
    const room = Number(roomS);
    let pts;
    if (room === SEA) {
      const [cx, cy] = centre(data.layout, SEA);
      pts = list.map((g, i) => [cx - 70 + (i % 6) * 38, cy + 64 + Math.floor(i / 6) * 38, 1]);
    } else {
      const rc = rect(data.layout, room);
      pts = gnomeSlots(rc, list, part === "d" ? true : data.draw_rooms[String(room)] ? false : null);
    }
    list.forEach((g, i) => {
      const [x, y, scale] = pts[i];
      const target = targets.gnomes[g.number];
      const active = view.active === g.number && !view.result;
      const label = gnomeName(model, g.number) + " (" + model.seatName(g.player) + ")"
        + (g.fainted ? ", " + raw("ui", "fainted") : "");
      const moved = targets.changes && targets.changes.gnomes.has(g.number);
      s += `<g class="gnome${target ? " target" : ""}${active ? " active" : ""}${moved ? " moved" : ""}" ${attrs({
        transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`, "data-testid": `gnome-${g.number}`,
        "data-act": target?.act, "data-pick": target?.pick, role: target ? "button" : "img",
        tabindex: target ? 0 : undefined, "aria-label": target ? target.label : label,
      })}><title>${esc(label)}</title>${target ? `<circle class="hit" cy="${-16 * scale}" r="18"/>` : ""}${
        gnomeGlyph(g.colour, { fainted: g.fainted, active, scale })}</g>`;
    });
  }
  return s;
}

function seaZone(model, targets) {
  const [cx, cy] = centre(model.data.layout, SEA);
  const target = targets.rooms[SEA];
  const x = cx - 125, y = cy - 28, w = 265, h = 152;
  let s = `<g class="sea-zone${target ? " target" : ""}" ${attrs({
    "data-testid": "room-sea", "data-room": SEA, "data-act": target?.act, "data-pick": target?.pick,
    role: target ? "button" : "img", tabindex: target ? 0 : undefined,
    "aria-label": target ? target.label : raw("rooms", "sea"),
  })}>`;
  s += `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="18" class="sea-box"/>`;
  s += `<text class="sea-label" x="${x + 14}" y="${y + 22}">${esc(raw("room_format", "sea_short"))}</text>`;
  const kraken = model.view.tokens?.kraken;
  if (kraken !== undefined) {
    s += `<g transform="translate(${x + w - 40},${y + 30})" class="kraken-mark">
      <path d="M-14,10 C-16,-2 -8,-12 0,-12 C8,-12 16,-2 14,10 C10,4 8,12 4,6 C2,14 -2,14 -4,6 C-8,12 -10,4 -14,10 Z" fill="#7a2e8e" stroke="#2b0f33"/>
      <circle cx="-4" cy="-3" r="2" fill="#fff"/><circle cx="4" cy="-3" r="2" fill="#fff"/></g>`;
  }
  if (target) s += `<rect class="target-ring" x="${x - 3}" y="${y - 3}" width="${w + 6}" height="${h + 6}" rx="20"/>`;
  return s + `</g>`;
}

function disasterTracks(model, changes) {
  const { data, view } = model;
  const x0 = 16, y0 = 12, rowH = 58, sp = 30;
  let s = `<g class="disaster" data-testid="disaster-tracks"><rect class="panel" x="${x0}" y="${y0}" width="${438}" height="${rowH * 3 + 8}" rx="10"/>`;
  data.tracks.forEach((name, i) => {
    const value = (view.tracks || {})[name] || 1;
    const y = y0 + 22 + i * rowH;
    const colour = TRACK_COLOURS[name] || "#888";
    s += `<g ${attrs({ class: changes && changes.tracks.has(name) ? "changed" : undefined, "data-testid": `track-${name}`, "data-value": value, role: "img",
      "aria-label": `${trackName(model, name)}: ${t("ui", "track_value", { value, length: data.track_length })}` })}>`;
    s += `<text class="track-name" x="${x0 + 12}" y="${y + 4}" fill="${colour}">${esc(trackName(model, name))}</text>`;
    s += `<text class="track-val" x="${x0 + 12}" y="${y + 22}">${esc(t("ui", "track_value", { value, length: data.track_length }))}</text>`;
    for (let k = 1; k <= data.track_length; k++) {
      const cx = x0 + 140 + (k - 1) * sp, cy = y + 8;
      const danger = k >= data.track_length - 2;
      s += `<circle class="track-space${danger ? " danger" : ""}" cx="${cx}" cy="${cy}" r="11"/>`;
      if (k === data.track_length) s += `<g transform="translate(${cx},${cy + 2})">${skullIcon(1.05)}</g>`;
      else if (data.reset_stars.includes(k)) s += `<path transform="translate(${cx},${cy})" d="${starPath(6.5)}" class="star"/>`;
      else s += `<text class="track-num" x="${cx}" y="${cy + 4}">${k}</text>`;
      if (k === value) {
        s += `<circle class="track-marker" cx="${cx}" cy="${cy}" r="13" fill="${colour}"/>`;
        s += `<text class="track-marker-num" x="${cx}" y="${cy + 4.5}">${k}</text>`;
      }
    }
    s += `</g>`;
  });
  return s + `</g>`;
}

export function renderBoard(model, targets = { rooms: {}, hatches: {}, gnomes: {} }) {
  targets = { rooms: {}, hatches: {}, gnomes: {}, ...targets };
  const { data } = model;
  let s = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${VIEW_W} ${VIEW_H}" class="board-svg" role="group" aria-label="${esc(raw("ui", "submarine"))}">`;
  s += defs() + seaBackground();
  s += disasterTracks(model, targets.changes);
  s += seaZone(model, targets);
  s += `<path class="hull" d="${hullPath(data)}"/><path class="hull-rivets" d="${hullPath(data)}"/>`;
  const hatches = hatchGeometry(data);
  // corridors first, then rooms, then hatch doors on top
  for (const r of data.room_keys.keys()) if (r !== SEA) s += roomSvg(model, r, targets);
  for (const h of hatches) s += hatchSvg(model, h, targets);
  s += gnomesSvg(model, targets);
  s += `</svg>`;
  return s;
}

export { tokenName };
