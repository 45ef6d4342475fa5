"""Phase 1, Movement: opening hatches, reflowing water, entering rooms and the Sea."""

from __future__ import annotations

import pytest
from helpers import HIGH, LOW, NONE, arrange, block, give, kinds, logged, rejects, start

from rednovember.rules import Action
from rednovember.rules.data import SEA
from rednovember.rules.invariants import check
from rednovember.rules.state import MOVE, OPENED


def _opens(g) -> list[int]:
    return sorted(a.arg for a in g.legal_actions() if a.kind == "open")


def test_open_offers_every_unblocked_hatch_of_the_room_and_costs_one_minute() -> None:
    g = start(arrange())
    assert _opens(g) == [SEA, 5]  # room 6: hatch to 5, exterior hatch to the Sea
    g.apply_text("open 5")
    assert g.ghost == 43 and g.phase == OPENED and g.opened == 5
    assert logged(g, "open") == [("open", 0, 6, 5)]


def test_entering_a_dry_room_costs_nothing() -> None:
    g = start(arrange())
    g.apply_text("open 5")
    g.apply_text("enter")
    assert g.gnomes[0].room == 5 and g.ghost == 43 and g.phase == MOVE
    assert _opens(g) == [2, 4, 6, 7, 8]


def test_entering_a_low_water_room_costs_one_more_minute() -> None:
    g = arrange()
    g.water[5] = LOW
    start(g)
    g.apply_text("open 5")
    g.apply_text("enter")
    assert g.gnomes[0].room == 5 and g.ghost == 42


def test_entering_a_high_water_room_is_forbidden() -> None:
    g = arrange()
    g.water[6] = HIGH  # high does not flow into high: room 5 stays high
    g.water[5] = HIGH
    start(g)
    g.apply_text("open 5")
    assert g.water[5] == HIGH
    assert Action("enter") not in g.legal_actions()
    rejects(g, "enter", "not legal")


def test_stay_after_open_closes_the_hatch_and_keeps_the_gnome_in_its_room() -> None:
    g = start(arrange())
    g.apply_text("open 5")
    g.apply_text("stay")
    assert g.gnomes[0].room == 6 and g.ghost == 43 and g.phase == MOVE
    g.apply_text("open 5")  # any number of moves
    g.apply_text("stay")
    assert g.ghost == 42
    assert logged(g, "stay") == [("stay", 0), ("stay", 0)]


def test_opening_a_hatch_to_let_high_water_out_then_staying() -> None:
    """"... manchmal auch aus anderen Gründen, z.B. wenn er Wasser abfließen lassen will"."""
    g = arrange()
    g.water[6] = HIGH
    start(g)
    assert kinds(g.legal_actions()) == {"open", "no_action"}
    g.apply_text("open 5")
    g.apply_text("stay")
    assert g.water[6] == LOW and g.water[5] == LOW
    assert "pump_water" in kinds(g.legal_actions())  # now low: Pump Water possible


def test_blocked_hatch_cannot_be_opened() -> None:
    g = arrange()
    block(g, 5, 6)
    start(g)
    assert _opens(g) == [SEA]
    rejects(g, "open 5", "not legal")


def test_open_to_a_room_that_is_not_adjacent_is_rejected() -> None:
    g = start(arrange())
    rejects(g, "open 1", "not legal")
    rejects(g, "enter")  # nothing opened yet


def test_no_hatch_can_be_opened_without_a_minute_left() -> None:
    g = arrange()
    g.gnomes[0].keeper = 1
    g.gnomes[1].keeper = g.gnomes[2].keeper = 0
    start(g)
    g.apply_text("open 5")
    g.apply_text("stay")
    assert g.ghost == 0 and _opens(g) == []
    assert kinds(g.legal_actions()) == {"end"}


def test_entering_low_water_needs_the_extra_minute_to_be_left() -> None:
    g = arrange()
    g.gnomes[0].keeper = 1
    g.gnomes[1].keeper = g.gnomes[2].keeper = 0
    g.water[5] = LOW
    start(g)
    g.apply_text("open 5")  # ghost 0: entering would cost 1 more
    assert Action("enter") not in g.legal_actions()


# --- burning rooms --------------------------------------------------------------------------
def test_burning_room_cannot_be_entered_without_grog_or_extinguisher_played() -> None:
    g = arrange()
    g.fire[5] = True
    give(g, 0, "grog", "fire_extinguisher")  # held, not played
    start(g)
    g.apply_text("open 5")
    assert Action("enter") not in g.legal_actions()
    rejects(g, "enter")


@pytest.mark.parametrize("item", ["grog", "fire_extinguisher"])
def test_burning_room_may_be_entered_after_playing_grog_or_extinguisher(item: str) -> None:
    g = arrange()
    g.fire[5] = True
    give(g, 0, item)
    start(g)
    g.apply_text("open 5")
    g.apply_text(f"play {item}")  # may be played after opening, before entering
    g.apply_text("enter")
    assert g.gnomes[0].room == 5 and g.ghost == 43


