"""Browser tests of the advisor (issue 10): the Hint button beside the options of the seat to move,
the progress while the server thinks, the three plans with their win chance and why, a plan's route
on the board; another seat's browser sees neither button nor plans; a table with hints off shows
no button (the create form's box); the end screen says who used hints.

Debian's Chromium plays on the session's real server (tests/web/conftest.py); every wait is
Playwright's ``expect`` or ``wait_for_function``. Screenshots at 1440×900 and 390×844."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
from browsertools import SHOTS, SKIP, _page, expect, state  # the fixtures are in conftest.py
from webtools import auth, seated_game

pytestmark = SKIP

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
MakeContext = Callable[..., Any]


def seat_page(new_context: MakeContext, gid: str, token: str) -> Any:
    """A browser of its own (a person) holding one seat through its seat link."""
    page = _page(new_context(), f"/g/{gid}#seat={token}")
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    return page


def shots(page: Any, name: str, testid: str = "advisor") -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.get_by_test_id(testid).scroll_into_view_if_needed()
        page.wait_for_function("() => new Promise(r => requestAnimationFrame(() => r(true)))")
        page.screenshot(path=str(SHOTS / f"hint-{name}-{label}.png"), animations="disabled")
    page.set_viewport_size(DESKTOP)


def test_hint_button_progress_three_plans_and_the_route_for_the_seat_to_move_only(
        api: httpx.Client, new_context: MakeContext) -> None:
    gid, tokens, _ = seated_game(api, 3, seed=5)
    m = api.get(f"/api/games/{gid}").json()["to_move"]
    o = (m + 1) % 3
    me = seat_page(new_context, gid, tokens[m])
    other = seat_page(new_context, gid, tokens[o])
    state(me, your_turn=True)
    state(other, seat=o)
    expect(other.get_by_test_id("actions")).to_be_visible()
    expect(other.get_by_test_id("hint-button")).to_have_count(0)  # not its turn: no button
    button = me.get_by_test_id("hint-button")
    expect(button).to_be_visible()
    expect(button).to_have_text("?Hint")
    button.click()
    expect(me.get_by_test_id("hint-progress")).to_be_visible()  # before the answer arrives
    expect(me.get_by_test_id("hint-button")).to_be_disabled()
    plans = me.get_by_test_id("hint-plans").locator("li")
    expect(plans).to_have_count(3, timeout=30_000)
    expect(me.get_by_test_id("hint-progress")).to_have_count(0)
    for i in range(3):
        expect(me.get_by_test_id(f"hint-chance-{i}")).to_have_text(re.compile(r"^\d{1,3}%$"))
        expect(me.get_by_test_id(f"hint-why-{i}")).to_contain_text("Why: ")
        expect(me.get_by_test_id(f"hint-why-{i}")).to_contain_text("then the keeper meets")
    # scrolled into view above the table talk kept at the side column's foot, not under it
    for i in (0, 2):
        box = me.get_by_test_id(f"hint-chance-{i}").bounding_box()
        assert me.evaluate("([x, y]) => !!document.elementFromPoint(x, y)?.closest('#advisor')",
                           [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]), i
    chances = [int(me.get_by_test_id(f"hint-chance-{i}").inner_text()[:-1]) for i in range(3)]
    assert chances == sorted(chances, reverse=True)
    answer = me.evaluate("() => window.rnGame.advisor.answer")
    first = answer["plans"][0]
    legal = state(me, your_turn=True)["actions"]
    assert first["steps"][0] in legal
    # a click on a plan shows its route on the board, a second click hides it
    me.get_by_test_id("hint-plan-0").click()
    expect(me.get_by_test_id("hint-plan-0")).to_have_attribute("aria-pressed", "true")
    expect(me.locator("#board g.hint-route")).to_have_count(len(first["route"]))
    expect(me.get_by_test_id(f"hint-step-{first['route'][0]}")).to_have_text("1")
    shots(me, "plans")
    me.get_by_test_id("hint-plan-0").click()
    expect(me.locator("#board g.hint-route")).to_have_count(0)
    # the other seat's browser saw nothing of it
    expect(other.get_by_test_id("hint-plans")).to_have_count(0)
    expect(other.get_by_test_id("advisor")).to_be_hidden()
    assert other.evaluate("() => window.rnGame.advisor.answer") is None
    # the end: the seats go to bots and the end screen says who used hints
    for seat in range(3):
        assert api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                        headers=auth(tokens[seat])).status_code == 200
    note = other.get_by_test_id("end-hints")
    colour = next(s["colour"] for s in api.get(f"/api/games/{gid}").json()["seats"] if s["seat"] == m)
    expect(note).to_have_text(f"Hints were used by: P{m} ({colour.capitalize()} · Player {m + 1})",
                              timeout=60_000)  # its seat as the crew table names it (now a bot's,
    # played for P{m}, who may take it back: still named)
    # the end screen is drawn again when the game's story arrives: shoot it after that
    expect(other.get_by_test_id("end-screen")).to_have_attribute("data-story", "ready")
    shots(other, "end", "end-hints")
    assert me.js_errors == [] and other.js_errors == []


def test_hints_off_from_the_create_form_shows_no_button(new_context: MakeContext) -> None:
    page = _page(new_context(), "/")
    box = page.get_by_test_id("create-hints")
    expect(box).to_be_checked()  # on by default
    box.uncheck()
    shots(page, "create-form", "create-hints")
    page.select_option("[data-testid=create-players]", "1")
    page.fill("[data-testid=create-seed]", "3")
    page.click("[data-testid=create-game]")
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    assert page.evaluate("() => window.rnGame.summary.settings.hints") is False
    page.fill("[data-testid=seat-name]", "Solo")
    page.click("[data-testid=take-seat-0]")
    st = state(page, your_turn=True)
    assert st["actions"]
    expect(page.get_by_test_id("undo")).to_be_visible()  # the options' head is drawn ...
    expect(page.get_by_test_id("hint-button")).to_have_count(0)  # ... without the button
    assert page.js_errors == []


def test_plans_go_when_the_position_changes_and_the_button_stays_for_the_turn(
        api: httpx.Client, new_context: MakeContext) -> None:
    """Issue 18 §4: after a move the old plans leave the screen (they were made for another
    position), and the Hint button stays once a hatch is open (a hint there starts by going in or
    staying); after the action it stays, greyed, saying why."""
    gid, tokens, _ = seated_game(api, 3, seed=5)
    m = api.get(f"/api/games/{gid}").json()["to_move"]
    me = seat_page(new_context, gid, tokens[m])
    st = state(me, your_turn=True)
    me.get_by_test_id("hint-button").click()
    expect(me.get_by_test_id("hint-plans").locator("li")).to_have_count(3, timeout=30_000)
    opens = [a for a in st["actions"] if a.startswith("open ")]
    assert opens
    me.get_by_test_id(f"act-{opens[0].replace(' ', '_')}").click()
    st = state(me, after=st["version"], your_turn=True)
    expect(me.get_by_test_id("hint-plans")).to_have_count(0)  # made for the position before
    assert me.evaluate("() => window.rnGame.advisor.answer") is None
    button = me.get_by_test_id("hint-button")
    expect(button).to_be_enabled()  # a hatch is open: still the turn's moves
    button.click()
    expect(me.get_by_test_id("hint-plans").locator("li")).not_to_have_count(0, timeout=30_000)
    plans = me.evaluate("() => window.rnGame.advisor.answer.plans")
    assert all(p["steps"][0].split()[0] in ("enter", "stay", "play") for p in plans)
    shots(me, "opened")
    stay = me.get_by_test_id("act-stay")
    stay.click()
    st = state(me, after=st["version"], your_turn=True)
    expect(me.get_by_test_id("hint-plans")).to_have_count(0)
    # the action: No Action; the gnome holds two items, so End follows: greyed until then
    me.get_by_test_id("act-no_action").click()
    st = state(me, after=st["version"], your_turn=True)
    assert st["actions"][0] == "end"
    expect(me.get_by_test_id("hint-button")).to_be_disabled()
    expect(me.get_by_test_id("hint-button")).to_have_attribute(
        "title", re.compile("nothing left to advise"))
    me.get_by_test_id("act-end").click()
    state(me, after=st["version"])
    expect(me.get_by_test_id("hint-button")).to_have_count(0)  # another seat's turn
    assert me.js_errors == []


def test_on_a_phone_a_picked_plan_pans_the_zoomed_board_to_its_route(
        api: httpx.Client, browser: Any, rn_url: str) -> None:
    """The board, zoomed on a phone, is wider than the screen: picking a plan brings its route
    into view, wherever the board was panned to."""
    gid, tokens, _ = seated_game(api, 3, seed=5)
    m = api.get(f"/api/games/{gid}").json()["to_move"]
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, base_url=rn_url)
    try:
        page = _page(ctx, f"/g/{gid}#seat={tokens[m]}")
        state(page, your_turn=True)
        wrap = page.locator("#board")
        assert wrap.evaluate("(w) => w.scrollWidth > w.clientWidth + 1"), "the board is zoomed"
        page.get_by_test_id("hint-button").click()
        expect(page.get_by_test_id("hint-plans").locator("li")).to_have_count(3, timeout=30_000)
        route = page.evaluate("() => window.rnGame.advisor.answer.plans[0].route")
        end = page.locator(f'#board g[data-room="{route[-1]}"] .room-bg')
        # pan the board as far from the route's last room as it goes
        far = "(w, [r]) => { w.scrollLeft = r.getBoundingClientRect().left > " \
              "w.getBoundingClientRect().left + w.clientWidth / 2 ? 0 : w.scrollWidth; }"
        wrap.evaluate(far, [end.element_handle()])
        page.get_by_test_id("hint-plan-0").click()
        expect(page.locator("#board g.hint-route")).to_have_count(len(route))
        page.wait_for_function(
            "([w, r]) => { const a = w.getBoundingClientRect(), b = r.getBoundingClientRect();"
            " return b.left >= a.left - 1 && b.right <= a.right + 1; }",
            arg=[wrap.element_handle(), end.element_handle()])
        assert page.js_errors == []
    finally:
        ctx.close()
