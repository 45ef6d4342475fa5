// The action panel: every legal action of the seat to move, grouped (move, items, the action,
// decisions), with cost, repair chance (updating with the minutes chosen and the items that could
// still be played) and R7 warnings; and the matching clickable targets on the board.

import { raw, t } from "./i18n.js";
import {
  actionText, gnomeName, isRepair, itemBonus, itemName, kindName, roomName, SEA, tokenName, trackName,
} from "./describe.js";
import { hatchKey } from "./board.js";
import { attrs, esc } from "./svg.js";

const DECISIONS = new Set(["discard", "keep", "give", "done", "spread", "block", "defend", "yield"]);
const MOVES = new Set(["open", "enter", "stay", "exit"]);

export const testId = (text) => `act-${text.trim().replace(/\s+/g, "_")}`;

function groupKey(a) { return a.kind === "unblock_hatch" ? `${a.kind}:${a.room}` : a.kind; }

// Legal actions of the state, grouped.
export function groupActions(actions) {
  const g = { items: [], moves: [], repairs: new Map(), draws: [], others: [], decisions: [] };
  for (const a of actions) {
    if (a.kind === "play") g.items.push(a);
    else if (MOVES.has(a.kind)) g.moves.push(a);
    else if (a.repair) {
      const k = groupKey(a);
      if (!g.repairs.has(k)) g.repairs.set(k, []);
      g.repairs.get(k).push(a);
    } else if (a.kind === "draw") g.draws.push(a);
    else if (DECISIONS.has(a.kind)) g.decisions.push(a);
    else g.others.push(a);
  }
  for (const list of g.repairs.values()) list.sort((x, y) => x.minutes - y.minutes);
  return g;
}

// Board targets for the legal actions.
export function boardTargets(model, actions) {
  const v = model.view;
  const targets = { rooms: {}, hatches: {}, gnomes: {} };
  const here = v.active >= 0 ? v.gnomes[v.active].room : -1;
  for (const a of actions) {
    const warns = warningTexts(model, a);
    const label = actionText(model, toLocal(a)) + (warns.length ? ` ⚠ ${warns.join(" ")}` : "");
    switch (a.kind) {
      case "open": targets.hatches[hatchKey(here, a.room)] = { act: a.text, label }; break;
      case "enter": targets.rooms[v.opened] = { act: a.text, label }; break;
      case "stay": if (!targets.rooms[here]) targets.rooms[here] = { act: a.text, label }; break;
      case "exit": case "spread": targets.rooms[a.room] = { act: a.text, label }; break;
      case "block": {
        const room = v.pending && v.pending.length ? v.pending[0][2] : here;
        targets.hatches[hatchKey(room, a.room)] = { act: a.text, label };
        break;
      }
      case "unblock_hatch":
        targets.hatches[hatchKey(here, a.room)] = { pick: `unblock_hatch:${a.room}`,
          label: t("web", "choose_minutes_for", { kind: kindName(a.kind) + " → " + roomName(model, a.room) }) };
        break;
      case "trade": case "attack":
        if (!targets.gnomes[a.gnome] || a.kind === "trade") targets.gnomes[a.gnome] = { act: a.text, label };
        break;
      default:
        if (a.repair && !targets.rooms[here] && here >= 0) {
          targets.rooms[here] = { pick: a.kind, label: t("web", "choose_minutes_for", { kind: kindName(a.kind) }) };
        }
    }
  }
  // A room that is both "stay" and a repair target: stay wins only in the opened phase.
  return targets;
}

// Server action object → the shape describe.js expects.
export function toLocal(a) {
  return { kind: a.kind, text: a.text, room: a.room, item: a.item, n: a.gnome ?? a.count ?? a.arg, minutes: a.minutes };
}

// Warnings before harmful choices (server field `warnings`: codes with a room or gnome number).
const LETHAL = new Set(["dies_in_fire", "dies_in_flood", "no_way_out", "spread_fainted", "attack", "abandon",
  "loses_token", "loses_track", "loses_crew"]);  // = LETHAL in i18n/warnings.py

export function warningTexts(model, a) {
  return (a.warnings || []).map((w) => t("warnings", w.code, {
    room: w.room !== undefined ? roomName(model, w.room) : "",
    gnome: w.gnome !== undefined ? gnomeName(model, w.gnome) : "",
    token: w.token !== undefined ? tokenName(model, w.token) : "",
    track: w.track !== undefined ? trackName(model, w.track) : "",
    space: w.space ?? "" }));
}

