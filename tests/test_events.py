"""Event cards (RULES §8): every kind's effect, decisions, decks running out."""

from __future__ import annotations

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
    put_item_on_top,
    stack_events,
    start,
)

from rednovember.rules.invariants import check
from rednovember.rules.state import DECIDE, MOVE


def _track(g, name: str) -> int:
    return g.tracks[g.data.tracks.index(name)]


def _token(g, name: str) -> int:
    return g.tokens[g.data.tokens.index(name)]


# --- Fire --------------------------------------------------------------------------------------
def test_fire_sets_a_rolled_dry_room_burning_and_advances_asphyxiation() -> None:
    g = event_turn(arrange(), "fire", dice=[4])
    assert g.fire[4] and _track(g, "asphyxiation") == 2
    assert sum(g.fire) == 1


def test_fire_in_an_already_burning_room_still_advances_asphyxiation() -> None:
    g = arrange()
    g.fire[4] = True
    event_turn(g, "fire", dice=[4])
    assert g.fire[4] and _track(g, "asphyxiation") == 2


@pytest.mark.parametrize("level", [LOW, HIGH])
def test_fire_in_a_flooded_room_has_no_effect(level: int) -> None:
    g = arrange()
    g.water[4] = level
    event_turn(g, "fire", dice=[4])
    assert not g.fire[4] and g.water[4] == level and _track(g, "asphyxiation") == 1
    assert logged(g, "fire_flooded") == [("fire_flooded", 4)]


def test_die_face_10_is_the_captains_cabin() -> None:
    g = event_turn(arrange(), "fire", dice=[10])
    assert g.fire[10]


# --- Fire Spreads ------------------------------------------------------------------------------
def test_fire_spreads_lets_the_active_player_choose_among_the_neighbours() -> None:
    g = arrange()
    g.fire[5] = True
    g.water[2] = LOW  # flooded: not a candidate
    g.fire[7] = True  # burning: not a candidate
    block(g, 5, 8)  # blocked hatches do not stop fire
    event_turn(g, "fire_spreads")
    assert g.phase == DECIDE and g.pending[0].kind == "spread" and g.decider == 0
    # neighbours of 5: 2 4 6 7 8; of 7: 5 8 9  -> 4 6 8 9
    assert sorted(a.arg for a in g.legal_actions()) == [4, 6, 8, 9]
    g.apply_text("spread 8")
    assert g.fire[8] and _track(g, "asphyxiation") == 2
    assert g.phase == MOVE  # the turn goes on: next turn started


def test_fire_spreads_with_a_single_option_is_resolved_automatically() -> None:
    g = arrange()
    g.fire[10] = True
    g.water[8] = HIGH
    g.gnomes[0].room = 6
    event_turn(g, "fire_spreads")
    assert g.fire[9] and _track(g, "asphyxiation") == 2 and g.phase != DECIDE


def test_fire_spreads_without_a_possible_room_has_no_effect_and_no_track_move() -> None:
    g = arrange()
    event_turn(g, "fire_spreads")  # nothing burns
    assert not any(g.fire) and _track(g, "asphyxiation") == 1
    assert logged(g, "spread_none")
    g = arrange()
    g.fire[10] = True
    g.water[8] = g.water[9] = LOW
    event_turn(g, "fire_spreads")
    assert sum(g.fire) == 1 and _track(g, "asphyxiation") == 1


# --- water --------------------------------------------------------------------------------------
@pytest.mark.parametrize("before", [NONE, LOW, HIGH])
def test_leak_gives_the_rolled_room_high_water(before: int) -> None:
    g = arrange()
    g.water[3] = before
    event_turn(g, "leak", dice=[3])
    assert g.water[3] == HIGH


def test_leak_puts_out_the_fire_of_the_room() -> None:
    g = arrange()
    g.fire[3] = True
    event_turn(g, "leak", dice=[3])
    assert g.water[3] == HIGH and not g.fire[3]
    assert ("fire_out", 3) in g.log


def test_undercurrent_turns_every_low_water_room_high() -> None:
    g = arrange()
    g.water[1] = g.water[4] = LOW
    g.water[2] = HIGH
    event_turn(g, "undercurrent")
    assert [g.water[r] for r in range(1, 11)] == [HIGH, HIGH, NONE, HIGH] + [NONE] * 6


