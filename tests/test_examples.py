"""The German rulebook's worked examples, replayed move by move."""

from __future__ import annotations

import pytest
from helpers import (
    HIGH,
    LOW,
    arrange,
    block,
    events,
    give,
    logged,
    stack_events,
    start,
)

from rednovember.rules.invariants import check


# --- "Beispiel: Haralds Gnom" (unblock with a crowbar in low water) ---------------------------
@pytest.mark.parametrize(("roll", "success"), [(7, True), (8, False)])
def test_example_unblock_with_crowbar_in_low_water(roll: int, success: bool) -> None:
    g = arrange()
    harald = g.gnomes[0]
    harald.room = 3
    g.water[3] = LOW
    block(g, 1, 3)
    give(g, 0, "crowbar", "coffee")  # the coffee keeps the item window open after the action
    start(g)
    assert g.ghost == 44
    g.apply_text("play crowbar")
    g.rng.forced = [roll]
    g.apply_text("unblock_hatch 1 4")
    (entry,) = logged(g, "repair")
    # ("repair", gnome, kind, minutes, target, roll, success, doomed)
    assert entry[2:7] == ("unblock_hatch", 4, 7, roll, success)
    assert g.ghost == 44 - 6  # 4 minutes + 2 for the low water; the 2 do not help the roll
    assert g.blocked[g.data.hatch_between[(1, 3)]] is (not success)
    g.apply_text("end")
    assert harald.keeper == 38
    check(g)


# --- "EINE BEISPIELRUNDE" (Christoph's turn from Missile Control) -----------------------------
def _missile_control_position():
    g = arrange(players=3)
    yellow = g.gnomes[0]
    yellow.room, yellow.keeper, yellow.intoxication = 7, 40, 2
    g.gnomes[1].keeper, g.gnomes[2].keeper = 30, 25
    g.gnomes[1].room, g.gnomes[2].room = 8, 10
    give(g, 0, "grog")  # his last Grog
    g.water[5] = HIGH
    g.fire[2] = g.fire[1] = True
    block(g, 2, 4)
    g.tracks[g.data.tracks.index("pressure")] = 7
    # the faint check turns up a "2"; the seven events on the way are harmless
    stack_events(g, ("respite", 2), "respite", "respite", "respite", "respite", "respite",
                 "respite", "dive")
    return g


def test_example_turn_from_missile_control_step_by_step() -> None:
    g = start(_missile_control_position())
    yellow = g.gnomes[0]
    assert g.active == 0 and g.ghost == 40

    g.apply_text("open 5")  # +1; the water evens out: both rooms low
    assert g.ghost == 39 and g.water[5] == LOW and g.water[7] == LOW
    g.apply_text("enter")  # +1 for the low water
    assert yellow.room == 5 and g.ghost == 38

    g.apply_text("play grog")  # 0 minutes; intoxication 2 -> 3
    assert yellow.intoxication == 3
    g.apply_text("open 2")
    g.apply_text("enter")  # a burning room, allowed by the Grog; 0 minutes
    assert yellow.room == 2 and g.ghost == 37
    g.apply_text("open 1")
    g.apply_text("enter")  # the Grog covers a second burning room
    assert yellow.room == 1 and g.ghost == 36
    actions = {a.kind for a in g.legal_actions()} - {"open", "play"}
    assert actions == {"extinguish_fire"}  # the only action in a burning room

    g.rng.forced = [10]  # 7 minutes + 3 (Grog): even a 10 succeeds
    g.apply_text("extinguish_fire 7")
    (rep,) = logged(g, "repair")
    assert rep[2:7] == ("extinguish_fire", 7, 10, 10, True)
    assert not g.fire[1]
    assert g.fire[2]  # the fire he ran through still burns

    # Phase 3: a "2" with intoxication 3 -> he faints (+10): 40 - 4 - 7 - 10 = 19
    (fc,) = logged(g, "faint_check")
    assert g.data.events[fc[2]].faint == 2 and fc[3] == 3 and fc[4] is True
    assert yellow.fainted
    # Phase 4: the keeper goes 40 -> 19, meeting 7 event icons and 2 item icons
    assert yellow.keeper == 19
    assert len(logged(g, "event")) + len(logged(g, "charm")) == 7
    assert events(g) == ["respite"] * 6 + ["dive"]
    items = logged(g, "item_icon")
    assert [e[2] for e in items] == [30, 20]
    assert all(e[3] >= 0 for e in items) and len(yellow.hand) == 2
    assert yellow.alive and yellow.room == 1
    assert g.tracks[g.data.tracks.index("pressure")] == 8
    # the next turn is the gnome furthest back: gnome 1 on 30
    assert g.active == 1 and g.ghost == 30
    check(g)


def test_example_turn_fainted_gnome_dies_if_an_event_sets_his_room_on_fire() -> None:
    """The example's warning: an event burning his room would kill the fainted gnome."""
    g = _missile_control_position()
    stack_events(g, ("respite", 2), "respite", "fire", "respite")
    start(g)
    yellow = g.gnomes[0]
    for t in ("open 5", "enter", "play grog", "open 2", "enter", "open 1", "enter"):
        g.apply_text(t)
    g.rng.forced = [10, 1]  # the extinguish roll, then the Fire event rolls room 1
    g.apply_text("extinguish_fire 7")
    assert yellow.fainted is False and yellow.alive is False
    death = logged(g, "death")
    assert death == [("death", 0, "fire", 1)]
    assert events(g) == ["respite", "fire"]  # no further events once he is dead
    assert not logged(g, "item_icon")
    assert g.active == 1
    check(g)


# --- "Ausfall der Luftversorgung" drawn on 45 puts Asphyxiated! on 35 ------------------------
def _draw_at(space: int, kind: str):
    """Gnome 0 (keeper space + 1) spends one minute; its keeper meets the event icon on space."""
    g = arrange()
    g.gnomes[0].keeper = space + 1
    for other in g.gnomes[1:]:
        other.keeper = min(space, other.keeper)
    stack_events(g, kind)
    start(g)
    g.apply_text("no_action")
    assert events(g)[0] == kind
    return g


def test_example_air_failure_drawn_on_45_places_asphyxiated_on_35() -> None:
    g = _draw_at(45, "air_failure")
    assert g.tokens[g.data.tokens.index("asphyxiated")] == 35
    assert logged(g, "token") == [("token", g.data.tokens.index("asphyxiated"), 35)]


def test_example_kraken_token_goes_15_spaces_on() -> None:
    g = _draw_at(45, "kraken")
    assert g.tokens[g.data.tokens.index("kraken")] == 30
