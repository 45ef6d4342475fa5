"""One or more tests per ruling R1..R18 of RULES.md (each test name carries the ruling id)."""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path

import pytest
from helpers import (
    HIGH,
    LOW,
    NONE,
    arrange,
    block,
    event_turn,
    events,
    give,
    hatch,
    kinds,
    logged,
    rejects,
    stack_events,
    start,
)

from rednovember.rules import (
    Action,
    Config,
    ConfigError,
    Game,
    load_data,
    new_game,
    outcome,
    scenario,
    turn,
)
from rednovember.rules.data import SEA
from rednovember.rules.invariants import check
from rednovember.rules.scenario import ScenarioError
from rednovember.rules.serialize import SaveError, from_dict, restore, snapshot, to_dict
from rednovember.rules.state import AFTER_ACTION, DECIDE, MOVE, OPENED


def _token(g, name: str) -> int:
    return g.data.tokens.index(name)


def _track(g, name: str) -> int:
    return g.data.tracks.index(name)


# --- R1: blocked-hatch tokens are finite -------------------------------------------------------
def _data_with_block_tokens(tmp_path: Path, n: int):
    src = resources.files("rednovember.data")
    for name in ("board", "timetrack", "tracks", "events", "items"):
        with resources.as_file(src.joinpath(f"{name}.json")) as f:
            shutil.copy(f, tmp_path / f"{name}.json")
    board = json.loads((tmp_path / "board.json").read_text())
    board["blocked_hatch_tokens"] = n
    (tmp_path / "board.json").write_text(json.dumps(board))
    return load_data(tmp_path)


def test_R1_hatch_blocked_has_no_effect_when_no_token_is_left(tmp_path: Path) -> None:
    data = _data_with_block_tokens(tmp_path, 1)
    g = arrange(data=data)
    block(g, 8, 10)  # the only token is in use
    event_turn(g, "hatch_blocked", dice=[5])  # room 5 has five unblocked hatches
    assert events(g) == ["hatch_blocked"]
    assert logged(g, "block_none") == [("block_none", 5)]
    assert sum(g.blocked) == 1 and g.phase != DECIDE


def test_R1_hatch_blocked_uses_a_token_while_one_is_left(tmp_path: Path) -> None:
    data = _data_with_block_tokens(tmp_path, 2)
    g = arrange(data=data)
    block(g, 8, 10)
    event_turn(g, "hatch_blocked", dice=[10])  # room 10: only 9-10 is still open
    assert g.blocked[hatch(g, 9, 10)]
    assert sum(g.blocked) == 2


def test_R1_hatch_blocked_on_a_room_whose_hatches_are_all_blocked_has_no_effect() -> None:
    g = arrange()
    block(g, 8, 10)
    block(g, 9, 10)
    event_turn(g, "hatch_blocked", dice=[10])
    assert logged(g, "block_none") == [("block_none", 10)]
    assert sum(g.blocked) == 2


# --- R2: seeded setup and deterministic play ---------------------------------------------------
def _play(config: Config, steps: int) -> dict:
    g = new_game(config)
    for i in range(steps):
        if g.is_over:
            break
        legal = g.legal_actions()
        g.apply(legal[(i * 7 + 3) % len(legal)])
    return to_dict(g)


def test_R2_same_seed_and_config_give_the_same_setup() -> None:
    for variants in (frozenset(), frozenset({"hardest", "mad-gnomes"})):
        a = new_game(Config(players=5, seed=42, variants=variants))
        b = new_game(Config(players=5, seed=42, variants=variants))
        assert to_dict(a) == to_dict(b)


def test_R2_same_seed_and_actions_give_the_same_game() -> None:
    config = Config(players=4, seed=2024)
    assert _play(config, 300) == _play(config, 300)


def test_R2_different_seeds_give_different_setups() -> None:
    setups = [to_dict(new_game(Config(players=4, seed=s), start=False))["state"]
              for s in range(1, 6)]
    for i in range(len(setups)):
        for j in range(i + 1, len(setups)):
            assert setups[i] != setups[j]
    decks = {tuple(s["event_deck"]) for s in setups}
    assert len(decks) == 5  # the shuffles differ, not just one field