function lethalText(model, a) {
  const texts = (a.warnings || []).filter((w) => LETHAL.has(w.code)).map((w) => warningTexts(model, { warnings: [w] })[0]);
  return texts.length ? texts.join("\n") : undefined;
}

function warnList(model, actions) {
  const items = actions.flatMap((a) => (a.warnings || []).map((w, i) => `<li class="warn${LETHAL.has(w.code) ? " lethal" : ""}" ${attrs({
    "data-testid": `warn-${w.code}` })}>⚠ <strong>${esc(actionText(model, toLocal(a)))}</strong>: ${esc(warningTexts(model, a)[i])}</li>`));
  return items.length ? `<div role="note"><ul class="warn-list">${items.join("")}</ul></div>` : "";
}

// A number stays on the line of the word after it ("(1 Min.)" never breaks inside a button).
const keepUnits = (text) => text.replace(/(\d) (?=\S)/g, "$1\u00a0");

function button(a, label, extra = "", cls = "btn", model = null) {
  const warned = model && a.warnings && a.warnings.length;
  const confirm = warned && !/data-confirm/.test(extra) ? lethalText(model, a) : undefined;
  return `<button type="button" class="${cls}${warned ? " warned" : ""}" ${attrs({ "data-act": a.text, "data-testid": testId(a.text),
    title: warned ? `${label} — ${warningTexts(model, a).join(" ")}` : label, "data-confirm": confirm })} ${extra}>${warned ? "⚠ " : ""}${esc(keepUnits(label))}</button>`;
}

function costNote(a) {
  if (a.cost === null || a.cost === undefined) return "";
  const key = a.penalty ? "cost_penalty" : "cost";
  return t("action_notes", key, { minutes: a.cost });
}

function itemsSection(model, state, g, busy) {
  if (!g.items.length) return "";
  const dis = busy ? "disabled" : "";
  let s = `<div class="act-group items-group"><h4>${esc(raw("ui", "section_items"))}</h4><div class="item-buttons">`;
  for (const a of g.items) {
    const mad = a.item === "crowbar" && model.config.variants.includes("mad-gnomes");
    const help = raw("item_help", mad ? "crowbar_mad" : a.item);
    s += `<button type="button" class="item-card playable" ${attrs({ "data-act": a.text, "data-testid": testId(a.text),
      "aria-label": t("actions", "play", { item: itemName(model, a.item), help }) })} ${dis}>
      <span class="item-name">${esc(itemName(model, a.item))}</span><span class="item-help">${esc(help)}</span></button>`;
  }
  return s + `</div></div>`;
}

function movesSection(model, state, g, busy) {
  if (!g.moves.length) return "";
  const dis = busy ? "disabled" : "";
  let s = `<div class="act-group moves"><h4>${esc(raw("ui", "section_move"))}</h4><p class="hint">${esc(raw("web", "hint_board"))}</p><div class="btn-row">`;
  for (const a of g.moves) {
    const note = costNote(a);
    s += button(a, actionText(model, toLocal(a)) + (note ? ` (${note})` : ""), dis, "btn", model);
  }
  return s + `</div>${warnList(model, g.moves)}</div>`;
}

