// Boxes that scroll by themselves (the log, the chat, the side column, a zoomed board or time track
// on a phone) are reached by the keyboard: each gets a tab stop while it has something to scroll,
// and loses it again when it has not (a desktop's board never scrolls).

const SCROLLERS = ".board-wrap, .track-wrap, .col-side, .log-list, .chat-list, .recap-list";
const SCROLLS = /auto|scroll/;

function scrolls(el) {
  const st = getComputedStyle(el);
  return (SCROLLS.test(st.overflowX) && el.scrollWidth > el.clientWidth + 1)
    || (SCROLLS.test(st.overflowY) && el.scrollHeight > el.clientHeight + 1);
}

// Gives every scrolling box under `root` a tab stop (and takes it from one that no longer scrolls).
export function markScrollable(root = document) {
  for (const el of root.querySelectorAll(SCROLLERS)) {
    const keyed = el.dataset.scrollKeys !== undefined;
    if (scrolls(el)) {
      if (!keyed && !el.hasAttribute("tabindex")) { el.tabIndex = 0; el.dataset.scrollKeys = ""; }
    } else if (keyed) {
      el.removeAttribute("tabindex");
      delete el.dataset.scrollKeys;
    }
  }
}

let queued = false;
window.addEventListener("resize", () => {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => { queued = false; markScrollable(); });
});
