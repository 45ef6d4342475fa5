"""Browser tests of "see what happens" (static/js/show.js): the die roll, event card, item draws
and keeper walk shown on the board for each new state, Skip, reduced motion, no replay on reload,
and the recap of what happened since the seat's last action. Debian's Chromium and the session's
real server, with the fixtures of conftest.py.

The game is seed 37 with three players (found by trying seeds with the engine): seat 0 (the
browser) moves first, draws 4 cards and ends its turn, and its keeper meets a Fire event card;
seat 2 (played by the test over HTTP) then rolls for Extinguish Fire and its keeper meets three
event cards and an item icon; seat 1 draws 4 cards (hidden from seat 0) and blocks a hatch. The
expected texts come from the engine playing the same moves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browsertools import SKIP, TIMEOUT, VIEWPORT, _page, expect, play_one, shot, state
from webtools import auth, new_game, take

from rednovember.i18n import catalog
from rednovember.i18n.describe import describe_entry
from rednovember.rules.config import Config
from rednovember.rules.game import Game
from rednovember.rules.setup import new_game as engine_game

PHONE = {"width": 390, "height": 844}
SEED = 37
REPAIRS = ("fix_engine", "fix_oxygen_pumps", "fix_reactor", "extinguish_fire", "pump_water",
           "unblock_hatch", "stop_missile_launch", "kill_kraken")
pytestmark = SKIP
EN = catalog("en")

# The card shown now, or null when the show is idle.
_CARD = """() => {
    const c = document.querySelector("[data-testid=show-card]");
    if (!c || c.hidden) return null;
    const q = (sel) => [...c.querySelectorAll(sel)].map((e) => e.textContent.trim());
    const rings = [...document.querySelectorAll("[data-testid=show-ring]")];
    return {kind: c.dataset.kind, text: c.textContent, title: q("[data-testid=show-title]")[0] || "",
            result: q("[data-testid=show-result]")[0] || "",
            chance: q("[data-testid=show-chance]")[0] || "",
            items: q("[data-testid=show-item]"), hidden: q("[data-testid=show-hidden]")[0] || "",
            lines: q("[data-testid=show-lines] li > span:not(.show-die)"), rings: rings.length,
            rooms: rings.map((r) => Number(r.dataset.room)),
            walk: q("[data-testid=show-walk]")[0] || "",
            walker: document.querySelector("[data-testid=show-walker]").hidden ? null
                : Number(document.querySelector("[data-testid=show-walker]").dataset.space)};
}"""
_SHOWN_OVER = "n => Number(document.querySelector('[data-testid=show-stage]').dataset.shown) > n"


def pick(g: Game) -> str:
    """The moves of the seats the test plays: a repair with the most minutes, else the most
    cards, else No Action / End / Done / the first choice (as browsertools.play_one)."""
    acts = g.legal_actions()
    texts = [a.text(g.data) for a in acts]
    repairs = [a for a in acts if a.kind in REPAIRS]
    if repairs:
        return max(repairs, key=lambda a: a.minutes).text(g.data)
    draws = [a for a in acts if a.kind == "draw"]
    if draws:
        return max(draws, key=lambda a: a.arg).text(g.data)
    return next((k for k in ("no_action", "end", "done") if k in texts), texts[0])


class Table:
    """The server's game and the engine's copy of it, moved together."""

    def __init__(self, rn_url: str, seed: int = SEED, variants: tuple[str, ...] = ()) -> None:
        self.api = httpx.Client(base_url=rn_url, timeout=30)
        self.gid, _ = new_game(self.api, 3, seed=seed, variants=list(variants))
        self.tokens = [take(self.api, self.gid, s) for s in range(3)]
        self.g = engine_game(Config(players=3, seed=seed, variants=frozenset(variants)))

    def act(self, seat: int, text: str) -> list[Any]:
        """Seat ``seat`` makes a move over HTTP; returns the engine's new log entries."""
        r = self.api.post(f"/api/games/{self.gid}/act", json={"action": text},
                          headers=auth(self.tokens[seat]))
        assert r.status_code == 200, r.text
        return self.mirror(text)

    def mirror(self, text: str) -> list[Any]:
        n = len(self.g.log)
        self.g.apply_text(text)
        return list(self.g.log[n:])

    def close(self) -> None:
        self.api.close()


