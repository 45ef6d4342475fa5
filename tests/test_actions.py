"""Phase 2, Actions (RULES §6), items (§7), the faint check (phase 3) and illegal actions."""

from __future__ import annotations

import pytest
from helpers import (
    HIGH,
    LOW,
    NONE,
    arrange,
    block,
    give,
    hatch,
    kinds,
    logged,
    put_item_on_top,
    rejects,
    stack_events,
    start,
)

from rednovember.rules import Action, ActionError, Config, new_game
from rednovember.rules.data import SEA
from rednovember.rules.invariants import check
from rednovember.rules.state import AFTER_ACTION, DECIDE, EXTRA_MOVE, MOVE

MOVES = {"open", "play"}


def _actions(g) -> set[str]:
    return kinds(g.legal_actions()) - MOVES


def _minutes(g, kind: str, arg: int | None = None) -> list[int]:
    return [a.minutes for a in g.legal_actions()
            if a.kind == kind and (arg is None or a.arg == arg)]


def _repair(g, text: str, roll: int):
    g.rng.forced = [roll]
    g.apply_text(text)
    return logged(g, "repair")[-1]  # ("repair", gnome, kind, minutes, target, roll, ok, doomed)


def _track(g, name: str) -> int:
    return g.data.tracks.index(name)


def _token(g, name: str) -> int:
    return g.data.tokens.index(name)


# --- where each action is possible --------------------------------------------------------
def test_plain_dry_room_offers_trade_and_no_action_only() -> None:
    g = start(arrange())
    assert _actions(g) == {"trade", "no_action"}


def test_burning_room_allows_only_extinguish_fire() -> None:
    g = arrange()
    g.fire[6] = True
    block(g, 5, 6)
    g.tracks[0] = 3
    start(g)
    assert _actions(g) == {"extinguish_fire"}
    assert _minutes(g, "extinguish_fire") == list(range(1, 11))
    rejects(g, "no_action")
    rejects(g, "trade 1")


def test_high_water_room_allows_only_no_action() -> None:
    g = arrange()
    g.water[6] = HIGH
    block(g, 5, 6)
    start(g)
    assert _actions(g) == {"no_action"}
    rejects(g, "pump_water 3")
    rejects(g, "unblock_hatch 5 3")


def test_low_water_adds_two_minutes_to_every_action_but_pump_water_and_no_action() -> None:
    g = arrange()
    g.water[6] = LOW
    block(g, 5, 6)
    g.gnomes[0].keeper = 9
    g.gnomes[1].keeper = g.gnomes[2].keeper = 8
    start(g)
    assert _minutes(g, "unblock_hatch", 5) == list(range(1, 8))  # 9 - 2 for the water
    assert _minutes(g, "pump_water") == list(range(1, 10))
    assert "no_action" in _actions(g)


@pytest.mark.parametrize(("text", "cost"), [("no_action", 1), ("pump_water 3", 3),
                                            ("unblock_hatch 5 3", 5), ("trade 1", 3)])
def test_low_water_penalty_is_paid_in_minutes(text: str, cost: int) -> None:
    g = arrange()
    g.water[6] = LOW
    block(g, 5, 6)
    give(g, 0, "coffee")
    start(g)
    g.rng.forced = [10]
    g.apply_text(text)
    assert g.ghost == 44 - cost


def test_pump_water_only_in_low_water_and_removes_it_on_success() -> None:
    g = arrange()
    start(g)
    assert "pump_water" not in _actions(g)
    g = arrange()
    g.water[6] = LOW
    give(g, 0, "water_pump", "coffee")
    start(g)
    g.apply_text("play water_pump")
    rep = _repair(g, "pump_water 2", 5)
    assert rep[4:7] == (5, 5, True)  # 2 minutes + 3 for the Water Pump
    assert g.water[6] == NONE and g.ghost == 42


def test_failed_repair_costs_only_the_time() -> None:
    g = arrange()
    g.water[6] = LOW
    give(g, 0, "coffee")
    start(g)
    rep = _repair(g, "pump_water 2", 3)
    assert rep[6] is False and g.water[6] == LOW and g.ghost == 42


