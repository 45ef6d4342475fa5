"""Browser tests of the table's newer parts: table talk between two people, the replay viewer
stepped to the end, warnings before harmful choices and the repair preview. Debian's Chromium and
the session's real server, with the fixtures and helpers of test_browser.py."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from browsertools import SHOTS, SKIP, _page, create_game, expect, shot, state, take_seat
from webtools import WsClient, auth, bot_game, get_until, new_game, take

PHONE = {"width": 390, "height": 844}
pytestmark = SKIP



def test_chat_between_two_players_and_a_spectator(new_context: Any) -> None:
    ada = _page(new_context(), "/")
    link = create_game(ada, players=3, seed=4)
    take_seat(ada, 0, "Ada")
    bea = _page(new_context(), link)
    take_seat(bea, 1, "Bea")
    cid = _page(new_context(), link)  # a spectator
    cid.wait_for_selector("[data-testid=spectator-badge]")
    expect(cid.locator("[data-testid=chat-readonly]")).to_be_visible()
    expect(cid.locator("[data-testid=chat-form]")).to_be_hidden()
    text = "<b>I'll take the Reactor</b> — help me with 4?"
    ada.fill("[data-testid=chat-input]", text)
    ada.click("[data-testid=chat-send]")
    for page in (ada, bea, cid):
        line = page.locator("[data-testid=chat-message]").last
        expect(line).to_contain_text(text)  # shown as text, never as HTML
        expect(line.locator("b")).to_have_count(0)
        expect(line.locator(".chat-who")).to_have_text("Ada")
    expect(ada.locator("[data-testid=chat-input]")).to_have_value("")
    bea.fill("[data-testid=chat-input]", "On my way")
    bea.press("[data-testid=chat-input]", "Enter")
    expect(ada.locator("[data-testid=chat-message]")).to_have_count(2)
    again = _page(new_context(), link)  # the talk is kept with the game
    expect(again.locator("[data-testid=chat-message]")).to_have_count(2)
    ada.locator("[data-testid=chat]").screenshot(path=str(SHOTS / "chat-desktop.png"))
    ada.set_viewport_size(PHONE)
    ada.click("[data-testid=sheet-tab-chat]")  # on a phone the chat is a tab of the bottom sheet
    ada.locator("[data-testid=chat]").scroll_into_view_if_needed()
    shot(ada, "chat-phone")


def test_replay_steps_to_the_end_and_reaches_the_final_state(new_context: Any,
                                                             rn_url: str) -> None:
    gid, _ = bot_game(rn_url, 3, seed=8)
    game = _page(new_context(), f"/g/{gid}")
    game.wait_for_selector("[data-testid=game-over]")
    final = game.locator("[data-testid=result-headline]").inner_text()
    game.click("[data-testid=replay-link]")
    page = game
    viewer = page.locator("[data-testid=replay-page]")
    expect(viewer).to_be_visible()
    steps = int(viewer.get_attribute("data-steps") or 0)
    assert steps > 20
    expect(viewer).to_have_attribute("data-step", str(steps))  # opens on the last move
    expect(page.locator("[data-testid=result-headline]")).to_have_text(final)
    page.click("[data-testid=replay-first]")
    expect(page.locator("[data-testid=replay-page]")).to_have_attribute("data-step", "0")
    assert page.locator("[data-testid=game-over]").count() == 0
    for n in (1, 2):
        page.click("[data-testid=replay-next]")
        expect(page.locator("[data-testid=replay-page]")).to_have_attribute("data-step", str(n))
        expect(page.locator("[data-testid=replay-log] [data-testid=log-entry]").first).to_be_visible()
    assert page.url.endswith("/replay?step=2")  # a shareable step
    shot(page, "replay-desktop")
    page.keyboard.press("End")
    expect(page.locator("[data-testid=replay-page]")).to_have_attribute("data-step", str(steps))
    expect(page.locator("[data-testid=result-headline]")).to_have_text(final)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("[data-testid=replay-page]")).to_have_attribute("data-step", str(steps - 1))
    page.set_viewport_size(PHONE)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "replay-phone", full=True)


@pytest.mark.parametrize(("code", "lethal"), [("fire_needs_item", False), ("no_way_out", True)])
def test_warnings_show_before_the_click_and_lethal_ones_ask(new_context: Any, code: str,
                                                            lethal: bool) -> None:
    page = _page(new_context(), "/", accept_dialogs=False)
    create_game(page, players=3, seed=11)
    for seat, name in enumerate(("Ada", "Bob", "Cy")):
        take_seat(page, seat, name)
    version = state(page, your_turn=True)["version"]
    page.evaluate("""([code]) => {
        const g = window.rnGame, st = g.state();
        const a = code === "no_way_out"
          ? {kind: "extinguish_fire", text: "extinguish_fire 3", arg: 0, minutes: 3, cost: 3,
             repair: true, bonus: 0, chance: 30, doomed: false, ghost_after: 40,
             meets: {events: 1, items: 0}, warnings: [{code}]}
          : {kind: "open", text: "open 5", arg: 5, room: 5, minutes: 0, cost: 1, repair: false,
             warnings: [{code, room: 5}]};
        st.actions = [a];
        g.render();
    }""", [code])
    warn = page.locator(f"[data-testid=warn-{code}]")
    expect(warn).to_be_visible()
    assert ("Grog" in warn.inner_text()) if code == "fire_needs_item" else ("dies" in warn.inner_text())
    if lethal:
        expect(page.locator("[data-testid=repair-extinguish_fire-preview]")).to_contain_text("40")
        page.once("dialog", lambda d: d.dismiss())
        with page.expect_event("dialog") as asked:
            page.click("[data-testid=repair-extinguish_fire-go]")
        assert "dies" in asked.value.message
        assert page.evaluate("() => window.rnGame.busy") is False
        assert state(page)["version"] == version
    page.locator("[data-testid=actions]").screenshot(path=str(SHOTS / f"actions-warn-{code}.png"))


def _play_out(rn_url: str, gid: str, token: str) -> None:
    """Seat 0 plays through the WebSocket (No Action, End, Done, else the first option) until the
    game is over; the other seats are the server's bots."""
    prefer = ("end", "no_action", "done")
    seen = -1
    with WsClient(rn_url, gid, [token]) as ws:
        while True:
            st = ws.until(lambda m, after=seen: m["type"] == "state" and m["version"] > after
                          and (m["your_turn"] or m["status"] == "over"), timeout=30)
            if st["status"] == "over":
                return
            seen = st["version"]
            texts = [a["text"] for a in st["actions"]]
            ws.send({"type": "act", "seat": 0, "action": next((t for t in prefer if t in texts),
                                                             texts[0]), "version": seen})


