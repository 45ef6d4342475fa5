"""Browser tests of the table around the board: seats, presence, loading, taking a seat back from
a bot, hot-seat tabs and the texts of the page.

A real ``rednovember serve`` runs for the session (``live_server`` of tests/web/conftest.py);
Debian's Chromium (/usr/bin/chromium) plays, never a downloaded browser. Every wait is
Playwright's auto-waiting ``expect`` or ``wait_for_function``. Screenshots of the screens these
tests cover go to artifacts/screenshots/ at desktop (1366×768) and phone (390×844) sizes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
from browsertools import SHOTS, SKIP, TIMEOUT, _page, expect  # the fixtures are in conftest.py
from webtools import Server, new_game, take

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

pytestmark = SKIP

Page = Any  # playwright.sync_api.Page
MakeContext = Callable[..., Any]


# --- helpers ----------------------------------------------------------------------------------
def open_page(ctx: Any, path: str) -> Page:
    return _page(ctx, path)


def shots(page: Page, name: str) -> None:
    """Screenshots of the whole page at desktop and phone sizes (then back to desktop)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.wait_for_function("() => new Promise(r => requestAnimationFrame(() => r(true)))")
        page.screenshot(path=str(SHOTS / f"table-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def game_id(page: Page) -> str:
    return str(page.evaluate("() => window.rnGame.id"))


def create_game(page: Page, players: int, seed: int) -> str:
    """Creates a game through the start page; returns its id."""
    expect(page.get_by_test_id("create-form")).to_be_visible()
    page.select_option("[data-testid=create-players]", str(players))
    page.fill("[data-testid=create-seed]", str(seed))
    page.click("[data-testid=create-game]")
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    return game_id(page)


def take_seat(page: Page, seat: int, name: str) -> None:
    page.fill("[data-testid=seat-name]", name)
    page.click(f"[data-testid=take-seat-{seat}]")
    expect(page.get_by_test_id(f"seat-tab-{seat}")).to_be_visible()


def seat_row(page: Page, seat: int) -> Any:
    return page.get_by_test_id(f"seat-{seat}")


def playing(page: Page) -> None:
    page.wait_for_function("() => window.rnGame && window.rnGame.state() && "
                           "window.rnGame.state().status === 'playing'")


# --- 1: the seat buttons stay reachable once every seat is taken -------------------------------
def test_absent_seat_and_bot_seat_keep_their_buttons_when_no_seat_is_free(
        new_context: MakeContext, api: httpx.Client) -> None:
    ada = open_page(new_context(), "/")
    gid = create_game(ada, players=3, seed=21)
    take_seat(ada, 0, "Ada")
    take(api, gid, 1)  # two players who took their seats and never came
    take(api, gid, 2)
    playing(ada)
    seats = ada.get_by_test_id("seats")
    expect(seats).to_have_class(re.compile(r"\bcompact\b"))
    expect(seat_row(ada, 1).locator(".dot.off")).to_be_visible()
    give = ada.get_by_test_id("bot-seat-1")
    expect(give).to_be_visible()
    shots(ada, "compact-seats-absent")
    ada.select_option("[data-testid=bot-select-1]", "random")
    give.click()
    expect(seat_row(ada, 1)).to_have_attribute("data-kind", "bot")
    # the bot's strength can be changed later, from the same compact list
    bots = api.get("/api/bots").json()["bots"]
    stronger = next(b for b in bots if b != "random")
    ada.select_option("[data-testid=bot-select-1]", stronger)
    ada.click("[data-testid=bot-seat-1]")
    # named as players see it ("Easy bot"), not by its name in the API
    expect(seat_row(ada, 1)).to_contain_text(catalog(api, "en")["bot_names"][stronger])
    expect(seat_row(ada, 1)).not_to_contain_text(stronger)
    expect(ada.get_by_test_id("bot-select-1")).to_have_value(stronger)
    # the connected player's row stays compact: no buttons
    expect(ada.get_by_test_id("bot-seat-0")).to_be_hidden()
    shots(ada, "compact-seats-bot")
    # "Seat controls" opens every seat's buttons (one's own seat too)
    ada.click("[data-testid=manage-seats]")
    expect(ada.get_by_test_id("bot-seat-0")).to_be_visible()
    assert not ada.js_errors, ada.js_errors



# --- 2: presence follows the connections, both ways --------------------------------------------
def test_presence_shows_who_joined_and_who_left(new_context: MakeContext) -> None:
    ada = open_page(new_context(), "/")
    gid = create_game(ada, players=3, seed=22)
    take_seat(ada, 0, "Ada")
    bea = open_page(new_context(), f"/g/{gid}")
    take_seat(bea, 1, "Bea")
    for page in (ada, bea):  # Bea just joined: online for everybody, herself included
        expect(seat_row(page, 1).locator(".dot.on")).to_be_visible()
        expect(page.locator("[data-testid=crew] .dot.on")).to_have_count(2)
    shots(bea, "presence-joined")
    bea.close()  # Bea leaves: offline at once, and her seat can go to a bot
    expect(seat_row(ada, 1).locator(".dot.off")).to_be_visible()
    shots(ada, "presence-left")
    ada.click("[data-testid=bot-seat-1]")
    expect(seat_row(ada, 1)).to_have_attribute("data-kind", "bot")
    expect(ada.get_by_test_id("error")).to_have_count(0)
    assert not ada.js_errors, ada.js_errors


def test_a_seat_is_never_taken_under_a_default_name(new_context: MakeContext) -> None:
    """No name typed: the seat was taken as "Player 1" (in the taker's language, for everyone).
    Now the name is asked for first, and nothing is remembered; the name then typed is, for the
    next game."""
    page = open_page(new_context(), "/")
    create_game(page, players=3, seed=25)
    page.fill("[data-testid=seat-name]", "")
    page.click("[data-testid=take-seat-0]")
    expect(page.get_by_test_id("seat-name")).to_be_focused()
    expect(page.get_by_test_id("seat-tab-0")).to_have_count(0)
    assert page.evaluate("() => localStorage.getItem('rn.name')") in (None, "")
    take_seat(page, 0, "Ada")
    expect(seat_row(page, 0)).to_contain_text("Ada")
    page.goto("/")
    create_game(page, players=3, seed=26)
    expect(page.get_by_test_id("seat-name")).to_have_value("Ada")
    assert not page.js_errors, page.js_errors


def test_a_player_renames_their_seat_and_the_others_see_it(new_context: MakeContext) -> None:
    """A name typed wrong stayed for the whole game (audit, stop 55). "Rename" in one's own seat
    row opens a dialog holding the name; the others' seat lists and the chat follow at once."""
    ada = open_page(new_context(), "/")
    gid = create_game(ada, players=3, seed=27)
    take_seat(ada, 0, "Aad")
    bea = open_page(new_context(), f"/g/{gid}")
    take_seat(bea, 1, "Bea")
    expect(bea.get_by_test_id("rename-0")).to_have_count(0)  # only one's own seat
    ada.get_by_test_id("rename-0").click()
    dialog = ada.get_by_test_id("rename-dialog")
    expect(dialog).to_be_visible()
    field = dialog.get_by_test_id("rename-name")
    expect(field).to_have_value("Aad")
    expect(field).to_be_focused()
    field.fill("   ")
    dialog.get_by_test_id("rename-save").click()
    expect(dialog.get_by_test_id("rename-why")).to_have_text(
        "Type your name first: the others see it at the table.")
    field.fill("Ada L.")
    expect(dialog.get_by_test_id("rename-why")).to_have_text("")  # typing clears the warning
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        ada.set_viewport_size(size)
        ada.screenshot(path=str(SHOTS / f"table-rename-{label}.png"), animations="disabled")
    ada.set_viewport_size(DESKTOP)
    dialog.get_by_test_id("rename-save").click()
    expect(dialog).to_be_hidden()
    for page in (ada, bea):
        expect(seat_row(page, 0)).to_contain_text("Ada")
        expect(seat_row(page, 0)).not_to_contain_text("Aad")
    # the name's own stop ends the sentence: one stop, not two
    expect(bea.get_by_test_id("chat-renamed")).to_have_text("Aad (Red) is now called Ada L.")
    assert ada.evaluate("() => localStorage.getItem('rn.name')") == "Ada L."
    assert not ada.js_errors and not bea.js_errors


def test_another_players_seat_is_offered_to_a_bot_only_once_the_grace_is_over(
        browser: Any, server_factory: Callable[..., Server]) -> None:
    """The seats list offers "Give to a bot" for a player who left only when the server will
    take it (the takeover grace, the seat's handover_in): before, the server would refuse."""
    server = server_factory(takeover_grace=4.0)
    contexts = [browser.new_context(viewport=DESKTOP, base_url=server.url) for _ in range(2)]
    try:
        for ctx in contexts:
            ctx.set_default_timeout(TIMEOUT)
        ada = open_page(contexts[0], "/")
        gid = create_game(ada, players=3, seed=27)
        take_seat(ada, 0, "Ada")
        bea = open_page(contexts[1], f"/g/{gid}")
        take_seat(bea, 1, "Bea")
        with httpx.Client(base_url=server.url, timeout=10) as api:
            take(api, gid, 2)
        expect(seat_row(ada, 1).locator(".dot.on")).to_be_visible()
        expect(ada.get_by_test_id("bot-seat-1")).to_have_count(0)  # Bea is here: only she may
        bea.close()
        expect(seat_row(ada, 1).locator(".dot.off")).to_be_visible()
        expect(ada.get_by_test_id("bot-seat-1")).to_have_count(0)  # she left only just now
        expect(ada.get_by_test_id("bot-seat-1")).to_be_visible()  # the grace is over
        ada.click("[data-testid=bot-seat-1]")
        expect(seat_row(ada, 1)).to_have_attribute("data-kind", "bot")
        expect(seat_row(ada, 1)).to_contain_text("Bea")
        assert not ada.js_errors, ada.js_errors
    finally:
        for ctx in contexts:
            ctx.close()


# --- 3: a failed load is retried; only a real 404 says "not found" ------------------------------
def test_a_failed_load_is_retried_until_the_game_shows(new_context: MakeContext,
                                                       api: httpx.Client) -> None:
    gid, _ = new_game(api, 3)
    ctx = new_context()
    failures = {"left": 2}

    def flaky(route: Any) -> None:
        if failures["left"] > 0:
            failures["left"] -= 1
            if failures["left"] == 1:
                route.abort("connectionrefused")
            else:
                route.fulfill(status=503, content_type="application/json",
                              body='{"error": {"code": "internal", "message": "restarting"}}')
            return
        route.continue_()

    ctx.route(re.compile(r"/api/games/[A-Za-z0-9_-]+$"), flaky)
    page = open_page(ctx, f"/g/{gid}")
    retry = page.get_by_test_id("load-retry")
    expect(retry).to_be_visible()
    expect(page.get_by_test_id("not-found")).to_have_count(0)
    shots(page, "load-retry")
    expect(page.get_by_test_id("game-page")).to_be_visible()
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    assert failures["left"] == 0
    assert not page.js_errors, page.js_errors


def test_only_a_missing_game_says_not_found(new_context: MakeContext) -> None:
    page = open_page(new_context(), "/g/NoSuchGame00")
    expect(page.get_by_test_id("not-found")).to_be_visible()
    expect(page.get_by_test_id("not-found")).not_to_contain_text("reconnects by itself")
    expect(page.get_by_test_id("load-retry")).to_have_count(0)
    shots(page, "not-found")


# --- 4: a returning player learns their seat went to a bot, and takes it back -----------------
def test_a_returning_player_takes_their_seat_back_from_the_bot(new_context: MakeContext,
                                                               api: httpx.Client) -> None:
    ada = open_page(new_context(), "/")
    gid = create_game(ada, players=3, seed=23)
    take_seat(ada, 0, "Ada")
    bea_ctx = new_context()
    bea = open_page(bea_ctx, f"/g/{gid}")
    take_seat(bea, 1, "Bea")
    take(api, gid, 2)
    bea.close()
    expect(seat_row(ada, 1).locator(".dot.off")).to_be_visible()
    ada.click("[data-testid=bot-seat-1]")
    expect(seat_row(ada, 1)).to_have_attribute("data-kind", "bot")
    # the seat still bears Bea's name, with the bot that plays it for her
    expect(seat_row(ada, 1)).to_contain_text("Bea")
    expect(seat_row(ada, 1).locator(".badge.bot")).to_have_text("Easy bot")
    expect(ada.get_by_test_id("crew-gnome-1").locator(".crew-player")).to_have_text("Bea")
    bea = open_page(bea_ctx, f"/g/{gid}")  # Bea comes back: no free seat, hers is a bot's
    note = bea.get_by_test_id("reclaim-note")
    expect(note).to_contain_text("Your seat (Blue · Bea) was given to a bot (easy)")
    # she is offered her seat: not told every seat is taken, nor to look for it elsewhere
    expect(bea.get_by_test_id("reclaim-seat-1")).to_be_visible()
    expect(bea.get_by_test_id("spectator-note")).to_have_count(0)
    # the bar says a bot plays her seat (not "Watching"); no empty options card below the offer
    expect(bea.get_by_test_id("stand-in-badge")).to_have_text("A bot plays your seat")
    expect(bea.get_by_test_id("spectator-badge")).to_have_count(0)
    expect(bea.get_by_test_id("actions")).to_be_hidden()
    # meanwhile she still talks at the table, under her name
    expect(bea.locator("#chat-text")).to_have_attribute("placeholder", "Say something as Bea…")
    stranger = open_page(new_context(), f"/g/{gid}")  # the others' seats are taken elsewhere
    expect(stranger.get_by_test_id("spectator-note")).to_contain_text(
        "One of them yours? Open the game in the browser where you took it")
    stranger.close()
    shots(bea, "reclaim-offer")
    other_tab = open_page(bea_ctx, f"/g/{gid}")  # the same browser, a second tab on the game
    expect(other_tab.get_by_test_id("reclaim-seat-1")).to_be_visible()
    bea.click("[data-testid=reclaim-seat-1]")
    expect(bea.get_by_test_id("seat-tab-1")).to_be_visible()
    expect(note).to_be_hidden()
    expect(bea.get_by_test_id("actions")).to_be_visible()
    expect(bea.get_by_test_id("stand-in-badge")).to_have_count(0)
    # the other tab follows without a reload: hers to play there too
    expect(other_tab.get_by_test_id("seat-tab-1")).to_be_visible()
    expect(other_tab.get_by_test_id("reclaim-note")).to_be_hidden()
    expect(other_tab.get_by_test_id("spectator-note")).to_be_hidden()
    expect(seat_row(ada, 1)).to_have_attribute("data-kind", "human")
    expect(seat_row(ada, 1).locator(".dot.on")).to_be_visible()
    expect(seat_row(ada, 1)).to_contain_text("Bea")
    shots(bea, "reclaim-done")
    assert not bea.js_errors and not other_tab.js_errors, (bea.js_errors, other_tab.js_errors)


# --- 5: handing one's own hot-seat seat to a bot removes its tab --------------------------------
def test_own_hot_seat_seat_given_to_a_bot_leaves_the_tabs(new_context: MakeContext) -> None:
    page = open_page(new_context(), "/")
    create_game(page, players=3, seed=24)
    take_seat(page, 0, "Ada")
    take_seat(page, 1, "Ada 2")
    take_seat(page, 2, "Ada 3")
    playing(page)
    page.click("[data-testid=manage-seats]")
    page.click("[data-testid=bot-seat-1]")
    expect(seat_row(page, 1)).to_have_attribute("data-kind", "bot")
    expect(page.get_by_test_id("seat-tab-1")).to_have_count(0)
    expect(page.get_by_test_id("seat-tab-0")).to_be_visible()
    expect(page.get_by_test_id("seat-tab-2")).to_be_visible()
    expect(page.locator("[data-testid^=seat-tab-]")).to_have_count(2)
    # the seat can be taken back from the same page
    expect(page.get_by_test_id("reclaim-seat-1")).to_be_visible()
    shots(page, "hot-seat-after-bot")
    assert not page.js_errors, page.js_errors


# --- 6: the texts of the page -------------------------------------------------------------------
def catalog(api: httpx.Client, lang: str) -> dict[str, dict[str, str]]:
    texts: dict[str, dict[str, str]] = api.get(f"/api/i18n/{lang}").json()["catalog"]
    return texts


def hot_seat_game(page: Page, seed: int) -> str:
    """One page holds all three seats of a new game; returns its id."""
    gid = create_game(page, players=3, seed=seed)
    for seat in range(3):
        take_seat(page, seat, f"Ada {seat + 1}")
    page.wait_for_function("() => window.rnGame.state() && window.rnGame.state().your_turn")
    return gid


def test_connection_status_name_field_and_plural_follow_the_page(new_context: MakeContext,
                                                                 api: httpx.Client) -> None:
    ru, pl = catalog(api, "ru"), catalog(api, "pl")
    page = open_page(new_context(), "/")
    page.select_option("[data-testid=language-select]", "pl")
    expect(page.locator("[data-testid=create-form]")).to_contain_text(pl["web"]["seed"])
    assert "iarno" not in page.get_by_test_id("create-form").inner_text()
    page.select_option("[data-testid=language-select]", "en")
    create_game(page, players=1, seed=25)
    expect(page.locator(".game-id")).to_contain_text("1 player")
    expect(page.locator(".game-id")).not_to_contain_text("seed")  # hidden until the game is over
    take_seat(page, 0, "Solo")
    playing(page)
    expect(page.get_by_test_id("seat-name")).to_be_hidden()  # no seat is free
    page.select_option("[data-testid=language-select]", "ru")
    expect(page.get_by_test_id("conn-status")).to_have_text(ru["web"]["conn_open"])
    expect(page.locator(".game-id")).to_contain_text("игроков: 1")
    shots(page, "russian")


def test_waiting_names_the_bots_gnome(browser: Any, server_factory: Callable[..., Any]) -> None:
    server = server_factory(bot_delay=120.0)  # the bot "thinks" for the whole test
    ctx = browser.new_context(viewport=DESKTOP, locale="en-GB", base_url=server.url)
    ctx.set_default_timeout(TIMEOUT)
    try:
        page = open_page(ctx, "/")
        create_game(page, players=3, seed=21)  # seed 21: Blue (seat 2) moves first
        take_seat(page, 0, "Ada")
        for seat in (1, 2):
            page.click(f"[data-testid=bot-seat-{seat}]")
            expect(seat_row(page, seat)).to_have_attribute("data-kind", "bot")
        note = page.get_by_test_id("wait-note")
        expect(note).to_have_text(re.compile(r"^Waiting for \w+ \(bot\) to decide\.$"))
        expect(page.get_by_test_id("turn-text")).to_have_text(re.compile(r"^Waiting for \w+ \(bot\)$"))
        shots(page, "waiting-for-bot")
    finally:
        ctx.close()


def test_trade_answer_is_not_called_your_turn(new_context: MakeContext) -> None:
    page = open_page(new_context(), "/")
    hot_seat_game(page, seed=26)
    # the engine asks our gnome during another gnome's turn (a trade offer): shown as such
    active = page.evaluate("""() => {
        const g = window.rnGame, v = g.state().view;
        v.active = (v.decider + 1) % v.gnomes.length;
        g.render();
        return g.model().view.gnomes[v.active].colour;
    }""")
    text = page.get_by_test_id("turn-text")
    expect(text).to_contain_text("Your decision")
    expect(text).to_contain_text(f"on {active.capitalize()}'s turn")
    expect(text).not_to_contain_text("Your turn")
    # the crew card outlines the gnome whose player decides, not the turn's gnome
    decider = page.evaluate("() => window.rnGame.state().view.decider")
    expect(page.get_by_test_id(f"crew-gnome-{decider}")).to_have_class(re.compile(r"\bactive\b"))
    expect(page.locator(".crew-gnome.active")).to_have_count(1)
    shots(page, "trade-banner")


def test_item_tip_hidden_when_the_repair_is_certain(new_context: MakeContext) -> None:
    page = open_page(new_context(), "/")
    hot_seat_game(page, seed=27)
    script = """chance => {
        const g = window.rnGame, st = g.state(), v = st.view;
        v.gnomes[v.active].hand = ["grog"];
        st.actions = [{kind: "pump_water", text: "pump_water 1", arg: 0, minutes: 1, cost: 1,
                       item: null, room: null, gnome: null, count: null, penalty: 0,
                       repair: true, bonus: 0, chance, doomed: false, token_lost: null}];
        g.render();
    }"""
    page.evaluate(script, 50)
    expect(page.get_by_test_id("repair-pump_water-tip")).to_be_visible()
    page.evaluate(script, 100)
    expect(page.get_by_test_id("repair-pump_water-chance")).to_have_text(re.compile("100"))
    expect(page.get_by_test_id("repair-pump_water-tip")).to_have_count(0)


def test_server_errors_are_translated_with_player_numbers(new_context: MakeContext,
                                                          api: httpx.Client) -> None:
    de = catalog(api, "de")
    page = open_page(new_context(locale="de-DE"), "/")
    hot_seat_game(page, seed=28)
    mover = page.evaluate("() => window.rnGame.state().to_move")
    other = (mover + 1) % 3
    page.evaluate("seat => window.rnGame.sendAct('no_action', seat)", other)
    err = page.get_by_test_id("error").first
    expect(err).to_contain_text(de["web"]["error_not_your_turn"])
    expect(err).to_contain_text(f"Spieler {mover + 1} entscheidet gerade, nicht Spieler {other + 1}")
    expect(err).not_to_contain_text("decision")
    shots(page, "error-german")


def test_the_minute_buttons_step_within_the_repairs_bounds(new_context: MakeContext) -> None:
    """− and + beside a repair's minutes change them by one, never past the slider's ends
    (actions.stepMinutes, shared with the lessons' page)."""
    page = open_page(new_context(), "/")
    hot_seat_game(page, seed=27)
    page.evaluate("""() => {
        const g = window.rnGame, st = g.state();
        st.actions = [1, 2, 3].map(m => ({kind: "pump_water", text: `pump_water ${m}`, arg: 0,
            minutes: m, cost: m, item: null, room: null, gnome: null, count: null, penalty: 0,
            repair: true, bonus: 0, chance: 30 * m, doomed: false, token_lost: null}));
        g.render();
    }""")
    slider = page.locator("input[type=range][data-minutes]")
    more, fewer = page.get_by_label("One minute more"), page.get_by_label("One minute less")
    start = int(slider.input_value())
    while int(slider.input_value()) > 1:
        fewer.click()
    expect(fewer).to_be_disabled()
    values = []
    for _ in range(2):
        more.click()
        values.append(int(slider.input_value()))
    assert values == [2, 3], (start, values)
    expect(more).to_be_disabled()
    fewer.click()
    expect(slider).to_have_value("2")