# --- R3: fainting moves the ghost at most to 0 -------------------------------------------------
def test_R3_fainting_near_the_end_moves_the_ghost_only_to_0() -> None:
    g = arrange()
    gn = g.gnomes[0]
    gn.keeper, gn.intoxication = 8, 3
    g.gnomes[1].keeper, g.gnomes[2].keeper = 5, 4
    give(g, 0, "grog")
    stack_events(g, ("respite", 1), "respite", "respite")
    start(g)
    g.apply_text("play grog")
    g.apply_text("no_action")  # ghost 7; the faint (+10) stops at 0
    (fc,) = logged(g, "faint_check")
    assert fc[4] is True
    assert gn.keeper == 0 and gn.fainted
    assert events(g) == ["respite", "respite"]  # icons 6 and 3 on the way
    check(g)


def test_R3_no_step_or_action_may_cost_more_than_the_minutes_left() -> None:
    g = arrange()
    gn = g.gnomes[0]
    gn.keeper = 2
    g.gnomes[1].keeper, g.gnomes[2].keeper = 1, 1
    g.water[6] = LOW
    block(g, 5, 6)
    start(g)
    legal = g.legal_actions()
    # unblocking costs 1..10 + 2 for the low water: nothing affordable with 2 minutes
    assert not [a for a in legal if a.kind == "unblock_hatch"]
    assert [a.minutes for a in legal if a.kind == "pump_water"] == [1, 2]
    rejects(g, Action("pump_water", 0, 3))


# --- R4: when items may be played --------------------------------------------------------------
def test_R4_items_may_be_played_during_movement_after_opening_and_after_the_action() -> None:
    g = arrange()
    give(g, 0, "coffee", "toolbox", "crowbar")
    start(g)
    assert g.phase == MOVE and Action("play", g.data.item_index["coffee"]) in g.legal_actions()
    g.apply_text("play coffee")
    g.apply_text("open 5")
    assert g.phase == OPENED
    g.apply_text("play toolbox")
    g.apply_text("stay")
    g.apply_text("no_action")
    assert g.phase == AFTER_ACTION
    g.apply_text("play crowbar")
    assert [e[2] for e in logged(g, "play")] == [g.data.item_index[n]
                                                  for n in ("coffee", "toolbox", "crowbar")]
    check(g)


def test_R4_lucky_charm_played_after_the_action_still_ignores_the_first_event_icons() -> None:
    g = arrange()
    give(g, 0, "lucky_charm")
    g.water[6] = LOW
    stack_events(g, "fire", "fire", "fire", "respite")
    start(g)
    g.apply_text("open 5")
    g.apply_text("stay")
    g.rng.forced = [10]
    g.apply_text("pump_water 10")  # ghost 44 - 1 - 10 = 33: icons 42, 39, 36 and 33
    g.apply_text("play lucky_charm")
    g.apply_text("end")
    assert len(logged(g, "charm")) == 3
    assert events(g) == ["fire"]  # only the fourth icon draws a card
    assert g.gnomes[0].keeper == 33


def test_R4_items_cannot_be_played_once_the_turn_is_ended_or_out_of_turn() -> None:
    g = arrange()
    give(g, 0, "coffee")
    give(g, 1, "harpoon")
    stack_events(g, "stumble")
    start(g)
    rejects(g, "play harpoon", "not legal")  # gnome 1's card, not the active gnome's
    g.apply_text("no_action")
    g.apply_text("end")
    assert len(logged(g, "turn")) == 2  # gnome 0's turn is over (it goes again: on top at 43)
    assert g.gnomes[0].hand == [g.data.item_index["coffee"]]  # the coffee was never played
    assert not [e for e in logged(g, "play")]


def test_R4_items_cannot_be_played_while_an_event_decision_is_pending() -> None:
    g = arrange()
    give(g, 0, "coffee", "toolbox")
    stack_events(g, "stumble")
    g.gnomes[0].keeper = 46
    start(g)
    g.apply_text("no_action")
    g.apply_text("end")
    assert g.phase == DECIDE and g.pending[0].kind == "keep"
    assert kinds(g.legal_actions()) == {"keep"}
    rejects(g, "play coffee")