function repairGroup(model, key, list, ui, busy, suggest) {
  const first = list[0];
  const kind = first.kind;
  const max = list[list.length - 1].minutes;
  const sel = ui.minutes[key] ?? (suggest && list.some((x) => x.minutes === suggest.minutes) ? suggest.minutes : defaultMinutes(list));
  const a = list.find((x) => x.minutes === sel) || list[list.length - 1];
  const gid = key.replace(":", "-");
  const title = kind === "unblock_hatch" ? t("web", "unblock_title", { room: roomName(model, first.room) }) : kindName(kind);
  const target = a.minutes + (a.bonus || 0);
  let s = `<div class="repair${ui.pick === key ? " picked" : ""}" ${attrs({ "data-testid": `repair-${gid}`, "data-group": key })}>`;
  s += `<div class="repair-head"><strong>${esc(title)}</strong>`;
  s += `<button type="button" class="help-link" data-help="actions-${esc(kind)}" aria-label="${esc(raw("web", "help"))}: ${esc(kindName(kind))}">?</button></div>`;
  s += `<div class="repair-row"><label class="minutes"><span>${esc(raw("web", "minutes"))}</span>
    <button type="button" class="btn small" data-minus="${esc(key)}" aria-label="${esc(raw("web", "fewer_minutes"))}" ${a.minutes <= list[0].minutes ? "disabled" : ""}>−</button>
    <input type="range" min="${list[0].minutes}" max="${max}" value="${a.minutes}" ${attrs({ "data-minutes": key,
      "data-testid": `repair-${gid}-minutes`, "aria-label": `${raw("web", "minutes")}: ${kindName(kind)}` })}>
    <output>${a.minutes}</output>
    <button type="button" class="btn small" data-plus="${esc(key)}" aria-label="${esc(raw("web", "more_minutes"))}" ${a.minutes >= max ? "disabled" : ""}>+</button></label>`;
  const chanceCls = a.doomed ? "doomed" : a.chance >= 70 ? "good" : a.chance >= 40 ? "fair" : "poor";
  s += `<span class="chance ${chanceCls}" data-testid="repair-${gid}-chance">${esc(a.doomed ? raw("web", "doomed_short")
    : t("action_notes", "chance", { percent: a.chance }))}</span></div>`;
  const bits = [t("web", "costs", { minutes: a.cost })];
  if (a.penalty) bits.push(t("web", "penalty_included", { minutes: a.penalty }));
  bits.push(t("web", "needs_roll", { target: Math.min(10, target) }));
  if (a.bonus) bits.push(t("web", "bonus_from_items", { bonus: a.bonus }));
  s += `<p class="repair-info">${esc(bits.join(" · "))}</p>`;
  if (a.ghost_after !== null && a.ghost_after !== undefined && a.meets) {
    s += `<p class="repair-info ghost-preview" data-testid="repair-${gid}-preview">${esc(t("web", "ghost_preview",
      { space: a.ghost_after, events: a.meets.events, items: a.meets.items }))}</p>`;
  }
  if (suggest) {
    const items = suggest.items.map((id) => itemName(model, id)).join(", ");
    s += `<p class="repair-info suggested" data-testid="repair-${gid}-suggested">${esc(items
      ? t("web", "suggested_items", { items, minutes: suggest.minutes }) : t("web", "suggested", { minutes: suggest.minutes }))}</p>`;
  }
  // what the items still in hand would add
  const hand = model.view.gnomes[model.view.active]?.hand || [];
  const tips = [];
  for (const id of [...new Set(hand)]) {
    const b = itemBonus(model, id, kind);
    if (b > 0 && !a.doomed && a.chance < 100) {
      const pct = Math.max(0, Math.min(10, target + b)) * 10;
      tips.push(t("web", "tip_item", { item: itemName(model, id), bonus: b, percent: pct }));
    }
  }
  if (tips.length) s += `<p class="repair-tip" data-testid="repair-${gid}-tip">${esc(tips.join(" · "))}</p>`;
  if (a.doomed) {
    s += `<p class="warn doomed" role="alert" data-testid="repair-${gid}-doomed">⚠ ${esc(t("action_notes", "doomed", { token: tokenName(model, a.token_lost || "") }))}</p>`;
  }
  s += warnList(model, [a]);
  const go = a.doomed ? raw("web", "repair_anyway") : raw("web", "repair_go");
  // the main choice's style only for the repair the heuristic would make this turn
  const style = a.doomed ? "btn danger" : suggest && suggest.best ? "btn primary" : "btn";
  s += `<div class="btn-row"><button type="button" class="${style}" ${attrs({
    "data-act": a.text, "data-confirm": a.doomed ? t("web", "confirm_doomed", { kind: kindName(kind) }) : lethalText(model, a),
    "data-testid": `repair-${gid}-go`, "aria-label": `${actionText(model, toLocal(a))}` })} ${busy ? "disabled" : ""}>${esc(go)} (${esc(keepUnits(t("action_notes", "cost", { minutes: a.cost })))})</button></div>`;
  // every option stays reachable as its own (hidden) button for keyboard users and tests
  s += `<div class="sr-only">${list.map((x) => button(x, actionText(model, toLocal(x)), "tabindex=\"-1\"")).join("")}</div>`;
  return s + `</div>`;
}

