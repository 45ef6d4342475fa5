"""My games (issue 20 §2) in the browser: /me lists every game this browser holds a seat in, with
whose turn it is and the unread chat lines; one link (its QR code beside it) moves every seat to
another device, whose /me then lists the same games and plays in them; a game can be forgotten.
axe-core finds no serious violation on /me, whose controls fit fingers on a phone. Debian's
Chromium and the session's real server."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import httpx
from browsertools import SKIP, _page, expect, play_one, shot, state, take_seat
from test_browser_a11y import axe_violations, sized  # noqa: F401 (sized: a fixture)
from test_browser_mobile import targets_fit_fingers
from webtools import BOTS_FINISH, WsClient, auth, get_until, seated_game

pytestmark = SKIP

Page = Any  # playwright.sync_api.Page


def _game(api: httpx.Client, seed: int, **settings: Any) -> str:
    r = api.post("/api/games", json={"players": 2, "seed": seed, **settings})
    assert r.status_code == 201, r.text
    return str(r.json()["game"]["id"])


def _other_takes(api: httpx.Client, gid: str, seat: int) -> str:
    r = api.post(f"/api/games/{gid}/seats", json={"seat": seat, "name": "Bea"})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def _to_move(api: httpx.Client, gid: str) -> int:
    g = api.get(f"/api/games/{gid}").json()
    assert g["status"] == "playing", g
    return int(g["to_move"])


def _seated(page: Page, api: httpx.Client, seed: int, mine: int,
            **settings: Any) -> tuple[str, str, int]:
    """A two-player game: this page takes seat ``mine`` through the lobby's game page, Bea the
    other one by the API (the game starts). (id, Bea's token, the seat to move)."""
    gid = _game(api, seed, **settings)
    page.goto(f"/g/{gid}")
    page.wait_for_selector("[data-testid=conn-status][data-state=open]")
    take_seat(page, mine, "Ada")
    bea = _other_takes(api, gid, 1 - mine)
    state(page, seat=mine)
    return gid, bea, _to_move(api, gid)


def _row(page: Page, gid: str) -> Any:
    return page.get_by_test_id(f"me-game-{gid}")


def _my_games(page: Page, gids: list[str]) -> None:
    page.goto("/me")
    for gid in gids:
        expect(_row(page, gid)).to_be_visible()


def test_my_games_lists_the_seats_with_whose_turn_and_unread_chat_then_moves_them(
        new_context: Callable[..., Any], rn_url: str) -> None:
    phone = _page(new_context(), "/")
    # The seat to move stays connected in each game (Ada on another tab, Bea at home), so the
    # server writes no "left the table" note in their chats (web/hub/away.py).
    with ExitStack() as stay, httpx.Client(base_url=rn_url, timeout=30) as api:
        a, _, a_mover = _seated(phone, api, 5, 0)
        ada_a = phone.evaluate(f"() => JSON.parse(localStorage.getItem('rn.game.{a}')).seats['0']")
        stay.enter_context(WsClient(rn_url, a, [ada_a]))
        b, bea_b, b_mover = _seated(phone, api, 5, 1, variants=["harder"])
        bea = stay.enter_context(WsClient(rn_url, b, [bea_b]))
        assert a_mover == b_mover == 0  # seat 0 opens both: this browser's turn in A, Bea's in B
        phone.goto("/me")  # away from B's page, which would show Bea's lines at once
        expect(_row(phone, b)).to_be_visible()
        for text in ("Hello Ada", "I take the pumps"):
            assert bea.request({"type": "chat", "seat": 0, "text": text})["type"] == "ack"
        _moves_with_the_link(new_context, rn_url, phone, a, b)


def _moves_with_the_link(new_context: Callable[..., Any], rn_url: str, phone: Page, a: str,
                         b: str) -> None:
    _my_games(phone, [a, b])
    expect(_row(phone, a).get_by_test_id("me-your-turn")).to_have_text("Your turn")
    expect(_row(phone, a)).to_have_class("me-game your-turn")
    expect(_row(phone, b).get_by_test_id("me-to-move")).to_contain_text("Bea")
    # a seat of a 2-player game runs two gnomes (R16): named by both colours, as the game's page
    # names the gnome to move by its own
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        seats = api.get(f"/api/games/{b}").json()["seats"]
    names = [" / ".join(c.capitalize() for c in s["colours"]) for s in seats]
    assert all(len(s["colours"]) == 2 for s in seats), seats
    expect(_row(phone, b).get_by_test_id("me-to-move")).to_have_text(f"Bea ({names[0]}) to move")
    expect(_row(phone, b)).to_contain_text(f"You: {names[1]}")
    expect(_row(phone, b).locator(".swatch")).to_have_count(2)
    expect(_row(phone, b).get_by_test_id("me-your-turn")).to_have_count(0)
    expect(phone.get_by_test_id(f"me-unread-{b}")).to_have_text("2 unread messages")
    expect(phone.get_by_test_id(f"me-unread-{a}")).to_have_count(0)
    expect(phone.locator(".me-game").first).to_have_attribute("data-testid", f"me-game-{a}")
    shot(phone, "mygames-list")
    # the start page's "Your games" marks the same turn, and puts that game first (A is older)
    phone.goto("/")
    mine = phone.get_by_test_id("my-games")
    expect(mine.get_by_test_id(f"game-{a}").get_by_test_id("lobby-your-turn")).to_have_text(
        "Your turn")
    expect(mine.get_by_test_id(f"game-{b}")).to_be_visible()
    expect(mine.get_by_test_id(f"game-{b}").get_by_test_id("lobby-your-turn")).to_have_count(0)
    # and the unread table talk
    expect(mine.get_by_test_id(f"game-{b}").get_by_test_id("lobby-unread")).to_have_text(
        "2 unread messages")
    expect(mine.get_by_test_id(f"game-{a}").get_by_test_id("lobby-unread")).to_have_count(0)
    expect(mine.locator("a[data-id]").first).to_have_attribute("data-id", a)
    expect(mine.get_by_test_id(f"game-{b}")).to_contain_text("· Harder")  # by name, not code
    shot(phone, "lobby-your-games-desktop")
    size = phone.viewport_size
    phone.set_viewport_size({"width": 390, "height": 844})
    mine.scroll_into_view_if_needed()
    shot(phone, "lobby-your-games-phone")
    phone.set_viewport_size(size)
    _my_games(phone, [a, b])
    # opening B shows its chat, which then counts as read
    phone.get_by_test_id(f"me-open-{b}").click()
    phone.wait_for_url(f"**/g/{b}")
    expect(phone.get_by_test_id("chat-message")).to_have_count(2)
    phone.get_by_test_id("my-games-link").click()
    expect(_row(phone, b)).to_be_visible()
    expect(phone.get_by_test_id(f"me-unread-{b}")).to_have_count(0)
    # the link with every seat, and its QR code
    phone.get_by_test_id("me-move").click()
    expect(phone.get_by_test_id("move-qr")).to_be_visible()
    link = phone.get_by_test_id("move-url").input_value()
    assert link.startswith(f"{rn_url}/me#move=") and a in link and b in link
    assert not phone.js_errors, phone.js_errors
    # another device opens it: the same games, the fragment gone, and it plays A's seat
    other = _page(new_context(), link.removeprefix(rn_url))
    expect(other.get_by_text("2 seats added to this browser.")).to_be_visible()
    expect(_row(other, a).get_by_test_id("me-your-turn")).to_be_visible()
    expect(_row(other, b).get_by_test_id("me-to-move")).to_contain_text("Bea")
    assert "#" not in other.url
    other.get_by_test_id(f"me-open-{a}").click()
    before = state(other, your_turn=True, seat=0)
    after = play_one(other, before)
    assert after["version"] > before["version"]
    assert not other.js_errors, other.js_errors


def test_forgetting_a_game_and_the_empty_page(new_context: Callable[..., Any],
                                               rn_url: str) -> None:
    page = _page(new_context(), "/me")
    expect(page.get_by_test_id("me-empty")).to_contain_text("No games here yet")
    expect(page.get_by_test_id("me-move")).to_have_count(0)
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        a, _, _ = _seated(page, api, 6, 0)
        b, _, _ = _seated(page, api, 6, 1)
    _my_games(page, [a, b])
    page.get_by_test_id(f"me-forget-{a}").click()  # (the page accepts the confirmation)
    expect(_row(page, a)).to_have_count(0)
    expect(_row(page, b)).to_be_visible()
    assert page.evaluate(f"() => localStorage.getItem('rn.game.{a}')") is None
    page.reload()
    expect(_row(page, b)).to_be_visible()
    expect(_row(page, a)).to_have_count(0)
    assert not page.js_errors, page.js_errors


def test_a_move_link_asks_before_it_replaces_a_different_seat_token(
        new_context: Callable[..., Any], rn_url: str) -> None:
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid = _game(api, 7)
        mine = _other_takes(api, gid, 0)
    ctx = new_context()
    ctx.add_init_script(f"localStorage.setItem('rn.game.{gid}', JSON.stringify("
                        f"{{seats: {{'0': '{'x' * 43}'}}, creator: null}}))")
    page = ctx.new_page()
    asked: list[str] = []
    page.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.goto(f"/me#move={gid}.0.{mine}~{gid}.c.{'y' * 43}~bad")
    expect(_row(page, gid)).to_be_visible()
    page.wait_for_function("() => !location.hash")
    assert asked and "seat 1 of game" in asked[-1]
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('rn.game.{gid}')).seats['0']")
    assert kept == "x" * 43  # refused: the browser's own token stays
    creator = page.evaluate(f"() => JSON.parse(localStorage.getItem('rn.game.{gid}')).creator")
    assert creator == "y" * 43  # the creator token it lacked is taken