def _ada_and_two_bots(api: httpx.Client) -> tuple[str, str]:
    """A 3-player game: Ada in seat 0, the creator's bots in seats 1 and 2. (id, Ada's token)"""
    gid, creator = new_game(api, 3, seed=9)
    token = take(api, gid, 0, "Ada")
    for seat in (1, 2):
        api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                 headers={"X-Creator-Token": creator})
    return gid, token


def _rematch_from(new_context: Any, gid: str, token: str) -> Any:
    """Ada's browser (holding seat 0's token, as after taking it) on the finished game presses
    Rematch: the page of the new game, where seat 0 is hers again."""
    ctx = new_context()
    saved = json.dumps({"seats": {"0": token}})
    ctx.add_init_script(f"localStorage.setItem('rn.game.{gid}', {json.dumps(saved)})")
    page = _page(ctx, f"/g/{gid}")
    page.click("[data-testid=rematch]")
    page.wait_for_url(re.compile(r"/g/(?!" + re.escape(gid) + r")[A-Za-z0-9_-]+$"))
    expect(page.locator("[data-testid=seat-tab-0]")).to_be_visible()
    return page


def test_rematch_from_the_end_screen_keeps_the_seat(new_context: Any, rn_url: str) -> None:
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid, token = _ada_and_two_bots(api)
    _play_out(rn_url, gid, token)
    page = _rematch_from(new_context, gid, token)
    assert state(page, seat=0)["status"] == "playing"


def test_a_rename_after_the_rematch_renames_the_new_games_seat(new_context: Any,
                                                               rn_url: str) -> None:
    """The rename dialog outlives the page it was first opened on: Ada opened it during the game,
    then played on, rematched in the same tab and renamed herself there. The new game's seat
    takes the name; the finished game keeps the old one (the dialog once kept its first page)."""
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid, token = _ada_and_two_bots(api)
        ctx = new_context()
        saved = json.dumps({"seats": {"0": token}})
        ctx.add_init_script(f"localStorage.setItem('rn.game.{gid}', {json.dumps(saved)})")
        page = _page(ctx, f"/g/{gid}")
        page.get_by_test_id("rename-0").click()
        page.get_by_test_id("rename-close").click()
        expect(page.get_by_test_id("rename-dialog")).to_be_hidden()
        _play_out(rn_url, gid, token)
        page.get_by_test_id("close-overlay").click()
        page.click("[data-testid=rematch]")
        page.wait_for_url(re.compile(r"/g/(?!" + re.escape(gid) + r")[A-Za-z0-9_-]+$"))
        nxt = page.url.rsplit("/", 1)[1]
        page.get_by_test_id("rename-0").click()
        dialog = page.get_by_test_id("rename-dialog")
        expect(dialog.get_by_test_id("rename-name")).to_have_value("Ada0")  # take() adds the seat
        dialog.get_by_test_id("rename-name").fill("Adele")
        dialog.get_by_test_id("rename-save").click()
        expect(dialog).to_be_hidden()
        expect(page.get_by_test_id("seat-0")).to_contain_text("Adele")
        assert api.get(f"/api/games/{nxt}").json()["seats"][0]["name"] == "Adele"
        assert api.get(f"/api/games/{gid}").json()["seats"][0]["name"] == "Ada0"
    assert not page.js_errors, page.js_errors


