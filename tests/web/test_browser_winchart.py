"""Browser test of the replay viewer's win-chance graph (js/winchart.js): a finished game's curve
drawn as SVG with its turning points numbered, listed and clickable (each jumps to its step), the
step shown marked on the graph; a running game says the graph comes at the end. Debian's
Chromium and the session's real server."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import httpx
from browsertools import SHOTS, SKIP, TIMEOUT, VIEWPORT, _page, expect, shot
from webtools import bot_game

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
COMPUTE = 300_000  # ms: the server computes the curve on a busy machine
# The test's own server computes 24 rollouts a point (the session's, 3): several seconds of work,
# so the "computing" state stays on screen long enough to be checked, and at that budget the bots'
# game of seed 8 has two turning points (with 3 rollouts, none).
ROLLOUTS = ("--winchance-rollouts", "24")
pytestmark = SKIP


def _curve(api: httpx.Client, gid: str) -> dict[str, Any]:
    """The curve as the server answers it, once computed (the page asks for it the same way)."""
    end = time.monotonic() + COMPUTE / 1000
    while True:
        r = api.get(f"/api/games/{gid}/winchance")
        if r.status_code == 200:
            body: dict[str, Any] = r.json()
            return body
        assert r.status_code in (202, 409), r.text  # 409 until the bots have finished
        assert time.monotonic() < end
        time.sleep(0.5)


def test_the_replay_viewer_draws_the_win_chance_and_jumps_to_turning_points(
        browser: Any, server_factory: Callable[..., Any]) -> None:
    server = server_factory(extra=ROLLOUTS)
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB", base_url=server.url)
    ctx.set_default_timeout(TIMEOUT)
    try:
        _replay_viewer(ctx, server.url)
    finally:
        ctx.close()


def _replay_viewer(ctx: Any, url: str) -> None:
    with httpx.Client(base_url=url, timeout=30) as api:
        gid, _ = bot_game(url, 3, seed=8)
        page = _page(ctx, f"/g/{gid}")
        page.wait_for_selector("[data-testid=game-over]")
        page.goto(f"/g/{gid}/replay?step=0")
        chart = page.get_by_test_id("winchart")
        expect(chart).to_be_visible()
        # issue 18 §7: while the server computes, a progress bar and the time elapsed show ...
        expect(chart.get_by_test_id("winchart-progress")).to_be_visible()
        expect(chart.get_by_test_id("winchart-status")).to_have_text("Computing the win chance…")
        expect(chart.get_by_test_id("winchart-elapsed")).to_have_text(re.compile(r"\d+ s$"))
        chart.screenshot(path=str(SHOTS / "winchart-computing-desktop.png"))
        # ... and the graph replaces them
        expect(chart.get_by_test_id("winchart-svg")).to_be_visible(timeout=COMPUTE)
        expect(chart.get_by_test_id("winchart-progress")).to_have_count(0)
        expect(chart.get_by_test_id("winchart-status")).to_have_count(0)
        curve = _curve(api, gid)
    turning = curve["turning"]
    assert turning, "this game has turning points"
    items = chart.get_by_test_id("winchart-turn-item")
    expect(items).to_have_count(len(turning))
    expect(chart.get_by_test_id("winchart-turn")).to_have_count(len(turning))
    first = turning[0]
    expect(items.first).to_contain_text(f"Minute {first['minute']} (space {first['space']}): ")
    expect(items.first).to_contain_text(f"{round(first['before'] * 100)}% → "
                                        f"{round(first['after'] * 100)}%")
    # each sentence as the server says it (`text`, and `rednovember analyse`): the page cut a
    # news line's "!", which left Spanish "¡éxito" open
    for i, tp in enumerate(turning):
        expect(items.nth(i)).to_have_text(f"{i + 1} {tp['text']}")
    viewer = page.get_by_test_id("replay-page")
    expect(viewer).to_have_attribute("data-step", "0")
    now = chart.get_by_test_id("winchart-now")
    start_x = float(now.get_attribute("x1") or "nan")
    held = items.first.element_handle()
    width = chart.get_by_test_id("winchart-svg").get_attribute("viewBox")
    page.set_viewport_size(LAPTOP)  # issue 18 §7: the board stayed out of view at 1366×768
    # a new width redraws the graph, not the list: the item held before is still the one shown
    expect(chart.get_by_test_id("winchart-svg")).not_to_have_attribute("viewBox", width or "")
    assert held.evaluate("(b) => b.isConnected")
    items.first.scroll_into_view_if_needed()
    expect(page.get_by_test_id("board")).not_to_be_in_viewport(ratio=0.75)
    items.first.click()  # the list: jump to the step after the swing
    expect(viewer).to_have_attribute("data-step", str(first["step"]))
    expect(page.get_by_test_id("board")).to_be_in_viewport(ratio=0.75)  # brought into view
    shot(page, "winchart-jump-laptop")
    page.set_viewport_size({"width": 1440, "height": 900})
    assert page.url.endswith(f"/replay?step={first['step']}")
    expect(now).not_to_have_attribute("x1", str(start_x))  # the step shown moved on the graph
    assert float(now.get_attribute("x1") or "nan") > start_x
    last = turning[-1]
    # the marker on the graph too: its numbered circle (the middle of the mark's box may be off
    # its line, on the band, when the swing spans a long turn)
    chart.get_by_test_id("winchart-turn").last.locator("circle").click()
    expect(viewer).to_have_attribute("data-step", str(last["step"]))
    expect(chart.locator(".wc-turn.current")).to_have_count(
        sum(1 for tp in turning if tp["step"] == last["step"]))
    chart.get_by_test_id("winchart-turn-item").first.focus()
    page.keyboard.press("Enter")  # and from the keyboard (the list; the graph's marks are pointer only)
    expect(viewer).to_have_attribute("data-step", str(first["step"]))
    shot(page, "winchart-desktop")
    chart.screenshot(path=str(SHOTS / "winchart-card-desktop.png"))
    # the minute axis is labelled between its ends too, in order, where the game reached them
    ticks = chart.get_by_test_id("winchart-tick")
    labels = [int(t) for t in ticks.all_text_contents()]
    xs = [float(t.get_attribute("x") or "nan") for t in ticks.all()]
    assert len(labels) >= 2 and labels == sorted(labels) and xs == sorted(xs), (labels, xs)
    assert all(m % 5 == 0 for m in labels) and all(b - a >= 30 for a, b in zip(xs, xs[1:], strict=False))
    page.set_viewport_size(PHONE)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    chart.scroll_into_view_if_needed()
    shot(page, "winchart-phone")
    chart.get_by_test_id("winchart-turn-item").last.click()
    expect(viewer).to_have_attribute("data-step", str(last["step"]))
    assert not page.js_errors, page.js_errors


def test_a_running_games_replay_says_the_graph_comes_at_the_end(new_context: Any,
                                                                rn_url: str) -> None:
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        r = api.post("/api/games", json={"players": 3, "seed": 3})
        gid = r.json()["game"]["id"]
        for seat in range(3):
            api.post(f"/api/games/{gid}/seats", json={"seat": seat, "name": f"P{seat}"})
    page = _page(new_context(), f"/g/{gid}/replay")
    status = page.get_by_test_id("winchart-status")
    expect(status).to_have_text("The win chance is shown once the game is over.")
    expect(page.get_by_test_id("winchart")).to_have_attribute("data-state", "unavailable")
    assert not page.js_errors, page.js_errors


def test_on_a_phone_the_replays_time_track_shows_the_keepers(sized: Callable[[str], Any],
                                                             rn_url: str) -> None:
    """On a phone the time track pans sideways and every step draws it anew: it is scrolled to
    the keeper who moves (at the end, the keepers on 0), not left at space 60."""
    gid, _ = bot_game(rn_url, 3, seed=8)
    page = _page(sized("phone"), f"/g/{gid}/replay")  # no step: the last one, the game over
    viewer = page.get_by_test_id("replay-page")
    expect(viewer).to_have_attribute("data-step", re.compile(r"^[1-9]\d*$"))
    assert viewer.get_attribute("data-step") == viewer.get_attribute("data-steps")
    inside = """() => {
        const wrap = document.querySelector("[data-testid=time-track]");
        const w = wrap.getBoundingClientRect();
        const r = wrap.querySelector(".keeper").getBoundingClientRect();
        return wrap.scrollWidth > wrap.clientWidth && r.left >= w.left && r.right <= w.right;
    }"""
    page.wait_for_function(inside)
    page.get_by_test_id("time-track").screenshot(path=str(SHOTS / "replay-track-phone.png"))
    assert not page.js_errors, page.js_errors
