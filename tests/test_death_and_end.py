"""Death (RULES §10) and the end of the game (§11)."""

from __future__ import annotations

from helpers import (
    HIGH,
    LOW,
    arrange,
    event_turn,
    events,
    give,
    logged,
    stack_events,
    start,
)

from rednovember.rules import outcome
from rednovember.rules.data import SEA
from rednovember.rules.invariants import check


def _token(g, name: str) -> int:
    return g.data.tokens.index(name)


# --- the active gnome at the start of its Updates ------------------------------------------------
def test_active_gnome_in_high_water_at_the_start_of_updates_dies_and_draws_no_events() -> None:
    g = arrange()
    g.gnomes[0].keeper = 46
    g.water[6] = HIGH
    give(g, 0, "toolbox")
    start(g)
    g.apply_text("no_action")
    g.apply_text("end")
    gn = g.gnomes[0]
    assert logged(g, "death") == [("death", 0, "flood", 6)]
    assert not gn.alive and gn.hand == [] and g.item_discard[-1] == g.data.item_index["toolbox"]
    assert not logged(g, "event")  # the icon on 45 is never resolved
    assert 0 not in g.turn_order() and g.active == 1
    check(g)


def test_active_gnome_in_a_burning_room_at_the_start_of_updates_dies() -> None:
    g = arrange()
    g.gnomes[0].keeper = 4
    g.gnomes[1].keeper = g.gnomes[2].keeper = 1
    g.fire[5] = True
    give(g, 0, "fire_extinguisher")
    start(g)
    g.apply_text("play fire_extinguisher")
    for _ in range(3):
        g.apply_text("open 5")
        g.apply_text("stay")
    g.apply_text("open 5")
    g.apply_text("enter")  # ghost 0: no action possible in the burning room
    assert g.ghost == 0 and {a.kind for a in g.legal_actions()} == {"end"}
    g.apply_text("end")
    assert logged(g, "death") == [("death", 0, "fire", 5)]
    assert not events(g)  # the icon on 3 was never reached


def test_escaping_the_flood_during_movement_saves_the_gnome() -> None:
    g = arrange()
    g.water[6] = HIGH
    start(g)
    g.apply_text("open 5")  # the water flows out: both low
    g.apply_text("enter")
    g.apply_text("no_action")
    assert g.gnomes[0].alive and not logged(g, "death")


# --- the Sea -----------------------------------------------------------------------------------
def test_gnome_that_began_its_turn_in_the_sea_and_stays_there_dies_of_air() -> None:
    g = arrange()
    g.gnomes[0].room = SEA
    g.gnomes[0].keeper = 46
    start(g)
    g.apply_text("no_action")
    assert logged(g, "death") == [("death", 0, "air", SEA)]
    assert not logged(g, "event")


def test_gnome_that_swam_out_this_turn_survives_its_updates_at_sea() -> None:
    g = arrange()
    give(g, 0, "aqualung")
    start(g)
    g.apply_text("play aqualung")
    g.apply_text("open sea")
    g.apply_text("enter")
    g.apply_text("no_action")
    assert g.gnomes[0].alive and g.gnomes[0].room == SEA


def test_gnome_that_began_at_sea_and_returned_aboard_survives() -> None:
    g = arrange()
    g.gnomes[0].room = SEA
    start(g)
    g.apply_text("open 6")
    g.apply_text("enter")
    g.apply_text("no_action")
    assert g.gnomes[0].alive and g.gnomes[0].room == 6


def test_gnome_fainting_in_the_sea_dies() -> None:
    g = arrange()
    g.gnomes[0].intoxication = 3
    give(g, 0, "aqualung", "grog")
    stack_events(g, ("respite", 1))
    start(g)
    g.apply_text("play aqualung")
    g.apply_text("play grog")
    g.apply_text("open sea")
    g.apply_text("enter")
    g.apply_text("no_action")
    assert logged(g, "death") == [("death", 0, "fainted_in_sea", SEA)]
    assert not g.gnomes[0].alive and not logged(g, "event")


# --- fainted gnomes during anyone's Updates -------------------------------------------------------
def test_fainted_gnome_dies_when_an_event_sets_its_room_on_fire() -> None:
    g = arrange()
    g.gnomes[1].room = 4
    g.gnomes[1].fainted = True
    give(g, 1, "harpoon")
    event_turn(g, "fire", dice=[4])
    assert logged(g, "death") == [("death", 1, "fire", 4)]
    assert not g.gnomes[1].alive and g.gnomes[1].hand == []
    assert g.item_discard[-1] == g.data.item_index["harpoon"]
    assert g.gnomes[0].alive