def test_unblock_hatch_offers_each_blocked_hatch_of_the_room_and_removes_only_one() -> None:
    g = arrange()
    g.gnomes[0].room = 5
    block(g, 5, 7)
    block(g, 5, 8)
    block(g, 7, 8)  # not a hatch of room 5
    give(g, 0, "coffee")
    start(g)
    assert sorted({a.arg for a in g.legal_actions() if a.kind == "unblock_hatch"}) == [7, 8]
    _repair(g, "unblock_hatch 8 4", 4)
    assert not g.blocked[hatch(g, 5, 8)]
    assert g.blocked[hatch(g, 5, 7)] and g.blocked[hatch(g, 7, 8)]
    assert g.ghost == 40


def test_unblock_hatch_is_legal_on_either_side_of_the_blocked_hatch() -> None:
    g = arrange()
    g.gnomes[0].room = 7
    block(g, 5, 7)
    start(g)
    assert _minutes(g, "unblock_hatch", 5) == list(range(1, 11))


def test_extinguish_fire_success_removes_the_fire() -> None:
    g = arrange()
    g.fire[6] = True
    give(g, 0, "fire_extinguisher", "coffee")
    start(g)
    g.apply_text("play fire_extinguisher")
    rep = _repair(g, "extinguish_fire 3", 6)
    assert rep[4:7] == (6, 6, True)
    assert not g.fire[6] and g.phase == AFTER_ACTION and g.ghost == 41


@pytest.mark.parametrize(("start_at", "reset_to"), [(2, 1), (5, 1), (6, 5), (8, 5), (9, 5)])
def test_fix_reactor_resets_heat_to_the_next_star(start_at: int, reset_to: int) -> None:
    g = arrange()
    g.gnomes[0].room = 4
    g.tracks[_track(g, "heat")] = start_at
    start(g)
    _repair(g, "fix_reactor 10", 10)
    assert g.tracks[_track(g, "heat")] == reset_to


def test_fix_engine_resets_pressure_and_removes_crushed() -> None:
    g = arrange()
    g.gnomes[0].room = 1
    g.tracks[_track(g, "pressure")] = 7
    g.tokens[_token(g, "crushed")] = 30
    start(g)
    _repair(g, "fix_engine 2", 1)
    assert g.tracks[_track(g, "pressure")] == 5 and g.tokens[_token(g, "crushed")] == -1


def test_fix_oxygen_pumps_resets_asphyxiation_and_removes_asphyxiated() -> None:
    g = arrange()
    g.gnomes[0].room = 2
    g.tracks[_track(g, "asphyxiation")] = 4
    g.tokens[_token(g, "asphyxiated")] = 30
    start(g)
    _repair(g, "fix_oxygen_pumps 2", 1)
    assert g.tracks[_track(g, "asphyxiation")] == 1
    assert g.tokens[_token(g, "asphyxiated")] == -1


def test_stop_missile_launch_with_deactivation_code_and_low_water_penalty() -> None:
    g = arrange()
    g.gnomes[0].room = 7
    g.water[7] = LOW
    g.tokens[_token(g, "missile_launch")] = 20
    give(g, 0, "deactivation_code", "coffee")
    start(g)
    g.apply_text("play deactivation_code")
    rep = _repair(g, "stop_missile_launch 3", 7)
    assert rep[4:7] == (7, 7, True)
    assert g.ghost == 44 - 5 and g.tokens[_token(g, "missile_launch")] == -1


def test_kill_kraken_in_the_sea_with_harpoon() -> None:
    g = arrange()
    g.gnomes[0].room = SEA
    g.tokens[_token(g, "kraken")] = 20
    give(g, 0, "harpoon", "coffee")
    start(g)
    g.apply_text("play harpoon")
    rep = _repair(g, "kill_kraken 2", 6)
    assert rep[4:7] == (6, 6, True)
    assert g.tokens[_token(g, "kraken")] == -1 and g.ghost == 42


