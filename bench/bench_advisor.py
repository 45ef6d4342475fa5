#!/usr/bin/env python
"""Benchmark of the advisor (analysis/advisor.py): how long a hint takes on one core.

Positions come from games of the heuristic bot (every seat), at the start of a turn's moves every
``--every`` turns, at 3, 4, 5 and 8 players. On each the advisor answers for the seat to move at
the default strength (the server's: ``budget_s`` = :data:`DEFAULT_BUDGET_S`, :data:`
DEFAULT_CANDIDATES` candidates). Reported per player count and overall: positions, decision time
(mean, p95, max, in seconds), rollouts per candidate (mean, min), and how often the best plan's
first step is the heuristic's own first step (how often the advisor agrees with the plain bot).

The process is pinned to one CPU (where the OS allows it), so the figures are one core's.

Usage::

    nice .venv/bin/python bench/bench_advisor.py                 # ~3 minutes
    nice .venv/bin/python bench/bench_advisor.py --games 2 --every 6 --players 4
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rednovember.analysis.advisor import (  # noqa: E402
    DEFAULT_BUDGET_S,
    DEFAULT_CANDIDATES,
    advise,
    candidates,
)
from rednovember.bots import make_bot  # noqa: E402
from rednovember.rules import Config, Game, new_game  # noqa: E402
from rednovember.rules.state import MOVE  # noqa: E402


def positions(players: int, seed: int, every: int) -> list[Game]:
    """Copies of a heuristic game at the start of every ``every``-th turn's moves."""
    g = new_game(Config(players=players, seed=seed))
    bots = [make_bot("heuristic", seed * 10 + p) for p in range(players)]
    out: list[Game] = []
    seen: set[int] = set()
    while g.result is None:
        if g.phase == MOVE and g.turn not in seen and g.ghost == g.gnomes[g.active].keeper:
            seen.add(g.turn)
            if g.turn % every == 0:
                out.append(g.copy())
        g.apply(bots[g.player_to_move].choose(g))
    return out


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def run(players: int, games: int, every: int, budget: float) -> dict[str, Any]:
    times: list[float] = []
    rounds: list[int] = []
    agree = 0
    for seed in range(1, games + 1):
        for g in positions(players, seed, every):
            seat = g.player_to_move
            start = time.perf_counter()
            advice = advise(g, seat, budget_s=budget, seed=len(g.history))
            times.append(time.perf_counter() - start)
            rounds.append(advice.rounds)
            plain = candidates(g, seat, 1, len(g.history))
            agree += bool(advice.tips and plain and advice.tips[0].steps[0] == plain[0].steps[0])
    n = len(times)
    return {"players": players, "positions": n, "mean_s": statistics.fmean(times),
            "p95_s": pct(times, 0.95), "max_s": max(times),
            "rounds_mean": statistics.fmean(rounds), "rounds_min": min(rounds),
            "agree": agree / n}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 8])
    ap.add_argument("--games", type=int, default=2, help="games per player count")
    ap.add_argument("--every", type=int, default=4, help="one position every N turns")
    ap.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "advisor.json")
    args = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rows = [run(p, args.games, args.every, args.budget) for p in args.players]
    every: list[float] = []
    print(f"advisor: budget {args.budget:g} s, {DEFAULT_CANDIDATES} candidates, one core\n")
    print("| players | positions | mean s | p95 s | max s | rollouts/plan mean (min) | "
          "agrees with heuristic |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['players']} | {r['positions']} | {r['mean_s']:.2f} | {r['p95_s']:.2f} | "
              f"{r['max_s']:.2f} | {r['rounds_mean']:.1f} ({r['rounds_min']}) | "
              f"{100 * r['agree']:.0f}% |")
        every.append(r["max_s"])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"budget_s": args.budget, "candidates": DEFAULT_CANDIDATES,
                                    "rows": rows}, indent=1) + "\n", "utf-8")
    print(f"\nworst case {max(every):.2f} s; JSON in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