# --- R5: reflow only between high and none ------------------------------------------------------
@pytest.mark.parametrize(("here", "there", "after"), [
    (HIGH, NONE, (LOW, LOW)),
    (NONE, HIGH, (LOW, LOW)),
    (HIGH, LOW, (HIGH, LOW)),
    (LOW, NONE, (LOW, NONE)),
    (NONE, LOW, (NONE, LOW)),
    (HIGH, HIGH, (HIGH, HIGH)),
])
def test_R5_reflow_only_between_high_and_no_water(here: int, there: int, after) -> None:
    g = arrange()
    g.water[6], g.water[5] = here, there
    start(g)
    g.apply_text("open 5")
    assert (g.water[6], g.water[5]) == after
    assert g.ghost == 43  # reflowing costs nothing


def test_R5_reflow_puts_out_the_fire_in_the_dry_room() -> None:
    g = arrange()
    g.gnomes[0].room = 7
    g.water[7] = HIGH
    g.fire[5] = True
    start(g)
    g.apply_text("open 5")
    assert g.water[5] == LOW and g.water[7] == LOW and not g.fire[5]
    assert ("fire_out", 5) in g.log


def test_R5_no_reflow_through_an_exterior_hatch() -> None:
    g = arrange()
    g.gnomes[0].room = 9
    g.water[9] = LOW
    start(g)
    g.apply_text("open sea")
    assert g.water[9] == LOW and g.water[SEA] == NONE


# --- R6: an exterior hatch always costs exactly 1 ----------------------------------------------
def test_R6_returning_from_the_sea_into_low_water_costs_open_1_plus_pass_1() -> None:
    g = arrange()
    g.gnomes[0].room = SEA
    g.water[3] = LOW
    start(g)
    g.apply_text("open 3")
    g.apply_text("enter")
    assert g.gnomes[0].room == 3 and g.ghost == 44 - 2


def test_R6_leaving_a_low_water_room_for_the_sea_costs_open_1_plus_pass_1() -> None:
    g = arrange()
    g.gnomes[0].room = 6
    g.water[6] = LOW
    give(g, 0, "aqualung")
    start(g)
    g.apply_text("play aqualung")
    g.apply_text("open sea")
    g.apply_text("enter")
    assert g.gnomes[0].room == SEA and g.ghost == 42


def test_R6_high_water_still_forbids_entry_from_the_sea() -> None:
    g = arrange()
    g.gnomes[0].room = SEA
    g.water[3] = HIGH
    start(g)
    g.apply_text("open 3")
    assert kinds(g.legal_actions()) == {"stay"}
    rejects(g, "enter")


# --- R7: doomed repairs fail ----------------------------------------------------------------------
def _missile_room(token_space: int):
    g = arrange()
    g.gnomes[0].room = 7
    g.tokens[_token(g, "missile_launch")] = token_space
    give(g, 0, "coffee")
    return start(g)


def test_R7_repair_fails_when_ghost_passes_token() -> None:
    g = _missile_room(40)
    g.rng.forced = [1]
    g.apply_text("stop_missile_launch 5")  # ghost 44 -> 39, past the token on 40
    (rep,) = logged(g, "repair")
    assert rep[5:8] == (1, False, True)  # roll 1, failure, doomed
    assert g.tokens[_token(g, "missile_launch")] == 40


def test_R7_repair_succeeds_when_ghost_ends_on_the_token_space() -> None:
    g = _missile_room(40)
    g.rng.forced = [1]
    g.apply_text("stop_missile_launch 4")  # ghost 40: not past
    (rep,) = logged(g, "repair")
    assert rep[6:8] == (True, False)
    assert g.tokens[_token(g, "missile_launch")] == -1


@pytest.mark.parametrize("pressure", [2, 6, 7])
def test_R7_amended_fix_engine_past_its_token_fails_entirely_track_reset_included(
        pressure: int) -> None:
    g = arrange()
    g.gnomes[0].room = 1
    g.tokens[_token(g, "crushed")] = 42
    g.tracks[_track(g, "pressure")] = pressure
    start(g)
    g.rng.forced = [1]
    g.apply_text("fix_engine 5")  # ghost 39 < 42: doomed, whatever the roll
    (rep,) = logged(g, "repair")
    assert rep[5:8] == (1, False, True)
    assert g.tracks[_track(g, "pressure")] == pressure  # not reset
    assert g.tokens[_token(g, "crushed")] == 42
    assert not logged(g, "track_reset")


