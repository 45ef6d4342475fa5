"""Setup (RULES §3) and the component data it uses (DATA.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from rednovember.rules import Config, load_data, new_game, turn
from rednovember.rules.data import SEA
from rednovember.rules.invariants import check
from rednovember.rules.state import MOVE

EVENTS = {  # DATA.md: kind -> faint numbers (None for "–")
    "hatch_blocked": [None, 1, 1, 2, 2, 2, 3, 4, 4],
    "respite": [None, None, 1, 1, 2, 3, 4],
    "fire": [None, None, 1, 2, 2, 3, 4, 4],
    "reactor_heating": [None, 1, 2, 3, 3, 4],
    "dive": [None, 2, 2, 3, 4, 4],
    "fire_spreads": [None, 3, 4],
    "reactor_malfunction": [1, 4],
    "missile_launch": [None, 3],
    "stumble": [2, 4],
    "turbulence": [3, 4],
    "leak": [None, 2],
    "undercurrent": [3],
    "engine_failure": [4],
    "air_failure": [None],
    "kraken": [1],
    "overheated": [2],
    "crash_dive": [1],
    "friendly_fire": [3],
}
ITEMS = {"grog": 12, "fire_extinguisher": 6, "crowbar": 6, "water_pump": 6, "toolbox": 4,
         "engine_manual": 3, "pump_manual": 3, "reactor_manual": 3, "deactivation_code": 3,
         "aqualung": 3, "harpoon": 2, "lucky_charm": 2, "coffee": 1}
START = {3: 60, 4: 60, 5: 60, 6: 55, 7: 50, 8: 45}


# --- the data set ---------------------------------------------------------------------------
def test_event_deck_has_56_cards_with_the_data_md_faint_numbers() -> None:
    data = load_data()
    assert len(data.events) == 56
    by_kind: dict[str, list[int | None]] = {}
    for c in data.events:
        by_kind.setdefault(c.kind, []).append(c.faint)
    assert {k: sorted(v, key=lambda f: (f is not None, f or 0)) for k, v in by_kind.items()} \
        == EVENTS
    assert data.events[data.set_aside].kind == "kraken"


def test_item_supply_has_54_cards_and_six_grog_in_the_captains_stock() -> None:
    data = load_data()
    assert {i.id: i.count for i in data.items} == ITEMS
    assert sum(ITEMS.values()) == 54
    assert data.items[data.stock_item].id == "grog" and data.stock_count == 6


def test_board_graph_matches_data_md() -> None:
    data = load_data()
    interior = {frozenset(h) for h in data.hatches[:data.interior_count]}
    assert interior == {frozenset(p) for p in [
        (1, 2), (1, 3), (2, 3), (2, 4), (2, 5), (3, 4), (4, 5), (5, 6), (5, 7), (5, 8), (7, 8),
        (7, 9), (8, 9), (8, 10), (9, 10)]}
    assert sorted(r for r, s in data.hatches[data.interior_count:]) == [3, 6, 9]
    assert all(s == SEA for _, s in data.hatches[data.interior_count:])
    assert data.blocked_tokens == 15
    assert data.draw_rooms == {8: ("item_deck", 4), 10: ("captains_stock", 2)}
    rooms = {name: r.room for name, r in data.room_repairs.items()}
    assert rooms == {"fix_engine": 1, "fix_oxygen_pumps": 2, "fix_reactor": 4,
                     "stop_missile_launch": 7, "kill_kraken": SEA}


def test_time_track_icons_and_start_spaces_match_data_md() -> None:
    data = load_data()
    assert data.event_icons == frozenset(range(3, 58, 3)) and len(data.event_icons) == 19
    assert data.item_icons == frozenset({50, 40, 30, 20, 10})
    assert data.start_spaces == {1: 60, 2: 60, **START}
    assert data.track_length == 10 and data.reset_stars == (1, 5)
    assert set(data.tracks) == {"asphyxiation", "heat", "pressure"}
    assert set(data.tokens) == {"kraken", "crushed", "missile_launch", "asphyxiated"}


def test_rulebook_example_40_to_19_meets_7_event_and_2_item_icons() -> None:
    data = load_data()
    path = range(39, 18, -1)
    assert sum(s in data.event_icons for s in path) == 7
    assert sum(s in data.item_icons for s in path) == 2


# --- setting up ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_setup_for_each_player_count(players: int) -> None:
    g = new_game(Config(players=players, seed=players * 11), start=False)
    check(g)
    assert len(g.gnomes) == players
    space = START[players]
    assert all(gn.keeper == space for gn in g.gnomes)
    assert sorted(gn.arrival for gn in g.gnomes) == list(range(1, players + 1))
    assert all(1 <= gn.room <= 10 for gn in g.gnomes)
    assert all(gn.intoxication == 0 and not gn.fainted and gn.alive for gn in g.gnomes)
    assert all(len(gn.hand) == 2 for gn in g.gnomes)
    assert g.stock == 6
    assert len(g.item_deck) == 54 - 6 - 2 * players and g.item_discard == []
    assert len(g.event_deck) == 55 and g.kraken_aside
    assert g.data.set_aside not in g.event_deck and g.event_discard == []
    assert g.tracks == [1, 1, 1] and g.tokens == [-1, -1, -1, -1]
    assert not any(g.fire) and not any(g.water) and not any(g.blocked)
    assert [gn.colour for gn in g.gnomes] == list(
        ("red", "blue", "green", "yellow", "purple", "orange", "black", "brown")[:players])


def test_first_turn_goes_to_the_top_keeper_of_the_start_stack() -> None:
    for seed in range(5):
        g = new_game(Config(players=5, seed=seed))
        top = max(g.gnomes, key=lambda gn: gn.arrival)
        assert g.active == top.number and g.ghost == 60 and g.phase == MOVE
        assert g.turn_order()[0] == top.number


def test_starting_rooms_and_hands_come_from_the_die_and_the_shuffle() -> None:
    rooms: Counter[int] = Counter()
    orders = set()
    for seed in range(40):
        g = new_game(Config(players=8, seed=seed), start=False)
        rooms.update(gn.room for gn in g.gnomes)
        orders.add(tuple(sorted(range(8), key=lambda n: g.gnomes[n].arrival)))
    assert set(rooms) == set(range(1, 11))  # every room 1..10 is rolled, never the Sea
    assert len(orders) > 30


def test_captains_stock_grog_is_not_in_the_item_deck() -> None:
    for seed in range(10):
        g = new_game(Config(players=3, seed=seed), start=False)
        grog = g.data.item_index["grog"]
        dealt = sum(gn.hand.count(grog) for gn in g.gnomes)
        assert g.item_deck.count(grog) + dealt == 6


def test_new_game_logs_the_setup_and_the_data_set() -> None:
    g = new_game(Config(players=3, seed=1))
    assert g.log[0][:3] == ("setup", 3, 60)
    assert g.data.describe() in g.log[0][3]
    assert g.log[1][0] == "turn"


# --- turn order (RULES §4) -----------------------------------------------------------------------
def _keepers(spaces: list[int], arrivals: list[int] | None = None):
    g = new_game(Config(players=len(spaces), seed=5), start=False)
    for gn, space in zip(g.gnomes, spaces, strict=True):
        gn.keeper = space
        gn.room = 6
    if arrivals:
        for gn, a in zip(g.gnomes, arrivals, strict=True):
            gn.arrival = a
    return g


def test_the_keeper_furthest_back_moves_next() -> None:
    g = _keepers([30, 41, 35])
    assert g.turn_order() == [1, 2, 0]
    turn.begin(g)
    assert g.active == 1 and g.ghost == 41


def test_on_a_stack_the_top_keeper_moves_first() -> None:
    g = _keepers([40, 40, 40], arrivals=[3, 1, 2])
    assert g.turn_order() == [0, 2, 1]


def test_a_keeper_ending_on_an_occupied_space_goes_on_top_and_may_move_again() -> None:
    g = _keepers([44, 43, 20])
    for gn in g.gnomes:
        g.item_deck[:0] = gn.hand
        gn.hand = []
    turn.begin(g)
    g.apply_text("no_action")  # gnome 0: 44 -> 43, onto gnome 1
    assert g.gnomes[0].keeper == 43 and g.gnomes[0].arrival > g.gnomes[1].arrival
    assert g.active == 0 and g.turn == 2  # a second turn in a row
    g.apply_text("open 5")
    g.apply_text("stay")
    g.apply_text("no_action")  # 43 -> 41: now gnome 1 is furthest back
    assert g.active == 1
