// The turn timer's clock: the time left for the decision in play (state.clock from the server:
// seconds per decision, seconds remaining when the state was made, the seat to move), counting
// down for every player; the server decides for the seat when it runs out. The clock icon is
// drawn in lobby.css (not every font has ⏱).

import { raw, t } from "./i18n.js";
import { esc } from "./svg.js";

let ticker = null;

export function formatSeconds(s) {
  const n = Math.max(0, Math.ceil(s));
  return `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}`;
}

// A turn timer setting in words: "30 s", "2 min".
export function timerText(seconds) {
  return seconds % 60 === 0 ? t("web_lobby", "minutes", { n: seconds / 60 }) : t("web_lobby", "seconds", { n: seconds });
}

// Appends the clock (or, while the table waits, its setting) to the turn banner.
export function renderClock(banner, st, summary) {
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
  li.textContent = t("web_lobby", "timed_out", { player: page.seatLabel(m.for_seat) });
  return li;
}
