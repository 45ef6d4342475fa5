"""Being told it is your turn (issue 20 §3), in the browser: while a seat the page holds must
decide, the tab's title reads "(1) Your turn — Red November" and the favicon wears a dot, both gone
when the turn passes; the chime (WebAudio) is off until ticked; a hidden tab whose player ticked
"Notify me" gets a system notification when its turn begins, closed when the tab is shown again; a
visible tab, or a player who did not tick it, gets none. The choices stay after a reload.
Headless Chromium shows every page, even behind another tab or in a minimised window
(``document.hidden`` stays false): the tests hide a tab through the Page Visibility API's own
properties and event, as the browser would. Debian's Chromium and the session's real server
(fixtures in conftest.py)."""

from __future__ import annotations

from typing import Any

import httpx
from browsertools import SKIP, _page, create_game, expect, play_one, shot, state, take_seat
from webtools import take

pytestmark = SKIP

# Records the notifications shown (either way) and closed, and the oscillators started, while
# still calling the real functions.
RECORD = """
window.__notes = []; window.__closed = []; window.__tones = 0;
(() => {
  const Real = window.Notification;
  if (Real) {
    const close = Real.prototype.close;
    Real.prototype.close = function () { window.__closed.push(this.tag); return close.call(this); };
    const Wrapped = function (title, options) {
      window.__notes.push({title, body: options && options.body, tag: options && options.tag});
      return new Real(title, options);
    };
    Object.defineProperty(Wrapped, "permission", {get: () => Real.permission});
    Wrapped.requestPermission = (...a) => Real.requestPermission(...a);
    Wrapped.prototype = Real.prototype;
    window.Notification = Wrapped;
  }
  if (window.ServiceWorkerRegistration) {
    const show = ServiceWorkerRegistration.prototype.showNotification;
    ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
      window.__notes.push({title, body: options && options.body, tag: options && options.tag});
      return show.call(this, title, options);
    };
  }
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...a) { window.__tones += 1; return start.apply(this, a); };
})();
"""
# The tab hidden or shown, as the browser tells a page (Page Visibility API).
VISIBILITY = """(hidden) => {
  Object.defineProperty(document, "visibilityState", {configurable: true,
                                                      get: () => hidden ? "hidden" : "visible"});
  Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
TITLE = "(1) Your turn — Red November"
ICON = "() => document.querySelector('link[rel~=icon]').getAttribute('href')"


def _person(new_context: Any, rn_url: str) -> Any:
    ctx = new_context()
    ctx.grant_permissions(["notifications"], origin=rn_url)
    ctx.add_init_script(RECORD)
    return ctx


def _recorded(page: Any) -> dict[str, Any]:
    got: dict[str, Any] = page.evaluate(
        "() => ({notes: window.__notes, closed: window.__closed, tones: window.__tones})")
    return got


def test_title_and_favicon_say_your_turn_and_clear_when_it_passes(new_context: Any,
                                                                  rn_url: str) -> None:
    ada = _page(_person(new_context, rn_url), "/")
    link = create_game(ada, players=3, seed=5)
    take_seat(ada, 0, "Ada")
    plain_icon = ada.evaluate(ICON)
    bea = _page(_person(new_context, rn_url), link)
    take_seat(bea, 1, "Bea")
    expect(ada).to_have_title("Red November")  # waiting for seats: nobody's turn
    with httpx.Client(base_url=rn_url) as api:
        take(api, link.rstrip("/").rsplit("/", 1)[-1], 2, "Cy")
    st = state(ada, your_turn=True)  # seed 5: Ada's gnome moves first
    expect(ada).to_have_title(TITLE)
    ada.wait_for_function(f"() => ({ICON})().startsWith('data:image/png')")
    expect(bea).to_have_title("Red November")
    assert bea.evaluate(ICON) == plain_icon
    shot(ada, "turn-notice-title")
    # nothing ticked: no chime and no notification, though the browser allows them
    assert _recorded(ada) == {"notes": [], "closed": [], "tones": 0}
    # Ada decides until the turn passes: the title and the favicon are the page's own again
    while st["your_turn"]:
        st = play_one(ada, st)
    expect(ada).to_have_title("Red November")
    assert ada.evaluate(ICON) == plain_icon
    assert _recorded(ada)["tones"] == 0


def test_a_hidden_tab_is_notified_and_chimes_when_its_turn_begins(new_context: Any,
                                                                   rn_url: str) -> None:
    ada = _page(_person(new_context, rn_url), "/")
    link = create_game(ada, players=3, seed=5)
    take_seat(ada, 0, "Ada")
    card = ada.get_by_test_id("notices")
    expect(card).to_be_visible()
    sound, notify = ada.get_by_test_id("notice-sound"), ada.get_by_test_id("notice-notify")
    expect(sound).not_to_be_checked()
    expect(notify).not_to_be_checked()
    sound.check()  # ticking it plays the chime once, so the player hears what it sounds like
    ada.wait_for_function("() => window.__tones === 2")
    notify.check()
    expect(notify).to_be_checked()
    ada.evaluate(VISIBILITY, True)  # Ada looks at another tab
    gid = link.rstrip("/").rsplit("/", 1)[-1]
    with httpx.Client(base_url=rn_url) as api:
        take(api, gid, 1, "Bea")
        take(api, gid, 2, "Cy")  # the game starts: seed 5, Ada's gnome first
    ada.wait_for_function("() => window.__notes.length > 0")
    expect(ada).to_have_title(TITLE)
    got = _recorded(ada)
    assert got["tones"] == 4  # the chime again, on the turn
    [note] = got["notes"]
    assert note["title"] == "Red November"
    assert note["body"].startswith("Your turn — ")
    assert note["tag"] == f"rn-turn-{gid}"
    # the tab shown again: the notification goes, the title stays while the turn lasts
    ada.evaluate(VISIBILITY, False)
    ada.wait_for_function("(tag) => window.__closed.includes(tag)", arg=f"rn-turn-{gid}")
    expect(ada).to_have_title(TITLE)
    # the choices are kept
    ada.reload()
    expect(ada.get_by_test_id("notice-sound")).to_be_checked()
    expect(ada.get_by_test_id("notice-notify")).to_be_checked()


def test_a_refused_permission_leaves_the_box_unticked_and_says_why(new_context: Any) -> None:
    ctx = new_context()  # no permission granted: headless Chromium refuses when asked
    ctx.add_init_script(RECORD)
    ada = _page(ctx, "/")
    create_game(ada, players=2, seed=3)
    take_seat(ada, 0, "Ada")
    notify = ada.get_by_test_id("notice-notify")
    assert ada.evaluate("() => Notification.permission") == "default"  # not asked before a click
    notify.click()
    expect(ada.get_by_test_id("notice-why")).to_have_text(
        "This browser blocks notifications from this site: allow them in its site settings.")
    expect(notify).not_to_be_checked()
    expect(notify).to_be_disabled()
    assert ada.evaluate("() => localStorage.getItem('rn.notice.notify')") == "off"
    shot(ada, "turn-notice-refused")
