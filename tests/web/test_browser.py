"""Browser tests: real people's paths through the web front-end, driven with Playwright.

A real ``rednovember serve`` runs for the session (the ``live_server`` fixture of
tests/web/conftest.py, or one started here); Debian's Chromium (/usr/bin/chromium) plays, never a
downloaded browser. Screenshots of the board go to artifacts/screenshots/.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("RN_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
VIEWPORT = {"width": 1440, "height": 900}
TIMEOUT = 10_000  # ms, for every wait

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is not installed")


# --- fixtures ---------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def rn_url(live_server: str) -> str:
    """The real server of tests/web/conftest.py (``rednovember serve`` on a loopback port)."""
    return live_server.rstrip("/")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def new_context(browser: Any, rn_url: str) -> Iterator[Any]:
    """Makes browser contexts (separate people: own localStorage), closed after the test."""
    made: list[Any] = []

    def make(locale: str = "en-GB") -> Any:
        ctx = browser.new_context(viewport=VIEWPORT, locale=locale, base_url=rn_url)
        ctx.set_default_timeout(TIMEOUT)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


def _page(ctx: Any, path: str, accept_dialogs: bool = True) -> Any:
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    if accept_dialogs:
        page.on("dialog", lambda d: d.accept())
    page.js_errors = errors
    page.goto(path)
    return page


def shot(page: Any, name: str, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def board_shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".col-board").screenshot(path=str(SHOTS / f"{name}.png"))


# --- helpers: driving the UI ------------------------------------------------------------------
def create_game(page: Any, players: int, seed: int, variants: tuple[str, ...] = ()) -> str:
    page.wait_for_selector("[data-testid=create-form]")
    page.select_option("[data-testid=create-players]", str(players))
    for v in variants:
        page.check(f"[data-testid=variant-{v}]")
    page.fill("[data-testid=create-seed]", str(seed))
    page.click("[data-testid=create-game]")
    page.wait_for_selector("[data-testid=game-page]")
    page.wait_for_selector("[data-testid=conn-status][data-state=open]")
    return str(page.input_value("[data-testid=share-link]"))


def take_seat(page: Any, seat: int, name: str) -> None:
    page.fill("[data-testid=seat-name]", name)
    page.click(f"[data-testid=take-seat-{seat}]")
    page.wait_for_selector(f"[data-testid=seat-tab-{seat}]")


def state(page: Any) -> dict[str, Any]:
    got = page.evaluate("""() => { const g = window.rnGame; const s = g && g.state();
        return s ? {version: s.version, your_turn: !!s.your_turn, status: s.status, seat: s.seat,
                    over: !!s.view.result, actions: (s.actions || []).map(a => a.text)} : null; }""")
    return got or {}


def wait_version_after(page: Any, version: int) -> None:
    page.wait_for_function(
        "v => { const s = window.rnGame && window.rnGame.state(); return s && s.version > v; }",
        arg=version)


def play_one(page: Any) -> bool:
    """Make one choice through the UI with a quick deterministic policy: a repair with the most
    minutes, else the most cards, else No Action / End / Done / the first option. Returns
    whether the page acted."""
    st = state(page)
    if not st.get("your_turn"):
        return False
    page.wait_for_selector("[data-testid=actions] [data-act]:not([disabled])")
    panel = page.locator("[data-testid=actions]")
    decision = panel.locator("[data-testid=decision] button[data-act]")
    repair = panel.locator("input[type=range][data-minutes]")
    draws = panel.locator("[data-testid=draw-group] button[data-act]")
    if decision.count():
        done = panel.locator("[data-testid=act-done]")
        (done if done.count() else decision.first).click()
    elif repair.count():
        slider = repair.first
        slider.focus()
        slider.press("End")
        group = slider.get_attribute("data-minutes").replace(":", "-")
        panel.locator(f"[data-testid=repair-{group}-go]").click()
    elif draws.count():
        draws.last.click()
    else:
        for tid in ("act-no_action", "act-end"):
            btn = panel.locator(f"[data-testid={tid}]")
            if btn.count():
                btn.click()
                break
        else:
            panel.locator("button[data-act]:visible").first.click()
    wait_version_after(page, st["version"])
    return True


def play_until_over(pages: list[Any], limit: int = 400, on_step: Any = None) -> int:
    steps = 0
    deadline = time.monotonic() + 120
    while steps < limit and time.monotonic() < deadline:
        if all(state(p).get("over") for p in pages):
            return steps
        acted = False
        for p in pages:
            if state(p).get("over"):
                continue
            if play_one(p):
                steps += 1
                acted = True
                if on_step:
                    on_step(steps)
        if not acted:
            time.sleep(0.05)  # a bot is moving
    raise AssertionError(f"the game did not end after {steps} steps")


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
    waiting = next(p for p in pages if not state(p)["your_turn"])
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
        p.wait_for_selector("[data-testid=game-over]")
        headline = p.locator("[data-testid=result-headline]").inner_text()
        assert "rescued" in headline.lower() or "lost" in headline.lower()
        assert p.locator("[data-testid=log-entry]").count() > 20
        assert not p.js_errors, p.js_errors
    ada.wait_for_selector("[data-testid=end-overlay]")
    ada.wait_for_timeout(900)  # let the fade-in finish
    board_shot(ada, "board-end-overlay")
    ada.click("[data-testid=close-overlay]")
    ada.wait_for_selector("[data-testid=end-overlay]", state="hidden")
    assert ada.locator("[data-testid=export-link]").count() == 1
    ada.wait_for_timeout(900)
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
    page.wait_for_function("() => window.rnGame.state() && window.rnGame.state().status === 'playing'")
    # hot-seat: the page follows the held seat that must move
    page.wait_for_function("() => window.rnGame.state().your_turn")
    st = state(page)
    page.wait_for_selector(f"[data-testid=seat-tab-{st['seat']}].current")
    lit = page.locator("[data-testid=board] .hatch.target")
    assert lit.count() >= 1
    opens = [a for a in st["actions"] if a.startswith("open ")]
    assert lit.count() == len(opens)
    board_shot(page, "board-hatches-lit")
    lit.first.click()
    wait_version_after(page, st["version"])
    assert any(a in ("enter", "stay") for a in state(page)["actions"])
    room = page.locator("[data-testid=board] .room.target, [data-testid=board] .sea-zone.target")
    assert room.count() >= 1
    undo = page.locator("[data-testid=undo]")
    assert undo.is_enabled()
    v = state(page)["version"]
    undo.click()
    wait_version_after(page, v)
    assert state(page)["actions"] == st["actions"]
    # the connection drops: the page reconnects by itself and resumes both seats
    page.evaluate("() => window.rnGame.socket.ws.close()")
    page.wait_for_function("() => window.rnGame.reconnects >= 1 && window.rnGame.status === 'open'")
    page.wait_for_function("() => window.rnGame.state() && window.rnGame.state().your_turn")
    assert state(page)["actions"] == st["actions"]
    # the other held seat is a tab; switching shows that seat's view
    other = 1 - st["seat"]
    page.click(f"[data-testid=seat-tab-{other}]")
    page.wait_for_selector(f"[data-testid=seat-tab-{other}].current")
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
    assert viewer.locator("[data-testid=actions] [data-act]").count() == 0
    english_turn = viewer.locator("[data-testid=log-entry][data-mid=turn]").first.inner_text()
    de = json.loads(viewer.evaluate(
        "async () => JSON.stringify((await (await fetch('/api/i18n/de')).json()).catalog)"))
    viewer.select_option("[data-testid=language-select]", "de")
    viewer.wait_for_function("() => document.documentElement.lang === 'de'")
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
    page.wait_for_function("() => window.rnGame.state() && window.rnGame.state().your_turn")
    version = state(page)["version"]
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
    assert "R7" in warn.inner_text()
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("[data-testid=repair-stop_missile_launch-go]")
    page.wait_for_timeout(300)
    assert asked and "fail" in asked[0]
    assert state(page)["version"] == version  # dismissed: nothing was sent
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