def test_R7_amended_fix_oxygen_pumps_ending_on_the_token_still_resets_and_clears() -> None:
    g = arrange()
    g.gnomes[0].room = 2
    g.tokens[_token(g, "asphyxiated")] = 40
    g.tracks[_track(g, "asphyxiation")] = 6
    start(g)
    g.rng.forced = [1]
    g.apply_text("fix_oxygen_pumps 4")  # ghost 40: on the token, not past it
    assert g.tracks[_track(g, "asphyxiation")] == 5
    assert g.tokens[_token(g, "asphyxiated")] == -1


def test_R7_amended_fix_reactor_has_no_token_and_is_never_doomed() -> None:
    g = arrange()
    g.gnomes[0].room = 4
    g.tracks[_track(g, "heat")] = 6
    for t in range(4):
        g.tokens[t] = 43  # every token placed just ahead; Fix Reactor belongs to none
    start(g)
    g.rng.forced = [1]
    g.apply_text("fix_reactor 10")
    (rep,) = logged(g, "repair")
    assert rep[6:8] == (True, False)
    assert g.tracks[_track(g, "heat")] == 5


def test_R7_a_keeper_past_the_token_cannot_attempt_the_repair_even_with_its_track_up() -> None:
    g = arrange()
    g.gnomes[0].room = 1
    g.tracks[_track(g, "pressure")] = 6
    g.tokens[_token(g, "crushed")] = 45  # behind gnome 0's keeper on 44 (P22: scenario only)
    start(g)
    assert "fix_engine" not in kinds(g.legal_actions())
    rejects(g, "fix_engine 3", "not legal")


def test_R7_fix_engine_only_for_a_passed_token_is_doomed() -> None:
    g = arrange()
    g.gnomes[0].room = 1
    g.tokens[_token(g, "crushed")] = 42
    start(g)
    g.rng.forced = [1]
    g.apply_text("fix_engine 5")
    (rep,) = logged(g, "repair")
    assert rep[6:8] == (False, True)
    assert g.tokens[_token(g, "crushed")] == 42


# --- R8: room repairs need a problem ------------------------------------------------------------
@pytest.mark.parametrize(("room", "repair"), [(1, "fix_engine"), (2, "fix_oxygen_pumps"),
                                              (4, "fix_reactor"), (7, "stop_missile_launch"),
                                              (SEA, "kill_kraken")])
def test_R8_room_repair_not_legal_without_a_problem(room: int, repair: str) -> None:
    g = arrange()
    g.gnomes[0].room = room
    start(g)
    assert repair not in kinds(g.legal_actions())
    rejects(g, Action(repair, 0, 3), "not legal")


@pytest.mark.parametrize(("room", "repair", "track", "token"), [
    (1, "fix_engine", "pressure", None), (1, "fix_engine", None, "crushed"),
    (2, "fix_oxygen_pumps", "asphyxiation", None), (2, "fix_oxygen_pumps", None, "asphyxiated"),
    (4, "fix_reactor", "heat", None), (7, "stop_missile_launch", None, "missile_launch"),
    (SEA, "kill_kraken", None, "kraken")])
def test_R8_room_repair_legal_with_its_track_above_1_or_its_token_placed(
        room: int, repair: str, track: str | None, token: str | None) -> None:
    g = arrange()
    g.gnomes[0].room = room
    if track:
        g.tracks[_track(g, track)] = 2
    if token:
        g.tokens[_token(g, token)] = 30
    start(g)
    minutes = [a.minutes for a in g.legal_actions() if a.kind == repair]
    assert minutes == list(range(1, 11))


def test_R8_room_repair_only_in_its_own_room() -> None:
    g = arrange()
    g.gnomes[0].room = 5
    for t in range(3):
        g.tracks[t] = 4
    for t in range(4):
        g.tokens[t] = 30
    start(g)
    assert not kinds(g.legal_actions()) & {"fix_engine", "fix_oxygen_pumps", "fix_reactor",
                                           "stop_missile_launch", "kill_kraken"}


