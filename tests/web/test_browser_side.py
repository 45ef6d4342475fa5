"""Browser tests of issue 18 §7's smaller things at desktop sizes: the table talk and the options
in view together at 1366×768 and 1920×1080 (the side column). Debian's Chromium and the session's
real server (fixtures in conftest.py); screenshots to artifacts/screenshots/side-*.png."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browsertools import SKIP, TIMEOUT, _page, expect, shot, state
from webtools import auth

pytestmark = SKIP

Page = Any
SIZES = {"laptop": {"width": 1366, "height": 768}, "desktop": {"width": 1920, "height": 1080}}


def bot_table(rn_url: str, seed: int, players: int = 3) -> tuple[str, str]:
    """A game with Ada in seat 0 and heuristic bots in the others: (id, Ada's token)."""
    with httpx.Client(base_url=rn_url, timeout=10.0) as api:
        made = api.post("/api/games", json={"players": players, "seed": seed}).json()
        gid, creator = made["game"]["id"], made["creator_token"]
        token = api.post(f"/api/games/{gid}/seats", json={"seat": 0, "name": "Ada"}).json()["token"]
        for seat in range(1, players):
            r = api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                         headers={"X-Creator-Token": creator})
            assert r.status_code == 200, r.text
    return gid, token


def act(rn_url: str, gid: str, token: str, *actions: str) -> None:
    with httpx.Client(base_url=rn_url, timeout=10.0) as api:
        for text in actions:
            r = api.post(f"/api/games/{gid}/act", json={"action": text}, headers=auth(token))
            assert r.status_code == 200, r.text


def open_seat(browser: Any, rn_url: str, gid: str, token: str, size: dict[str, int],
              locale: str = "en-GB", mobile: bool = False) -> tuple[Any, Page]:
    """Ada's page of the game (her seat's token in this browser's storage)."""
    ctx = browser.new_context(viewport=size, locale=locale, base_url=rn_url, has_touch=mobile,
                              is_mobile=mobile)
    ctx.set_default_timeout(TIMEOUT)
    seats = f"JSON.stringify({{seats: {{'0': '{token}'}}}})"
    ctx.add_init_script(f"localStorage.setItem('rn.game.{gid}', {seats})")
    page = _page(ctx, f"/g/{gid}")
    page.wait_for_selector("[data-testid=conn-status][data-state=open]")
    return ctx, page


@pytest.fixture
def contexts() -> Any:
    made: list[Any] = []
    yield made
    for ctx in made:
        ctx.close()


# Whether an element is on screen and not covered: its centre is inside the window and the
# element there is it (or inside it).
_IN_VIEW = """el => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (!r.width || !r.height || r.top < 0 || r.left < 0) return false;
    if (r.bottom > innerHeight || r.right > innerWidth) return false;
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === el || el.contains(hit));
}"""


def in_view(locator: Any) -> bool:
    return bool(locator.evaluate(_IN_VIEW))


@pytest.mark.parametrize("size", list(SIZES))
def test_options_and_table_talk_are_in_view_together(browser: Any, rn_url: str, contexts: Any,
                                                     size: str) -> None:
    """Issue 18 §7: at 1366×768 the chat sat 1,180 px down the side column. Now the options' head,
    their first choice, the chat's newest line and its field are all on screen at once, without
    scrolling, also after the player walked into a room with more options."""
    gid, token = bot_table(rn_url, seed=5)
    act(rn_url, gid, token, "open 2", "enter")
    ctx, page = open_seat(browser, rn_url, gid, token, SIZES[size])
    contexts.append(ctx)
    state(page, your_turn=True)
    for i in range(5):  # (at most 5 lines in 10 s from one connection)
        page.get_by_test_id("chat-input").fill(f"line {i}: shall we fix the pumps first?")
        page.get_by_test_id("chat-send").click()
    lines = page.locator("[data-testid=chat-message]")
    expect(lines).to_have_count(5)
    expect(lines.last).to_be_visible()
    page.wait_for_function("() => { const l = document.querySelector('[data-testid=chat-list]');"
                           " return l.scrollHeight - l.scrollTop - l.clientHeight < 2; }")
    assert page.evaluate("() => scrollY") == 0
    options = page.get_by_test_id("actions")
    for what in (options.locator("h3"), options.locator("button[data-act]:visible").first,
                 lines.last.locator(".chat-text"), page.get_by_test_id("chat-input"),
                 page.get_by_test_id("chat-send")):
        assert in_view(what), what
    shot(page, f"side-chat-{size}")
    assert not page.js_errors