def test_fainted_gnome_dies_when_a_leak_floods_its_room() -> None:
    g = arrange()
    g.gnomes[1].room = 4
    g.gnomes[1].fainted = True
    event_turn(g, "leak", dice=[4])
    assert logged(g, "death") == [("death", 1, "flood", 4)]


def test_fainted_gnome_dies_when_undercurrent_raises_its_water() -> None:
    g = arrange()
    g.gnomes[1].room = 4
    g.gnomes[1].fainted = True
    g.water[4] = LOW
    event_turn(g, "undercurrent")
    assert logged(g, "death") == [("death", 1, "flood", 4)]


def test_fainted_gnome_in_low_water_is_safe() -> None:
    g = arrange()
    g.gnomes[1].room = 4
    g.gnomes[1].fainted = True
    g.water[4] = LOW
    event_turn(g, "respite")
    assert g.gnomes[1].alive


def test_fainted_gnome_in_a_burning_room_dies_at_the_start_of_anyones_updates() -> None:
    g = arrange()
    g.gnomes[1].room = 4
    g.gnomes[1].fainted = True
    g.fire[4] = True
    g.gnomes[0].keeper = 44  # no icon on 43: the death comes from the Updates phase itself
    start(g)
    assert g.gnomes[1].alive  # not during the active gnome's movement and action
    g.apply_text("no_action")
    assert logged(g, "death") == [("death", 1, "fire", 4)]


def test_fainted_gnome_killed_by_fire_spreads_choice() -> None:
    g = arrange()
    g.gnomes[1].room = 8
    g.gnomes[1].fainted = True
    g.fire[5] = True
    event_turn(g, "fire_spreads")
    g.apply_text("spread 8")
    assert not g.gnomes[1].alive


def test_dead_gnome_keeper_leaves_the_track_and_takes_no_more_turns() -> None:
    g = arrange()
    g.gnomes[1].room = 4
    g.gnomes[1].fainted = True
    g.gnomes[1].keeper = 44
    g.gnomes[0].keeper = 46
    stack_events(g, "fire")
    start(g)
    g.rng.forced = [4]
    g.apply_text("no_action")
    assert not g.gnomes[1].alive
    assert g.turn_order() == [0, 2]
    check(g)


# --- loss ------------------------------------------------------------------------------------------
def test_loss_when_a_track_reaches_its_end() -> None:
    g = arrange()
    g.tracks[g.data.tracks.index("pressure")] = 9
    event_turn(g, "dive")
    assert g.result is not None and (g.result.won, g.result.cause) == (False, "pressure")
    assert g.tracks[g.data.tracks.index("pressure")] == 10
    assert g.legal_actions() == [] and g.decider == -1


def test_no_loss_while_one_keeper_is_still_on_or_before_the_token() -> None:
    g = arrange()
    g.gnomes[0].keeper = 46
    g.gnomes[1].keeper = 40
    g.gnomes[2].keeper = 38
    g.tokens[_token(g, "crushed")] = 40  # gnome 1 is on it: not passed
    g.water[6] = LOW
    start(g)
    g.rng.forced = [10]
    g.apply_text("pump_water 10")  # gnome 0 passes the token: 46 -> 36
    assert g.result is None and g.gnomes[0].keeper == 36


def test_loss_when_every_keeper_has_passed_a_token() -> None:
    g = arrange()
    g.gnomes[0].keeper = 46
    g.gnomes[1].keeper = 40
    g.gnomes[2].keeper = 38
    g.tokens[_token(g, "crushed")] = 41
    g.water[6] = LOW
    start(g)
    g.rng.forced = [10]
    g.apply_text("pump_water 10")
    assert g.result is not None and g.result.cause == "crushed"
    assert g.gnomes[0].keeper == 40  # lost the moment the last keeper passed it


def test_loss_when_the_only_keeper_not_past_a_token_dies() -> None:
    g = arrange()
    g.gnomes[0].keeper, g.gnomes[0].arrival = 46, 10  # on top of the stack on 46
    g.gnomes[1].keeper = 46
    g.gnomes[1].fainted = True
    g.gnomes[1].room = 4
    g.gnomes[2].keeper = 38
    g.tokens[_token(g, "kraken")] = 46
    stack_events(g, "fire")
    start(g)
    assert g.active == 0
    g.rng.forced = [4]
    g.apply_text("no_action")  # 45: only gnome 1 (on 46) has not passed the token ...
    assert logged(g, "death") == [("death", 1, "fire", 4)]  # ... and it burns
    assert g.result is not None and g.result.cause == "kraken"