@pytest.fixture
def table(rn_url: str) -> Iterator[Table]:
    t = Table(rn_url)
    yield t
    t.close()


def open_seat(ctx: Any, gid: str, token: str) -> Any:
    saved = json.dumps({"seats": {"0": token}})  # this browser holds seat 0, as after taking it
    ctx.add_init_script(f"localStorage.setItem('rn.game.{gid}', {json.dumps(saved)})")
    return _page(ctx, f"/g/{gid}")


def hold(page: Any) -> None:
    """Each step stays until the test moves on (show.next()): cards are read, not raced."""
    page.evaluate("window.rnGame.show.pace = 600000")


def cards(page: Any) -> list[dict[str, Any]]:
    """Every card of the queue, in order (the show is held): reads one, moves to the next."""
    out: list[dict[str, Any]] = []
    for _ in range(60):
        card = page.evaluate(_CARD)
        if card is None:
            return out
        out.append(card)
        page.evaluate("window.rnGame.show.next()")
    raise AssertionError("the show never ended")


def colour(g: Game, gnome: int) -> str:
    return EN.raw("colours", g.gnomes[gnome].colour)


def expect_cards(g: Game, new: list[Any], shown: list[dict[str, Any]]) -> None:
    """The cards of a batch match the engine's entries: rolls, event cards, draws."""
    rolls = [c for c in shown if c["kind"] == "roll"]
    events = [c for c in shown if c["kind"] == "event"]
    draws = [c for c in shown if c["kind"] == "items"]
    assert len(rolls) == sum(e[0] == "repair" for e in new)
    assert len(events) == sum(e[0] == "event" for e in new)
    assert len(draws) == sum(e[0] in ("draw", "item_icon") for e in new)
    ev = iter(events)
    for e in new:
        if e[0] == "event":
            card = next(ev)
            assert card["title"] == EN.raw("events", g.data.events[e[1]].kind)
            assert EN.raw("event_help", g.data.events[e[1]].kind) in card["text"]