def test_no_action_costs_one_minute() -> None:
    g = arrange()
    give(g, 0, "coffee")
    start(g)
    g.apply_text("no_action")
    assert g.ghost == 43 and g.phase == AFTER_ACTION


def test_only_one_action_per_turn() -> None:
    g = arrange()
    give(g, 0, "coffee")
    start(g)
    g.apply_text("no_action")
    assert kinds(g.legal_actions()) == {"end", "play"}
    rejects(g, "no_action")
    rejects(g, "open 5")  # no movement after the action either


# --- item bonuses -----------------------------------------------------------------------------
def test_toolbox_and_engine_manual_stack_to_plus_7_on_fix_engine() -> None:
    g = arrange()
    g.gnomes[0].room = 1
    g.tracks[_track(g, "pressure")] = 3
    give(g, 0, "toolbox", "engine_manual")
    start(g)
    g.apply_text("play toolbox")
    g.apply_text("play engine_manual")
    rep = _repair(g, "fix_engine 1", 8)
    assert rep[4] == 8 and rep[6] is True


@pytest.mark.parametrize(("room", "repair", "items", "bonus"), [
    (4, "fix_reactor", ("toolbox", "reactor_manual"), 7),
    (4, "fix_reactor", ("engine_manual", "pump_manual"), 0),
    (2, "fix_oxygen_pumps", ("toolbox", "pump_manual"), 7),
    (2, "fix_oxygen_pumps", ("toolbox", "toolbox"), 6),
    (7, "stop_missile_launch", ("toolbox", "deactivation_code"), 4),
    (6, "unblock_hatch 5", ("crowbar", "crowbar", "water_pump"), 6),
    (6, "pump_water", ("water_pump", "crowbar"), 3),
])
def test_item_bonuses_apply_only_to_their_repair_and_add_up(
        room: int, repair: str, items: tuple[str, ...], bonus: int) -> None:
    g = arrange()
    g.gnomes[0].room = room
    g.tracks[:] = [3, 3, 3]
    g.tokens[_token(g, "missile_launch")] = 30
    block(g, 5, 6)
    if repair == "pump_water":
        g.water[6] = LOW
    give(g, 0, *items)
    start(g)
    for name in items:
        g.apply_text(f"play {name}")
    rep = _repair(g, f"{repair} 2", 10)
    assert rep[4] == 2 + bonus


@pytest.mark.parametrize(("room", "repair"), [
    (6, "unblock_hatch 5"), (6, "pump_water"), (6, "extinguish_fire"), (1, "fix_engine"),
    (2, "fix_oxygen_pumps"), (4, "fix_reactor"), (7, "stop_missile_launch"),
    (SEA, "kill_kraken")])
def test_grog_adds_3_to_every_repair(room: int, repair: str) -> None:
    g = arrange()
    g.gnomes[0].room = room
    g.tracks[:] = [3, 3, 3]
    for t in range(4):
        g.tokens[t] = 30
    block(g, 5, 6)
    if repair == "pump_water":
        g.water[6] = LOW
    if repair == "extinguish_fire":
        g.fire[6] = True
    give(g, 0, "grog", "grog")
    start(g)
    g.apply_text("play grog")
    g.apply_text("play grog")  # two Grogs: +6
    rep = _repair(g, f"{repair} 1", 10)
    assert rep[4] == 7


def test_items_played_are_discarded_and_effects_last_the_turn() -> None:
    g = arrange()
    g.gnomes[0].room = 5
    g.fire[4] = True
    block(g, 5, 8)
    give(g, 0, "crowbar", "grog", "coffee")
    start(g)
    g.apply_text("play crowbar")  # played long before the roll
    g.apply_text("play grog")
    g.apply_text("open 4")
    g.apply_text("stay")
    rep = _repair(g, "unblock_hatch 8 1", 10)
    assert rep[4] == 7
    idx = g.data.item_index
    assert g.item_discard[-2:] == [idx["crowbar"], idx["grog"]]
    assert g.gnomes[0].hand == [idx["coffee"]]