# --- R9: checks are immediate -------------------------------------------------------------------
def test_R9_a_track_reaching_its_end_mid_updates_ends_the_game_at_once() -> None:
    g = arrange()
    g.gnomes[0].keeper = 46
    g.tracks[_track(g, "heat")] = 8
    g.water[6] = LOW
    stack_events(g, "reactor_malfunction", "fire")
    start(g)
    g.rng.forced = [10]
    g.apply_text("pump_water 4")  # ghost 42: icons 45 and 42
    assert g.result is not None and not g.result.won and g.result.cause == "heat"
    assert events(g) == ["reactor_malfunction"]  # the icon on 42 is never reached
    assert g.gnomes[0].keeper == 45
    assert g.legal_actions() == []


def test_R9_all_keepers_passing_a_token_mid_updates_ends_the_game_at_once() -> None:
    g = arrange()
    g.gnomes[0].keeper = 46
    g.tokens[_token(g, "missile_launch")] = 44  # gnomes 1 and 2 (43, 42) have passed it
    g.water[6] = LOW
    start(g)
    g.rng.forced = [10]
    g.apply_text("pump_water 4")
    assert g.result is not None and g.result.cause == "missile_launch"
    assert g.gnomes[0].keeper == 43
    assert events(g) == ["respite"]  # 45 only; 42 never reached


def test_R9_a_fire_filling_the_asphyxiation_track_loses_at_once() -> None:
    g = arrange()
    g.tracks[_track(g, "asphyxiation")] = 9
    event_turn(g, "fire", dice=[3])
    assert g.result is not None and g.result.cause == "asphyxiation"


# --- R10: the drew-items flag ------------------------------------------------------------------
def test_R10_drawing_items_puts_the_gnome_in_the_drew_items_area() -> None:
    g = arrange()
    g.gnomes[0].room = 8
    give(g, 0, "coffee")
    start(g)
    assert [a.arg for a in g.legal_actions() if a.kind == "draw"] == [1, 2, 3, 4]
    g.apply_text("draw 3")
    assert g.gnomes[0].drew_room == 8 and len(g.gnomes[0].hand) == 4
    assert g.ghost == 41


@pytest.mark.parametrize("room", [8, 10])
def test_R10_amended_no_second_draw_in_the_same_room(room: int) -> None:
    g = arrange()
    g.gnomes[0].room = room
    g.gnomes[0].drew_room = room
    start(g)
    assert "draw" not in kinds(g.legal_actions())
    rejects(g, "draw 1", "not legal")


def test_R10_amended_drawing_in_room_10_right_after_room_8_is_legal() -> None:
    g = arrange()
    g.gnomes[0].room = 8
    g.gnomes[1].keeper = g.gnomes[2].keeper = 20
    start(g)
    g.apply_text("draw 1")
    assert g.gnomes[0].drew_room == 8 and g.active == 0
    g.apply_text("end")
    g.apply_text("open 10")
    g.apply_text("enter")
    assert [a.arg for a in g.legal_actions() if a.kind == "draw"] == [1, 2]
    g.apply_text("draw 1")  # the other room's draw is itself an action elsewhere
    assert g.gnomes[0].drew_room == 10
    g.apply_text("end")
    g.apply_text("open 8")
    g.apply_text("enter")
    assert "draw" in kinds(g.legal_actions())  # drawing in 10 cleared room 8's flag


def test_R10_amended_back_in_room_8_without_an_action_elsewhere_no_draw() -> None:
    g = arrange()
    g.gnomes[0].room = 8
    g.gnomes[1].keeper = g.gnomes[2].keeper = 20
    start(g)
    g.apply_text("draw 1")
    g.apply_text("end")
    g.apply_text("open 10")
    g.apply_text("enter")
    g.apply_text("open 8")
    g.apply_text("enter")
    assert "draw" not in kinds(g.legal_actions())


def test_R10_an_action_in_the_same_room_keeps_the_flag() -> None:
    g = arrange()
    g.gnomes[0].room = 8
    g.gnomes[0].drew_room = 8
    start(g)
    g.apply_text("no_action")
    assert g.gnomes[0].drew_room == 8


def test_R10_any_action_in_another_room_clears_the_flag_even_no_action() -> None:
    g = arrange()
    g.gnomes[0].room = 8
    g.gnomes[0].drew_room = 8
    g.gnomes[1].keeper = g.gnomes[2].keeper = 20
    start(g)
    g.apply_text("open 10")
    g.apply_text("enter")
    g.apply_text("no_action")
    assert g.gnomes[0].drew_room == -1
    # next turn (still gnome 0, furthest back): back in room 8 it may draw again
    assert g.active == 0
    g.apply_text("open 8")
    g.apply_text("enter")
    assert "draw" in kinds(g.legal_actions())