def test_rolls_cards_draws_and_the_walk_are_shown_and_skip_empties_the_queue(
        new_context: Any, table: Table) -> None:
    page = open_seat(new_context(), table.gid, table.tokens[0])
    st = state(page, your_turn=True)
    hold(page)
    g = table.g
    # seat 0 (Red) draws 4 cards through the page: shown by name, the seat's own hand
    st = play_one(page, st)
    new = table.mirror("draw 4")
    shown = cards(page)
    assert [c["kind"] for c in shown] == ["items"]
    names = [EN.raw("items", g.data.items[i].id) for i in new[0][2]]
    assert shown[0]["items"] == names and shown[0]["title"] == f"{colour(g, 0)} draws"
    # … and ends the turn: the keeper walks to the event icon, a Fire card sets a room on fire
    st = play_one(page, state(page, after=st["version"] - 1, your_turn=True))
    new = table.mirror("end")
    shown = cards(page)
    expect_cards(g, new, shown)
    walk = shown[0]
    event = new[0]
    assert walk["kind"] == "walk" and walk["walk"] == f"Space 60 → {event[2]}"
    assert event[2] <= walk["walker"] <= 60  # the ring steps along the track
    card = next(c for c in shown if c["kind"] == "event")
    room = next(e[1] for e in new if e[0] == "fire")
    fire_line = describe_entry(("fire", room), g, "en")
    assert fire_line in card["lines"] and room in card["rooms"]  # the rolled room is ringed
    assert f"drawn on space {event[2]}" in card["text"]
    # seat 2 (Yellow) rolls for Extinguish Fire
    version = st["version"]
    new = table.act(2, pick(g))
    repair = new[0]
    assert repair[0] == "repair"
    st = state(page, after=version)
    shown = cards(page)
    assert len(shown) == 1 and shown[0]["kind"] == "roll"
    roll = shown[0]
    kind = EN.raw("action_kinds", repair[2])
    assert roll["title"] == f"{colour(g, 2)}: {kind}"
    assert roll["chance"] == f"{repair[3]} min: needs {repair[4]} or less ({min(10, repair[4]) * 10} %)"
    outcome = "success!" if repair[6] else "failed."
    assert roll["result"] == f"Rolled {repair[5]}: {outcome}"
    # … ends its turn: three event cards and an item icon; the show plays on its own, Skip empties it
    page.evaluate("window.rnGame.show.pace = 1300")
    version = st["version"]
    new = table.act(2, "end")
    st = state(page, after=version)
    stage = page.locator("[data-testid=show-stage]")
    first = int(stage.get_attribute("data-shown") or 0)
    assert int(stage.get_attribute("data-queued") or 0) >= 5
    page.wait_for_function(_SHOWN_OVER, arg=first)  # the next step came by itself
    expect(page.locator("[data-testid=show-card]")).to_be_visible()
    page.click("[data-testid=show-skip]")
    expect(stage).to_have_attribute("data-queued", "0")
    expect(page.locator("[data-testid=show-card]")).to_be_hidden()
    expect(page.locator("[data-testid=show-ring]")).to_have_count(0)
    expect(page.locator("[data-testid=show-walker]")).to_be_hidden()
    # Escape skips too
    hold(page)
    version = st["version"]
    new = table.act(1, pick(g))  # Blue draws 4 cards: hands are open in the standard game
    assert new[0][0] == "draw"
    st = state(page, after=version)
    card = page.evaluate(_CARD)
    assert card["kind"] == "items" and card["hidden"] == ""
    assert card["items"] == [EN.raw("items", g.data.items[i].id) for i in new[0][2]]
    page.keyboard.press("Escape")
    expect(page.locator("[data-testid=show-card]")).to_be_hidden()
    # the others play on until seat 0 must decide again
    while g.player_to_move != 0:
        version = st["version"]
        table.act(g.player_to_move, pick(g))
        st = state(page, after=version)
    # the overlays take no click: the board answers under a card, and the page plays on with a
    # card on show (the show never holds up the state)
    st = state(page, your_turn=True)
    card = page.locator("[data-testid=show-card]")
    expect(card).to_be_visible()
    box = card.bounding_box()
    under = page.evaluate("([x, y]) => !!document.elementFromPoint(x, y).closest('#board')",
                          [box["x"] + box["width"] / 2, box["y"] + box["height"] / 3])
    assert under
    assert card.evaluate("(e) => getComputedStyle(e).pointerEvents") == "none"
    queued = page.evaluate("window.rnGame.show.queue.length")
    shown = int(page.locator("[data-testid=show-stage]").get_attribute("data-shown") or 0)
    st = play_one(page, st)
    assert int(page.locator("[data-testid=show-stage]").get_attribute("data-shown") or 0) == shown
    assert page.evaluate("window.rnGame.show.queue.length") >= queued
    assert not page.js_errors, page.js_errors