def test_axe_finds_no_serious_violation_on_my_games_and_the_deadline_shows(sized: Callable[..., Any],  # noqa: F811
                                                    rn_url: str) -> None:
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid = _game(api, 8, turn_timer=300)  # the turn timer's clock is the deadline
        token = _other_takes(api, gid, 0)
        _other_takes(api, gid, 1)
        waiting = _game(api, 9)
        days = _game(api, 10, pace="turn-based", move_deadline=43200)  # the summary's deadline
        days_token = _other_takes(api, days, 0)
        _other_takes(api, days, 1)
        creator_only = str(api.post("/api/games", json={"players": 3}).json()["game"]["id"])
    for size in ("desktop", "phone"):
        page = _page(sized(size, {gid: {"0": token}, waiting: {"1": "z" * 43},
                                  days: {"0": days_token}}), "/me")
        page.evaluate(f"() => localStorage.setItem('rn.game.{creator_only}', "
                      f"JSON.stringify({{seats: {{}}, creator: '{'c' * 43}'}}))")
        page.reload()
        expect(_row(page, gid)).to_be_visible()
        expect(_row(page, creator_only)).to_contain_text("You created this table")
        expect(_row(page, gid).get_by_test_id("me-deadline")).to_contain_text("(in 5 minutes)")
        expect(_row(page, waiting).get_by_test_id("me-deadline")).to_have_count(0)
        expect(_row(page, days).get_by_test_id("me-deadline")).to_contain_text("(in 12 hours)")
        found = axe_violations(page)
        assert not found, "\n".join(found)
        if size == "phone":
            assert targets_fit_fingers(page) > 8
        page.get_by_test_id("me-move").click()
        expect(page.get_by_test_id("move-qr")).to_be_visible()
        found = axe_violations(page)
        assert not found, "\n".join(found)
        # the start page's "Your games" gives the same deadlines
        page.goto("/")
        mine = page.get_by_test_id("my-games")
        expect(mine.get_by_test_id(f"game-{gid}").get_by_test_id("lobby-deadline")).to_contain_text(
            "(in 5 minutes)")
        expect(mine.get_by_test_id(f"game-{days}").get_by_test_id("lobby-deadline")).to_contain_text(
            "(in 12 hours)")
        expect(mine.get_by_test_id(f"game-{waiting}").get_by_test_id("lobby-deadline")).to_have_count(0)
        mine.scroll_into_view_if_needed()
        shot(page, f"lobby-your-games-deadline-{size}")
        assert not page.js_errors, page.js_errors


