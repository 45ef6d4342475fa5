"""The end screen in the browser: a game played to its end by the server's bots, opened by its
creator; the result said once, the deaths, a row per gnome, the repairs and the charts of the
story (GET /api/games/{id}/story), the Rematch and Replay buttons, on a desktop and on a phone.
Debian's Chromium and the session's real server (fixtures in conftest.py)."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsertools import SHOTS, SKIP, _page, expect, shot
from webtools import BOTS_FINISH, WsClient, auth, bot_game, new_game

PHONE = {"width": 390, "height": 844}
STEP_LINE = re.compile(r"^M[\d.]+,[\d.]+(H[\d.]+V[\d.]+)+$")  # a step line's SVG path
# games tried in this order until one ends the way a test wants (bots play in a second); 30
# first: the heuristic's first lost game with a death (seeds 1-24 have none since its weights
# were tuned, issue 21)
SEEDS = (30, *range(1, 25))
pytestmark = SKIP


def _bot_game(rn_url: str, seed: int) -> tuple[str, str, dict[str, Any]]:
    """A 3-player game whose seats went to the heuristic bot, played to its end: (id, creator
    token, story)."""
    gid, creator = bot_game(rn_url, 3, seed)
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        story = api.get(f"/api/games/{gid}/story")
        assert story.status_code == 200, story.text
        return str(gid), str(creator), story.json()


@functools.cache  # a finished game never changes: the tests share them
def _ended(rn_url: str, won: bool, deaths: bool = False) -> tuple[str, str, dict[str, Any]]:
    for seed in SEEDS:
        gid, creator, story = _bot_game(rn_url, seed)
        if story["result"]["won"] == won and (bool(story["deaths"]) or not deaths):
            return gid, creator, story
    pytest.fail(f"no game with won={won} deaths={deaths} among seeds {SEEDS}")


def _open_as_creator(new_context: Any, gid: str, creator: str, story: str = "ready",
                     before: Any = None) -> Any:
    ctx = new_context()
    entry = json.dumps({"seats": {}, "creator": creator})
    ctx.add_init_script(f"localStorage.setItem({json.dumps('rn.game.' + gid)}, {json.dumps(entry)})")
    if before:
        before(ctx)
    page = _page(ctx, f"/g/{gid}")
    expect(page.get_by_test_id("end-screen")).to_have_attribute("data-story", story)
    return page


def _check_end_screen(page: Any, story: dict[str, Any]) -> str:
    """What every end screen shows; returns the headline."""
    headline = page.get_by_test_id("result-headline")
    expect(headline).to_have_count(1)
    text = headline.inner_text()
    assert ("rescued" in text.lower()) == story["result"]["won"]
    body = page.evaluate("() => document.body.innerText")
    assert body.count(text) == 1  # the result is said once: not in the banner, nor the overlay
    expect(page.get_by_test_id("turn-text")).to_have_text("The game is over.")
    expect(page.get_by_test_id("end-survived")).to_contain_text(
        f"Survived {story['minutes']} of {story['start']} minutes")
    # deaths: which gnome, why, when
    deaths = page.get_by_test_id("end-death")
    expect(deaths).to_have_count(len(story["deaths"]))
    for i, d in enumerate(story["deaths"]):
        line = deaths.nth(i)
        expect(line).to_have_attribute("data-gnome", str(d["gnome"]))
        expect(line).to_contain_text(d["colour"].capitalize())
        # the minute and its space on the time track, which the log names
        expect(line).to_contain_text(f"minute {d['minute']} (space {story['start'] - d['minute']})")
    if not story["deaths"]:
        expect(page.get_by_test_id("end-no-deaths")).to_have_text("No gnome died.")
    # a row per gnome with its numbers and fate
    for g in story["gnomes"]:
        row = page.get_by_test_id(f"end-gnome-{g['number']}")
        cells = row.locator("td")
        expect(cells).to_have_text([str(g["turns"]), str(g["actions"]),
                                    f"{g['repairs_made']}/{g['repairs_tried']}",
                                    str(g["items_used"]), str(g["faints"])])
        # every seat went to the heuristic bot from the start: named as players see it
        expect(page.get_by_test_id(f"end-player-{g['number']}")).to_have_text("Easy bot")
        fate = page.get_by_test_id(f"end-fate-{g['number']}")
        expect(fate).to_contain_text("wins" if g["won"] else "loses")
        if not g["alive"]:
            expect(fate).to_contain_text("died")
    # repairs per kind
    for kind, v in story["repairs"].items():
        expect(page.get_by_test_id(f"end-repair-{kind}")).to_contain_text(f"{v['made']}/{v['tried']}")
    # the chart: a line per disaster track, its end marked at the final level
    chart = page.get_by_test_id("end-chart")
    expect(chart).to_be_visible()
    last = story["timeline"][-1]
    for i, name in enumerate(story["tracks"]):
        expect(chart.get_by_test_id(f"end-line-{name}")).to_have_attribute("d", STEP_LINE)
        expect(chart.get_by_test_id(f"end-mark-{name}")).to_have_attribute(
            "data-level", str(last["tracks"][i]))
    expect(page.get_by_test_id("end-board-chart")).to_be_visible()
    # the buttons that were there stay
    expect(page.get_by_test_id("rematch")).to_be_visible()
    expect(page.get_by_test_id("result-replay")).to_be_visible()
    assert not page.js_errors, page.js_errors
    return text


@pytest.mark.parametrize("won", [True, False], ids=["won", "lost"])
def test_end_screen_tells_the_story(new_context: Any, rn_url: str, won: bool) -> None:
    gid, creator, story = _ended(rn_url, won, deaths=not won)
    page = _open_as_creator(new_context, gid, creator)
    _check_end_screen(page, story)
    name = "won" if won else "lost"
    page.get_by_test_id("end-screen").scroll_into_view_if_needed()
    shot(page, f"end-{name}-desktop")
    page.locator("#result").screenshot(path=str(shot_path(f"end-{name}-panel")))
    # the table talk follows the result's tables in the side column, never pinned over them
    page.get_by_test_id("end-crew").scroll_into_view_if_needed()
    crew, chat = (page.get_by_test_id(t).bounding_box() for t in ("end-crew", "chat"))
    assert crew and chat and chat["y"] >= crew["y"] + crew["height"], (crew, chat)
    # on a phone: one column, no sideways scroll; the board's overlay leads to the story
    page.set_viewport_size(PHONE)
    page.evaluate("() => window.scrollTo(0, 0)")
    expect(page.get_by_test_id("end-overlay")).to_be_visible()
    shot(page, f"end-{name}-phone-overlay")
    page.get_by_test_id("read-story").click()
    expect(page.get_by_test_id("end-deaths")).to_be_in_viewport()  # the story, past the headline
    # the overlay is done with (it stayed over the board: audit, stop 55); the end screen has
    # its buttons
    expect(page.get_by_test_id("end-overlay")).to_be_hidden()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, f"end-{name}-phone")
    page.get_by_test_id("end-charts").screenshot(path=str(shot_path(f"end-{name}-phone-charts")))
    shot(page, f"end-{name}-phone-full", full=True)


def test_the_end_screen_in_another_language(new_context: Any, rn_url: str) -> None:
    gid, creator, story = _ended(rn_url, False)
    page = _open_as_creator(new_context, gid, creator)
    page.select_option("[data-testid=language-select]", "de")
    expect(page.get_by_test_id("turn-text")).to_have_text("Das Spiel ist vorbei.")
    expect(page.get_by_test_id("end-survived")).to_contain_text(
        f"{story['minutes']} von {story['start']} Minuten überlebt")
    expect(page.get_by_test_id("end-crew")).to_contain_text("Mannschaft")
    expect(page.get_by_test_id("end-player-0")).to_have_text("Leichter Bot")
    shot(page, "end-lost-desktop-de")
    # the longest words on the narrowest screen: no sideways scroll in any language
    page.set_viewport_size(PHONE)
    for lang, crew in (("ru", "Экипаж"), ("pl", "Załoga"), ("de", "Mannschaft"),
                       ("fr", "L'équipage"), ("es", "tripulación"), ("en", "The crew")):
        page.select_option("[data-testid=language-select]", lang)
        expect(page.get_by_test_id("end-crew")).to_contain_text(crew)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], lang
        assert page.evaluate("() => { const t = document.querySelector('.end-table');"
                             " return t.scrollWidth <= t.clientWidth; }"), lang  # no scrolling
        if lang in ("de", "es"):
            page.get_by_test_id("end-screen").screenshot(path=str(shot_path(f"end-lost-phone-{lang}")))
    page.select_option("[data-testid=language-select]", "ru")
    expect(page.get_by_test_id("end-crew")).to_contain_text("Экипаж")
    page.get_by_test_id("end-screen").screenshot(path=str(shot_path("end-lost-phone-ru")))
    assert not page.js_errors, page.js_errors


def shot_path(name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / f"{name}.png"


def test_a_story_that_fails_to_load_can_be_asked_again(new_context: Any, rn_url: str) -> None:
    gid, creator, story = _ended(rn_url, True)
    broken = {"error": {"code": "internal", "message": "boom"}}

    def fail(ctx: Any) -> None:
        ctx.route("**/api/games/*/story", lambda route: route.fulfill(
            status=500, content_type="application/json", body=json.dumps(broken)))

    page = _open_as_creator(new_context, gid, creator, story="failed", before=fail)
    expect(page.get_by_test_id("result-headline")).to_have_count(1)  # the result stands alone
    expect(page.get_by_role("alert")).to_contain_text("could not be loaded")
    page.context.unroute("**/api/games/*/story")
    page.get_by_test_id("end-retry").click()
    expect(page.get_by_test_id("end-screen")).to_have_attribute("data-story", "ready")
    expect(page.get_by_test_id("end-survived")).to_contain_text(f"Survived {story['minutes']} of")
    assert not page.js_errors, page.js_errors


def test_a_gnome_that_abandoned_its_comrades_is_named_with_its_outcome(new_context: Any,
                                                                       rn_url: str) -> None:
    """The bots never abandon their comrades, so the page's own end screen is drawn again for a
    copy of the finished game's model in which Red abandoned them (the inverted outcome)."""
    gid, creator, story = _ended(rn_url, False)
    page = _open_as_creator(new_context, gid, creator)
    html = page.evaluate("""async () => {
        const { EndScreen } = await import("/static/js/endscreen.js");
        const real = window.rnGame.model();
        const model = Object.create(Object.getPrototypeOf(real));
        Object.assign(model, real, { view: structuredClone(real.view) });
        model.view.gnomes[0].abandoned = true;
        const end = new EndScreen("x", () => {});
        end.state = "ready"; end.story = window.rnGame.end.story;
        return end.render(model);
    }""")
    page.set_content(f"<div id='x'>{html}</div>")
    line = page.get_by_test_id("end-abandoned")
    expect(line).to_have_count(1)
    expect(line).to_have_text("Red (Easy bot) abandoned its comrades and wins.")
    expect(page.get_by_test_id("result-headline")).to_have_count(1)