def test_recap_lists_what_happened_since_the_seats_last_action_and_reload_replays_nothing(
        new_context: Any, table: Table) -> None:
    page = open_seat(new_context(), table.gid, table.tokens[0])
    st = state(page, your_turn=True)
    g = table.g
    expect(page.locator("[data-testid=recap]")).to_be_hidden()  # nothing happened yet
    st = play_one(page, st)
    table.mirror("draw 4")
    mark = len(g.log)  # seat 0's last own action was the draw: the recap starts after it
    st = play_one(page, state(page, after=st["version"] - 1, your_turn=True))
    table.mirror("end")
    while g.player_to_move != 0:
        version = st["version"]
        table.act(g.player_to_move, pick(g))
        st = state(page, after=version)
    st = state(page, your_turn=True)
    recap = page.locator("[data-testid=recap]")
    expect(recap).to_be_visible()
    expect(recap.locator("h3")).to_have_text("Since your last turn")
    # in view where the turn comes round: nothing (the table talk at the column's foot) over it
    head = recap.locator("h3").bounding_box()
    assert page.evaluate("([x, y]) => !!document.elementFromPoint(x, y)?.closest('#recap')",
                         [head["x"] + 10, head["y"] + head["height"] / 2])
    lines = recap.locator("[data-testid=recap-entry]").all_inner_texts()
    since = g.log[mark:]
    want = [describe_entry(e, g, "en", 0) for e in since if e[0] in ("repair", "event", "fire", "track")]
    assert want and all(w in lines for w in want), (want, lines)
    assert not any(describe_entry(e, g, "en", 0) in lines for e in g.log[:mark] if e[0] == "draw")
    text = recap.inner_text()
    assert f"{colour(g, 1)}'s turn" in text and f"{colour(g, 2)}'s turn" in text
    shot(page, "show-recap-desktop")
    page.set_viewport_size(PHONE)
    recap.scroll_into_view_if_needed()
    shot(page, "show-recap-phone")
    page.set_viewport_size(VIEWPORT)
    # a reload shows the recap again but replays no old entry on the board
    version = st["version"]
    page.reload()
    st = state(page, your_turn=True)
    assert st["version"] == version
    stage = page.locator("[data-testid=show-stage]")
    expect(stage).to_have_attribute("data-shown", "0")
    expect(page.locator("[data-testid=show-card]")).to_be_hidden()
    expect(recap).to_be_visible()
    assert recap.locator("[data-testid=recap-entry]").all_inner_texts() == lines
    recap.locator("[data-testid=recap-close]").click()
    expect(recap).to_be_hidden()
    assert stage.get_attribute("data-shown") == "0"
    # once the seat acts, its recap is over; new entries are shown (its turn ends with a walk)
    for _ in range(10):
        st = play_one(page, st)
        expect(recap).to_be_hidden()
        if not st["your_turn"]:
            break
    page.wait_for_function(_SHOWN_OVER, arg=0)
    assert not page.js_errors, page.js_errors


def test_recap_says_what_a_stand_in_decided_for_the_seat(new_context: Any, table: Table) -> None:
    """Seat 0's player hands the seat to the bot as the game starts; the bot plays its turn; taken
    back, the recap says what was decided for the player, and what followed."""
    page = open_seat(new_context(), table.gid, table.tokens[0])
    state(page, your_turn=True)
    r = table.api.post(f"/api/games/{table.gid}/seats/0/bot", json={"bot": "heuristic"},
                       headers=auth(table.tokens[0]))
    assert r.status_code == 200, r.text
    page.wait_for_function(f"""async () => {{
        const r = await fetch("/api/games/{table.gid}");
        const g = await r.json();
        return g.to_move !== 0 && g.seats[0].kind === "bot";
    }}""", polling=200)
    page.get_by_test_id("reclaim-seat-0").click()
    state(page, seat=0)
    st = page.evaluate("() => ({standins: window.rnGame.state().standins, "
                       "log: window.rnGame.logs.get(0)})")
    log = [tuple(e) for e in st["log"]]
    made = [i for a, b in st["standins"] for i in range(a, b)]  # the bot's decisions' entries
    own = [log[i] for i in made if log[i][0] in ("draw", "repair", "enter", "open", "stay",
                                                 "play", "no_action", "trade")
           and log[i][1] == 0]
    assert own, log  # it did something for the player before its turn ended
    recap = page.locator("[data-testid=recap]")
    expect(recap).to_be_visible()
    expect(recap.locator("[data-for-you]")).to_have_text(
        [f"Decided for you: {describe_entry(e, table.g, 'en', 0)}" for e in own])
    assert recap.locator("[data-testid=recap-entry]").count() > len(own)  # and what came after
    shot(page, "show-recap-for-you-desktop")
    page.set_viewport_size(PHONE)
    recap.scroll_into_view_if_needed()
    shot(page, "show-recap-for-you-phone")
    assert not page.js_errors, page.js_errors


