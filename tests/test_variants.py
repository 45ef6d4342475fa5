"""Optional rules (RULES §12): Harder, Hardest, Less Deadly Death, Mad Gnomes, 1-2 players."""

from __future__ import annotations

import pytest
from helpers import (
    HIGH,
    LOW,
    arrange,
    block,
    event_turn,
    events,
    give,
    kinds,
    logged,
    rejects,
    stack_events,
    start,
)

from rednovember.rules import Config, ConfigError, new_game, outcome
from rednovember.rules.data import SEA
from rednovember.rules.invariants import check
from rednovember.rules.state import DECIDE

LDD = "less-deadly-death"
MAD = "mad-gnomes"


# --- Harder ------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["harder", "hardest"])
def test_R18_harder_respite_resolved_as_an_event_leaves_the_game(variant: str) -> None:
    g = arrange(variants={variant}, calm=False)
    g.gnomes[0].keeper = 46
    # Hardest first resolves three setup events (one per gnome): harmless ones
    setup = ["dive", "reactor_heating", "dive"] if variant == "hardest" else []
    respite = stack_events(g, *setup, "respite")[-1]
    start(g)
    g.apply_text("no_action")
    assert events(g)[-1] == "respite"
    assert respite in g.event_out and respite not in g.event_discard
    check(g)


def test_R18_harder_respite_used_for_a_faint_check_is_discarded_normally() -> None:
    g = arrange(variants={"harder"}, calm=False)
    give(g, 0, "grog")
    (respite,) = stack_events(g, ("respite", 4))
    start(g)
    g.apply_text("play grog")
    g.apply_text("no_action")
    assert logged(g, "faint_check")[0][2] == respite
    assert respite in g.event_discard and g.event_out == []


def test_without_harder_respite_is_discarded() -> None:
    g = arrange(calm=False)
    (respite,) = stack_events(g, "respite")
    g.gnomes[0].keeper = 46
    start(g)
    g.apply_text("no_action")
    assert respite in g.event_discard and g.event_out == []


def test_harder_removed_respites_are_not_reshuffled() -> None:
    g = arrange(variants={"harder"}, calm=False)
    stack_events(g, "respite", "respite")
    respites = [c for c in range(len(g.data.events)) if g.data.events[c].kind == "respite"]
    g.event_deck = g.event_deck[-2:]
    g.event_discard = [c for c in range(len(g.data.events))
                       if c not in g.event_deck and c != g.data.set_aside]
    g.gnomes[0].keeper = 46
    g.water[6] = LOW
    start(g)
    g.rng.forced = [10]
    g.apply_text("pump_water 4")  # icons 45, 42: two Respites out; 39 not reached
    assert len(g.event_out) == 2
    assert not set(g.event_out) & set(g.event_discard + g.event_deck)
    assert all(c in respites for c in g.event_out)


# --- Hardest -----------------------------------------------------------------------------------
def test_hardest_resolves_one_event_per_gnome_before_the_first_turn() -> None:
    g = new_game(Config(players=4, seed=8, variants=frozenset({"hardest"})), start=False)
    stack_events(g, "dive", "reactor_heating", "dive", "crash_dive")
    start(g)
    tracks = dict(zip(g.data.tracks, g.tracks, strict=True))
    assert tracks == {"asphyxiation": 1, "heat": 2, "pressure": 5}
    assert g.turn == 1 and logged(g, "turn")[0][2] == 60


def test_R18_hardest_setup_respite_also_leaves_the_game() -> None:
    g = new_game(Config(players=3, seed=8, variants=frozenset({"hardest"})), start=False)
    ids = stack_events(g, "respite", "dive", "dive")
    start(g)
    assert g.event_out == [ids[0]]


def test_hardest_setup_decision_then_the_remaining_setup_events() -> None:
    g = new_game(Config(players=3, seed=8, variants=frozenset({"hardest"})), start=False)
    for gn in g.gnomes:
        g.item_deck[:0] = gn.hand
        gn.hand = []
    first = g.turn_order()[0]
    give(g, 1, "toolbox", "coffee", "harpoon", "crowbar", "aqualung")
    stack_events(g, "turbulence", "dive", "dive")
    start(g)
    assert g.phase == DECIDE and g.decider == 1
    g.apply_text("discard coffee")
    assert tracks_pressure(g) == 3 and g.active == first and g.turn == 1


