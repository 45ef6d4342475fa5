"""Issue 18 §3: the end of a game as the players see it. The result comes after the show's last
step (the last event card, die or walk is not covered by it), the board's overlay says won or lost
(for the player: "You won!" / "You lost."; for a spectator the crew's result), and "Read the
story" brings the story to the top of the window. Desktop and phone; Debian's Chromium on the
session's server. Screenshots to artifacts/screenshots/ (end-show-*)."""

from __future__ import annotations

import json
from typing import Any

import httpx
from browsertools import SHOTS, SKIP, _page, expect
from test_server_replay import _play
from webtools import auth

from rednovember.bots import make_bot
from rednovember.rules import Config
from rednovember.rules import new_game as engine_game

pytestmark = SKIP

PHONE = {"width": 390, "height": 844}

# The first frame that draws the finished game: whether the show still runs, and the overlay.
_END_DRAWN = """() => {
  const g = window.rnGame, st = g && g.state();
  const el = document.querySelector("[data-testid=game-page]");
  if (!st || !st.view.result || !el || el.dataset.version !== String(st.version)) return null;
  return {showing: g.show.active(), overlay: !document.getElementById("board-overlay").hidden,
          card: !document.querySelector("[data-testid=show-card]").hidden};
}"""


def _seated(new_context: Any, gid: str, seat: int, token: str) -> Any:
    """A browser (a person) holding ``seat`` of game ``gid``."""
    ctx = new_context()
    entry = json.dumps({"seats": {str(seat): token}, "creator": None})
    ctx.add_init_script(f"localStorage.setItem({json.dumps('rn.game.' + gid)}, {json.dumps(entry)})")
    page = _page(ctx, f"/g/{gid}")
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    return page


def _apart(a: dict[str, float], b: dict[str, float]) -> bool:
    """Two boxes that do not overlap."""
    return (a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
            or a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"])


# Where the story's first part (the deaths) is: px below the top of what scrolls it (the window,
# or a phone's sheet below its tabs), and whether it is seen there (not under the tabs).
_STORY_AT = """() => {
  const part = document.querySelector("[data-testid=end-deaths]");
  const side = document.querySelector(".col-side");
  const bar = side.querySelector(".sheet-bar");
  const sheet = side.scrollHeight > side.clientHeight && getComputedStyle(side).overflowY === "auto";
  const tabs = bar && bar.offsetParent ? bar.offsetHeight : 0;
  const top = sheet ? side.getBoundingClientRect().top + tabs : 0;
  const r = part.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + 20, r.top + 12);
  return {below: r.top - top, seen: part.contains(hit)};
}"""


# Where the result's headline is, and whether it is seen there (not under a phone's tabs)
_HEADLINE = """() => {
  const h = document.querySelector("[data-testid=result-headline]");
  const r = h.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + 8, r.top + r.height / 2);
  return {top: r.top, seen: h.contains(hit)};
}"""


def test_the_result_waits_for_the_show_says_won_or_lost_and_reads_the_story(
        api: httpx.Client, new_context: Any) -> None:
    gid, tokens, _ = _play(api, 3, seed=6, moves=0)
    page = _seated(new_context, gid, 0, tokens[0])
    phone = _seated(new_context, gid, 1, tokens[1])
    phone.set_viewport_size(PHONE)
    # the whole game is played meanwhile (by the heuristic, through the API): both pages watch
    g = engine_game(Config(3, seed=6))
    bot = make_bot("heuristic", 6)
    while g.result is None:
        a = bot.choose(g)
        r = api.post(f"/api/games/{gid}/act", json={"action": a.text(g.data)},
                     headers=auth(tokens[g.player_to_move]))
        assert r.status_code == 200, r.text
        g.apply(a)
    for p, seat in ((page, 0), (phone, 1)):
        drawn = p.wait_for_function(_END_DRAWN).json_value()
        assert drawn["showing"] and drawn["card"]  # the game's last steps are on the board ...
        assert not drawn["overlay"]  # ... and the result does not cover them
        # only the last few: a game played fast to its end is not shown card by card
        queued = p.get_by_test_id("show-stage").get_attribute("data-queued")
        assert int(queued or 0) <= 6, queued
        expect(p.get_by_test_id("end-overlay")).to_be_hidden()
        if p is page:
            SHOTS.mkdir(parents=True, exist_ok=True)
            p.screenshot(path=str(SHOTS / "end-show-last-step-desktop.png"), animations="disabled")
        p.get_by_test_id("show-skip").click()
        mine = any(g.result.won != gn.abandoned for gn in g.gnomes if gn.player == seat)
        title = p.get_by_test_id("end-overlay-title")
        expect(title).to_have_text("You won!" if mine else "You lost.")
        expect(p.get_by_test_id("end-overlay")).to_have_attribute("data-won", str(mine).lower())
        expect(p.get_by_test_id("end-screen")).to_have_attribute("data-story", "ready")
    # the phone's sheet opened on the result's headline, not on its last buttons: the story has
    # made the result taller than the sheet by then
    at = phone.evaluate(_HEADLINE)
    assert at["seen"] and at["top"] >= 0, f"{at}"
    phone.get_by_test_id("show-result").click()  # and again when asked for (the options' button)
    at = phone.evaluate(_HEADLINE)
    assert at["seen"] and at["top"] >= 0, f"{at}"
    for p, name in ((page, "desktop"), (phone, "phone")):
        p.screenshot(path=str(SHOTS / f"end-show-overlay-{name}.png"), animations="disabled")
        # the overlay's buttons are not under the phone's zoom button
        zoom = p.get_by_test_id("board-zoom")
        if name == "phone":
            z, box = zoom.bounding_box(), p.get_by_test_id("end-overlay").bounding_box()
            assert z is not None and box is not None
            assert _apart(z, box), (z, box)
        p.get_by_test_id("read-story").click()
        at = p.evaluate(_STORY_AT)
        assert at["seen"] and -1 <= at["below"] <= 12, at  # scrolled to the story, in sight
        p.screenshot(path=str(SHOTS / f"end-show-story-{name}.png"), animations="disabled")
    assert page.js_errors == [] and phone.js_errors == []


def test_a_spectator_sees_the_crews_result(api: httpx.Client, new_context: Any) -> None:
    gid, _, g = _play(api, 3, seed=6, moves=3000)
    assert g.result is not None
    page = _page(new_context(), f"/g/{gid}")
    title = page.get_by_test_id("end-overlay-title")
    expect(title).to_have_text("The crew won!" if g.result.won else "The crew lost.")
    assert page.js_errors == []