# --- intoxication and the faint check ---------------------------------------------------------
@pytest.mark.parametrize(("before", "after"), [(0, 0), (1, 0), (2, 0), (3, 1), (4, 2)])
def test_coffee_lowers_intoxication_by_2_not_below_0(before: int, after: int) -> None:
    g = arrange()
    g.gnomes[0].intoxication = before
    give(g, 0, "coffee")
    start(g)
    g.apply_text("play coffee")
    assert g.gnomes[0].intoxication == after


def test_grog_raises_intoxication_by_1_capped_at_4() -> None:
    g = arrange()
    g.gnomes[0].intoxication = 2
    give(g, 0, "grog", "grog", "grog", "coffee")
    start(g)
    for expected in (3, 4, 4):
        g.apply_text("play grog")
        assert g.gnomes[0].intoxication == expected


def test_gnome_at_4_may_still_drink_and_still_checks() -> None:
    g = arrange()
    g.gnomes[0].intoxication = 4
    give(g, 0, "grog")
    stack_events(g, ("respite", 4))
    start(g)
    g.apply_text("play grog")
    g.apply_text("no_action")
    (fc,) = logged(g, "faint_check")
    assert fc[3:] == (4, True) and g.gnomes[0].fainted


@pytest.mark.parametrize(("faint", "intox", "fainted"), [
    (1, 1, True), (2, 1, False), (3, 3, True), (4, 3, False), (None, 4, False)])
def test_faint_check_compares_the_cards_number_with_intoxication(
        faint: int | None, intox: int, fainted: bool) -> None:
    g = arrange()
    g.gnomes[0].intoxication = intox - 1
    give(g, 0, "grog")
    card = stack_events(g, ("respite" if faint != 3 else "fire", faint))[0]
    start(g)
    g.apply_text("play grog")
    g.apply_text("no_action")
    assert logged(g, "faint_check") == [("faint_check", 0, card, intox, fainted)]
    assert g.gnomes[0].fainted is fainted
    assert g.gnomes[0].keeper == (33 if fainted else 43)
    assert card in g.event_discard  # the card's event is ignored and the card discarded
    assert not g.fire.count(True)


def test_one_faint_check_however_many_grogs() -> None:
    g = arrange()
    give(g, 0, "grog", "grog", "grog")
    stack_events(g, ("respite", None))
    start(g)
    for _ in range(3):
        g.apply_text("play grog")
    g.apply_text("no_action")
    assert len(logged(g, "faint_check")) == 1


def test_no_faint_check_without_grog() -> None:
    g = arrange()
    g.gnomes[0].intoxication = 4
    give(g, 0, "coffee")
    start(g)
    g.apply_text("no_action")
    g.apply_text("end")
    assert not logged(g, "faint_check")


def test_fainted_gnome_stands_up_at_the_start_of_its_next_turn() -> None:
    g = arrange()
    g.gnomes[0].fainted = True
    start(g)
    assert not g.gnomes[0].fainted
    assert ("stand_up", 0) in g.log


# --- Lucky Charm ------------------------------------------------------------------------------
def _long_turn(charms: int, minutes: int):
    g = arrange()
    g.water[6] = LOW
    give(g, 0, *["lucky_charm"] * charms)
    stack_events(g, *["respite"] * 7)
    start(g)
    for _ in range(charms):
        g.apply_text("play lucky_charm")
    g.rng.forced = [10]
    g.apply_text(f"pump_water {minutes}")
    return g


def test_lucky_charm_ignores_the_first_three_event_icons() -> None:
    g = _long_turn(1, 10)  # 44 -> 34: icons 42, 39, 36
    assert [e[2] for e in logged(g, "charm")] == [42, 39, 36]
    assert not logged(g, "event")


def test_lucky_charm_ignores_only_three() -> None:
    g = arrange()
    g.water[6] = LOW
    give(g, 0, "lucky_charm")
    start(g)
    g.apply_text("play lucky_charm")
    g.apply_text("open 5")
    g.apply_text("stay")
    g.rng.forced = [10]
    g.apply_text("pump_water 10")  # 44 -> 33: icons 42, 39, 36, 33
    assert [e[2] for e in logged(g, "charm")] == [42, 39, 36]
    assert [e[2] for e in logged(g, "event")] == [33]


