"""bench/tune_heuristic.py plays the heuristic bot's own games with the weights under test."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from helpers import bench_script

from rednovember.bots import make_bot
from rednovember.bots.base import play_out
from rednovember.bots.planning import DEFAULT_WEIGHTS, HEURISTIC_WEIGHTS
from rednovember.rules import Config, new_game


class _Serial:
    """A pool's ``map`` in this process."""

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any], chunksize: int = 1) -> list[Any]:
        return [fn(i) for i in items]


def _won(bot: str, seed: int, players: int, variants: frozenset[str]) -> bool:
    g = new_game(Config(players, None, variants, seed))
    result = play_out(g, [make_bot(bot, seed * 16 + p) for p in range(players)]).result
    return result is not None and result.won


def test_the_tuner_plays_the_bots_own_games() -> None:
    tune = bench_script("tune_heuristic")
    seeds = range(40, 46)
    for weights, bot in ((HEURISTIC_WEIGHTS, "heuristic"), (DEFAULT_WEIGHTS, "heuristic:v1")):
        got = tune.results(_Serial(), weights, seeds, 3, ("harder",))
        assert got == [_won(bot, s, 3, frozenset({"harder"})) for s in seeds]