def test_one_play_covers_several_burning_rooms_this_turn() -> None:
    g = arrange()
    g.fire[5] = g.fire[7] = g.fire[9] = True
    give(g, 0, "fire_extinguisher")
    start(g)
    g.apply_text("play fire_extinguisher")
    for room in (5, 7, 9):
        g.apply_text(f"open {room}")
        g.apply_text("enter")
    assert g.gnomes[0].room == 9 and g.ghost == 41
    check(g)


def test_permission_to_enter_fire_does_not_carry_over_to_the_next_turn() -> None:
    g = arrange()
    g.fire[5] = True
    g.gnomes[1].keeper = g.gnomes[2].keeper = 20
    give(g, 0, "fire_extinguisher")
    start(g)
    g.apply_text("play fire_extinguisher")
    g.apply_text("no_action")
    assert g.active == 0 and g.turn == 2
    g.apply_text("open 5")
    assert Action("enter") not in g.legal_actions()


def test_items_other_than_grog_and_extinguisher_do_not_allow_entering_fire() -> None:
    g = arrange()
    g.fire[5] = True
    give(g, 0, "aqualung", "crowbar", "water_pump")
    start(g)
    for name in ("aqualung", "crowbar", "water_pump"):
        g.apply_text(f"play {name}")
    g.apply_text("open 5")
    assert Action("enter") not in g.legal_actions()


# --- reflow (R5) ------------------------------------------------------------------------------
def test_R5_high_water_flows_into_a_dry_room_making_both_low() -> None:
    g = arrange()
    g.water[5] = HIGH
    start(g)
    g.apply_text("open 5")
    assert (g.water[6], g.water[5]) == (LOW, LOW)
    assert logged(g, "reflow") == [("reflow", 6, 5)]
    g.apply_text("enter")  # now low: entering costs 1
    assert g.ghost == 42


def test_R5_reflow_happens_even_if_the_gnome_stays() -> None:
    g = arrange()
    g.water[5] = HIGH
    start(g)
    g.apply_text("open 5")
    g.apply_text("stay")
    assert (g.water[6], g.water[5]) == (LOW, LOW)


def test_R5_high_water_flowing_into_a_burning_room_puts_the_fire_out() -> None:
    g = arrange()
    g.water[6] = HIGH
    g.fire[5] = True
    start(g)
    g.apply_text("open 5")
    assert not g.fire[5] and g.water[5] == LOW
    g.apply_text("enter")  # no Grog needed any more
    assert g.gnomes[0].room == 5


def test_R5_low_water_never_flows() -> None:
    g = arrange()
    g.water[6] = LOW
    g.fire[5] = True
    start(g)
    g.apply_text("open 5")
    assert g.water[5] == NONE and g.fire[5]


def test_R5_water_does_not_flow_through_a_blocked_hatch_since_it_cannot_be_opened() -> None:
    g = arrange()
    g.gnomes[0].room = 7
    g.water[5] = HIGH
    block(g, 5, 7)
    start(g)
    rejects(g, "open 5")
    assert g.water[5] == HIGH and g.water[7] == NONE


# --- the Sea (R6) ----------------------------------------------------------------------------
def test_only_rooms_3_6_and_9_open_to_the_sea() -> None:
    for room in range(1, 11):
        g = arrange()
        g.gnomes[0].room = room
        start(g)
        assert (SEA in _opens(g)) is (room in (3, 6, 9))


def test_leaving_to_the_sea_needs_an_aqualung_played_this_turn() -> None:
    g = arrange()
    give(g, 0, "aqualung")
    start(g)
    g.apply_text("open sea")  # opening is allowed ...
    assert Action("enter") not in g.legal_actions()  # ... but not leaving while only holding it
    g.apply_text("play aqualung")
    g.apply_text("enter")
    assert g.gnomes[0].room == SEA and g.ghost == 42  # open 1 + pass 1


def test_R6_exterior_hatch_costs_exactly_one_minute_whatever_the_water() -> None:
    g = arrange()
    g.gnomes[0].room = SEA
    g.water[9] = LOW
    start(g)
    g.apply_text("open 9")
    g.apply_text("enter")
    assert g.gnomes[0].room == 9 and g.ghost == 42


def test_a_gnome_in_the_sea_may_return_through_any_exterior_hatch_without_aqualung() -> None:
    for room in (3, 6, 9):
        g = arrange()
        g.gnomes[0].room = SEA
        start(g)
        assert _opens(g) == [3, 6, 9]
        g.apply_text(f"open {room}")
        g.apply_text("enter")
        assert g.gnomes[0].room == room and g.ghost == 42


def test_returning_from_the_sea_into_a_burning_room_needs_grog_or_extinguisher() -> None:
    g = arrange()
    g.gnomes[0].room = SEA
    g.fire[3] = True
    give(g, 0, "grog")
    start(g)
    g.apply_text("open 3")
    assert Action("enter") not in g.legal_actions()
    g.apply_text("play grog")
    g.apply_text("enter")
    assert g.gnomes[0].room == 3


def test_opening_an_exterior_hatch_does_not_move_water() -> None:
    g = arrange()
    g.gnomes[0].room = SEA
    g.water[6] = HIGH
    start(g)
    g.apply_text("open 6")
    assert g.water[6] == HIGH
    assert Action("enter") not in g.legal_actions()
