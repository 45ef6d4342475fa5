"""Browser tests of hot-seat play on a phone: one browser holds every seat of the table and is
passed from hand to hand. When the gnomes' cards are hidden from each other (Mad Gnomes), the page
covers itself between two seats' eyes until the next player says they hold the device.

Debian's Chromium and the session's real server (fixtures of conftest.py); screenshots go to
artifacts/screenshots/hotseat-*.png."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from browsertools import SKIP, _page, expect, play_one, shot, state, two_frames
from webtools import new_game, take

pytestmark = SKIP

Page = Any  # playwright.sync_api.Page

# Every point of a grid over the window, and what the page shows there (the element hit): the
# cover's, a toast's, or another's (the first such point, with what is there).
_UNCOVERED = """() => {
    const cover = document.querySelector("[data-testid=pass-cover]");
    for (let x = 5; x < innerWidth; x += 25) for (let y = 5; y < innerHeight; y += 25) {
        const el = document.elementFromPoint(x, y);
        if (!el || cover.contains(el) || el.closest(".toasts")) continue;
        return {x, y, el: el.outerHTML.slice(0, 120)};
    }
    return null;
}"""

# The names of the cards in the hand of the seat the page looks through.
_OWN_HAND = """() => {
    const s = window.rnGame.state();
    return s.view.gnomes.filter((g) => g.player === s.seat).flatMap((g) => g.hand || []);
}"""


def hotseat_page(sized: Callable[[str], Any], rn_url: str, size: str = "phone",
                 **config: Any) -> tuple[Page, str]:
    """A phone's page (or one of another of the ``sized`` fixture's sizes) holding all three
    seats of a new game (``config``: new_game's), as the browser that took them keeps them:
    (page, game id)."""
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid, _ = new_game(api, 3, **config)
        tokens = {str(s): take(api, gid, s) for s in range(3)}
    ctx = sized(size)
    ctx.add_init_script(f"localStorage.setItem('rn.game.{gid}', "
                        f"{json.dumps(json.dumps({'seats': tokens}))})")
    return _page(ctx, f"/g/{gid}"), gid


def covered_for(page: Page, name: str) -> None:
    """The cover asks to pass the device to ``name`` and hides the whole page."""
    cover = page.get_by_test_id("pass-cover")
    expect(cover).to_be_visible()
    expect(page.get_by_test_id("pass-title")).to_contain_text(name)
    expect(page.get_by_test_id("pass-ready")).to_contain_text(name)
    assert page.evaluate(_UNCOVERED) is None
    assert page.evaluate("() => document.querySelector('.game').inert")
    # the cover says whose turn it is: no toast saying it too, left over the turn's banner
    # once the cover lifts
    toasts = page.evaluate("() => [...document.querySelectorAll('[data-testid=toast]')]"
                           ".map((e) => e.textContent)")
    assert not [t for t in toasts if "must decide" in t], toasts


def test_a_hidden_hand_game_covers_the_page_between_seats(sized: Callable[[str], Any]) -> None:
    page = _page(sized("phone"), "/")
    page.wait_for_selector("[data-testid=create-form]")
    page.select_option("[data-testid=create-players]", "3")
    page.check("[data-testid=variant-mad-gnomes]")
    page.fill("[data-testid=create-seed]", "7")
    page.click("[data-testid=create-game]")
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    names = ("Ada", "Bob", "Cy")
    for seat, name in enumerate(names):
        page.fill("[data-testid=seat-name]", name)
        page.click(f"[data-testid=take-seat-{seat}]")
        # taking the seats, before the cards are dealt: no cover yet
        expect(page.get_by_test_id(f"seat-tab-{seat}")).to_be_attached()
        if seat < 2:
            expect(page.get_by_test_id("pass-cover")).to_be_hidden()
    # the game starts with Blue's seat: the device goes to its player first
    st = state(page, your_turn=True)
    covered_for(page, names[st["seat"]])
    shot(page, "hotseat-phone-cover")
    page.get_by_test_id("pass-ready").tap()
    expect(page.get_by_test_id("pass-cover")).to_be_hidden()
    expect(page.get_by_test_id("actions")).to_be_visible()
    assert not page.evaluate("() => document.querySelector('.game').inert")
    # the seats pass the device round: every change of seat is covered, the next seat's cards
    # only shown once its player taps
    changes = 0
    for _ in range(30):
        seat = st["seat"]
        st = play_one(page, st)
        st = state(page, your_turn=True)
        if st["seat"] == seat:
            expect(page.get_by_test_id("pass-cover")).to_be_hidden()
            continue
        covered_for(page, names[st["seat"]])
        hand = page.evaluate(_OWN_HAND)
        assert hand, "the next seat holds cards the cover hides"
        changes += 1
        if changes == 2:
            shot(page, "hotseat-phone-cover-again")
            break
        page.get_by_test_id("pass-ready").tap()
        expect(page.get_by_test_id("pass-cover")).to_be_hidden()
    assert changes == 2
    # a seat tab picked by hand is another seat's eyes too
    page.get_by_test_id("pass-ready").tap()
    page.get_by_test_id("sheet-toggle").tap()  # the sheet folded: the seat tabs below the board
    other = next(s for s in range(3) if s != st["seat"])
    page.get_by_test_id(f"seat-tab-{other}").tap()
    covered_for(page, names[other])
    assert not page.js_errors, page.js_errors


def play_to_the_next_seat(page: Any, st: dict[str, Any]) -> dict[str, Any]:
    """Plays the seat to move until another seat must decide: that seat's state."""
    first = st["seat"]
    for _ in range(30):
        st = play_one(page, st)
        st = state(page, your_turn=True)
        if st["seat"] != first:
            return st
    raise AssertionError(f"seat {first} still decides after 30 moves")


def test_open_hands_need_no_cover(sized: Callable[[str], Any], rn_url: str) -> None:
    """Without hidden hands every card is on the table: the seats follow each other at once."""
    page, gid = hotseat_page(sized, rn_url, seed=7)
    play_to_the_next_seat(page, state(page, your_turn=True))
    expect(page.get_by_test_id("actions")).to_be_visible()
    expect(page.get_by_test_id("pass-cover")).to_be_hidden()
    assert not page.js_errors, page.js_errors


# What of the board lies under the zoom button: rooms, the Sea (its box, the gnomes and the
# Kraken drawn in it), hatches and gnomes, each clipped to the board's frame (a zoomed board pans).
_UNDER_ZOOM = """() => {
    const btn = document.querySelector("[data-testid=board-zoom]").getBoundingClientRect();
    const frame = document.querySelector("#board").getBoundingClientRect();
    const out = [];
    for (const el of document.querySelectorAll(
            "#board [data-room], #board .hatch, #board .gnome, #board .kraken-mark")) {
        const r = el.getBoundingClientRect();
        const left = Math.max(r.left, frame.left, btn.left);
        const right = Math.min(r.right, frame.right, btn.right);
        const top = Math.max(r.top, frame.top, btn.top);
        const bottom = Math.min(r.bottom, frame.bottom, btn.bottom);
        if (right - left > 0.5 && bottom - top > 0.5) {
            out.push(el.dataset.testid || el.getAttribute("class"));
        }
    }
    return out;
}"""


def test_the_zoom_button_hides_nothing_of_the_board(sized: Callable[[str], Any],
                                                    rn_url: str) -> None:
    """The phone's zoom button sits in a corner of the board where no room, hatch, gnome or the
    Sea (where gnomes swim and the Kraken waits, the board's top right) is, however the board is
    shown: whole, or zoomed and panned to either end."""
    page, gid = hotseat_page(sized, rn_url, seed=7)
    state(page)
    for size in ({"width": 390, "height": 844}, {"width": 360, "height": 640},
                 {"width": 844, "height": 390}):
        page.set_viewport_size(size)
        zoom = page.get_by_test_id("board-zoom")
        for _ in range(2):
            zoom.tap()  # the other view
            page.wait_for_timeout(100)
            for end in ("0", "1e6"):
                page.evaluate(f"() => {{ document.querySelector('#board').scrollLeft = {end}; }}")
                under = page.evaluate(_UNDER_ZOOM)
                view = f"{size}, zoomed {zoom.get_attribute('aria-pressed')}, panned to {end}"
                assert not under, f"{view}: the zoom button hides {under}"
        page.evaluate("() => { document.querySelector('#board').scrollLeft = 1e6; }")
        shot(page, f"hotseat-zoom-{size['width']}x{size['height']}")
    assert not page.js_errors, page.js_errors


def test_the_table_tab_stays_while_seats_go_to_bots(sized: Callable[[str], Any],
                                                    rn_url: str) -> None:
    """A friend leaves the hot-seat table: their seat goes to a bot from the Table tab, and the
    sheet stays there (for the next seat to hand over), rather than jumping back to the options
    as when a turn begins."""
    page, gid = hotseat_page(sized, rn_url, seed=7)
    st = state(page, your_turn=True)
    table = page.get_by_test_id("sheet-tab-table")
    table.tap()
    expect(table).to_have_attribute("aria-selected", "true")
    page.get_by_test_id("manage-seats").tap()
    others = [s for s in range(3) if s != st["seat"]]
    for n, seat in enumerate(others):
        page.get_by_test_id(f"bot-seat-{seat}").tap()
        expect(page.get_by_test_id(f"seat-{seat}")).to_have_attribute("data-kind", "bot")
        expect(page.get_by_test_id(f"seat-tab-{seat}")).to_have_count(0)
        state(page, your_turn=True)  # the page said hello again and has its seat's state back
        page.wait_for_timeout(200)
        expect(table).to_have_attribute("aria-selected", "true")
        expect(page.get_by_test_id("seats")).to_be_visible()
        if n == 0:
            shot(page, "hotseat-phone-seat-to-bot")
    assert not page.js_errors, page.js_errors


# The names cut short (an ellipsis) on the sheet's tabs and the disaster tracks' strip.
_CUT = """() => [...document.querySelectorAll(".sheet-tab-label, .pt-name, .pt-val")]
    .filter((el) => el.getClientRects().length && el.scrollWidth > el.clientWidth + 1)
    .map((el) => el.textContent)"""

_TABS = """() => [...document.querySelectorAll(".sheet-tab, .sheet-toggle")]
    .map((el) => [el.dataset.testid, el.offsetWidth, el.offsetHeight])"""


def test_a_narrow_phone_cuts_no_tab_or_track_name(sized: Callable[[str], Any],
                                                  rn_url: str) -> None:
    """At 360×640 (many phones) in every language: the sheet's tabs and the three disaster tracks
    are named in full, the tabs still fit a finger, and the page does not scroll sideways."""
    page, gid = hotseat_page(sized, rn_url, seed=7)
    page.set_viewport_size({"width": 360, "height": 640})
    state(page, your_turn=True)
    for lang in ("en", "de", "fr", "pl", "ru", "es"):
        page.select_option("[data-testid=language-select]", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        two_frames(page)
        assert not page.evaluate(_CUT), f"{lang}: names cut off: {page.evaluate(_CUT)}"
        small = [t for t in page.evaluate(_TABS) if t[1] < 44 or t[2] < 44]
        assert not small, f"{lang}: tabs under 44×44 px: {small}"
        width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], f"{lang}: the page is {width[0]} px wide in {width[1]}"
        shot(page, f"hotseat-360x640-{lang}")
    assert not page.js_errors, page.js_errors


# The board's show card now: its title, the card names it lists, the text of a hidden draw.
_SHOW_CARD = """() => {
    const c = document.querySelector("[data-testid=show-card]");
    if (!c || c.hidden) return null;
    return {title: c.querySelector("[data-testid=show-title]")?.textContent || "",
            items: [...c.querySelectorAll("[data-testid=show-item]")].map((e) => e.textContent.trim()),
            hidden: c.querySelector("[data-testid=show-hidden]")?.textContent || "",
            text: c.textContent};
}"""


def test_the_show_of_a_draw_hides_its_cards_from_the_next_seat(sized: Callable[[str], Any],
                                                               rn_url: str) -> None:
    """Blue draws 4 cards (the board's show lists them for Blue) and ends the turn at once: the
    show card still on the board when the next player takes the device names none of them."""
    page, gid = hotseat_page(sized, rn_url, seed=1, variants=["mad-gnomes"])  # Blue moves first, draws 4
    st = state(page, your_turn=True)
    assert st["seat"] == 1
    page.get_by_test_id("pass-ready").tap()
    page.evaluate("window.rnGame.show.pace = 600000")  # each step stays until the test moves on
    draws = page.locator("[data-testid=draw-group] button[data-act]")
    expect(draws.first).to_be_enabled()
    st = play_one(page, st)  # the most cards
    page.wait_for_function(f"() => ({_SHOW_CARD})()?.items.length > 0")
    drawn = page.evaluate(_SHOW_CARD)["items"]
    st = play_one(page, state(page, your_turn=True))  # the end of the turn, the draw still shown
    st = state(page, your_turn=True)
    assert st["seat"] != 1
    expect(page.get_by_test_id("pass-cover")).to_be_visible()
    page.get_by_test_id("pass-ready").tap()
    card = page.evaluate(_SHOW_CARD)
    assert card is not None and card["title"].startswith("Blue"), card
    assert not card["items"] and card["hidden"], card
    assert not any(name in card["text"] for name in drawn), (drawn, card)
    shot(page, "hotseat-phone-draw-hidden")
    assert not page.js_errors, page.js_errors


# --- what lies over what on a phone: the Ping button, the next seat's toast, the zoom button ----
PHONES = ({"width": 360, "height": 640}, {"width": 390, "height": 844}, {"width": 844, "height": 390})


def phone_views(page: Any) -> Iterator[tuple[str, str]]:
    """Each phone size, the board zoomed and whole (the zoom button tapped), the page at its
    top and drawn: the size's name (``360x640``) and the view's."""
    zoom = page.get_by_test_id("board-zoom")
    for size in PHONES:
        page.set_viewport_size(size)
        for _ in range(2):
            pressed = zoom.get_attribute("aria-pressed")
            zoom.tap()  # the other view
            expect(zoom).not_to_have_attribute("aria-pressed", str(pressed))
            page.evaluate("() => window.scrollTo(0, 0)")
            two_frames(page)
            yield (f"{size['width']}x{size['height']}",
                   f"{size}, zoomed {zoom.get_attribute('aria-pressed')}")

# The Ping button's box, the window's size, and what a tap at the button's centre reaches, the
# page scrolled from its top as little as brings the button into the window (a finger would).
_PING = """() => {
    window.scrollTo(0, 0);
    const b = document.querySelector("[data-testid=ping-button]");
    b.scrollIntoView({block: "nearest"});
    const r = b.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return {box: [r.left, r.top, r.right, r.bottom], view: [innerWidth, innerHeight],
            reached: !!hit && b.contains(hit), hit: hit ? hit.outerHTML.slice(0, 80) : null,
            rooms: [...document.querySelectorAll("[data-testid^=room-]")].map((room) => {
                const q = room.getBoundingClientRect();
                return [room.dataset.testid, [q.left, q.top, q.right, q.bottom]];
            })};
}"""


def test_the_ping_button_is_in_sight_above_the_folded_sheet(sized: Callable[[str], Any],
                                                             rn_url: str) -> None:
    """On a phone the Ping button is whole in the window, the board zoomed or whole, and a
    finger reaches it: at 360×640 the folded sheet's tab bar lay over its lower half, however
    far the page was scrolled. With the board whole it covers no room."""
    page, gid = hotseat_page(sized, rn_url, seed=7)
    state(page, your_turn=True)
    page.get_by_test_id("sheet-toggle").tap()
    expect(page.locator(".col-side")).to_have_class(re.compile(r"\bcollapsed\b"))
    expect(page.get_by_test_id("toast")).to_have_count(0)  # (the first seat's: gone by itself)
    for size, view in phone_views(page):
        at = page.evaluate(_PING)
        left, top, right, bottom = at["box"]
        width, height = at["view"]
        assert left >= 0 and right <= width and top >= 0 and bottom <= height, f"{view}: {at}"
        assert at["reached"], f"{view}: a tap on the Ping button reaches {at['hit']}"
        if "zoomed false" in view:  # the board whole: its pin alone covers no room (sideways,
            covered = [room for room, box in at["rooms"] if overlap(at["box"], box)]
            assert not covered, f"{view}: {covered}"  # "📍 Ping" lay over room 10)
        shot(page, f"hotseat-ping-{size}")  # (the last view of each size stays)
    assert not page.js_errors, page.js_errors


# The next seat's toast, the turn's banner and the sheet's tabs (boxes: left, top, right, bottom;
# null when not shown), read two frames after the toast came (the page drawn for the next seat):
# the toast goes after 2.5 s, which a busy machine may take to come back to the test.
_TOAST_WATCH = """() => {
    window.rnToastAt = null;
    const box = (el) => {
        if (!el || !el.getClientRects().length) return null;
        const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
    };
    new MutationObserver((records, watch) => {
        const toast = records.flatMap((r) => [...r.addedNodes])
            .find((n) => n.dataset?.tag === "now-playing");
        if (!toast) return;
        watch.disconnect();
        requestAnimationFrame(() => requestAnimationFrame(() => {
            const banner = document.querySelector("[data-testid=turn-banner]");
            window.rnToastAt = {toast: box(toast), banner: box(banner), text: banner.textContent,
                tabs: box(document.querySelector("[data-testid=sheet-bar]")), height: innerHeight};
        }));
    }).observe(document.getElementById("toasts"), {childList: true});
}"""


def overlap(a: list[float], b: list[float] | None) -> bool:
    return b is not None and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_next_seats_toast_leaves_the_banner_readable(sized: Callable[[str], Any],
                                                         rn_url: str, size: str) -> None:
    """With open hands the seats follow each other at once, and a toast says which must decide
    now. It lies over neither the turn's banner nor the sheet's tabs, on phones and on a desktop:
    at a phone's top it covered the banner of a page scrolled to show more of the board."""
    page, gid = hotseat_page(sized, rn_url, size=size, seed=7)
    st = state(page, your_turn=True)
    for view in PHONES if size == "phone" else ({"width": 1280, "height": 800},):
        page.set_viewport_size(view)
        # the banner at the window's top: the page scrolled as far as it goes towards the board
        page.get_by_test_id("turn-banner").evaluate("(el) => el.scrollIntoView({block: 'start'})")
        page.evaluate(_TOAST_WATCH)
        st = play_to_the_next_seat(page, st)
        at = page.wait_for_function("() => window.rnToastAt").json_value()
        toast = at["toast"]
        assert toast and toast[1] >= 0 and toast[3] <= at["height"], f"{view}: not in sight: {at}"
        assert not overlap(toast, at["banner"]), f"{view}: the toast covers the banner: {at}"
        assert not overlap(toast, at["tabs"]), f"{view}: the toast covers the sheet's tabs: {at}"
        shot(page, f"hotseat-toast-{view['width']}x{view['height']}")
    assert not page.js_errors, page.js_errors


# What the show draws over the zoom button's centre (its cards and rings take no taps: they are
# made targets for the question), and whether a tap there reaches the button.
_OVER_ZOOM = """() => {
    const zoom = document.querySelector("[data-testid=board-zoom]"), r = zoom.getBoundingClientRect();
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    const reached = zoom.contains(document.elementFromPoint(x, y));
    const shown = [...document.querySelectorAll(".show-stage, .show-stage *")];
    for (const el of shown) el.style.pointerEvents = "auto";
    const stack = document.elementsFromPoint(x, y);
    for (const el of shown) el.style.pointerEvents = "";
    const at = stack.findIndex((el) => zoom.contains(el));
    return {reached, drawn: at >= 0, over: stack.slice(0, Math.max(at, 0))
        .filter((el) => el.closest(".show-card, .show-ring"))
        .map((el) => el.dataset.testid || el.className)};
}"""


def test_the_zoom_button_stays_in_sight_during_the_show(sized: Callable[[str], Any],
                                                        rn_url: str) -> None:
    """While the show plays a move on the board, its card (at the board's top on a phone) lay
    over the zoom button in the board's top left corner: the button stays in sight, and a finger
    reaches it, the board zoomed or whole, upright and sideways."""
    page, gid = hotseat_page(sized, rn_url, seed=7)
    st = state(page, your_turn=True)
    page.evaluate("window.rnGame.show.pace = 600000")  # each step stays until the test moves on
    card = page.get_by_test_id("show-card")
    for _ in range(10):  # until a turn ends: the keeper walks, a card over the board says it
        st = play_one(page, st)  # (the page has drawn the state, and the show its first step)
        if card.is_visible():
            break
        st = state(page, your_turn=True)
    expect(card).to_be_visible()
    for size, view in phone_views(page):  # (the zoom button tapped during the show)
        expect(card).to_be_visible()
        box, height = card.bounding_box(), page.viewport_size["height"]
        # whole in the window at the page's top: sideways with the board zoomed, the card sat at
        # the board's bottom, below the window
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, f"{view}: {box}"
        at = page.evaluate(_OVER_ZOOM)
        assert at["drawn"] and not at["over"], f"{view}: the show covers the zoom button: {at}"
        assert at["reached"], f"{view}: a tap on the zoom button misses it"
        shot(page, f"hotseat-zoom-show-{size}")  # (the last view of each size stays)
    assert not page.js_errors, page.js_errors