def test_reduced_motion_shows_the_same_cards_without_movement(browser: Any, rn_url: str,
                                                               table: Table) -> None:
    ctx = browser.new_context(viewport=VIEWPORT, base_url=rn_url, reduced_motion="reduce")
    try:
        ctx.set_default_timeout(TIMEOUT)
        page = open_seat(ctx, table.gid, table.tokens[0])
        st = state(page, your_turn=True)
        hold(page)
        st = play_one(page, st)
        table.mirror("draw 4")
        card = page.locator("[data-testid=show-card]")
        expect(card).to_be_visible()
        assert page.evaluate(_CARD)["kind"] == "items"
        style = "(el) => [getComputedStyle(el).animationName, getComputedStyle(el).transitionDuration]"
        assert card.evaluate(style) == ["none", "0s"]
        page.evaluate("window.rnGame.show.next()")
        play_one(page, state(page, after=st["version"] - 1, your_turn=True))
        new = table.mirror("end")
        walk = page.evaluate(_CARD)
        event = new[0]
        # the walk is told, and the ring stands at once where it ends: no stepping
        assert walk["kind"] == "walk" and walk["walk"] == f"Space 60 → {event[2]}"
        assert walk["walker"] == event[2]
        walker = page.locator("[data-testid=show-walker]")
        assert walker.evaluate(style) == ["none", "0s"]
        page.evaluate("window.rnGame.show.next()")
        ev = page.evaluate(_CARD)
        assert ev["kind"] == "event"
        assert ev["title"] == EN.raw("events", table.g.data.events[event[1]].kind)
        assert ev["rings"] >= 1
        for sel in ("[data-testid=show-card]", "[data-testid=show-ring]", "[data-testid=show-die]"):
            assert page.locator(sel).first.evaluate(style) == ["none", "0s"], sel
    finally:
        ctx.close()


_WALKER_AT_57 = "() => document.querySelector('[data-testid=show-walker]').dataset.space === '57'"

def test_screenshots_of_a_roll_an_event_card_and_the_walk(new_context: Any, table: Table) -> None:
    page = open_seat(new_context(), table.gid, table.tokens[0])
    st = state(page, your_turn=True)
    hold(page)
    st = play_one(page, st)
    table.mirror("draw 4")
    shot(page, "show-draw-desktop")
    page.evaluate("window.rnGame.show.next()")
    st = play_one(page, state(page, after=st["version"] - 1, your_turn=True))
    table.mirror("end")
    expect(page.locator("[data-testid=show-card][data-kind=walk]")).to_be_visible()
    walker = page.locator("[data-testid=show-walker]")
    page.wait_for_function(_WALKER_AT_57)
    expect(walker).to_be_visible()
    shot(page, "show-walk-desktop")
    page.set_viewport_size(PHONE)
    page.evaluate("window.rnGame.show.walk(window.rnGame.show.current)")
    page.wait_for_function(_WALKER_AT_57)
    shot(page, "show-walk-phone")
    page.evaluate("window.rnGame.show.next()")
    expect(page.locator("[data-testid=show-card][data-kind=event]")).to_be_visible()
    shot(page, "show-event-phone")
    page.set_viewport_size(VIEWPORT)
    page.evaluate("window.rnGame.show.draw()")
    shot(page, "show-event-desktop")
    version = st["version"]
    table.act(2, pick(table.g))
    state(page, after=version)
    while page.evaluate(_CARD)["kind"] != "roll":
        page.evaluate("window.rnGame.show.next()")
    shot(page, "show-roll-desktop")
    page.set_viewport_size(PHONE)
    page.evaluate("window.rnGame.show.draw()")
    shot(page, "show-roll-phone")