# --- Hatch Blocked ------------------------------------------------------------------------------
def test_hatch_blocked_lets_the_active_player_pick_an_unblocked_interior_hatch() -> None:
    g = arrange()
    block(g, 3, 4)
    event_turn(g, "hatch_blocked", dice=[3])
    assert g.pending[0] == ("block", 0, 3)
    assert [a.arg for a in g.legal_actions()] == [1, 2]  # never the exterior hatch
    g.apply_text("block 2")
    assert g.blocked[hatch(g, 2, 3)] and sum(g.blocked) == 2


def test_hatch_blocked_with_one_open_hatch_blocks_it_automatically() -> None:
    g = arrange()
    block(g, 1, 3)
    block(g, 2, 3)
    event_turn(g, "hatch_blocked", dice=[3])
    assert g.blocked[hatch(g, 3, 4)] and g.phase != DECIDE


def test_hatch_blocked_on_a_room_with_all_hatches_blocked_has_no_effect() -> None:
    g = arrange()
    for other in (1, 2, 4):
        block(g, 3, other)
    event_turn(g, "hatch_blocked", dice=[3])
    assert sum(g.blocked) == 3 and logged(g, "block_none")


# --- disaster tracks ----------------------------------------------------------------------------
@pytest.mark.parametrize(("kind", "track", "steps"), [
    ("dive", "pressure", 1), ("crash_dive", "pressure", 2),
    ("reactor_heating", "heat", 1), ("reactor_malfunction", "heat", 2)])
def test_track_events_advance_their_track(kind: str, track: str, steps: int) -> None:
    g = event_turn(arrange(), kind)
    assert _track(g, track) == 1 + steps
    others = [t for t in g.data.tracks if t != track]
    assert all(_track(g, t) == 1 for t in others)


# --- destruction tokens -------------------------------------------------------------------------
@pytest.mark.parametrize(("kind", "token", "space"), [
    ("missile_launch", "missile_launch", 35), ("engine_failure", "crushed", 35),
    ("air_failure", "asphyxiated", 35), ("kraken", "kraken", 30)])
def test_token_events_place_their_token_10_or_15_spaces_on(
        kind: str, token: str, space: int) -> None:
    g = event_turn(arrange(), kind)
    assert _token(g, token) == space


def test_token_event_has_no_effect_when_its_token_is_already_on_the_track() -> None:
    g = arrange()
    g.tokens[g.data.tokens.index("missile_launch")] = 40
    event_turn(g, "missile_launch")
    assert _token(g, "missile_launch") == 40 and logged(g, "token_already")


def test_kraken_hand_limit_applies_even_if_the_kraken_token_is_already_placed() -> None:
    g = arrange()
    g.tokens[g.data.tokens.index("kraken")] = 40
    give(g, 1, *["grog"] * 6)
    event_turn(g, "kraken")
    assert _token(g, "kraken") == 40
    assert len(g.gnomes[1].hand) == 4  # all alike: discarded automatically


# --- hand limits --------------------------------------------------------------------------------
def test_turbulence_each_gnome_over_four_discards_by_its_own_choice() -> None:
    g = arrange()
    give(g, 0, "toolbox", "coffee", "harpoon", "crowbar", "aqualung")
    give(g, 1, "toolbox", "toolbox", "toolbox")  # at most four: untouched
    give(g, 2, "grog", "grog", "grog", "grog", "crowbar", "crowbar")
    event_turn(g, "turbulence")
    assert [(d.kind, d.gnome, d.info) for d in g.pending] == [("discard", 0, 4),
                                                               ("discard", 2, 4)]
    assert g.decider == 0 and kinds(g.legal_actions()) == {"discard"}
    g.apply_text("discard harpoon")
    assert g.decider == 2  # gnome 0 is down to four
    assert {a.arg for a in g.legal_actions()} == {g.data.item_index["grog"],
                                                  g.data.item_index["crowbar"]}
    g.apply_text("discard crowbar")
    g.apply_text("discard crowbar")
    idx = g.data.item_index
    assert idx["harpoon"] not in g.gnomes[0].hand and len(g.gnomes[0].hand) == 4
    assert g.gnomes[2].hand == [idx["grog"]] * 4
    assert len(g.gnomes[1].hand) == 3
    assert g.phase == MOVE
    check(g)