def tracks_pressure(g) -> int:
    return g.tracks[g.data.tracks.index("pressure")]


# --- Less Deadly Death --------------------------------------------------------------------------
def test_less_deadly_death_fainted_gnome_is_replaced_and_its_keeper_stays() -> None:
    g = arrange(variants={LDD})
    victim = g.gnomes[1]
    victim.room, victim.fainted, victim.intoxication, victim.keeper = 4, True, 3, 40
    give(g, 1, "harpoon", "toolbox")
    event_turn(g, "fire", dice=[4, 7])  # fire in room 4; the replacement appears in room 7
    assert logged(g, "death") == [("death", 1, "fire", 4)]
    assert logged(g, "replacement") == [("replacement", 1, 7)]
    assert victim.alive and victim.room == 7 and victim.keeper == 40
    assert victim.hand == [] and victim.intoxication == 0 and not victim.fainted
    assert 1 in g.turn_order()
    check(g)


def test_P3_less_deadly_death_gnome_fainting_at_sea_is_replaced_and_keeper_advances() -> None:
    g = arrange(variants={LDD})
    gn = g.gnomes[0]
    gn.intoxication, gn.keeper = 3, 46
    give(g, 0, "aqualung", "grog")
    g.fire[2] = True
    stack_events(g, ("respite", 1), "respite")
    start(g)
    g.apply_text("play aqualung")
    g.apply_text("play grog")
    g.apply_text("open sea")
    g.apply_text("enter")
    g.rng.forced = [2]  # the new gnome appears in the burning room 2 ...
    g.apply_text("no_action")
    assert logged(g, "death") == [("death", 0, "fainted_in_sea", SEA)]
    assert gn.alive and gn.room == 2 and not gn.fainted
    assert len(logged(g, "death")) == 1  # ... and skips the Updates death check (P3)
    assert gn.keeper == 46 - 3 - 10 == 33
    assert [e[2] for e in logged(g, "event")] == [45, 42, 39, 36, 33]  # the keeper went on


def test_P3_less_deadly_death_trapped_gnome_is_replaced_and_skips_the_faint_check() -> None:
    g = arrange(variants={LDD})
    g.fire[6] = True
    block(g, 5, 6)
    g.gnomes[0].keeper = 46
    give(g, 0, "grog")
    start(g)
    g.apply_text("play grog")
    g.rng.forced = [10, 9]  # the failed extinguish roll, then the new gnome's room
    g.apply_text("extinguish_fire 1")
    assert logged(g, "death") == [("death", 0, "trapped", 6)]
    assert g.gnomes[0].room == 9 and g.gnomes[0].alive
    assert not logged(g, "faint_check")
    assert g.gnomes[0].keeper == 45 and len(logged(g, "event")) == 1


def test_less_deadly_death_game_goes_on_with_every_gnome_replaced() -> None:
    g = arrange(variants={LDD})
    g.water[6] = HIGH
    g.gnomes[0].keeper = 44
    start(g)
    g.rng.forced = [5]
    g.apply_text("no_action")
    assert g.result is None and g.gnomes[0].room == 5


# --- Mad Gnomes --------------------------------------------------------------------------------
def _mad(*, attacker=("crowbar",), defender=(), room: int = 6, intox=(0, 0)):
    g = arrange(variants={MAD})
    g.gnomes[0].room = g.gnomes[1].room = room
    g.gnomes[2].room = 5
    g.gnomes[0].intoxication, g.gnomes[1].intoxication = intox
    give(g, 0, *attacker)
    give(g, 1, *defender)
    return start(g)


def test_mad_gnomes_attack_needs_a_crowbar_played() -> None:
    g = _mad()
    assert "attack" not in kinds(g.legal_actions())
    rejects(g, "attack 1")
    g.apply_text("play crowbar")
    assert [a.arg for a in g.legal_actions() if a.kind == "attack"] == [1]