def test_a_player_who_let_a_bot_finish_plays_the_rematch(new_context: Any, rn_url: str) -> None:
    """Ada hands her seat to a bot to see the end sooner: the end screen still offers her the
    rematch, and there she holds her seat again, named as before (not a table of bots that
    starts without her)."""
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid, token = _ada_and_two_bots(api)
        assert api.post(f"/api/games/{gid}/seats/0/bot", json={"bot": "heuristic"},
                        headers=auth(token)).status_code == 200
        get_until(api, f"/api/games/{gid}", lambda r: r.json()["status"] == "over")  # bots play
    page = _rematch_from(new_context, gid, token)  # her browser: the token a bot's seat keeps
    assert state(page, seat=0, your_turn=True)["status"] == "playing"  # the bots wait for her
    expect(page.locator("[data-testid=seat-0]")).to_contain_text("Ada")
    assert not page.js_errors, page.js_errors


def test_a_player_away_when_the_rematch_started_joins_it_later(new_context: Any,
                                                                rn_url: str) -> None:
    """The rematch started while Ada's page was closed (the creator asked for it), so its
    broadcast never reached her: My games says so, her old game's page offers to join it, and
    she lands there in her seat, under her name."""
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid, creator = new_game(api, 3, seed=9)
        token = take(api, gid, 0, "Ada")
        for seat in (1, 2):
            api.post(f"/api/games/{gid}/seats/{seat}/bot", json={"bot": "heuristic"},
                     headers={"X-Creator-Token": creator})
        assert api.post(f"/api/games/{gid}/seats/0/bot", json={"bot": "heuristic"},
                        headers=auth(token)).status_code == 200
        get_until(api, f"/api/games/{gid}", lambda r: r.json()["status"] == "over")
        with WsClient(rn_url, gid, (), creator) as ws:
            nxt = ws.request({"type": "rematch"})["next"]
        assert api.get(f"/api/games/{gid}").json()["rematch"] == nxt
    ctx = new_context()
    saved = json.dumps({"seats": {"0": token}})
    ctx.add_init_script(f"localStorage.setItem('rn.game.{gid}', {json.dumps(saved)})")
    page = _page(ctx, "/me")
    expect(page.locator("[data-testid=me-rematch]")).to_have_text("its rematch has started")
    page.click(f"[data-testid=me-open-{gid}]")
    # a bot plays her seat, yet she talks at the table, under her name
    talk = page.locator("[data-testid=chat-input]")
    expect(talk).to_have_attribute("placeholder", "Say something as Ada0…")  # take() adds the seat
    talk.fill("gg, all")
    page.click("[data-testid=chat-send]")
    expect(page.locator("[data-testid=chat-list]")).to_contain_text("Ada")
    expect(page.locator("[data-testid=chat-list]")).to_contain_text("gg, all")
    # the board's end overlay offers it first, in sight (the end screen's button is further down)
    expect(page.get_by_test_id("overlay-rematch")).to_have_text("The rematch has started: join it")
    expect(page.get_by_test_id("overlay-rematch")).to_be_in_viewport()
    shot(page, "rematch-late-overlay")
    join = page.locator("[data-testid=rematch]")
    expect(join).to_have_text("The rematch has started: join it")
    join.click()
    page.wait_for_url(re.compile(re.escape(f"/g/{nxt}") + "$"))
    assert state(page, seat=0, your_turn=True)["status"] == "playing"
    expect(page.locator("[data-testid=seat-0]")).to_contain_text("Ada")
    assert not page.js_errors, page.js_errors


