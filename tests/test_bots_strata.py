"""The search's evenly spread determinisations (:mod:`rednovember.bots.strata`, ``search:strata``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from helpers import heuristic_position
from hypothesis import given, settings
from hypothesis import strategies as st

from rednovember.bots import BOTS, make_bot
from rednovember.bots.facts import public_twin
from rednovember.bots.levels import LEVELS
from rednovember.bots.planning import Weights
from rednovember.bots.search import SearchBot
from rednovember.bots.strata import DICE, spread, stratify
from rednovember.rules import Action, Game
from rednovember.rules.snapshot import snapshot
from rednovember.rules.state import MOVE


def _position(seed: int) -> Game:
    """A game some way in, played by the heuristic."""
    return heuristic_position(seed, 10, 90)


def _twins(g: Game, count: int, seed: int = 7) -> list[Game]:
    """search:strata's first ``count`` determinisations of ``g`` for seat 0 at decision ``seed``."""
    bot = make_bot("search:strata", 0)
    assert isinstance(bot, SearchBot)
    return [bot._sample(g, 0, seed, i) for i in range(count)]


@given(st.integers(1, 60))
def test_spread_orders_every_number_once_and_its_prefixes_are_even(n: int) -> None:
    order = spread(n)
    assert sorted(order) == list(range(n))
    # the first 2^k starts leave no gap wider than about n / 2^k between them
    k = 1
    while 2 ** k <= n:
        first = sorted(order[: 2 ** k])
        gaps = [b - a for a, b in zip(first, first[1:] + [first[0] + n], strict=True)]
        assert max(gaps) <= n // 2 ** k + 2
        k += 1


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 1 << 20))
def test_every_card_tops_the_deck_once_in_a_block_of_twins(seed: int) -> None:
    """Over as many twins as cards, each card is on top once and among the top three three
    times; every twin keeps the same cards."""
    g = _position(seed)
    if len(g.event_deck) < 4:
        return
    n = len(g.event_deck)
    twins = _twins(g, n, seed)
    assert all(sorted(t.event_deck) == sorted(g.event_deck) for t in twins)
    tops = Counter(t.event_deck[-1] for t in twins)  # the top card is the list's last
    assert set(tops.values()) == {1}
    top3 = Counter(c for t in twins for c in t.event_deck[-3:])
    assert set(top3.values()) == {3}


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 1 << 20))
def test_every_die_takes_every_face_once_in_ten_twins(seed: int) -> None:
    g = _position(seed)
    twins = _twins(g, 30, seed)
    for block in range(3):
        rolls = []
        for t in twins[10 * block: 10 * block + 10]:
            rng = t.rng.copy()
            rolls.append([rng.die() for _ in range(DICE)])
        for die in range(DICE):
            assert sorted(r[die] for r in rolls) == list(range(1, 11))


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 1 << 20), st.integers(0, 200))
def test_stratify_touches_only_the_deck_order_and_the_first_dice(seed: int, i: int) -> None:
    g = _position(seed)
    twin = public_twin(g, 0, seed)
    before = snapshot(twin)
    stratify(twin, seed, i)
    after = snapshot(twin)
    assert after["rng"]["state"] == before["rng"]["state"]
    assert len(after["rng"]["forced"]) == DICE
    changed = {k for k in before if before[k] != after[k]}
    assert changed <= {"rng", "event_deck"}
    assert sorted(after["event_deck"]) == sorted(before["event_deck"])


def test_search_strata_is_the_default_spreading_its_twins_and_not_offered() -> None:
    """Only the strata flag differs; the default draws its twins as before (public_twin's dice
    come from its generator, never forced), search:strata forces the first dice."""
    assert LEVELS["strata"] == replace(LEVELS["deep"], strata=True)
    assert "search:strata" not in BOTS
    g = next(p for p in map(_position, range(60)) if p.phase == MOVE and not p.is_over)
    forced: dict[str, set[int]] = {}
    for name in ("search", "search:strata"):
        bot = make_bot(name, 3)
        assert isinstance(bot, SearchBot)
        seen: set[int] = set()

        def fake(sim: Game, steps: tuple[Action, ...], player: int, stop: int, w: Weights,
                 seen: set[int] = seen) -> float:
            seen.add(len(sim.rng.forced))
            return 0.5

        bot.rollout = fake
        bot.level = replace(bot.level, gap=1e9)  # always search
        bot.choose(g)
        forced[name] = seen
    assert forced == {"search": {0}, "search:strata": {DICE}}
