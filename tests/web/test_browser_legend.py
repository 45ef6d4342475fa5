"""The board's legend (issue 18 §9): every mark of the board and the time track explained with
its own glyph, and when a destruction token strikes; on a phone it sits under the Table tab."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from browsertools import _page, expect, shot, state

MARKS = ["fire", "low_water", "high_water", "blocked", "decider", "fainted", "event_icon",
         "item_icon", "ghost", "token", "skull"]


def _watched_game(url: str, person: bool = False) -> str:
    """A game of bots to watch; with ``person`` the first seat is a person's who never moves, so
    the game stalls instead of ending (an all-bot game ends within seconds, and on a phone its
    end switches the page to the options tab)."""
    with httpx.Client(base_url=url, timeout=30) as api:
        made = api.post("/api/games", json={"players": 3, "seed": 5}).json()
        gid, creator = made["game"]["id"], made["creator_token"]
        if person:
            assert api.post(f"/api/games/{gid}/seats", json={"seat": 0, "name": "Ada"}
                            ).status_code == 200
        for seat in range(1 if person else 0, 3):
            assert api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                            headers={"X-Creator-Token": creator}).status_code == 200
    return str(gid)


def test_the_legend_explains_every_mark_and_when_a_token_strikes(
        sized: Callable[[str], Any], rn_url: str) -> None:
    gid = _watched_game(rn_url)
    page = _page(sized("laptop"), f"/g/{gid}")
    state(page)
    legend = page.get_by_test_id("legend")
    expect(legend).to_be_attached()
    expect(legend.locator("summary")).to_have_text("Legend")
    assert legend.get_attribute("open") is None  # one line until it is opened
    legend.locator("summary").scroll_into_view_if_needed()
    legend.locator("summary").click()
    for mark in MARKS:
        row = page.get_by_test_id(f"legend-{mark}")
        expect(row).to_be_visible()
        assert row.locator("svg").count() == 1, mark  # drawn with the board's own glyph
    expect(page.get_by_test_id("legend-token")).to_contain_text("last keeper passes it")
    page.wait_for_function("() => Number(document.querySelector('[data-testid=game-page]')"
                           ".dataset.version) > 3")  # the bots play on: the legend stays open
    assert legend.get_attribute("open") is not None
    legend.scroll_into_view_if_needed()
    shot(page, "legend-laptop")
    page.get_by_test_id("language-select").select_option("de")
    expect(legend.locator("summary")).to_have_text("Legende")
    expect(page.get_by_test_id("legend-token")).to_contain_text("letzte Zeitstein")
    assert not page.js_errors, page.js_errors


def test_on_a_phone_the_legend_is_under_the_table_tab(sized: Callable[[str], Any],
                                                      rn_url: str) -> None:
    gid = _watched_game(rn_url, person=True)
    page = _page(sized("phone"), f"/g/{gid}")
    state(page)
    legend = page.get_by_test_id("legend")
    expect(legend).to_be_hidden()  # the options tab is open
    page.get_by_test_id("sheet-tab-table").tap()
    expect(legend).to_be_visible()
    legend.locator("summary").tap()
    expect(page.get_by_test_id("legend-token")).to_be_visible()
    page.get_by_test_id("legend-token").scroll_into_view_if_needed()
    shot(page, "legend-phone")
    assert not page.js_errors, page.js_errors