def _holding(page: Page, held: dict[str, dict[str, Any]]) -> None:
    """This browser holds these games' seats (as net.js keeps them), once: no init script, which
    would put them back at every page load."""
    for gid, entry in held.items():
        page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))",
                      [f"rn.game.{gid}", {"seats": {}, "creator": None, **entry}])
    page.reload()


def test_a_rematch_another_player_started_is_listed_with_its_turn(
        new_context: Callable[..., Any], rn_url: str) -> None:
    """Over days nobody sits at the finished game's page when a friend starts the rematch: My
    games and the start page list it (the same tokens hold its seats), with whose turn it is, and
    a rematch forgotten here stays forgotten."""
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid, tokens, _ = seated_game(api, 2, seed=11, pace="turn-based")
        with WsClient(rn_url, gid) as watcher:
            for seat, token in enumerate(tokens):  # both let bots finish it
                r = api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                             headers=auth(token))
                assert r.status_code == 200, r.text
            watcher.until(lambda m: m["type"] == "state" and m["status"] == "over", BOTS_FINISH)
        with WsClient(rn_url, gid, [tokens[1]]) as bea:  # Bea asks for the next one
            asked = bea.request({"type": "rematch"})
        assert asked["type"] == "ack", asked
        nxt = asked["next"]
        mover = _to_move(api, nxt)
    page = _page(new_context(), "/me")
    _holding(page, {gid: {"seats": {"0": tokens[0]}}})
    row = _row(page, nxt)
    expect(row).to_be_visible()
    expect(page.get_by_test_id("me-list").get_by_test_id(f"me-game-{nxt}")).to_be_visible()
    expect(page.get_by_test_id("me-done").get_by_test_id(f"me-game-{gid}")).to_contain_text(
        "its rematch has started")
    if mover == 0:
        expect(row.get_by_test_id("me-your-turn")).to_have_text("Your turn")
    else:
        expect(row.get_by_test_id("me-to-move")).to_contain_text("P1")
    held = page.evaluate(f"() => JSON.parse(localStorage.getItem('rn.game.{nxt}'))")
    assert held["seats"] == {"0": tokens[0]}
    page.get_by_test_id(f"me-forget-{nxt}").click()  # (the page accepts the confirmation)
    expect(row).to_have_count(0)
    page.reload()
    expect(_row(page, gid)).to_be_visible()
    expect(_row(page, nxt)).to_have_count(0)  # not brought back
    # the start page of another browser that held the old game lists it too
    lobby = _page(new_context(), "/")
    _holding(lobby, {gid: {"seats": {"0": tokens[0]}}})
    expect(lobby.get_by_test_id("my-games").get_by_test_id(f"game-{nxt}")).to_be_visible()
    assert not page.js_errors and not lobby.js_errors, (page.js_errors, lobby.js_errors)


