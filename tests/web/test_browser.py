"""Browser tests: real people's paths through the web front-end, driven with Playwright.

A real ``rednovember serve`` runs for the session (the ``live_server`` fixture of
tests/web/conftest.py); Debian's Chromium (/usr/bin/chromium) plays, never a downloaded browser.
Screenshots of the board go to artifacts/screenshots/. Fixtures in conftest.py, helpers in
browsertools.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

from browsertools import (
    SHOTS,
    SKIP,
    _page,
    board_shot,
    create_game,
    expect,
    next_mover,
    play_until_over,
    shot,
    state,
    take_seat,
    wait_version_after,
)

pytestmark = SKIP


# --- tests ------------------------------------------------------------------------------------
def test_three_browsers_play_a_whole_game(new_context: Any) -> None:
    """Create by UI, join by link, a bot seat, a refused out-of-turn action, a reconnect, and a
    whole game to its end with a fixed seed."""
    ada_ctx, bea_ctx, cid_ctx = new_context(), new_context(), new_context()
    ada = _page(ada_ctx, "/")
    shot(ada, "lobby")
    link = create_game(ada, players=4, seed=6)
    assert re.search(r"/g/[A-Za-z0-9_-]{12}$", link)
    take_seat(ada, 0, "Ada")
    bea = _page(bea_ctx, link)
    take_seat(bea, 1, "Bea")
    cid = _page(cid_ctx, link)
    cid.wait_for_selector("[data-testid=spectator-badge]")
    take_seat(cid, 2, "Cid")
    # the last free seat goes to a bot, chosen from the server's list
    bots = json.loads(ada.evaluate("() => JSON.stringify(window.rnGame.ctx.meta.bots)"))
    ada.select_option("[data-testid=bot-select-3]", bots[0])
    ada.click("[data-testid=bot-seat-3]")
    for p in (ada, bea, cid):
        p.wait_for_selector("[data-testid=seat-3][data-kind=bot]")
        p.wait_for_function("() => window.rnGame.state() && window.rnGame.state().status !== 'waiting'")
    pages = [ada, bea, cid]
    board_shot(ada, "board-start")

    # a seat that is not to move gets no clickable options, and the server refuses its action
    # (while a person must decide, so nothing moves in between)
    mover, st = next_mover(pages)
    assert mover is not None
    waiting = next(p for p in pages if p is not mover)
    assert not state(waiting, after=st["version"] - 1)["your_turn"]
    assert waiting.locator("[data-testid=actions] [data-act]").count() == 0
    waiting.evaluate("() => window.rnGame.sendAct('no_action')")
    err = waiting.locator("[data-testid=error]")
    err.first.wait_for()
    assert "not your turn" in err.first.inner_text().lower()

    # play a little, then Bea loses her connection and comes back by the link
    def reconnect(step: int) -> None:
        nonlocal bea
        if step != 6:
            return
        bea.close()
        bea = _page(bea_ctx, link)
        bea.wait_for_selector("[data-testid=seat-tab-1]")
        bea.wait_for_selector("[data-testid=conn-status][data-state=open]")
        pages[1] = bea

    def midgame(step: int) -> None:
        reconnect(step)
        if step == 12:
            board_shot(ada, "board-midgame")
            shot(ada, "page-midgame", full=True)

    steps = play_until_over(pages, on_step=midgame)
    assert steps > 6
    for p in pages:
        p.wait_for_function("() => !!window.rnGame.state()?.view.result")
        p.keyboard.press("Escape")  # Skip the rest of the show: the result comes after it
        p.wait_for_selector("[data-testid=game-over]")
        headline = p.locator("[data-testid=result-headline]").inner_text()
        assert "rescued" in headline.lower() or "lost" in headline.lower()
        assert p.locator("[data-testid=log-entry]").count() > 20
        assert not p.js_errors, p.js_errors
    ada.wait_for_selector("[data-testid=end-overlay]")
    board_shot(ada, "board-end-overlay")  # (the fade-in fast-forwarded to its end)
    ada.click("[data-testid=close-overlay]")
    ada.wait_for_selector("[data-testid=end-overlay]", state="hidden")
    assert ada.locator("[data-testid=export-link]").count() == 1
    board_shot(ada, "board-end")
    ada.evaluate("() => window.scrollTo(0, 0)")
    shot(ada, "page-end", full=True)
    # the log tells the story in sentences: event cards, turns and the end
    log = ada.locator("[data-testid=log]").inner_text()
    assert "Event card" in log and "turn" in log


def test_hatch_click_enter_and_undo(new_context: Any) -> None:
    """Legal hatches light up and are clickable; entering is a click on the lit room; undo."""
    ctx = new_context()
    page = _page(ctx, "/")
    create_game(page, players=3, seed=11)
    take_seat(page, 0, "Ada")
    take_seat(page, 1, "Ada 2")
    page.click("[data-testid=bot-seat-2]")
    # hot-seat: the page follows the held seat that must move
    st = state(page, your_turn=True)
    assert st["status"] == "playing"
    page.wait_for_selector(f"[data-testid=seat-tab-{st['seat']}].current")
    lit = page.locator("[data-testid=board] .hatch.target")
    assert lit.count() >= 1
    opens = [a for a in st["actions"] if a.startswith("open ")]
    assert lit.count() == len(opens)
    board_shot(page, "board-hatches-lit")
    lit.first.click()
    entering = wait_version_after(page, st["version"])
    assert any(a in ("enter", "stay") for a in entering["actions"])
    room = page.locator("[data-testid=board] .room.target, [data-testid=board] .sea-zone.target")
    assert room.count() >= 1
    undo = page.locator("[data-testid=undo]")
    expect(undo).to_be_enabled()  # (disabled until the server acknowledged the last click)
    undo.click()
    assert wait_version_after(page, entering["version"])["actions"] == st["actions"]
    # the connection drops: the page reconnects by itself and resumes both seats (with states
    # sent after the new hello: until then the page still holds the ones from before the drop)
    before = page.evaluate_handle("() => window.rnGame.state()")
    page.evaluate("() => window.rnGame.socket.ws.close()")
    page.wait_for_function("""old => { const g = window.rnGame, s = g.state();
        return g.reconnects >= 1 && g.status === 'open' && s && s !== old; }""", arg=before)
    assert state(page, your_turn=True)["actions"] == st["actions"]
    # the other held seat is a tab; switching shows that seat's view
    other = 1 - st["seat"]
    page.click(f"[data-testid=seat-tab-{other}]")
    page.wait_for_selector(f"[data-testid=seat-tab-{other}].current")
    assert not state(page, seat=other)["your_turn"]
    assert page.locator("[data-testid=wait-note]").count() == 1


def test_spectator_and_language_switch(new_context: Any) -> None:
    """A spectator watches read-only; switching to German translates the page and the log."""
    owner = _page(new_context(), "/")
    link = create_game(owner, players=3, seed=5)
    take_seat(owner, 0, "Ada")
    for seat in (1, 2):
        owner.click(f"[data-testid=bot-seat-{seat}]")
        owner.wait_for_selector(f"[data-testid=seat-{seat}][data-kind=bot]")
    viewer = _page(new_context(), link)
    viewer.wait_for_selector("[data-testid=spectator-badge]")
    viewer.wait_for_selector("[data-testid=log-entry]")
    assert state(viewer)["seat"] is None
    assert viewer.locator("[data-testid=actions] [data-act]").count() == 0
    english_turn = viewer.locator("[data-testid=log-entry][data-mid=turn]").first.inner_text()
    de = json.loads(viewer.evaluate(
        "async () => JSON.stringify((await (await fetch('/api/i18n/de')).json()).catalog)"))
    # a toast on screen (as the page makes them: its text a function of the language)
    viewer.evaluate("() => window.rn.toast(() => window.rn.t('web', 'link_copied'), 'info', 0)")
    expect(viewer.get_by_test_id("toast")).to_contain_text("Link copied")
    viewer.select_option("[data-testid=language-select]", "de")
    viewer.wait_for_function("() => document.documentElement.lang === 'de'")
    # ...says itself again in the new language
    expect(viewer.get_by_test_id("toast")).to_contain_text(de["web"]["link_copied"])
    expect(viewer.get_by_test_id("toast").locator(".toast-close")).to_have_attribute(
        "aria-label", de["web"]["close"])
    viewer.get_by_test_id("toast").locator(".toast-close").click()
    german_turn = viewer.locator("[data-testid=log-entry][data-mid=turn]").first.inner_text()
    assert german_turn != english_turn
    decks = viewer.locator("[data-testid=decks] h3").inner_text()
    assert decks == de["ui"]["decks_title"]
    assert viewer.locator("[data-testid=rules-button]").inner_text() == de["web"]["rules"]
    board_shot(viewer, "board-german")
    # the choice is kept: the start page opens in German too
    viewer.goto("/")
    viewer.wait_for_selector("[data-testid=create-form]")
    assert viewer.locator("[data-testid=variant-harder] + span").inner_text() == de["variants"]["harder"]
    # the rules reference opens in the chosen language
    viewer.click("[data-testid=rules-button]")
    viewer.wait_for_selector("[data-testid=rules-section-items]")
    assert de["items"]["grog"] in viewer.locator("#rules-body").inner_text()
    assert not viewer.js_errors, viewer.js_errors


def test_doomed_repair_warns_before_the_attempt(new_context: Any) -> None:
    """R7: a repair that can only fail shows a warning and asks before it is sent."""
    page = _page(new_context(), "/", accept_dialogs=False)
    create_game(page, players=3, seed=11)
    take_seat(page, 0, "Ada")
    take_seat(page, 1, "Bob")
    take_seat(page, 2, "Cy")
    version = state(page, your_turn=True)["version"]
    page.evaluate("""() => {
        const g = window.rnGame, st = g.state();
        const base = {kind: "stop_missile_launch", arg: 0, item: null, room: null, gnome: null,
                      count: null, penalty: 0, repair: true, bonus: 0, token_lost: "missile_launch"};
        st.actions = [1, 2, 3].map(m => ({...base, text: `stop_missile_launch ${m}`, minutes: m,
                                           cost: m, chance: 0, doomed: true}));
        g.render();
    }""")
    warn = page.locator("[data-testid=repair-stop_missile_launch-doomed]")
    warn.wait_for()
    assert "the ghost would pass" in warn.inner_text()  # says why, in words: no rule codes
    page.once("dialog", lambda d: d.dismiss())
    with page.expect_event("dialog") as asked:
        page.click("[data-testid=repair-stop_missile_launch-go]")
    assert "fail" in asked.value.message
    # dismissed: nothing was sent (sending marks the page busy at once) and nothing changed
    assert page.evaluate("() => window.rnGame.busy") is False
    assert state(page)["version"] == version
    board_shot(page, "board-doomed-warning")
    page.locator("[data-testid=actions]").screenshot(path=str(SHOTS / "actions-doomed.png"))


def test_browser_language_is_the_default(new_context: Any) -> None:
    """A German browser gets the German texts without choosing."""
    page = _page(new_context(locale="de-DE"), "/")
    page.wait_for_selector("[data-testid=create-form]")
    langs = page.evaluate(
        "async () => (await (await fetch('/api/i18n')).json()).languages.map(l => l.code)")
    expected = "de" if "de" in langs else "en"
    assert page.evaluate("() => document.documentElement.lang") == expected
    assert page.input_value("[data-testid=language-select]") == expected