def test_R10_moving_away_without_an_action_there_keeps_the_flag() -> None:
    g = arrange()
    g.gnomes[0].room = 8
    g.gnomes[0].drew_room = 8
    g.gnomes[1].keeper = g.gnomes[2].keeper = 20
    start(g)
    g.apply_text("open 10")
    g.apply_text("enter")
    g.apply_text("open 8")
    g.apply_text("enter")
    g.apply_text("no_action")  # the action is taken back in room 8
    assert g.gnomes[0].drew_room == 8


# --- R11: trade with a fainted gnome and in the Sea --------------------------------------------
def test_R11_trade_with_a_fainted_gnome_whose_player_chooses_its_gift() -> None:
    g = arrange()
    give(g, 0, "coffee")
    give(g, 1, "harpoon", "toolbox")
    g.gnomes[1].fainted = True
    start(g)
    g.apply_text("trade 1")
    assert g.ghost == 43
    assert g.decider == 0
    g.apply_text("give coffee")
    g.apply_text("done")
    assert g.decider == 1 and g.player_to_move == 1  # the fainted gnome's player decides
    g.apply_text("give harpoon")
    g.apply_text("done")
    idx = g.data.item_index
    assert g.gnomes[0].hand == [idx["harpoon"]]
    assert sorted(g.gnomes[1].hand) == sorted([idx["toolbox"], idx["coffee"]])
    assert g.gnomes[1].fainted
    check(g)


def test_R11_trade_in_the_sea() -> None:
    g = arrange()
    give(g, 0, "aqualung", "coffee")
    give(g, 1, "harpoon")
    g.gnomes[1].room = SEA
    start(g)
    g.apply_text("play aqualung")
    g.apply_text("open sea")
    g.apply_text("enter")
    assert Action("trade", 1) in g.legal_actions()
    g.apply_text("trade 1")
    assert g.ghost == 44 - 2 - 1  # no low-water penalty at sea
    g.apply_text("give coffee")
    g.apply_text("done")
    g.apply_text("give harpoon")
    g.apply_text("done")
    assert g.gnomes[1].hand == [g.data.item_index["coffee"]]


# --- R12: a destruction token exactly on 0 ---------------------------------------------------
def test_R12_token_landing_exactly_on_0_is_placed() -> None:
    g = arrange()
    g.gnomes[1].keeper = g.gnomes[2].keeper = 10
    event_turn(g, "kraken", space=15)
    assert g.tokens[_token(g, "kraken")] == 0
    assert g.result is None


@pytest.mark.parametrize(("kind", "space"), [("missile_launch", 9), ("kraken", 12),
                                             ("engine_failure", 6), ("air_failure", 3)])
def test_R12_token_beyond_0_is_ignored(kind: str, space: int) -> None:
    g = arrange()
    g.gnomes[1].keeper = g.gnomes[2].keeper = 2
    event_turn(g, kind, space=space)
    assert all(t == -1 for t in g.tokens)
    assert logged(g, "token_avoided")


def _last_arrival(token: str | None):
    g = arrange()
    g.gnomes[0].keeper = 1
    g.gnomes[1].keeper = g.gnomes[2].keeper = 0
    if token:
        g.tokens[_token(g, token)] = 0
    start(g)
    g.apply_text("no_action")
    return g


def test_R12_token_left_on_0_when_the_last_keeper_arrives_is_a_loss() -> None:
    g = _last_arrival("kraken")
    assert g.result is not None and not g.result.won and g.result.cause == "kraken"


def test_R12_all_keepers_on_0_without_a_token_is_a_win() -> None:
    g = _last_arrival(None)
    assert g.result is not None and g.result.won and g.result.cause == "rescued"
    assert all(outcome(g, n) for n in range(3))


