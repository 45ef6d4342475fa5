"""Issue 18 §9 in the browser: a choice that ends the game in a loss for certain carries a warning
and asks first (R9/R12: a destruction token strikes when the last keeper passes it). Seed 1 of a
3-player game, played by the heuristic through the API for 145 moves: the third seat's ghost is on 2
with the Missile Launch token there and every other keeper past it, so any action loses at once (as
No Action did to Blue in the issue). Cancelling sends nothing; confirming loses the game.
Debian's Chromium on the session's server; a screenshot to artifacts/screenshots/."""

from __future__ import annotations

import json
from typing import Any

import httpx
from browsertools import SHOTS, SKIP, _page, expect, state
from test_server_replay import _play

from rednovember.i18n.warnings import loss_warning
from rednovember.rules import Action

pytestmark = SKIP


def test_no_action_that_lets_the_missile_launch_strike_asks_first(
        api: httpx.Client, new_context: Any) -> None:
    gid, tokens, g = _play(api, 3, seed=1, moves=145)
    assert loss_warning(Action("no_action"), g) == ("loses_token", {"token": 2, "space": 2})
    seat = g.player_to_move
    ctx = new_context()
    entry = json.dumps({"seats": {str(seat): tokens[seat]}, "creator": None})
    ctx.add_init_script(f"localStorage.setItem({json.dumps('rn.game.' + gid)}, {json.dumps(entry)})")
    page = _page(ctx, f"/g/{gid}", accept_dialogs=False)
    st = state(page, your_turn=True)
    button = page.get_by_test_id("act-no_action")
    expect(button).to_contain_text("⚠")
    expect(button).to_have_attribute(
        "title", "No action (1 min) — This loses the game: every keeper would then be past the "
                 "“Missile Launch!” token on 2, and it strikes at once.")
    expect(page.get_by_test_id("warn-loses_token").first).to_be_visible()
    # the minutes never break from their unit inside the button ("(1 min)" on one line)
    assert "(1\u00a0min)" in button.evaluate("b => b.textContent")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.get_by_test_id("actions").screenshot(path=str(SHOTS / "loss-warning-options.png"))
    asked: list[str] = []

    def answer(accept: bool) -> Any:
        def on_dialog(d: Any) -> None:
            asked.append(d.message)
            d.accept() if accept else d.dismiss()
        return on_dialog

    page.once("dialog", answer(False))
    button.click()
    assert len(asked) == 1 and "This loses the game" in asked[0] and "Missile Launch" in asked[0]
    assert page.evaluate("() => window.rnGame.busy") is False  # cancelled: nothing was sent
    assert api.get(f"/api/games/{gid}").json()["version"] == st["version"]
    page.on("dialog", answer(True))
    button.click()
    assert len(asked) == 2
    # the gnome still holds items: the turn ends with End, which says so too, and the token strikes
    st = state(page, after=st["version"], your_turn=True)
    assert st["actions"][0] == "end"
    page.get_by_test_id("act-end").click()
    assert len(asked) == 3 and "This loses the game" in asked[2]
    over = page.wait_for_function("""() => {
        const s = window.rnGame.state();
        return s && s.view.result ? s.view.result : null; }""").json_value()
    assert over["won"] is False and over["cause"] == "missile_launch"
    assert page.js_errors == []
