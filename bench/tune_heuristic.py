#!/usr/bin/env python
"""Tune the heuristic bot's weights on its own games (a script, not a test).

Every seat is the heuristic with the weights under test; two sets of weights always play the same
deals (paired), so a difference is the weights', not the deals'. Two modes:

* ``--search``: one coordinate pass from ``--start`` (the heuristic's weights, or the search's
  ``DEFAULT_WEIGHTS`` with ``--start default``): each weight times 0.7, then 1.4, kept at once when
  it wins more than ``--keep`` games more than the best so far; prints the final weights.
* ``--check``: the heuristic's weights (``HEURISTIC_WEIGHTS``) against ``DEFAULT_WEIGHTS`` in every
  standard player count and 4-player variant: wins of each, and the deals only one of them won.

Usage (issue 21: how ``HEURISTIC_WEIGHTS`` was found and checked, bench/results/bots.md)::

    .venv/bin/python bench/tune_heuristic.py --search --start default --games 3000 --first 30000
    .venv/bin/python bench/tune_heuristic.py --check --games 2000 --first 50000

Deals are seeds ``first .. first+games-1``; use other seeds to check than to tune, so the check is
not flattered by the deals the weights were chosen on.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rednovember.bots.base import play_out  # noqa: E402
from rednovember.bots.heuristic import HeuristicBot  # noqa: E402
from rednovember.bots.planning import DEFAULT_WEIGHTS, HEURISTIC_WEIGHTS, Weights  # noqa: E402
from rednovember.rules import Config, new_game  # noqa: E402

CELLS: list[tuple[int, tuple[str, ...]]] = [
    (3, ()), (4, ()), (5, ()), (8, ()), (4, ("harder",)), (4, ("hardest",)),
    (4, ("less-deadly-death",)), (4, ("mad-gnomes",))]
Task = tuple[int, dict[str, float], int, tuple[str, ...]]


def play(task: Task) -> bool:
    """One game, every seat the heuristic with these weights (a dict: it crosses processes)."""
    seed, fields, players, variants = task
    weights = Weights(**fields)
    g = new_game(Config(players, None, frozenset(variants), seed))
    result = play_out(g, [HeuristicBot(seed * 16 + p, weights) for p in range(players)]).result
    return result is not None and result.won


def results(pool: Any, weights: Weights, seeds: range, players: int = 4,
            variants: tuple[str, ...] = ()) -> list[bool]:
    fields = dataclasses.asdict(weights)
    return list(pool.map(play, [(s, fields, players, variants) for s in seeds], chunksize=20))


def search(pool: Any, start: Weights, seeds: range, keep: int) -> Weights:
    best = start
    base = sum(results(pool, best, seeds))
    print(f"start: {base} of {len(seeds)} won", flush=True)
    for f in dataclasses.fields(Weights):
        if f.name in ("loss", "token_prepare"):  # the unit, and a weight only the search reads
            continue
        for factor in (0.7, 1.4):
            trial = dataclasses.replace(best, **{f.name: getattr(best, f.name) * factor})
            won = sum(results(pool, trial, seeds))
            print(f"{f.name} x{factor}: {won} ({won - base:+d})", flush=True)
            if won - base > keep:
                best, base = trial, won
                break
    print(f"final: {base} won; {best}")
    return best


def check(pool: Any, seeds: range) -> None:
    print("| variant | players | deals | HEURISTIC_WEIGHTS | DEFAULT_WEIGHTS | only new | only old |")
    print("|---|---|---|---|---|---|---|")
    for players, variants in CELLS:
        new = results(pool, HEURISTIC_WEIGHTS, seeds, players, variants)
        old = results(pool, DEFAULT_WEIGHTS, seeds, players, variants)
        only_new = sum(1 for a, b in zip(new, old, strict=True) if a and not b)
        only_old = sum(1 for a, b in zip(new, old, strict=True) if b and not a)
        print(f"| {'-'.join(variants) or 'standard'} | {players} | {len(seeds)} | {sum(new)} | "
              f"{sum(old)} | {only_new} | {only_old} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--search", action="store_true", help="one coordinate pass")
    mode.add_argument("--check", action="store_true", help="new against old in every cell")
    ap.add_argument("--start", choices=("heuristic", "default"), default="heuristic")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--first", type=int, default=30000, help="the first deal's seed")
    ap.add_argument("--keep", type=int, default=30, help="wins a change needs to be kept")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    seeds = range(args.first, args.first + args.games)
    with multiprocessing.Pool(args.jobs) as pool:
        if args.check:
            check(pool, seeds)
        else:
            start = HEURISTIC_WEIGHTS if args.start == "heuristic" else DEFAULT_WEIGHTS
            search(pool, start, seeds, args.keep)


if __name__ == "__main__":
    main()