# --- R13: Less Deadly Death during Updates -------------------------------------------------------
def test_R13_active_gnome_dying_in_updates_is_replaced_and_its_keeper_keeps_advancing() -> None:
    g = arrange(variants={"less-deadly-death"})
    gn = g.gnomes[0]
    gn.keeper = 46
    gn.intoxication = 3
    give(g, 0, "coffee", "toolbox")
    g.water[6] = HIGH  # only No Action; dies of the flood at the start of Updates
    stack_events(g, "respite", "respite")
    start(g)
    g.rng.forced = [3]  # the replacement's room
    g.apply_text("no_action")
    g.apply_text("end")
    assert logged(g, "death") == [("death", 0, "flood", 6)]
    assert logged(g, "replacement") == [("replacement", 0, 3)]
    assert gn.alive and gn.room == 3 and gn.intoxication == 0 and gn.hand == []
    assert gn.keeper == 45  # the keeper stayed and kept advancing ...
    assert events(g) == ["respite"]  # ... resolving the icon on 45
    check(g)


# --- R14: Hardest draws one event per gnome -----------------------------------------------------
@pytest.mark.parametrize(("players", "per", "draws"), [(1, None, 3), (1, 5, 5), (2, None, 4),
                                                       (2, 2, 4), (3, None, 3), (6, None, 6)])
def test_R14_hardest_resolves_one_event_per_gnome_before_the_first_turn(
        players: int, per: int | None, draws: int) -> None:
    g = new_game(Config(players=players, gnomes_per_player=per, seed=3,
                        variants=frozenset({"hardest"})), start=False)
    stack_events(g, *["respite"] * 7)
    start_space = g.gnomes[0].keeper
    turn.begin(g)
    assert len(logged(g, "event")) == draws
    assert all(e[2] == start_space for e in logged(g, "event"))
    turns = logged(g, "turn")
    assert turns and g.log.index(turns[0]) > g.log.index(logged(g, "event")[-1])


def test_R14_hardest_setup_tokens_count_from_the_start_space() -> None:
    g = new_game(Config(players=3, seed=3, variants=frozenset({"hardest"})), start=False)
    stack_events(g, "missile_launch", "kraken", "respite")
    start(g)
    assert g.tokens[_token(g, "missile_launch")] == 50
    assert g.tokens[_token(g, "kraken")] == 45


def test_R14_hardest_setup_choices_are_made_by_the_first_gnome_in_turn_order() -> None:
    g = new_game(Config(players=3, seed=3, variants=frozenset({"hardest"})), start=False)
    stack_events(g, "hatch_blocked", "respite", "respite")
    first = g.turn_order()[0]
    g.rng.forced = [5]
    start(g)
    assert g.phase == DECIDE and g.pending[0].kind == "block" and g.decider == first
    g.apply_text("block 7")
    assert g.blocked[hatch(g, 5, 7)]
    assert len(logged(g, "event")) == 3 and g.phase == MOVE and g.active == first


def test_R7_low_water_penalty_counts_when_checking_the_passed_token() -> None:
    g = arrange()
    g.gnomes[0].room = 7
    g.water[7] = LOW
    g.tokens[_token(g, "missile_launch")] = 40
    start(g)
    g.rng.forced = [1]
    g.apply_text("stop_missile_launch 3")  # 3 + 2 minutes: ghost 39, past the token
    (rep,) = logged(g, "repair")
    assert rep[6:8] == (False, True)


def test_R13_replacement_after_air_ran_out_draws_the_items_on_the_way() -> None:
    g = arrange(variants={"less-deadly-death"})
    gn = g.gnomes[0]
    gn.room, gn.keeper = SEA, 41
    g.gnomes[1].keeper = g.gnomes[2].keeper = 20
    start(g)
    g.rng.forced = [8]
    g.apply_text("no_action")  # 41 -> 40 (item icon); the air ran out at the start of Updates
    assert logged(g, "death") == [("death", 0, "air", SEA)]
    assert gn.room == 8 and gn.keeper == 40 and len(gn.hand) == 1


# --- R15: no opening from low water into high water ----------------------------------------------
def test_R15_no_hatch_into_high_water_is_offered_from_a_low_water_room() -> None:
    g = arrange()
    g.water[6], g.water[5] = LOW, HIGH
    start(g)
    assert Action("open", 5) not in g.legal_actions()
    assert Action("open", SEA) in g.legal_actions()  # the exterior hatch is unaffected
    err = rejects(g, "open 5", "R15")
    assert "low-water room" in str(err)