def test_a_seat_a_bot_played_for_its_player_is_named_by_both(new_context: Any,
                                                             rn_url: str) -> None:
    """Ada took seat 0 and handed it to the bot (she may take it back); the others were bots
    from the start: the crew table names her with the bot that played for her, the others by
    their bot."""
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid, creator = new_game(api, 3, seed=SEEDS[0])
        ada = api.post(f"/api/games/{gid}/seats", json={"seat": 0, "name": "Ada"}).json()["token"]
        with WsClient(rn_url, gid) as watcher:
            r = api.post(f"/api/games/{gid}/seats/0/bot", json={"bot": "heuristic"},
                         headers=auth(ada))
            assert r.status_code == 200, r.text
            for seat in (1, 2):
                r = api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                             headers={"X-Creator-Token": creator})
                assert r.status_code == 200, r.text
            watcher.until(lambda m: m["type"] == "state" and m["status"] == "over", BOTS_FINISH)
        summary = api.get(f"/api/games/{gid}").json()
        seats = summary["seats"]
    assert [s["owner"] for s in seats] == ["Ada", None, None]
    # Ada's own page: the overlay speaks to her, whose seat the bot played (not "The crew won!")
    ada_page = _open_as_creator(new_context, gid, "", before=lambda ctx: ctx.add_init_script(
        f"localStorage.setItem('rn.game.{gid}', JSON.stringify({{seats: {{'0': '{ada}'}}}}))"))
    yours = "You won!" if summary["result"]["won"] else "You lost."
    expect(ada_page.get_by_test_id("end-overlay-title")).to_have_text(yours)
    # her bar says a bot played her seat, not that she only watched, and offers nothing back
    expect(ada_page.get_by_test_id("stand-in-badge")).to_have_text("A bot played your seat")
    expect(ada_page.get_by_test_id("spectator-badge")).to_have_count(0)
    expect(ada_page.get_by_test_id("reclaim-seat-0")).to_be_hidden()
    ada_page.get_by_test_id("close-overlay").click()
    shot(ada_page, "end-stand-in-desktop")
    ada_page.set_viewport_size(PHONE)
    shot(ada_page, "end-stand-in-phone")
    assert not ada_page.js_errors, ada_page.js_errors
    page = _open_as_creator(new_context, gid, creator)
    crew = "The crew won!" if summary["result"]["won"] else "The crew lost."
    expect(page.get_by_test_id("end-overlay-title")).to_have_text(crew)  # the creator only watched
    [ada_gnome] = seats[0]["gnomes"]
    expect(page.get_by_test_id(f"end-player-{ada_gnome}")).to_have_text("Ada · Easy bot")
    for seat in seats[1:]:
        for n in seat["gnomes"]:
            expect(page.get_by_test_id(f"end-player-{n}")).to_have_text("Easy bot")
    # the game is over: nobody can take the seat back, so the table talk tells it in the past
    expect(page.get_by_test_id("chat-to_bot")).to_have_text(
        "A bot (easy) took over the seat of Ada (Red).")
    page.get_by_test_id("end-crew").scroll_into_view_if_needed()
    shot(page, "end-crew-owner-desktop")
    page.set_viewport_size(PHONE)
    page.get_by_test_id("end-crew").scroll_into_view_if_needed()
    shot(page, "end-crew-owner-phone")
    assert not page.js_errors, page.js_errors