def test_loss_when_every_gnome_is_dead() -> None:
    g = arrange()
    for n in (1, 2):
        g.gnomes[n].alive = False
        g.gnomes[n].room = -1
    g.water[6] = HIGH
    start(g)
    g.apply_text("no_action")
    assert g.result is not None and (g.result.won, g.result.cause) == (False, "all_dead")
    assert not any(outcome(g, n) for n in range(3))


# --- win -------------------------------------------------------------------------------------------
def test_win_when_every_keeper_reaches_0_without_a_token() -> None:
    g = arrange()
    g.gnomes[0].keeper = 2
    g.gnomes[1].keeper = 1
    g.gnomes[2].keeper = 0
    start(g)
    g.apply_text("open 5")
    g.apply_text("stay")
    g.apply_text("no_action")  # gnome 0: 2 -> 0
    assert g.result is None and g.active == 1
    g.apply_text("no_action")
    assert g.result is not None and (g.result.won, g.result.cause) == (True, "rescued")
    assert all(outcome(g, n) is True for n in range(3))


def test_P23_win_with_dead_gnomes_counts_only_the_survivors_and_all_players_win() -> None:
    g = arrange()
    g.gnomes[0].keeper = 1
    g.gnomes[1].alive = False
    g.gnomes[1].room = -1
    g.gnomes[1].keeper = 30
    g.gnomes[2].keeper = 0
    start(g)
    g.apply_text("no_action")
    assert g.result is not None and g.result.won
    assert outcome(g, 1) is True  # P23: the dead gnome's player wins with the crew


def test_keeper_on_0_takes_no_more_turns() -> None:
    g = arrange()
    g.gnomes[0].keeper = 0
    g.gnomes[1].keeper = 5
    g.gnomes[2].keeper = 0
    start(g)
    assert g.active == 1


def test_R12_win_is_refused_while_a_token_lies_on_0() -> None:
    g = arrange()
    g.gnomes[0].keeper = 1
    g.gnomes[1].keeper = g.gnomes[2].keeper = 0
    g.tokens[_token(g, "missile_launch")] = 0
    start(g)
    g.apply_text("no_action")
    assert g.result is not None and (g.result.won, g.result.cause) == (False, "missile_launch")


# --- Abandon Comrades: the inverted result ------------------------------------------------------
def _abandoned_game():
    g = arrange()
    g.gnomes[0].room = SEA
    g.gnomes[0].keeper = 9
    g.gnomes[1].keeper = 1
    g.gnomes[2].keeper = 0
    start(g)
    g.apply_text("abandon")
    assert g.active == 1
    return g


def test_abandoner_loses_when_the_crew_wins() -> None:
    g = _abandoned_game()
    g.apply_text("no_action")
    assert g.result is not None and g.result.won
    assert outcome(g, 0) is False and outcome(g, 1) is True and outcome(g, 2) is True


def test_abandoner_wins_when_the_crew_loses() -> None:
    g = arrange()
    g.gnomes[0].room = SEA
    g.gnomes[0].keeper = 9
    g.gnomes[1].keeper = 4
    g.gnomes[2].keeper = 0
    g.tracks[g.data.tracks.index("pressure")] = 9
    stack_events(g, "dive")
    start(g)
    g.apply_text("abandon")
    assert not logged(g, "event")  # no events in the abandoner's turn
    g.apply_text("no_action")  # gnome 1: 4 -> 3, Dive: pressure 10
    assert g.result is not None and not g.result.won
    assert outcome(g, 0) is True and outcome(g, 1) is False and outcome(g, 2) is False


def test_outcome_is_none_while_the_game_goes_on() -> None:
    g = start(arrange())
    assert outcome(g, 0) is None


def test_abandoning_the_only_keeper_before_a_token_loses_the_game_at_once() -> None:
    g = arrange()
    g.gnomes[0].room = SEA
    g.gnomes[0].keeper = 9
    g.gnomes[1].keeper = g.gnomes[2].keeper = 5
    g.tokens[_token(g, "kraken")] = 7  # gnomes 1 and 2 have passed it
    start(g)
    g.apply_text("abandon")
    assert g.result is not None and g.result.cause == "kraken"
    assert outcome(g, 0) is True and outcome(g, 1) is False


def test_P4_at_sea_with_no_minute_left_abandon_is_still_offered() -> None:
    g = arrange()
    g.gnomes[0].room = 6
    g.gnomes[0].keeper = 2
    g.gnomes[1].keeper = g.gnomes[2].keeper = 1
    give(g, 0, "aqualung")
    start(g)
    g.apply_text("play aqualung")
    g.apply_text("open sea")
    g.apply_text("enter")
    assert g.ghost == 0
    assert {a.kind for a in g.legal_actions()} == {"abandon", "end"}