def test_two_lucky_charms_ignore_six_event_icons() -> None:
    g = arrange()
    g.gnomes[0].keeper = 46
    g.water[6] = LOW
    give(g, 0, "lucky_charm", "lucky_charm")
    start(g)
    g.apply_text("play lucky_charm")
    g.apply_text("play lucky_charm")
    for _ in range(9):
        g.apply_text("open 5")
        g.apply_text("stay")
    g.rng.forced = [10]
    g.apply_text("pump_water 10")  # 46 -> 27: icons 45 .. 30 ignored, 27 drawn
    assert [e[2] for e in logged(g, "charm")] == [45, 42, 39, 36, 33, 30]
    assert [e[2] for e in logged(g, "event")] == [27]


# --- Draw Items -------------------------------------------------------------------------------
def test_draw_items_in_room_8_takes_1_to_4_cards_from_the_deck() -> None:
    g = arrange()
    g.gnomes[0].room = 8
    put_item_on_top(g, "harpoon", "coffee", "toolbox", "aqualung")
    start(g)
    assert [a.arg for a in g.legal_actions() if a.kind == "draw"] == [1, 2, 3, 4]
    rejects(g, "draw 5")
    g.apply_text("draw 4")
    idx = g.data.item_index
    assert g.gnomes[0].hand == [idx[n] for n in ("harpoon", "coffee", "toolbox", "aqualung")]
    assert g.ghost == 40


def test_draw_items_in_room_10_takes_1_or_2_grog_from_the_captains_stock() -> None:
    g = arrange()
    g.gnomes[0].room = 10
    start(g)
    assert [a.arg for a in g.legal_actions() if a.kind == "draw"] == [1, 2]
    g.apply_text("draw 2")
    assert g.gnomes[0].hand == [g.data.item_index["grog"]] * 2 and g.stock == 4
    check(g)


def test_captains_stock_limits_draws_and_runs_out() -> None:
    g = arrange()
    g.gnomes[0].room = 10
    g.gnomes[1].hand = [g.data.stock_item] * 5
    g.stock = 1
    start(g)
    assert [a.arg for a in g.legal_actions() if a.kind == "draw"] == [1]
    g = arrange()
    g.gnomes[0].room = 10
    g.gnomes[1].hand = [g.data.stock_item] * 6
    g.stock = 0
    start(g)
    assert "draw" not in _actions(g)


def test_draw_items_in_low_water_costs_2_more_and_is_limited_by_time() -> None:
    g = arrange()
    g.gnomes[0].room = 8
    g.water[8] = LOW
    g.gnomes[0].keeper = 5
    g.gnomes[1].keeper = g.gnomes[2].keeper = 4
    start(g)
    assert [a.arg for a in g.legal_actions() if a.kind == "draw"] == [1, 2, 3]
    g.apply_text("draw 3")
    assert len(logged(g, "draw")[0][2]) == 3
    assert g.ghost == 0


def test_draw_items_limited_by_cards_left_in_deck_and_discards() -> None:
    g = arrange()
    g.gnomes[0].room = 8
    g.gnomes[1].hand, g.item_deck = g.item_deck[2:], g.item_deck[:2]
    g.item_discard.append(g.gnomes[1].hand.pop())
    start(g)
    assert [a.arg for a in g.legal_actions() if a.kind == "draw"] == [1, 2, 3]
    g.apply_text("draw 3")  # the third card comes from the reshuffled discard pile
    assert len(g.gnomes[0].hand) == 3 and logged(g, "item_reshuffle")
    check(g)


def test_draw_items_not_possible_in_other_rooms() -> None:
    for room in (1, 2, 3, 4, 5, 6, 7, 9, SEA):
        g = arrange()
        g.gnomes[0].room = room
        start(g)
        assert "draw" not in _actions(g)