function defaultMinutes(list) {
  const sure = list.find((a) => a.chance >= 100 && !a.doomed);
  if (sure) return sure.minutes;
  const ok = list.filter((a) => !a.doomed);
  return (ok.length ? ok[ok.length - 1] : list[list.length - 1]).minutes;
}

function actionSection(model, state, g, ui, busy) {
  const dis = busy ? "disabled" : "";
  if (!g.repairs.size && !g.draws.length && !g.others.length) return "";
  let s = `<div class="act-group action"><h4>${esc(raw("ui", "section_action"))}</h4>`;
  for (const [key, list] of g.repairs) s += repairGroup(model, key, list, ui, busy, (state.suggest || {})[key]);
  if (g.draws.length) {
    const first = g.draws[0];
    const stock = model.data.draw_rooms[String(model.view.gnomes[model.view.active].room)]?.[0] === "captains_stock";
    s += `<div class="draws" data-testid="draw-group"><div class="repair-head"><strong>${esc(kindName("draw"))}</strong>
      <button type="button" class="help-link" data-help="actions-draw" aria-label="${esc(raw("web", "help"))}: ${esc(kindName("draw"))}">?</button></div>
      <p class="repair-info">${esc(raw("web", stock ? "draw_stock_hint" : "draw_deck_hint"))}${first.penalty ? " " + esc(t("web", "penalty_included", { minutes: first.penalty })) : ""}</p><div class="btn-row">`;
    for (const a of g.draws) {
      // the name said is the whole action; the card count and minutes shown are its short form
      s += `<button type="button" class="btn draw-btn" ${attrs({ "data-act": a.text, "data-testid": testId(a.text),
        title: actionText(model, toLocal(a)) })} ${dis}><span class="sr-only">${esc(actionText(model, toLocal(a)) + ` (${costNote(a)})`)}</span>
        <strong aria-hidden="true">${a.count ?? a.arg}</strong><small aria-hidden="true">${esc(t("action_notes", "cost", { minutes: a.cost }))}</small></button>`;
    }
    s += `</div></div>`;
  }
  s += `<div class="btn-row">`;
  for (const a of g.others) {
    const note = a.kind === "end" ? "" : costNote(a);
    const label = actionText(model, toLocal(a)) + (note ? ` (${note})` : "");
    const extra = a.kind === "abandon" ? `data-confirm="${esc(raw("web", "confirm_abandon"))}"` : "";
    const cls = isMain(state, a, a.kind === "end") ? "btn primary" : a.kind === "abandon" ? "btn danger" : "btn";
    s += button(a, label, `${dis} ${extra}`, cls, model);
  }
  return s + `</div>${warnList(model, g.others)}</div>`;
}

// Whether a button is the main (primary) choice: in a lesson on its path the plays its step
// accepts (state.wanted, set by learn.js), else the section's usual one (``usual``).
function isMain(state, a, usual) {
  return state.wanted ? state.wanted.includes(a.text) : usual;
}

function decisionSection(model, state, g, busy) {
  if (!g.decisions.length) return "";
  const dis = busy ? "disabled" : "";
  let s = `<div class="act-group decide" data-testid="decision"><h4>${esc(raw("ui", "section_decide"))}</h4><div class="btn-row">`;
  for (const a of g.decisions) {
    const cls = isMain(state, a, a.kind === "done") ? "btn primary" : a.kind === "yield" ? "btn danger" : "btn";
    s += button(a, actionText(model, toLocal(a)), dis, cls, model);
  }
  return s + `</div>${warnList(model, g.decisions)}</div>`;
}

// A − or + button beside a repair's minutes: the new number (within the field's bounds) goes into
// ui.minutes and picks that repair; false when the field is not on the page.
export function stepMinutes(root, ui, el) {
  const key = el.dataset.minus ?? el.dataset.plus;
  const input = root.querySelector(`input[data-minutes="${CSS.escape(key)}"]`);
  if (!input) return false;
  const v = Number(input.value) + (el.dataset.plus !== undefined ? 1 : -1);
  ui.minutes[key] = Math.max(Number(input.min), Math.min(Number(input.max), v));
  ui.pick = key;
  return true;
}

export function renderActions(model, state, ui, busy) {
  const g = groupActions(state.actions || []);
  return decisionSection(model, state, g, busy) + movesSection(model, state, g, busy)
    + actionSection(model, state, g, ui, busy) + itemsSection(model, state, g, busy);
}
