"""Browser tests of where a game's toasts show: never over the Ping button, on a phone held upright
or sideways and on a desktop, whether the sheet is open or folded, the button reading "Ping" or
"✕ Cancel". Upright, the toasts spanned the window's width just above the sheet, where the button
sticks (or shows, the board's foot scrolled above the sheet); sideways they lay over the board's
lower left; on a tablet or desktop they lie over the side column's foot, clear of the board and
the time track.

Debian's Chromium and the session's real server (fixtures of conftest.py); screenshots go to
artifacts/screenshots/toast-*.png."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import httpx
from browsertools import SKIP, _page, expect, shot, state, two_frames
from webtools import new_game, take

pytestmark = SKIP

# The page scrolled from its top as little as brings the Ping button into the window above the
# sheet when it is open (a finger would), then a toast that stays: the toast's box and the
# button's (left, top, right, bottom), the window's height, and what a tap at the button's centre
# reaches.
_TOAST_BY_PING = """() => {
    for (const old of document.querySelectorAll("#toasts > *")) old.remove();
    window.scrollTo(0, 0);
    const ping = document.querySelector("[data-testid=ping-button]");
    ping.scrollIntoView({block: "nearest"});
    const side = document.querySelector(".col-side");
    const sheet = getComputedStyle(side).position === "fixed" && !side.classList.contains("collapsed");
    const foot = sheet ? side.getBoundingClientRect().top : innerHeight;
    window.scrollBy(0, Math.max(0, ping.getBoundingClientRect().bottom + 8 - foot));
    window.rn.toast(() => window.rn.t("web", "link_copied"), "info", 0);
    return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
        const box = (el) => {
            const r = el.getBoundingClientRect();
            return [r.left, r.top, r.right, r.bottom];
        };
        const toast = document.querySelector("[data-testid=toast]"), at = box(ping);
        const hit = document.elementFromPoint((at[0] + at[2]) / 2, (at[1] + at[3]) / 2);
        const near = (sel) => box(document.querySelector(sel));
        done({toast: box(toast), ping: at, height: innerHeight, sheet,
              board: near(".board-holder"), track: near(".track-wrap"),
              reached: !!hit && ping.contains(hit), hit: hit ? hit.outerHTML.slice(0, 80) : null});
    })));
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def seated_page(sized: Callable[[str], Any], rn_url: str, size: str) -> Any:
    """A page of the ``sized`` fixture's ``size`` holding seat 0 of a new three-seat game (the
    others taken over HTTP), its state shown."""
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid, _ = new_game(api, 3, seed=7)
        tokens = {"0": take(api, gid, 0)}
        for seat in (1, 2):
            take(api, gid, seat)
    ctx = sized(size)
    ctx.add_init_script(f"localStorage.setItem('rn.game.{gid}', "
                        f"{json.dumps(json.dumps({'seats': tokens}))})")
    page = _page(ctx, f"/g/{gid}")
    state(page, seat=0)
    expect(page.get_by_test_id("ping-button")).to_be_visible()
    return page


def toast_beside_ping(page: Any, view: str) -> None:
    """A toast shows, in the window, and leaves the Ping button to a finger."""
    at = page.evaluate(_TOAST_BY_PING)
    expect(page.get_by_test_id("toast")).to_contain_text("Link copied")
    toast = at["toast"]
    assert toast[1] >= 0 and toast[3] <= at["height"], f"{view}: the toast is not in sight: {at}"
    assert not overlap(toast, at["ping"]), f"{view}: the toast covers the Ping button: {at}"
    assert at["reached"], f"{view}: a tap on the Ping button reaches {at['hit']}"


def test_a_toast_leaves_the_ping_button_free(sized: Callable[[str], Any], rn_url: str) -> None:
    """While a toast shows, its box and the Ping button's never meet: on a phone upright (the
    sheet open, the board's foot scrolled above it, or folded) and sideways, and on a desktop;
    also while the button reads "✕ Cancel" (ping mode)."""
    page = seated_page(sized, rn_url, "phone")
    ping, side, zoom = (page.get_by_test_id("ping-button"), page.locator(".col-side"),
                        page.get_by_test_id("board-zoom"))
    folded = re.compile(r"\bcollapsed\b")
    # upright: the sheet open, then folded (its toggle); sideways: the board zoomed, then whole
    for name, views in (("390x844", ("sheet open", "sheet folded")),
                        ("844x390", ("board zoomed", "board whole"))):
        width, height = map(int, name.split("x"))
        page.set_viewport_size({"width": width, "height": height})
        for view in views:
            if view == "sheet open":
                expect(side).not_to_have_class(folded)
            elif view == "sheet folded":
                page.get_by_test_id("sheet-toggle").tap()
                expect(side).to_have_class(folded)
            elif view == "board zoomed":
                expect(zoom).to_have_attribute("aria-pressed", "true")
            else:
                zoom.tap()
                expect(zoom).to_have_attribute("aria-pressed", "false")
            two_frames(page)
            toast_beside_ping(page, f"{name}, {view}")
            shot(page, f"toast-ping-{name}-{view.replace(' ', '-')}")
            ping.tap()  # ping mode: the button reads "✕ Cancel", wider
            expect(ping).to_have_attribute("aria-pressed", "true")
            toast_beside_ping(page, f"{name}, {view}, ping mode")
            ping.tap()
            expect(ping).to_have_attribute("aria-pressed", "false")
        if name == "390x844":
            page.get_by_test_id("sheet-toggle").tap()  # (open again)
    assert not page.js_errors, page.js_errors

    desk = seated_page(sized, rn_url, "desktop")
    for width in (1280, 1000):
        desk.set_viewport_size({"width": width, "height": 800})
        two_frames(desk)
        toast_beside_ping(desk, f"{width}x800")
        shot(desk, f"toast-ping-{width}x800")
    assert not desk.js_errors, desk.js_errors


def test_a_toast_leaves_the_board_and_the_time_track_in_sight(sized: Callable[[str], Any],
                                                             rn_url: str) -> None:
    """On a desktop and a tablet a game's toasts lie over the side column's foot: at the
    window's lower left they hid the time track's low spaces, where the gnomes stand late in a
    game."""
    page = seated_page(sized, rn_url, "desktop")
    for width, height in ((1280, 800), (1920, 1080), (1000, 800), (900, 600)):
        page.set_viewport_size({"width": width, "height": height})
        two_frames(page)
        at = page.evaluate(_TOAST_BY_PING)
        for part in ("board", "track"):
            assert not overlap(at["toast"], at[part]), f"{width}x{height}: over the {part}: {at}"
        shot(page, f"toast-side-{width}x{height}")
    assert not page.js_errors, page.js_errors