# --- Trade Items ------------------------------------------------------------------------------
def test_trade_both_ways_costs_the_active_gnome_one_minute() -> None:
    g = arrange()
    idx = g.data.item_index
    give(g, 0, "toolbox", "coffee")
    give(g, 1, "harpoon", "crowbar")
    start(g)
    g.apply_text("trade 1")
    assert g.phase == DECIDE and g.decider == 0
    assert kinds(g.legal_actions()) == {"done", "give"}
    g.apply_text("give toolbox")
    g.apply_text("give coffee")
    g.apply_text("done")
    assert g.decider == 1
    g.apply_text("give crowbar")
    g.apply_text("done")
    assert g.gnomes[0].hand == [idx["crowbar"]]
    assert sorted(g.gnomes[1].hand) == sorted([idx["harpoon"], idx["toolbox"], idx["coffee"]])
    assert g.phase == AFTER_ACTION and g.ghost == 43
    check(g)


def test_trade_needs_another_gnome_in_the_same_room() -> None:
    g = arrange()
    g.gnomes[1].room = 5
    g.gnomes[2].room = 5
    start(g)
    assert "trade" not in _actions(g)
    rejects(g, "trade 1")
    g = arrange()
    g.gnomes[2].room = 5
    start(g)
    assert [a.arg for a in g.legal_actions() if a.kind == "trade"] == [1]


def test_trade_in_low_water_costs_three_minutes() -> None:
    g = arrange()
    g.water[6] = LOW
    start(g)
    g.apply_text("trade 2")
    g.apply_text("done")
    g.apply_text("done")
    assert g.gnomes[0].keeper == 41


def test_R11_trade_partner_may_be_fainted_and_gives_back_any_number() -> None:
    g = arrange()
    g.gnomes[2].fainted = True
    give(g, 2, "aqualung", "harpoon")
    start(g)
    g.apply_text("trade 2")
    g.apply_text("done")  # gnome 0 gives nothing
    g.apply_text("give aqualung")
    g.apply_text("give harpoon")
    assert kinds(g.legal_actions()) == {"done"}
    g.apply_text("done")
    assert len(g.gnomes[0].hand) == 2 and g.gnomes[2].hand == []


# --- Abandon Comrades -------------------------------------------------------------------------
def _at_sea(keeper: int, players: int = 3):
    g = arrange(players=players)
    g.gnomes[0].room = SEA
    g.gnomes[0].keeper = keeper
    for other in g.gnomes[1:]:
        other.keeper = min(other.keeper, keeper - 1)
    return start(g)


def test_abandon_comrades_in_the_sea_with_keeper_at_most_9() -> None:
    g = _at_sea(9)
    assert "abandon" in _actions(g)
    g = _at_sea(10)
    assert "abandon" not in _actions(g)
    rejects(g, "abandon")


def test_abandon_comrades_only_in_the_sea() -> None:
    g = arrange()
    g.gnomes[0].room = 9
    g.gnomes[0].keeper = 5
    g.gnomes[1].keeper = g.gnomes[2].keeper = 4
    start(g)
    assert "abandon" not in _actions(g)


@pytest.mark.parametrize("players", [1, 2])
def test_no_abandon_comrades_with_one_or_two_players(players: int) -> None:
    g = arrange(players=players)
    g.gnomes[0].room = SEA
    g.gnomes[0].keeper = 9
    for other in g.gnomes[1:]:
        other.keeper = 8
    start(g)
    assert "abandon" not in _actions(g)


def test_abandon_spends_all_minutes_removes_the_gnome_and_draws_no_events() -> None:
    g = _at_sea(9)
    give(g, 0, "coffee")
    g.apply_text("abandon")
    gn = g.gnomes[0]
    assert gn.abandoned and not gn.on_board and gn.hand == []
    assert not logged(g, "event") and not logged(g, "item_icon")
    assert 0 not in g.turn_order() and g.active == 2
    check(g)