def test_stumble_the_active_gnome_keeps_one_item_of_its_choice() -> None:
    g = arrange()
    give(g, 0, "toolbox", "coffee", "harpoon")
    give(g, 1, "toolbox", "coffee")  # not affected
    stack_events(g, "stumble")
    g.gnomes[0].keeper = 46
    start(g)
    g.apply_text("no_action")
    g.apply_text("end")
    assert g.pending[0].kind == "keep" and g.decider == 0
    g.apply_text("keep harpoon")
    assert g.gnomes[0].hand == [g.data.item_index["harpoon"]]
    assert len(g.gnomes[1].hand) == 2
    check(g)


def test_stumble_with_one_item_or_alike_items_needs_no_choice() -> None:
    g = arrange()
    give(g, 0, "grog", "grog", "grog")
    stack_events(g, "stumble")
    g.gnomes[0].keeper = 46
    start(g)
    g.apply_text("no_action")
    g.apply_text("end")
    assert g.gnomes[0].hand == [g.data.item_index["grog"]] and g.phase != DECIDE


# --- Friendly Fire ------------------------------------------------------------------------------
def test_friendly_fire_resolves_fire_then_leak_then_hand_limit_in_order() -> None:
    g = arrange()
    give(g, 1, "toolbox", "coffee", "harpoon", "crowbar", "aqualung")
    event_turn(g, "friendly_fire", dice=[4, 2])
    assert g.fire[4] and _track(g, "asphyxiation") == 2
    assert g.water[2] == HIGH
    assert g.pending[0] == ("discard", 1, 4)
    names = [e[0] for e in g.log]
    assert names.index("fire") < names.index("leak")
    g.apply_text("discard crowbar")
    assert len(g.gnomes[1].hand) == 4 and g.phase == MOVE


def test_friendly_fire_leak_on_the_fresh_fire_puts_it_out() -> None:
    g = arrange()
    event_turn(g, "friendly_fire", dice=[4, 4])
    assert not g.fire[4] and g.water[4] == HIGH
    assert _track(g, "asphyxiation") == 2  # the fire did happen first


# --- Overheated ---------------------------------------------------------------------------------
def test_overheated_every_gnome_with_grog_drinks_one_without_a_faint_check() -> None:
    g = arrange()
    g.gnomes[1].intoxication = 4
    g.gnomes[2].intoxication = 1
    give(g, 1, "grog")
    give(g, 2, "grog", "grog", "toolbox")
    event_turn(g, "overheated")
    grog = g.data.item_index["grog"]
    assert g.gnomes[0].intoxication == 0
    assert g.gnomes[1].intoxication == 4 and grog not in g.gnomes[1].hand
    assert g.gnomes[2].intoxication == 2 and g.gnomes[2].hand.count(grog) == 1
    assert not logged(g, "faint_check") and not g.gnomes[2].fainted
    assert g.item_discard[-2:] == [grog, grog]


# --- Respite ------------------------------------------------------------------------------------
def test_respite_changes_nothing_but_the_decks() -> None:
    g = arrange()
    g.gnomes[0].keeper = 46
    start(g)
    before = (g.fire[:], g.water[:], g.blocked[:], g.tracks[:], g.tokens[:],
              [gn.hand[:] for gn in g.gnomes])
    g.apply_text("no_action")
    assert events(g) == ["respite"]
    assert before == (g.fire, g.water, g.blocked, g.tracks, g.tokens,
                      [gn.hand for gn in g.gnomes])
    assert g.event_discard[-1] == logged(g, "event")[0][1]


# --- decks ---------------------------------------------------------------------------------------
def test_event_and_item_on_the_same_space_event_first() -> None:
    g = arrange()
    g.gnomes[0].keeper = 31
    g.gnomes[1].keeper = g.gnomes[2].keeper = 20
    start(g)
    g.apply_text("no_action")
    names = [e[0] for e in g.log if e[0] in ("event", "item_icon")]
    assert names == ["event", "item_icon"]
    assert len(g.gnomes[0].hand) == 1


def test_event_deck_exhaustion_reshuffles_discards_with_the_kraken_the_first_time() -> None:
    g = arrange()
    assert g.kraken_aside and g.data.set_aside not in g.event_deck
    g.event_discard, g.event_deck = g.event_deck, []
    g.gnomes[0].keeper = 46
    start(g)
    g.apply_text("no_action")
    assert logged(g, "event_reshuffle") == [("event_reshuffle", True)]
    assert not g.kraken_aside
    assert sorted(g.event_deck + g.event_discard) == list(range(56))
    check(g)