def test_my_games_says_when_a_bot_plays_the_seat(new_context: Callable[..., Any],
                                                 rn_url: str) -> None:
    """A seat that went to a bot (its player handed it over, or let three deadlines pass at a
    turn-based table) is still this browser's: My games says a bot plays it, and where to take it
    back, and never calls the bot's decision this browser's turn."""
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid, tokens, _ = seated_game(api, 2, seed=12, pace="turn-based")
        r = api.post(f"/api/games/{gid}/seats/0/bot", json={"bot": "heuristic"},
                     headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        get_until(api, f"/api/games/{gid}", lambda r: r.json()["to_move"] == 1)  # (the bot's done)
        other, _, _ = seated_game(api, 2, seed=13)  # one whose seat is this browser's own
    page = _page(new_context(), "/me")
    _holding(page, {gid: {"seats": {"0": tokens[0]}}, other: {"seats": {"0": "t" * 43}}})
    row = _row(page, gid)
    expect(row.get_by_test_id(f"me-bot-{gid}")).to_have_text(
        "A bot plays your seat: open the game to take it back")
    expect(row.get_by_test_id("me-to-move")).to_contain_text("P1")
    expect(_row(page, other)).to_be_visible()
    expect(_row(page, other).get_by_test_id(f"me-bot-{other}")).to_have_count(0)
    assert not page.js_errors, page.js_errors



def test_the_start_page_gives_each_of_your_games_a_line_of_its_own(
        sized: Callable[..., Any], rn_url: str) -> None:  # noqa: F811
    """The start page's "Your games" sits in half the page's width: the game's facts (players,
    turn, deadline) get a line of their own under its id and badges instead of a squeezed column
    beside them, and a game in play or over has no "0 free seats"; a table still waiting says
    its free seats."""
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        days, tokens, _ = seated_game(api, 2, seed=14, pace="turn-based")
        waiting = _game(api, 15)
    ctx = sized("desktop", {days: {"0": tokens[0], "1": tokens[1]}, waiting: {"0": "w" * 43}})
    page = _page(ctx, "/")
    mine = page.get_by_test_id("my-games")
    row = mine.get_by_test_id(f"game-{days}")
    expect(row.get_by_test_id("lobby-deadline")).to_be_visible()
    expect(row.get_by_test_id("lobby-your-turn")).to_be_visible()
    info = row.locator(".gl-info")
    expect(info).to_contain_text("2 players · turn 1 · Deadline: ")
    expect(info).not_to_contain_text("free seat")
    expect(mine.get_by_test_id(f"game-{waiting}").locator(".gl-info")).to_have_text(
        "2 players · 2 free seats")
    for gid in (days, waiting):
        box, line = mine.get_by_test_id(f"game-{gid}").bounding_box(), \
            mine.get_by_test_id(f"game-{gid}").locator(".gl-info").bounding_box()
        ident = mine.get_by_test_id(f"game-{gid}").locator(".gl-id").bounding_box()
        assert line["y"] >= ident["y"] + ident["height"] - 1, (gid, ident, line)  # under the id
        assert line["width"] > 0.8 * box["width"], (gid, box, line)  # the row's whole width
    assert not page.js_errors, page.js_errors