# --- failed Extinguish Fire: the forced extra move ---------------------------------------------
def _fire_fail(room: int = 6, hand: tuple[str, ...] = (), keeper: int = 44, **setup):
    g = arrange()
    gn = g.gnomes[0]
    gn.room = room
    gn.keeper = keeper
    for other in g.gnomes[1:]:
        other.keeper = min(other.keeper, keeper - 1)
    g.fire[room] = True
    for name, value in setup.items():
        if name == "blocked":
            for a, b in value:
                block(g, a, b)
        elif name == "fires":
            for r in value:
                g.fire[r] = True
        elif name == "water":
            for r, level in value.items():
                g.water[r] = level
    give(g, 0, *hand)
    start(g)
    return g


def test_failed_extinguish_forces_an_extra_move_out() -> None:
    g = _fire_fail()
    _repair(g, "extinguish_fire 2", 10)
    assert g.phase == EXTRA_MOVE
    assert kinds(g.legal_actions()) == {"exit"}
    assert [a.arg for a in g.legal_actions()] == [5]  # no Aqualung: not the Sea
    rejects(g, "end")
    g.apply_text("exit 5")
    assert g.gnomes[0].room == 5 and g.gnomes[0].keeper == 44 - 2 - 1
    assert g.gnomes[0].alive


def test_failed_extinguish_extra_move_into_low_water_costs_two() -> None:
    g = _fire_fail(water={5: LOW})
    _repair(g, "extinguish_fire 2", 10)
    g.apply_text("exit 5")
    assert g.gnomes[0].keeper == 44 - 2 - 2


def test_failed_extinguish_extra_move_reflows_high_water() -> None:
    g = _fire_fail(water={5: HIGH})
    _repair(g, "extinguish_fire 2", 10)
    assert [a.arg for a in g.legal_actions() if a.kind == "exit"] == [5]
    g.apply_text("exit 5")
    assert g.water[5] == LOW and g.water[6] == LOW and not g.fire[6]
    assert g.gnomes[0].room == 5 and g.gnomes[0].keeper == 44 - 2 - 2


def test_failed_extinguish_with_no_way_out_kills_the_gnome() -> None:
    g = _fire_fail(blocked=[(5, 6)], hand=("coffee",))
    _repair(g, "extinguish_fire 2", 10)
    assert not g.gnomes[0].alive
    assert logged(g, "death") == [("death", 0, "trapped", 6)]
    assert g.item_discard[-1] == g.data.item_index["coffee"]
    assert g.active == 1  # the dead gnome's keeper is gone; no events were drawn
    assert not logged(g, "event")


def test_failed_extinguish_with_no_time_left_kills_the_gnome() -> None:
    g = _fire_fail(keeper=2)
    _repair(g, "extinguish_fire 2", 10)
    assert not g.gnomes[0].alive


def test_failed_extinguish_next_to_fire_may_play_grog_to_escape_but_then_burns() -> None:
    g = _fire_fail(fires=[5], hand=("grog",))
    _repair(g, "extinguish_fire 2", 10)
    assert g.phase == EXTRA_MOVE and kinds(g.legal_actions()) == {"play"}
    g.apply_text("play grog")
    assert [a.arg for a in g.legal_actions() if a.kind == "exit"] == [5]
    g.apply_text("exit 5")
    # the way out led into a burning room: dead at the start of Updates
    assert [e[1:] for e in logged(g, "death")] == [(0, "fire", 5)]


def test_failed_extinguish_may_escape_to_the_sea_with_an_aqualung() -> None:
    g = _fire_fail(blocked=[(5, 6)], hand=("aqualung",))
    _repair(g, "extinguish_fire 2", 10)
    g.apply_text("play aqualung")
    g.apply_text("exit sea")
    assert g.gnomes[0].room == SEA and g.gnomes[0].keeper == 44 - 2 - 2


def test_P8_failed_extinguish_dies_at_once_when_no_held_item_could_open_a_way() -> None:
    # room 10 has no exterior hatch: the Aqualung cannot help; both hatches blocked
    g = _fire_fail(room=10, blocked=[(8, 10), (9, 10)], hand=("aqualung", "toolbox"))
    _repair(g, "extinguish_fire 2", 10)
    assert not g.gnomes[0].alive