def test_a_spectator_is_offered_the_rematch_to_watch(new_context: Any, rn_url: str) -> None:
    """A friend watching the table by its link when the players start the rematch: the seated
    pages move on, and hers (she may be reading the story) offers the next game to watch, in
    the overlay and on the end screen. Opening the old game later offers it too."""
    with httpx.Client(base_url=rn_url, timeout=30) as api:
        gid, token = _ada_and_two_bots(api)
    _play_out(rn_url, gid, token)
    watcher = _page(new_context(), f"/g/{gid}")
    watcher.set_viewport_size(PHONE)
    expect(watcher.get_by_test_id("end-overlay")).to_be_visible()
    expect(watcher.get_by_test_id("overlay-rematch")).to_have_count(0)  # not hers to start
    expect(watcher.get_by_test_id("overlay-rematch-watch")).to_have_count(0)  # none yet
    with WsClient(rn_url, gid, [token]) as ws:
        nxt = ws.request({"type": "rematch"})["next"]
    link = watcher.get_by_test_id("overlay-rematch-watch")
    expect(link).to_have_text("The rematch has started: watch it")
    expect(link).to_be_in_viewport()
    shot(watcher, "rematch-spectator-phone")
    assert re.search(re.escape(f"/g/{nxt}") + "$", link.get_attribute("href") or "")
    link.click()
    watcher.wait_for_url(re.compile(re.escape(f"/g/{nxt}") + "$"))
    assert state(watcher)["status"] == "playing"
    later = _page(new_context(), f"/g/{gid}")  # someone opening the old game's link afterwards
    later.get_by_test_id("close-overlay").click()
    expect(later.get_by_test_id("rematch-watch")).to_have_text("The rematch has started: watch it")
    expect(later.get_by_test_id("rematch")).to_have_count(0)
    assert not watcher.js_errors and not later.js_errors, (watcher.js_errors, later.js_errors)


def test_the_ghost_never_covers_another_gnomes_keeper(new_context: Any) -> None:
    """Blue's ghost ends on the space where Green's keeper stands: the two stand side by side
    (it was drawn over Green's, which vanished from the track)."""
    page = _page(new_context(), "/")
    create_game(page, players=3, seed=11)
    for seat, name in enumerate(("Ada", "Bob", "Cy")):
        take_seat(page, seat, name)
    state(page, your_turn=True)
    other = page.evaluate("""() => {
        const g = window.rnGame, view = g.state().view;
        const other = view.gnomes.find((gn) => gn.number !== view.active && gn.alive);
        view.ghost = other.keeper;
        g.render();
        return other.number;
    }""")
    keeper = page.get_by_test_id(f"keeper-{other}").bounding_box()
    ghost = page.get_by_test_id("ghost").bounding_box()
    assert keeper and ghost
    assert page.get_by_test_id("ghost").get_attribute("data-space") == \
        page.get_by_test_id(f"keeper-{other}").get_attribute("data-space")
    overlap = max(0.0, min(keeper["x"] + keeper["width"], ghost["x"] + ghost["width"])
                  - max(keeper["x"], ghost["x"]))
    assert overlap < keeper["width"] / 2, (keeper, ghost)  # at least half of it in sight
    page.locator("#track").screenshot(path=str(SHOTS / "track-ghost-beside-keeper.png"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_seat_is_taken_under_a_name_typed_first(new_context: Any, size: str) -> None:
    """"Take this seat" with the name field empty took the seat as "Player 1", in the taker's
    language for everyone, with no way to rename: now the field asks for the name first."""
    page = _page(new_context(), "/")
    if size == "phone":
        page.set_viewport_size(PHONE)
    create_game(page, players=3, seed=11)
    page.click("[data-testid=take-seat-0]")
    field = page.get_by_test_id("seat-name")
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".toast").last).to_contain_text("Type your name first")
    expect(page.get_by_test_id("seat-tab-0")).to_have_count(0)  # no seat taken
    expect(field).to_be_in_viewport()
    shot(page, f"take-seat-name-first-{size}")
    field.fill("Ada")
    page.click("[data-testid=take-seat-0]")
    expect(page.get_by_test_id("seat-tab-0")).to_be_visible()
    expect(page.get_by_test_id("seat-0")).to_contain_text("Ada")
    assert not page.js_errors, page.js_errors


def test_rooms_and_hatches_explain_themselves_on_hover(new_context: Any) -> None:
    """Issue 8: hover help on rooms and hatches (SVG titles, the browser's tooltip), translated."""
    page = _page(new_context(), "/")
    gid = create_game(page, 3, seed=32)
    take_seat(page, 0, "Ada")
    state(page)
    title = page.locator("[data-testid=room-1] > title")
    expect(title).to_have_text(re.compile(r"Engine Room[\s\S]*Repaired here: Fix Engine"))
    hatch = page.locator("[data-testid^=hatch-] > title").first
    expect(hatch).to_have_text(re.compile(r"Hatch between|Exterior hatch"))
    page.select_option("[data-testid=language-select]", "de")
    expect(title).to_have_text(re.compile(r"Hier repariert man: "))
    assert gid and not page.js_errors, page.js_errors
