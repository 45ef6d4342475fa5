#!/usr/bin/env python
"""Benchmark of the bots: win rates with 95% Wilson intervals, decision times, games per second.

Every seat of a game is played by the same bot. Game ``i`` at ``p`` players uses the same
configuration seed for every bot (paired samples), so the bots meet the same deals. Per bot and
player count it reports:

* games, wins, win rate and its 95% Wilson confidence interval,
* mean minutes of the time track used (how long the crew survived),
* decision time in ms (every ``choose`` call, forced ones included): mean and 95th percentile,
  and for the search bot the same for the decisions it actually searched,
* simulated games per second on one core (games / summed game time in the workers).

Usage::

    .venv/bin/python bench/bench_bots.py                       # the full run (long: see below)
    .venv/bin/python bench/bench_bots.py --games random=200,heuristic=200,search=20 --players 4
    nohup nice .venv/bin/python bench/bench_bots.py --bots search --games search=200 \\
        --resume > bench/results/search.log 2>&1 &

The full run (1,000 games each for random and heuristic, 200 for search, at 3, 4, 5 and 8
players) takes hours because of the search bot; ``--resume`` keeps the cells already in the JSON
file and adds the missing ones, so the run can be split. Results: a Markdown table on stdout and
JSON in ``bench/results/bots.json`` (``--out``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

# heuristic and search are loaded before the workers fork, so editing the bots during a long run
# cannot mix two versions in one table
from rednovember.analysis.simulate import derive_seed  # noqa: E402
from rednovember.analysis.stats import wilson  # noqa: E402
from rednovember.bots import heuristic, make_bot, search  # noqa: E402, F401
from rednovember.rules import Config, new_game  # noqa: E402

DEFAULT_GAMES = {"random": 1000, "heuristic": 1000, "search": 200}
OUT = Path(__file__).resolve().parent / "results" / "bots.json"


def play_one(task: tuple[str, int, int, int, tuple[str, ...]]) -> dict[str, Any]:
    """One game (the pool's worker): every seat played by ``bot``."""
    bot_name, players, index, seed, variants = task
    config = Config(players=players, variants=frozenset(variants),
                    seed=derive_seed(seed, players, index, "game"))
    g = new_game(config)
    bots = [make_bot(bot_name, derive_seed(seed, players, index, "seat", p)) for p in range(players)]
    times: list[float] = []
    searched: list[float] = []
    start = time.perf_counter()
    while g.result is None:
        bot = bots[g.player_to_move]
        before = getattr(bot, "searches", 0)
        t = time.perf_counter()
        action = bot.choose(g)
        ms = (time.perf_counter() - t) * 1000
        times.append(ms)
        if getattr(bot, "searches", 0) != before:
            searched.append(ms)
        g.apply(action)
    wall = time.perf_counter() - start
    first = g.data.start_spaces[config.gnomes]
    return {"won": g.result.won, "cause": g.result.cause, "wall": wall,
            "minutes": first - min(gn.keeper for gn in g.gnomes), "times": times,
            "searched": searched}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def summarize(bot: str, players: int, results: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(results)
    wins = sum(r["won"] for r in results)
    low, high = wilson(wins, n)
    times = [t for r in results for t in r["times"]]
    searched = [t for r in results for t in r["searched"]]
    wall = sum(r["wall"] for r in results)
    causes: dict[str, int] = {}
    for r in results:
        causes[r["cause"]] = causes.get(r["cause"], 0) + 1
    return {
        "bot": bot, "players": players, "games": n, "wins": wins,
        "win_rate": wins / n if n else 0.0, "ci95": [round(low, 4), round(high, 4)],
        "mean_minutes": sum(r["minutes"] for r in results) / n if n else 0.0,
        "decisions": len(times),
        "decision_ms_mean": sum(times) / len(times) if times else 0.0,
        "decision_ms_p95": percentile(times, 0.95),
        "searched_decisions": len(searched),
        "searched_ms_mean": sum(searched) / len(searched) if searched else 0.0,
        "searched_ms_p95": percentile(searched, 0.95),
        "games_per_second": n / wall if wall else 0.0,
        "results": dict(sorted(causes.items(), key=lambda kv: -kv[1])),
    }


def table(cells: list[dict[str, Any]]) -> str:
    lines = ["| bot | players | games | win rate | 95% CI | mean minutes | ms/decision (mean / p95) "
             "| searched ms (mean / p95) | games/s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for c in sorted(cells, key=lambda c: (c["players"], list(DEFAULT_GAMES).index(c["bot"])
                                          if c["bot"] in DEFAULT_GAMES else 9, c["bot"])):
        searched = (f"{c['searched_ms_mean']:.0f} / {c['searched_ms_p95']:.0f}"
                    if c["searched_decisions"] else "–")
        lines.append(
            f"| {c['bot']} | {c['players']} | {c['games']} | {100 * c['win_rate']:.1f}% "
            f"| {100 * c['ci95'][0]:.1f}–{100 * c['ci95'][1]:.1f}% | {c['mean_minutes']:.1f} "
            f"| {c['decision_ms_mean']:.2f} / {c['decision_ms_p95']:.2f} | {searched} "
            f"| {c['games_per_second']:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="3,4,5,8", help="player counts (default 3,4,5,8)")
    ap.add_argument("--bots", default="random,heuristic,search", help="bots to run")
    ap.add_argument("--games", default="", help="games per bot, e.g. random=1000,search=200")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variant", action="append", default=[], help="a variant; repeatable")
    ap.add_argument("--out", default=str(OUT), help="JSON file (default bench/results/bots.json)")
    ap.add_argument("--resume", action="store_true", help="keep cells already in --out")
    args = ap.parse_args(argv)
    games = dict(DEFAULT_GAMES)
    for part in filter(None, args.games.split(",")):
        name, _, n = part.partition("=")
        games[name] = int(n)
    players = [int(p) for p in args.players.split(",")]
    bots = args.bots.split(",")
    out = Path(args.out)
    cells: dict[str, dict[str, Any]] = {}
    if args.resume and out.exists():
        cells = {f"{c['bot']}@{c['players']}": c for c in json.loads(out.read_text())["cells"]}
    variants = tuple(sorted(args.variant))
    for bot in bots:
        for p in players:
            key = f"{bot}@{p}"
            n = games.get(bot, games.get(bot.partition(":")[0], 200))
            if key in cells and cells[key]["games"] >= n:
                continue
            tasks = [(bot, p, i, args.seed, variants) for i in range(n)]
            t0 = time.time()
            done: list[dict[str, Any]] = []
            with multiprocessing.Pool(max(1, args.jobs)) as pool:
                for r in pool.imap(play_one, tasks, chunksize=1 if bot.startswith("search")
                                   else 16):
                    done.append(r)
                    if bot.startswith("search") and len(done) % 10 == 0:
                        print(f"  {key}: {len(done)}/{n} games, {time.time() - t0:.0f}s",
                              file=sys.stderr, flush=True)
            cells[key] = summarize(bot, p, done)
            cells[key]["elapsed_s"] = round(time.time() - t0, 1)
            print(f"{key}: {cells[key]['wins']}/{n} won in {time.time() - t0:.0f}s",
                  file=sys.stderr, flush=True)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps({"seed": args.seed, "variants": list(variants),
                                       "jobs": args.jobs, "cells": list(cells.values())},
                                      indent=1) + "\n")
    print(table(list(cells.values())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
