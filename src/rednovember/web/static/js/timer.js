// The turn timer's clock: the time left for the decision in play (state.clock from the server:
// seconds per decision, seconds remaining when the state was made, the seat to move), counting
// down for every player; the server decides for the seat when it runs out. The clock icon is
// drawn in lobby.css (not every font has ⏱).

import { lang, raw, t } from "./i18n.js";
import { esc } from "./svg.js";
import { playerName } from "./describe.js";

let ticker = null;

export function formatSeconds(s) {
  const n = Math.max(0, Math.ceil(s));
  return `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}`;
}

// A turn timer setting in words: "30 s", "2 min".
export function timerText(seconds) {
  return seconds % 60 === 0 ? t("web_lobby", "minutes", { n: seconds / 60 }) : t("web_lobby", "seconds", { n: seconds });
}

// A turn-based table's time in words (issue 20): "7 days", "12 h", "45 min". Whole days while it
// is two days or more (or exactly whole days), whole hours from one hour on, else minutes.
export function durationText(seconds) {
  const s = Math.max(0, seconds);
  if (s >= 2 * 86400 || (s >= 86400 && s % 86400 === 0)) return t("web_lobby", "days", { n: Math.floor(s / 86400) });
  if (s >= 3600) return t("web_lobby", "hours", { n: Math.floor(s / 3600) });
  return t("web_lobby", "minutes", { n: Math.max(1, Math.ceil(s / 60)) });
}

// A turn-based table's pace in words, for the lobby and the banner: "Turn-based · 1 day per decision".
export function paceText(settings) {
  return t("web_lobby", "turn_based_badge", { time: durationText(settings.move_deadline) });
}

// The deadline of the decision in play at a turn-based table: "Decide by Thu 14:00 · 23 h left"
// (the moment in the reader's own time zone), and the deadlines that seat missed in a row.
function renderDeadline(banner, dl) {
  const here = navigator.language || ""; // the reader's own conventions if they speak the page's language
  const locale = here.split("-")[0] === lang() ? here : lang();
  const when = new Intl.DateTimeFormat(locale, { weekday: "short", hour: "2-digit", minute: "2-digit" })
    .format(new Date(dl.at * 1000));
  const el = document.createElement("span");
  el.className = "turn-clock deadline";
  el.dataset.testid = "turn-deadline";
  el.setAttribute("role", "timer");
  // its parts, each kept on one line: a narrow banner breaks between them, never inside one
  // the time left counts down while the page stays open (a day-long wait may see no message)
  if (dl._end === undefined) dl._end = performance.now() + dl.remaining * 1000;
  el.dataset.deadlineEnd = String(dl._end);
  const parts = [t("web_lobby", "deadline_by", { when }), leftText(dl._end)];
  if (dl.missed) parts.push(t("web_lobby", "deadline_missed", { n: dl.missed }));
  el.innerHTML = parts.map((p, i) => `<span${i === 2 ? ' data-testid="deadline-missed"' : i === 1 ? ' data-testid="deadline-left"' : ""}>${esc(p)}</span>`).join(" · ");
  if (dl.missed) {
    // the red says this seat let deadlines pass: in words too (a phone shows no tooltip)
    el.title = parts[2];
    el.classList.add("low");
  }
  banner.appendChild(el);
  if (!deadlineTicker) deadlineTicker = setInterval(tickDeadlines, DEADLINE_TICK_MS);
}

const DEADLINE_TICK_MS = 15_000; // its text changes by the minute at most
let deadlineTicker = null;

function leftText(end) { // (to the minute above: a deadline just set reads "1 day left")
  const seconds = Math.ceil(Math.max(0, (end - performance.now()) / 1000) / 60) * 60;
  return t("web_lobby", "deadline_left", { time: durationText(seconds) });
}

function tickDeadlines() {
  const shown = document.querySelectorAll("[data-testid=turn-deadline][data-deadline-end]");
  if (!shown.length) { clearInterval(deadlineTicker); deadlineTicker = null; return; }
  for (const el of shown) {
    const left = el.querySelector("[data-testid=deadline-left]");
    const text = leftText(Number(el.dataset.deadlineEnd));
    if (left && left.textContent !== text) left.textContent = text;
  }
}

// Appends the clock (or, while the table waits, its setting) to the turn banner; at a turn-based
// table, the deadline of the decision in play.
export function renderClock(banner, st, summary) {
  if (st && st.deadline && st.status === "playing") { renderDeadline(banner, st.deadline); return; }
  if (summary?.settings?.pace === "turn-based" && st && st.status === "waiting") {
    const el = document.createElement("span");
    el.className = "turn-clock idle";
    el.dataset.testid = "turn-timer-setting";
    el.textContent = paceText(summary.settings);
    banner.appendChild(el);
    return;
  }
  const clock = st && st.clock;
  const timer = summary?.settings?.turn_timer;
  if (clock && st.status === "playing") {
    if (st._clockEnd === undefined) st._clockEnd = performance.now() + clock.remaining * 1000;
    const el = document.createElement("span");
    el.className = "turn-clock";
    el.dataset.testid = "turn-clock";
    el.dataset.end = String(st._clockEnd);
    el.setAttribute("role", "timer");
    el.setAttribute("aria-label", raw("web_lobby", "clock_label"));
    el.title = t("web_lobby", "timer_setting", { time: timerText(clock.seconds) });
    banner.appendChild(el);
    tick();
    if (!ticker) ticker = setInterval(tick, 250);
  } else if (timer && st && st.status === "waiting") {
    const el = document.createElement("span");
    el.className = "turn-clock idle";
    el.dataset.testid = "turn-timer-setting";
    el.innerHTML = esc(t("web_lobby", "timer_setting", { time: timerText(timer) }));
    banner.appendChild(el);
  }
}

function tick() {
  const clocks = document.querySelectorAll("[data-testid=turn-clock][data-end]");
  if (!clocks.length) { clearInterval(ticker); ticker = null; return; }
  const now = performance.now();
  for (const el of clocks) {
    const left = (Number(el.dataset.end) - now) / 1000;
    const text = formatSeconds(left);
    if (el.textContent !== text) el.textContent = text;
    el.dataset.left = String(Math.max(0, Math.ceil(left)));
    el.classList.toggle("low", left <= 10);
  }
}

// The chat line of a timeout note (the server decided for a seat whose time ran out).
export function timeoutLine(page, m) {
  const li = document.createElement("li");
  li.dataset.testid = "chat-timeout";
  li.className = "chat-system";
  // the name the seat had then (stored with the note): a bot may hold the seat by now
  li.textContent = t("web_lobby", "timed_out", { player: playerName(m.name, m.for_seat) });
  return li;
}