def test_mad_gnomes_attack_needs_another_gnome_in_the_room() -> None:
    g = arrange(variants={MAD})
    g.gnomes[1].room = g.gnomes[2].room = 5
    give(g, 0, "crowbar")
    start(g)
    g.apply_text("play crowbar")
    assert "attack" not in kinds(g.legal_actions())


def test_P9_no_attack_in_the_sea() -> None:
    g = _mad(room=SEA, attacker=("crowbar",))
    g.apply_text("play crowbar")
    assert "attack" not in kinds(g.legal_actions())


def test_no_attack_without_the_mad_gnomes_variant() -> None:
    g = arrange()
    give(g, 0, "crowbar")
    start(g)
    g.apply_text("play crowbar")
    assert "attack" not in kinds(g.legal_actions())


def test_mad_gnomes_attack_costs_one_minute_plus_two_in_low_water() -> None:
    g = arrange(variants={MAD})
    g.water[6] = LOW
    give(g, 0, "crowbar", "coffee")
    give(g, 1, "crowbar")
    start(g)
    g.apply_text("play crowbar")
    g.apply_text("attack 1")
    assert g.ghost == 41


def test_P9_defender_without_a_crowbar_dies_and_the_attacker_takes_its_items() -> None:
    g = _mad(attacker=("crowbar", "coffee"), defender=("harpoon", "toolbox"))
    g.apply_text("play crowbar")
    g.apply_text("attack 1")
    assert not g.gnomes[1].alive
    assert logged(g, "death") == [("death", 1, "attacked", 6)]
    idx = g.data.item_index
    assert sorted(g.gnomes[0].hand) == sorted([idx["coffee"], idx["harpoon"], idx["toolbox"]])
    check(g)


def test_mad_gnomes_defender_with_crowbar_decides_outside_its_turn() -> None:
    g = _mad(defender=("crowbar", "harpoon"))
    g.apply_text("play crowbar")
    g.apply_text("attack 1")
    assert g.phase == DECIDE and g.decider == 1 and g.player_to_move == 1
    assert kinds(g.legal_actions()) == {"defend", "yield"}
    g.apply_text("yield")
    assert not g.gnomes[1].alive
    assert len(g.gnomes[0].hand) == 2  # took the Crowbar and the Harpoon


@pytest.mark.parametrize(("rolls", "intox", "winner"), [
    ((7, 3), (0, 0), 0),  # higher roll wins
    ((3, 7), (0, 0), 1),
    ((5, 5), (0, 0), 0),  # tie: the attacker
    ((7, 5), (3, 0), 1),  # 7-3 = 4 < 5
    ((7, 5), (2, 0), 0),  # 7-2 = 5 = 5: tie to the attacker
    ((2, 6), (0, 4), 0),  # 2 > 6-4 = 2? tie -> attacker
])
def test_mad_gnomes_fight_roll_minus_intoxication_tie_to_attacker(
        rolls: tuple[int, int], intox: tuple[int, int], winner: int) -> None:
    g = _mad(attacker=("crowbar", "coffee"), defender=("crowbar", "harpoon"), intox=intox)
    g.apply_text("play crowbar")
    g.apply_text("attack 1")
    g.rng.forced = list(rolls)  # attacker's roll, then the defender's
    g.apply_text("defend")
    loser = 1 - winner
    assert g.gnomes[winner].alive and not g.gnomes[loser].alive
    (fight,) = logged(g, "fight")
    assert fight == ("fight", 0, rolls[0], rolls[0] - intox[0], 1, rolls[1], rolls[1] - intox[1])
    idx = g.data.item_index
    expected = {0: ["coffee", "harpoon"], 1: ["harpoon", "coffee"]}[winner]
    assert sorted(g.gnomes[winner].hand) == sorted(idx[n] for n in expected)
    assert idx["crowbar"] not in g.gnomes[winner].hand  # both Crowbars were played
    check(g)


def test_mad_gnomes_attacker_killed_in_the_fight_ends_its_turn_without_events() -> None:
    g = _mad(defender=("crowbar",))
    g.gnomes[0].keeper = 44
    g.apply_text("play crowbar")
    g.apply_text("attack 1")
    g.rng.forced = [1, 10]
    g.apply_text("defend")
    assert not g.gnomes[0].alive and g.active == 1
    assert not logged(g, "event")


