"""Browser tests of issue 8: an open table listed in the lobby and joined from another browser, the
seat link (with its QR code) that moves a seat to another device, and the turn clock.

A real ``rednovember serve`` runs for the session (``live_server`` of tests/web/conftest.py);
Debian's Chromium plays. Every wait is Playwright's ``expect`` or ``wait_for_function``.
Screenshots at desktop (1440×900) and phone (390×844) sizes go to artifacts/screenshots/.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsertools import SKIP, expect, play_one, shot, state
from webtools import Server, auth, new_game, take

pytestmark = SKIP

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
Page = Any
MakeContext = Callable[..., Any]


def open_page(ctx: Any, path: str) -> Page:
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    page.goto(path)
    return page


def shots(page: Page, name: str, full: bool = True) -> None:
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.wait_for_function("() => new Promise(r => requestAnimationFrame(() => r(true)))")
        shot(page, f"lobby-{name}-{label}", full=full)
    page.set_viewport_size(DESKTOP)


def test_listed_table_is_joined_from_the_lobby(new_context: MakeContext,
                                               api: httpx.Client) -> None:
    hidden, _ = new_game(api, 2, seed=71)  # unlisted: never in the lobby
    host = open_page(new_context(), "/")
    expect(host.get_by_test_id("create-form")).to_be_visible()
    host.select_option("[data-testid=create-players]", "3")
    host.select_option("[data-testid=create-timer]", "60")
    host.check("[data-testid=create-listed]")
    host.fill("[data-testid=create-seed]", "72")
    shots(host, "create-form")
    host.click("[data-testid=create-game]")
    expect(host.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    gid = str(host.evaluate("() => window.rnGame.id"))
    expect(host.get_by_test_id("turn-timer-setting")).to_contain_text("1 min")
    host.fill("[data-testid=seat-name]", "Ada")
    host.click("[data-testid=take-seat-0]")
    expect(host.get_by_test_id("seat-tab-0")).to_be_visible()
    summary = api.get(f"/api/games/{gid}").json()
    assert summary["settings"] == {"listed": True, "turn_timer": 60, "hints": True, "hints_used": [],
                                   "away_bot": 120, "pace": "real-time",
                                   "move_deadline": None}  # an open table's default (issue 18)

    guest = open_page(new_context(), "/")
    table = guest.get_by_test_id(f"open-table-{gid}")
    expect(table).to_be_visible()
    expect(table.locator(".swatch")).to_have_count(2)  # the two free seats' colours
    expect(table).to_contain_text("1 min")
    expect(guest.get_by_test_id(f"open-table-{hidden}")).to_have_count(0)
    shots(guest, "open-tables")
    guest.click(f"[data-testid=join-table-{gid}]")
    expect(guest.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    guest.fill("[data-testid=seat-name]", "Bea")
    guest.click("[data-testid=take-seat-1]")
    expect(guest.get_by_test_id("seat-tab-1")).to_be_visible()
    # "Your games" lists it on the way back; the lobby lists it as long as a seat is free
    guest.click("[data-testid=home-link]")
    expect(guest.get_by_test_id("my-games")).to_contain_text(gid)
    expect(guest.get_by_test_id(f"open-table-{gid}").locator(".swatch")).to_have_count(1)
    take(api, gid, 2)
    guest.reload()
    expect(guest.get_by_test_id("my-games")).to_contain_text(gid)
    expect(guest.get_by_test_id(f"open-table-{gid}")).to_have_count(0)
    assert not host.js_errors and not guest.js_errors


def test_harder_and_hardest_are_one_choice(new_context: MakeContext) -> None:
    """Hardest has Harder's rule too (RULES §12): ticking one unticks the other, so the table is
    never shown as "Harder, Hardest"."""
    host = open_page(new_context(), "/")
    harder, hardest = (host.get_by_test_id(f"variant-{v}") for v in ("harder", "hardest"))
    harder.check()
    hardest.check()
    expect(harder).not_to_be_checked()
    harder.check()
    expect(hardest).not_to_be_checked()
    host.get_by_test_id("variant-mad-gnomes").check()  # the others combine freely
    hardest.check()
    expect(host.get_by_test_id("variant-mad-gnomes")).to_be_checked()
    host.click("[data-testid=create-game]")
    expect(host.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    config = host.evaluate("() => window.rnGame.summary.config")
    assert sorted(config["variants"]) == ["hardest", "mad-gnomes"], config
    assert not host.js_errors


def test_seat_link_moves_the_seat_to_another_device(new_context: MakeContext,
                                                    api: httpx.Client) -> None:
    gid, _ = new_game(api, 1, seed=73)
    phone = open_page(new_context(), f"/g/{gid}")
    phone.fill("[data-testid=seat-name]", "Ada")
    phone.click("[data-testid=take-seat-0]")
    expect(phone.get_by_test_id("seat-tab-0")).to_be_visible()
    token = json.loads(phone.evaluate(f"() => localStorage.getItem('rn.game.{gid}')"))["seats"]["0"]
    phone.click("[data-testid=seat-link-0]")
    dialog = phone.get_by_test_id("seat-link-dialog")
    expect(dialog).to_be_visible()
    # the seat by its gnome and its player's name, not "Player 1" (audit, stop 55)
    expect(dialog).to_contain_text(" plays Ada (Red, Blue, Green), as this device does.")
    url = phone.get_by_test_id("seat-link-url")
    expect(url).to_have_value(f"{phone.evaluate('() => location.origin')}/g/{gid}#seat={token}")
    phone.wait_for_function("() => { const i = document.querySelector('[data-testid=seat-link-qr]');"
                            " return i && i.complete && i.naturalWidth > 100; }")
    assert phone.get_by_test_id("seat-link-qr").get_attribute("src").startswith("data:image/svg+xml")
    shots(phone, "seat-link", full=False)
    link = url.input_value()
    phone.click("[data-testid=seat-link-close]")
    expect(dialog).to_be_hidden()

    # the other device opens the link: it plays the seat, and the token was in no request
    other = new_context()
    urls: list[str] = []
    other.on("request", lambda r: urls.append(r.url))
    laptop = other.new_page()
    laptop.on("websocket", lambda ws: urls.append(ws.url))
    errors: list[str] = []
    laptop.on("pageerror", lambda e: errors.append(str(e)))
    laptop.goto(link)
    expect(laptop.get_by_test_id("seat-tab-0")).to_be_visible()
    expect(laptop.get_by_test_id("toast").first).to_have_text(
        re.compile(r"^This device now plays Ada \(Red, Blue, Green\)\."))
    assert laptop.evaluate("() => location.hash") == ""
    assert laptop.evaluate("() => location.pathname") == f"/g/{gid}"
    stored = json.loads(laptop.evaluate(f"() => localStorage.getItem('rn.game.{gid}')"))
    assert stored["seats"] == {"0": token}
    st = state(laptop, your_turn=True)
    after = play_one(laptop, st)
    assert after["version"] > st["version"]
    assert urls and not any(token in u for u in urls), urls
    assert not errors and not phone.js_errors
    # a link whose seat is gone says so
    bad = open_page(new_context(), f"/g/{gid}#seat={'x' * 43}")
    expect(bad.get_by_test_id("error")).to_be_visible()
    expect(bad.get_by_test_id("spectator-badge")).to_be_visible()
    assert bad.evaluate("() => location.hash") == ""


def test_turn_clock_counts_down_for_everyone(new_context: MakeContext, api: httpx.Client) -> None:
    gid, _ = new_game(api, 2, seed=74, turn_timer=30)
    tokens = [take(api, gid, 0), take(api, gid, 1)]
    mover = api.get(f"/api/games/{gid}").json()["to_move"]
    ctx = new_context()
    ctx.add_init_script(f"localStorage.setItem('rn.game.{gid}', "
                        f"JSON.stringify({{seats: {{'{mover}': '{tokens[mover]}'}}}}))")
    player = open_page(ctx, f"/g/{gid}")
    watcher = open_page(new_context(), f"/g/{gid}")
    for page in (player, watcher):
        clock = page.get_by_test_id("turn-clock")
        expect(clock).to_be_visible()
        expect(clock).to_have_text(re.compile(r"^0:[0-3]\d$"))
        first = int(clock.get_attribute("data-left"))
        assert 20 <= first <= 30
        page.wait_for_function("(n) => Number(document.querySelector('[data-testid=turn-clock]')"
                               ".dataset.left) < n", arg=first)
    expect(player.get_by_test_id("turn-banner")).to_have_class(re.compile("mine"))
    shots(player, "clock", full=False)
    # a move restarts the clock for the next decision
    st = state(player, your_turn=True)
    play_one(player, st)
    restarted = watcher.wait_for_function(
        """(v) => { const s = window.rnGame && window.rnGame.state();
            return s && s.version > v && s.clock && s.clock.remaining > 25 && s.clock.seconds; }""",
        arg=st["version"]).json_value()
    assert restarted == 30
    expect(watcher.get_by_test_id("turn-clock")).to_be_visible()
    assert not player.js_errors and not watcher.js_errors


def test_expired_table_link_shows_not_found(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path / "expiry.db", extra=["--waiting-expiry", "1"]).start()
    ctx = None
    try:
        with httpx.Client(base_url=server.url, timeout=10.0) as api:
            gid, _ = new_game(api, 2, seed=75, listed=True)
            deadline = time.monotonic() + 15
            while api.get(f"/api/games/{gid}").status_code != 404:  # the sweeper deletes it
                assert time.monotonic() < deadline, "the untouched table did not expire"
                time.sleep(0.1)
        ctx = browser.new_context(viewport=DESKTOP, base_url=server.url)
        page = open_page(ctx, f"/g/{gid}")
        expect(page.get_by_test_id("not-found")).to_be_visible()
        assert not page.js_errors
        lobby = open_page(ctx, "/")
        expect(lobby.get_by_test_id("no-open-tables")).to_be_visible()
    finally:
        if ctx is not None:
            ctx.close()
        server.stop()


def test_timeout_note_in_the_chat(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path / "timer.db", extra=["--turn-timer-min", "1"]).start()
    ctx = None
    try:
        with httpx.Client(base_url=server.url, timeout=10.0) as api:
            gid, _ = new_game(api, 1, seed=76, turn_timer=3)
            token = take(api, gid, 0)
            v0 = api.get(f"/api/games/{gid}").json()["version"]
        ctx = browser.new_context(viewport=DESKTOP, base_url=server.url)
        ctx.add_init_script(f"localStorage.setItem('rn.game.{gid}', "
                            f"JSON.stringify({{seats: {{'0': '{token}'}}}}))")
        page = open_page(ctx, f"/g/{gid}")
        expect(page.get_by_test_id("turn-clock")).to_be_visible()
        # while our own clock runs, the show of what happened before hurries (0.45 of its pace)
        ms = "() => window.rnGame.show.stepMs({kind: 'event', effects: []})"
        assert page.evaluate(ms) == pytest.approx(0.45 * page.evaluate(
            "() => window.rnGame.show.pace"))
        note = page.get_by_test_id("chat-timeout")
        expect(note).to_have_text(re.compile(r"^Time ran out for P0: the server made one decision"))
        after = state(page, after=v0)
        assert after["seat"] == 0 and after["version"] > v0
        expect(page.get_by_test_id("seat-tab-0")).to_be_visible()  # still the player's seat
        page.get_by_test_id("chat").scroll_into_view_if_needed()
        shot(page, "lobby-timeout-note-desktop")
        # the note keeps the name it was written with once a bot plays the seat, and on reload
        with httpx.Client(base_url=server.url, timeout=10.0) as api:
            assert api.post(f"/api/games/{gid}/seats/0/bot", json={"bot": "heuristic"},
                            headers=auth(token)).status_code == 200
        expect(page.get_by_test_id("seat-tab-0")).to_have_count(0)
        page.wait_for_function(  # a spectator now: no clock of ours, the show at its pace
            "() => window.rnGame.show.stepMs({kind: 'event', effects: []}) === window.rnGame.show.pace")
        expect(note.first).to_have_text(re.compile(r"^Time ran out for P0: "))
        page.reload()
        expect(page.get_by_test_id("chat-timeout").first).to_have_text(
            re.compile(r"^Time ran out for P0: "))
        assert not page.js_errors
    finally:
        if ctx is not None:
            ctx.close()
        server.stop()