def test_second_event_reshuffle_does_not_add_another_kraken() -> None:
    g = arrange()
    g.kraken_aside = False
    g.event_deck.append(g.data.set_aside)
    g.event_discard, g.event_deck = g.event_deck, []
    g.gnomes[0].keeper = 46
    start(g)
    g.apply_text("no_action")
    assert logged(g, "event_reshuffle") == [("event_reshuffle", False)]
    assert sorted(g.event_deck + g.event_discard) == list(range(56))


def test_item_deck_is_rebuilt_from_the_discards_including_grog() -> None:
    g = arrange()
    grog = g.data.item_index["grog"]
    g.gnomes[1].hand, g.item_deck = g.item_deck, []
    g.gnomes[1].hand.remove(grog)
    g.item_discard = [grog]
    g.gnomes[0].keeper = 41
    g.gnomes[1].keeper = g.gnomes[2].keeper = 20  # item icon on 40
    start(g)
    g.apply_text("no_action")
    assert logged(g, "item_reshuffle") and g.gnomes[0].hand == [grog]
    check(g)


def test_item_icon_with_no_card_left_anywhere_draws_nothing() -> None:
    g = arrange()
    g.gnomes[1].hand, g.item_deck = g.item_deck, []
    g.gnomes[0].keeper = 41
    g.gnomes[1].keeper = g.gnomes[2].keeper = 20
    start(g)
    g.apply_text("no_action")
    assert logged(g, "item_icon")[0][3] == -1 and g.gnomes[0].hand == []
    check(g)


def test_item_icon_draws_the_top_item_card() -> None:
    g = arrange()
    put_item_on_top(g, "harpoon")
    g.gnomes[0].keeper = 41
    g.gnomes[1].keeper = g.gnomes[2].keeper = 20
    start(g)
    g.apply_text("no_action")
    assert g.gnomes[0].hand == [g.data.item_index["harpoon"]]


# --- project rulings on event decisions -------------------------------------------------------
def test_P6_hand_limit_discards_start_with_the_active_gnome_and_go_round_by_number() -> None:
    g = arrange()
    g.gnomes[0].keeper, g.gnomes[1].keeper, g.gnomes[2].keeper = 40, 46, 41
    for n in range(3):
        for name in ("toolbox", "water_pump", "crowbar", "aqualung", "fire_extinguisher"):
            give(g, n, name)
    stack_events(g, "turbulence")
    start(g)
    assert g.active == 1
    g.apply_text("no_action")
    g.apply_text("end")
    assert [d.gnome for d in g.pending] == [1, 2, 0]
    for expected in (1, 2, 0):
        assert g.decider == expected
        g.apply_text("discard toolbox")
    assert all(len(gn.hand) == 4 for gn in g.gnomes)


def test_P12_item_icon_is_drawn_after_the_event_decision_on_the_same_space() -> None:
    g = arrange()
    g.gnomes[0].keeper = 31
    g.gnomes[1].keeper = g.gnomes[2].keeper = 20
    put_item_on_top(g, "harpoon")
    stack_events(g, "hatch_blocked")
    start(g)
    g.rng.forced = [5]
    g.apply_text("no_action")  # 30: event and item icons
    assert g.phase == DECIDE and g.gnomes[0].hand == []
    g.apply_text("block 8")
    assert g.gnomes[0].hand == [g.data.item_index["harpoon"]]
    names = [e[0] for e in g.log if e[0] in ("hatch_blocked", "item_icon")]
    assert names == ["hatch_blocked", "item_icon"]


def test_friendly_fire_stops_when_its_fire_kills_the_fainted_active_gnome() -> None:
    """Our reading of "no further events": the rest of the card is not resolved either."""
    g = arrange()
    gn = g.gnomes[0]
    gn.intoxication = 3
    give(g, 0, "grog")
    give(g, 1, "toolbox", "coffee", "harpoon", "crowbar", "aqualung")
    stack_events(g, ("respite", 1), "friendly_fire")
    g.gnomes[0].keeper = 53  # faints: 53 - 1 - 10 = 42; icons 51 .. 42
    start(g)
    g.apply_text("play grog")
    g.rng.forced = [6, 2]
    g.apply_text("no_action")
    assert logged(g, "death") == [("death", 0, "fire", 6)]
    assert g.water[2] == 0 and len(g.gnomes[1].hand) == 5
    assert events(g) == ["friendly_fire"]