def test_another_seats_hidden_draw_shows_only_a_count(new_context: Any, rn_url: str) -> None:
    """Mad Gnomes hides hands: the log the page gets names no card, and neither does the show."""
    table = Table(rn_url, seed=1, variants=("mad-gnomes",))  # seat 1 moves first and draws 4
    try:
        page = open_seat(new_context(), table.gid, table.tokens[0])
        st = state(page, seat=0)
        hold(page)
        assert table.g.player_to_move == 1 and pick(table.g) == "draw 4"
        new = table.act(1, "draw 4")
        state(page, after=st["version"])
        card = page.evaluate(_CARD)
        assert card["kind"] == "items" and card["title"] == f"{colour(table.g, 1)} draws"
        assert card["items"] == [] and card["hidden"] == "4 cards, hidden from you"
        names = {EN.raw("items", table.g.data.items[i].id) for i in new[0][2]}
        assert not any(n in card["text"] for n in names)
    finally:
        table.close()


# show.js's steps for a made-up stretch of log, built and drawn in the page with its own model:
# the walk split at the icons met, effects on their card, faint checks, deaths, a Lucky Charm.
_STEPS = """async () => {
    const show = await import("/static/js/show.js");
    const model = window.rnGame.model();
    const prev = structuredClone(model.view), next = structuredClone(model.view);
    prev.active = 0; prev.gnomes[0].keeper = 60;
    next.gnomes[0].keeper = 50; next.gnomes[1].keeper = 60;
    const entries = [["repair", 0, "fix_engine", 4, 4, 7, false, false, -1], ["track_reset", 2, 1],
        ["faint_check", 0, 3, 2, true], ["event", 5, 57], ["fire", 3], ["track", 0, 3],
        ["death", 1, "fire", 3], ["item_icon", 0, 54, 2], ["charm", 0, 51], ["turn", 1, 60]];
    const steps = show.buildSteps(entries, prev, next);
    const box = document.createElement("div");
    return steps.map((s) => {
        box.innerHTML = show.stepHTML(model, s);
        return {kind: s.kind, from: s.from ?? null, to: s.to ?? null, icon: s.icon ?? null,
                effects: (s.effects || []).map((e) => e[0]), text: box.textContent};
    });
}"""


def test_the_steps_of_a_turn_split_the_walk_at_the_icons(new_context: Any, table: Table) -> None:
    page = open_seat(new_context(), table.gid, table.tokens[0])
    state(page, your_turn=True)
    steps = page.evaluate(_STEPS)
    g = table.g
    assert [(s["kind"], s["from"], s["to"], s["icon"]) for s in steps] == [
        ("roll", None, None, None), ("faint", None, None, None), ("walk", 60, 57, "event"),
        ("event", None, None, None), ("death", None, None, None), ("walk", 57, 54, "item"),
        ("items", None, None, None), ("walk", 54, 51, "event"), ("info", None, None, None),
        ("walk", 51, 50, None)]
    roll, faint, _, event, death, _, items, _, charm, _ = steps
    assert roll["effects"] == ["track_reset"] and "Rolled 7: failed." in roll["text"]
    assert "needs 4 or less (40 %)" in roll["text"]
    assert event["effects"] == ["fire", "track"]
    assert f"Faint check: {colour(g, 0)}" in faint["text"] and "Faints!" in faint["text"]
    assert colour(g, 1) in death["text"] and "room 3" in death["text"]
    assert EN.raw("items", g.data.items[2].id) in items["text"]
    assert "Lucky Charm" in charm["text"]