@pytest.mark.parametrize(("here", "open_ok"), [(NONE, True), (HIGH, True), (LOW, False)])
def test_R15_only_a_low_water_room_forbids_opening_into_high_water(here: int, open_ok: bool) -> None:
    g = arrange()
    g.water[6], g.water[5] = here, HIGH
    start(g)
    assert (Action("open", 5) in g.legal_actions()) is open_ok


def test_R15_a_high_water_room_may_open_into_low_water_and_enter_it() -> None:
    g = arrange()
    g.water[6], g.water[5] = HIGH, LOW
    start(g)
    g.apply_text("open 5")
    assert (g.water[6], g.water[5]) == (HIGH, LOW)  # R5: nothing flows
    g.apply_text("enter")
    assert g.gnomes[0].room == 5 and g.ghost == 42  # open 1 + low water 1


def test_R15_pumping_out_the_low_room_first_allows_the_opening() -> None:
    g = arrange()
    g.water[6], g.water[5] = LOW, HIGH
    g.gnomes[1].keeper = g.gnomes[2].keeper = 20
    start(g)
    g.rng.forced = [1]
    g.apply_text("pump_water 1")
    assert g.water[6] == NONE and g.active == 0
    assert Action("open", 5) in g.legal_actions()


# --- R16: two players run exactly two gnomes each ------------------------------------------------
@pytest.mark.parametrize("per", [1, 3, 4])
def test_R16_two_players_with_other_than_two_gnomes_each_are_refused(per: int) -> None:
    with pytest.raises(ConfigError, match="R16"):
        Config(players=2, gnomes_per_player=per)
    assert Config(players=2).gnomes == 4


def test_R16_a_scenario_with_two_players_and_three_gnomes_each_is_refused() -> None:
    spec = {"format": "rednovember-scenario", "version": 1,
            "config": {"players": 2, "gnomes_per_player": 3, "seed": 1}}
    with pytest.raises(ScenarioError, match="R16"):
        scenario.build(spec)


def test_R16_a_save_with_two_players_and_three_gnomes_each_is_refused() -> None:
    save = to_dict(new_game(Config(players=2, seed=3)))
    save["config"]["gnomes_per_player"] = 3
    with pytest.raises(SaveError, match="R16"):
        from_dict(save)


# --- R17: a Mad Gnomes attack needs a Crowbar played in the attack room ---------------------------
def _mad_pair() -> Game:
    g = arrange(variants={"mad-gnomes"})
    g.gnomes[0].room = 5
    g.gnomes[1].room = 6
    g.gnomes[2].room = 4
    give(g, 0, "crowbar", "crowbar")
    return start(g)


def test_R17_a_crowbar_played_in_another_room_does_not_enable_an_attack() -> None:
    g = _mad_pair()
    g.apply_text("play crowbar")  # in room 5, alone
    g.apply_text("open 6")
    g.apply_text("enter")
    assert "attack" not in kinds(g.legal_actions())
    rejects(g, "attack 1", "not legal")


def test_R17_a_crowbar_played_in_the_attack_room_enables_the_attack() -> None:
    g = _mad_pair()
    g.apply_text("play crowbar")
    g.apply_text("open 6")
    g.apply_text("enter")
    g.apply_text("play crowbar")  # the second one, now beside gnome 1
    assert [a.arg for a in g.legal_actions() if a.kind == "attack"] == [1]


def test_R17_a_crowbar_played_before_leaving_and_coming_back_still_counts() -> None:
    g = arrange(variants={"mad-gnomes"})
    g.gnomes[0].room = g.gnomes[1].room = 6
    g.gnomes[2].room = 4
    give(g, 0, "crowbar")
    start(g)
    g.apply_text("play crowbar")  # in room 6, beside gnome 1
    g.apply_text("open 5")
    g.apply_text("enter")
    assert "attack" not in kinds(g.legal_actions())
    g.apply_text("open 6")
    g.apply_text("enter")
    assert [a.arg for a in g.legal_actions() if a.kind == "attack"] == [1]


def test_R17_the_room_where_the_crowbar_was_played_survives_a_save() -> None:
    g = _mad_pair()
    g.apply_text("open 6")
    g.apply_text("enter")
    g.apply_text("play crowbar")
    twin = restore(g.data, g.config, snapshot(g))
    assert twin.armed_in == [6]
    assert [a.arg for a in twin.legal_actions() if a.kind == "attack"] == [1]