def test_mad_gnomes_with_less_deadly_death_the_loser_is_replaced() -> None:
    g = arrange(variants={MAD, LDD})
    g.gnomes[1].room = 6
    give(g, 0, "crowbar")
    give(g, 1, "harpoon")
    start(g)
    g.apply_text("play crowbar")
    g.rng.forced = [3]
    g.apply_text("attack 1")
    assert g.gnomes[1].alive and g.gnomes[1].room == 3 and g.gnomes[1].hand == []
    assert g.gnomes[0].hand == [g.data.item_index["harpoon"]]


def test_mad_gnomes_hands_are_hidden_from_other_players() -> None:
    g = arrange(variants={MAD})
    give(g, 0, "crowbar")
    give(g, 1, "harpoon", "toolbox")
    start(g)
    view = g.view(1)
    hands = [gs["hand"] for gs in view["gnomes"]]
    assert hands[0] is None and hands[2] is None
    assert sorted(hands[1]) == ["harpoon", "toolbox"]
    assert [gs["hand_size"] for gs in view["gnomes"]] == [1, 2, 0]
    assert all(gs["hand"] is None for gs in g.view(None)["gnomes"])


def test_without_mad_gnomes_hands_are_visible_to_all() -> None:
    g = arrange()
    give(g, 1, "harpoon")
    start(g)
    assert g.view(2)["gnomes"][1]["hand"] == ["harpoon"]
    assert g.view(None)["gnomes"][1]["hand"] == ["harpoon"]


# --- one and two players -------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "per", "gnomes", "space"), [
    (1, None, 3, 60), (1, 5, 5, 60), (1, 6, 6, 55), (1, 7, 7, 50), (1, 8, 8, 45),
    (2, None, 4, 60), (2, 2, 4, 60)])
def test_one_and_two_players_run_several_gnomes_from_the_gnome_count_start_space(
        players: int, per: int | None, gnomes: int, space: int) -> None:
    g = new_game(Config(players=players, gnomes_per_player=per, seed=4))
    assert len(g.gnomes) == gnomes
    assert all(gn.keeper == space for gn in g.gnomes)
    per_player = gnomes // players
    assert [gn.player for gn in g.gnomes] == [i // per_player for i in range(gnomes)]
    assert all(len(gn.hand) == 2 for gn in g.gnomes)


@pytest.mark.parametrize(("players", "per"), [(1, 2), (1, 9), (2, 1), (2, 3), (2, 4), (2, 5),
                                              (3, 2), (9, None), (0, None)])
def test_invalid_player_and_gnome_counts_are_refused(players: int, per: int | None) -> None:
    with pytest.raises(ConfigError):
        Config(players=players, gnomes_per_player=per)


def test_two_players_each_gnome_keeps_its_own_hand_and_trades_only_by_the_action() -> None:
    g = arrange(players=2)
    assert [gn.player for gn in g.gnomes] == [0, 0, 1, 1]
    give(g, 0, "harpoon")
    give(g, 1, "coffee")
    g.gnomes[1].room = 5
    start(g)
    assert g.player_to_move == 0
    rejects(g, "play coffee")  # gnome 1's card, though the same player runs it
    g.apply_text("open 5")
    g.apply_text("enter")
    g.apply_text("trade 1")
    g.apply_text("give harpoon")
    g.apply_text("done")
    assert g.decider == 1 and g.player_to_move == 0
    g.apply_text("done")
    assert g.gnomes[1].hand == [g.data.item_index["coffee"], g.data.item_index["harpoon"]]


def test_solo_game_can_be_won_and_every_gnome_belongs_to_player_0() -> None:
    g = arrange(players=1)
    assert {gn.player for gn in g.gnomes} == {0}
    g.gnomes[0].keeper = 1
    g.gnomes[1].keeper = g.gnomes[2].keeper = 0
    start(g)
    g.apply_text("no_action")
    assert g.result is not None and g.result.won and outcome(g, 0)