def test_P8_failed_extinguish_dies_at_once_when_grog_cannot_open_a_way() -> None:
    # the only interior hatch is blocked and no Aqualung is held: a Grog cannot help
    g = _fire_fail(blocked=[(5, 6)], hand=("grog", "toolbox"))
    _repair(g, "extinguish_fire 2", 10)
    assert not g.gnomes[0].alive
    assert logged(g, "death") == [("death", 0, "trapped", 6)]


def test_P8_an_aqualung_without_the_minutes_to_use_it_cannot_save_the_gnome() -> None:
    # 1 minute left: the Sea costs open 1 + pass 1
    g = _fire_fail(keeper=3, blocked=[(5, 6)], hand=("aqualung",))
    _repair(g, "extinguish_fire 2", 10)
    assert not g.gnomes[0].alive


# --- illegal and out-of-turn actions ----------------------------------------------------------
def test_illegal_actions_raise_a_clear_error_and_change_nothing() -> None:
    g = arrange()
    give(g, 0, "coffee")
    give(g, 1, "toolbox")
    start(g)
    assert "not legal now" in str(rejects(g, "enter"))
    assert "gnome 0 to act" in str(rejects(g, "play toolbox"))
    rejects(g, "extinguish_fire 3")
    rejects(g, Action("no_action", 1))
    rejects(g, "draw 1")
    rejects(g, "done")
    rejects(g, "keep coffee")


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty action"), ("fly 3", "unknown action"), ("open", "takes 1 argument"),
    ("open five", "must be a number"), ("play beer", "unknown item"),
    ("unblock_hatch 5", "takes 2 argument")])
def test_unparseable_actions_raise_action_error(text: str, message: str) -> None:
    g = start(arrange())
    rejects(g, text, message)


def test_repair_minutes_outside_1_to_10_are_illegal() -> None:
    g = arrange()
    g.water[6] = LOW
    start(g)
    rejects(g, "pump_water 0")
    rejects(g, "pump_water 11")


def test_decisions_are_only_accepted_from_the_deciding_gnome_state() -> None:
    g = arrange()
    give(g, 0, "coffee")
    give(g, 1, "toolbox")
    start(g)
    g.apply_text("trade 1")
    err = rejects(g, "no_action")
    assert "waiting for gnome 0 to decide (give)" in str(err)
    rejects(g, "give toolbox")  # gnome 0 holds no Toolbox: not its decision to give it
    g.apply_text("done")
    rejects(g, "give coffee")  # gnome 1 has no coffee (yet)


def test_actions_after_the_game_is_over_raise() -> None:
    g = arrange()
    g.gnomes[0].keeper = 1
    g.gnomes[1].keeper = g.gnomes[2].keeper = 0
    start(g)
    g.apply_text("no_action")
    assert g.is_over
    with pytest.raises(ActionError, match="the game is over"):
        g.apply_text("no_action")


def test_non_action_objects_are_rejected() -> None:
    g = start(arrange())
    with pytest.raises(ActionError):
        g.apply(("no_action", 0, 0))  # type: ignore[arg-type]


def test_every_listed_legal_action_applies_without_error() -> None:
    g = new_game(Config(players=4, seed=9))
    for _ in range(200):
        if g.is_over:
            break
        for a in g.legal_actions():
            twin = g.copy()
            twin.apply(a)
        g.apply(g.legal_actions()[-1])
    assert g.phase in (MOVE, DECIDE, AFTER_ACTION, EXTRA_MOVE, "opened", "over")


def test_P7_cards_just_received_in_a_trade_may_be_given_back() -> None:
    g = arrange()
    give(g, 0, "harpoon")
    start(g)
    g.apply_text("trade 1")
    g.apply_text("give harpoon")
    g.apply_text("done")
    g.apply_text("give harpoon")
    g.apply_text("done")
    assert g.gnomes[0].hand == [g.data.item_index["harpoon"]] and g.gnomes[1].hand == []
