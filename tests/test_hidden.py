"""Determinisation (bots never see hidden cards) and undo limits."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rednovember.rules import Action, ActionError, Config, can_undo, determinize, new_game, undo
from rednovember.rules.invariants import check
from rednovember.rules.serialize import to_dict


def played(seed: int, steps: int, variants: frozenset[str] = frozenset()) -> object:
    g = new_game(Config(players=4, seed=seed, variants=variants))
    r = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(r.choice(g.legal_actions()))
    return g


def test_determinize_keeps_what_the_seat_sees_and_reshuffles_the_rest() -> None:
    g = new_game(Config(players=4, seed=3, variants=frozenset({"mad-gnomes"})))
    twin = determinize(g, 0, seed=1)
    check(twin)
    assert twin.gnomes[0].hand == g.gnomes[0].hand  # its own hand
    assert [len(gn.hand) for gn in twin.gnomes] == [len(gn.hand) for gn in g.gnomes]
    assert sorted(twin.event_deck) == sorted(g.event_deck) and twin.event_deck != g.event_deck
    unseen = Counter(g.item_deck + [k for gn in g.gnomes[1:] for k in gn.hand])
    assert unseen == Counter(twin.item_deck + [k for gn in twin.gnomes[1:] for k in gn.hand])
    assert twin.rng.state != g.rng.state
    assert to_dict(determinize(g, 0, seed=1)) == to_dict(twin)  # reproducible
    assert [gn.hand for gn in determinize(g, 0, seed=2).gnomes[1:]] != [gn.hand for gn in
                                                                       twin.gnomes[1:]]


def test_determinize_keeps_open_hands_when_hands_are_public() -> None:
    g = new_game(Config(players=4, seed=3))
    twin = determinize(g, 0, seed=5)
    assert [gn.hand for gn in twin.gnomes] == [gn.hand for gn in g.gnomes]
    assert twin.item_deck != g.item_deck and sorted(twin.item_deck) == sorted(g.item_deck)


def test_undo_takes_back_movement_but_not_chance() -> None:
    g = new_game(Config(players=3, seed=8))
    start = to_dict(g)
    opened = next(a for a in g.legal_actions() if a.kind == "open")
    g.apply(opened)
    assert can_undo(g)
    back = undo(g)
    assert to_dict(back)["state"] == start["state"]
    g.apply(Action("stay"))
    g.apply(Action("no_action"))
    assert can_undo(g)  # still in the item window: nothing revealed yet
    g.apply(Action("end"))  # faint check / Updates: a new turn begins
    assert not can_undo(g)
    with pytest.raises(ActionError, match="nothing to undo"):
        undo(g)


def test_undo_never_crosses_a_die_roll() -> None:
    g = new_game(Config(players=3, seed=1))
    for _ in range(400):
        before = (g.rng.state, len(g.history))
        g.apply(random.Random(len(g.history)).choice(g.legal_actions()))
        if g.is_over:
            break
        if g.rng.state != before[0]:
            assert not can_undo(g)


def test_undo_barrier_survives_save_and_replay() -> None:
    from rednovember.rules.serialize import from_json, to_json

    g = played(4, 60)
    assert from_json(to_json(g)).undo_barrier == g.undo_barrier  # type: ignore[attr-defined]
