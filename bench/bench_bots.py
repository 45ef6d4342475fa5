#!/usr/bin/env python
"""Benchmark of the bots: win rates with 95% Wilson intervals, decision times, games per second.

Every seat of a game is played by the same bot. Game ``i`` at ``p`` players uses the same
configuration seed for every bot (paired samples), so the bots meet the same deals. The seed does
not depend on the variants either: a variant's game ``i`` starts from the standard rules' deal
``i`` (so cells of different variants on the same deals are not independent samples; to compare
variants, give them deals of their own with ``--first``). Per bot and
player count it reports:

* games, wins, win rate and its 95% Wilson confidence interval,
* mean minutes of the time track used (how long the crew survived),
* decision time in ms (every ``choose`` call, forced ones included): mean, 95th percentile and
  the worst case, and for the search bot the same for the decisions it actually searched. It is
  the worker's CPU time (``time.process_time``), so it is the time on one core even when the
  machine is shared (wall-clock times on a loaded machine would count other programs' turns),
* simulated games per second on one core (games / summed game time in the workers).

The ``oracle`` (:mod:`rednovember.bots.oracle`) is the search bot deciding on the true state (deck
orders, dice, hidden hands): a bot for measurement only, never offered to players. It meets the
same deals, and the second table gives, per variant and player count, every bot's win rate with
its Wilson interval, and search / oracle (and search:v1 / oracle, the search of before issue 10):
the share of the oracle's wins the fair search reaches on the same deals. ``oracle:events`` and
``oracle:dice`` (:class:`rednovember.bots.oracle.SeerBot`) are the default search seeing only the
event deck's order, or only the dice to come: what each hidden thing is worth to it.

Cells are kept per bot, player count and variant set (``--variant``, repeatable; none: the
standard rules), so one JSON file holds the standard rules and the variants side by side.

Usage::

    .venv/bin/python bench/bench_bots.py --out runs/bots.json  # the full run (long: see below)
    .venv/bin/python bench/bench_bots.py --games random=200,heuristic=200,search=20 --players 4 \
        --out runs/quick.json
    nohup nice .venv/bin/python bench/bench_bots.py --bots search --games search=200 \\
        --resume > bench/results/search.log 2>&1 &
    .venv/bin/python bench/bench_bots.py --bots search,oracle --games search=50,oracle=50 \\
        --players 4 --variant mad-gnomes --resume
    .venv/bin/python bench/bench_bots.py --table            # only print the tables of --out
    .venv/bin/python bench/bench_bots.py --bots search --games search=200 --players 4 \\
        --cluster tcp://HOST:8786 --resume      # on a Dask cluster's workers (docs/cluster.md)

The full run (1,000 games each for random and heuristic, 200 for search, at 3, 4, 5 and 8
players) takes hours because of the search bot; ``--resume`` keeps the cells already in the JSON
file and adds the missing ones, so the run can be split; the games of the slow bots are also kept
one by one in ``OUT.games.jsonl`` (next to ``--out``), and ``--resume`` reuses them, so a run
stopped half-way loses no finished game (ask for fewer games to summarise what is there).
Playing into an ``--out`` that holds an earlier run without ``--resume`` stops with an error
instead of replacing it (the stored results in ``bench/results`` are such runs).
``--cluster ADDRESS`` plays the games on the workers of a Dask distributed scheduler instead of
``--jobs`` local processes, with the same games and results (the times are measured on the
workers).
Results: a Markdown table on stdout and JSON in ``bench/results/bots.json`` (``--out``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

# heuristic and search are loaded before the workers fork, so editing the bots during a long run
# cannot mix two versions in one table
from rednovember._engine import FORCED, pure_reason  # noqa: E402
from rednovember.analysis.cluster import (  # noqa: E402
    DEFAULT_TIMEOUT,
    ClusterError,
    connect,
    run_tasks,
)
from rednovember.analysis.simulate import derive_seed  # noqa: E402
from rednovember.analysis.stats import wilson  # noqa: E402
from rednovember.bots import Bot, heuristic, make_bot, oracle, search  # noqa: E402, F401
from rednovember.rules import Config, Game, new_game  # noqa: E402

if TYPE_CHECKING:
    from distributed import Client

DEFAULT_GAMES = {"random": 1000, "heuristic": 1000, "search": 200, "oracle": 200}
ORDER = ["random", "heuristic", "search:v1", "search:v2", "search", "search:strong", "oracle"]
OUT = Path(__file__).resolve().parent / "results" / "bots.json"


Task = tuple[str, int, int, int, tuple[str, ...]]  # bot, players, deal, seed, variants


def deal(task: Task) -> tuple[Game, list[Bot]]:
    """The task's game at its start and its seats' bots: the same for every bot named, so a
    game of the benchmark can be played again exactly (bench/trace_missile.py does)."""
    bot_name, players, index, seed, variants = task
    config = Config(players=players, variants=frozenset(variants),
                    seed=derive_seed(seed, players, index, "game"))
    bots = [make_bot(bot_name, derive_seed(seed, players, index, "seat", p)) for p in range(players)]
    return new_game(config), bots


def play_one(task: Task) -> dict[str, Any]:
    """One game (a worker's task, in a local process or on the cluster's workers, which get this
    function by value since the script runs as ``__main__``): every seat played by ``bot``."""
    g, bots = deal(task)
    times: list[float] = []
    searched: list[float] = []
    start = time.perf_counter()
    while g.result is None:
        bot = bots[g.player_to_move]
        before = getattr(bot, "searches", 0)
        t = time.process_time()
        action = bot.choose(g)
        ms = (time.process_time() - t) * 1000
        times.append(ms)
        if getattr(bot, "searches", 0) != before:
            searched.append(ms)
        g.apply(action)
    wall = time.perf_counter() - start
    first = g.data.start_spaces[g.config.gnomes]
    return {"won": g.result.won, "cause": g.result.cause, "wall": wall,
            "minutes": first - min(gn.keeper for gn in g.gnomes), "times": times,
            "searched": searched}


def engine_line(reason: str) -> str:
    """The line a run that plays games starts with: the engine, loudly when it is the pure one
    (``reason``, from :func:`rednovember._engine.pure_reason`)."""
    if not reason:
        return "bench_bots.py: the compiled engine"
    hint = "" if reason == FORCED else " (rebuild: ./scripts/test.sh, or pip install -e .)"
    return (f"bench_bots.py: WARNING: the pure-Python engine ({reason}): the same games, about six "
            f"times slower{hint}")


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
        "bot": bot, "players": players, "variants": [], "games": n, "wins": wins,
        "win_rate": wins / n if n else 0.0, "ci95": [round(low, 4), round(high, 4)],
        "mean_minutes": sum(r["minutes"] for r in results) / n if n else 0.0,
        "decisions": len(times),
        "decision_ms_mean": sum(times) / len(times) if times else 0.0,
        "decision_ms_p95": percentile(times, 0.95),
        "decision_ms_max": max(times, default=0.0),
        "searched_decisions": len(searched),
        "searched_ms_mean": sum(searched) / len(searched) if searched else 0.0,
        "searched_ms_p95": percentile(searched, 0.95),
        "games_per_second": n / wall if wall else 0.0,
        "results": dict(sorted(causes.items(), key=lambda kv: -kv[1])),
    }


def variant_name(cell: dict[str, Any]) -> str:
    return "+".join(cell.get("variants", [])) or "standard"


def cell_key(bot: str, players: int, variants: tuple[str, ...]) -> str:
    return f"{bot}@{players}" + (f"@{'+'.join(variants)}" if variants else "")


def _rank(bot: str) -> int:
    return ORDER.index(bot) if bot in ORDER else len(ORDER)


def table(cells: list[dict[str, Any]]) -> str:
    """Every cell: win rate, interval, minutes, decision times, speed."""
    lines = ["| variant | bot | players | games | win rate | 95% CI | mean minutes "
             "| ms/decision (mean / p95 / max) | searched ms (mean / p95) | games/s |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for c in sorted(cells, key=lambda c: (variant_name(c) != "standard", variant_name(c),
                                          c["players"], _rank(c["bot"]), c["bot"])):
        searched = (f"{c['searched_ms_mean']:.0f} / {c['searched_ms_p95']:.0f}"
                    if c["searched_decisions"] else "–")
        worst = f" / {c['decision_ms_max']:.0f}" if "decision_ms_max" in c else ""
        lines.append(
            f"| {variant_name(c)} | {c['bot']} | {c['players']} | {c['games']} "
            f"| {100 * c['win_rate']:.1f}% "
            f"| {100 * c['ci95'][0]:.1f}–{100 * c['ci95'][1]:.1f}% | {c['mean_minutes']:.1f} "
            f"| {c['decision_ms_mean']:.2f} / {c['decision_ms_p95']:.2f}{worst} | {searched} "
            f"| {c['games_per_second']:.2f} |")
    return "\n".join(lines)


def oracle_table(cells: list[dict[str, Any]]) -> str:
    """Per variant and player count: each bot's win rate [95% CI] (games), and search / oracle."""
    bots = sorted({c["bot"] for c in cells if c["bot"] != "random"}, key=lambda b: (_rank(b), b))
    groups: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}
    for c in cells:
        groups.setdefault((variant_name(c), c["players"]), {})[c["bot"]] = c
    fair = [b for b in ("search", "search:v2", "search:v1") if b in bots]
    head = "| " + " | ".join(["variant", "players", *bots, *(f"{b} / oracle" for b in fair)]) + " |"
    lines = [head, "|---|---|" + "---|" * (len(bots) + len(fair))]
    for (variant, players), row in sorted(groups.items(),
                                          key=lambda kv: (kv[0][0] != "standard", kv[0])):
        parts = []
        for b in bots:
            e = row.get(b)
            parts.append("–" if e is None else
                         f"{100 * e['win_rate']:.1f}% [{100 * e['ci95'][0]:.0f}–"
                         f"{100 * e['ci95'][1]:.0f}] ({e['games']})")
        o = row.get("oracle")
        for b in fair:
            f = row.get(b)
            parts.append(f"{f['win_rate'] / o['win_rate']:.2f}" if f and o and o["win_rate"]
                         else "–")
        lines.append(f"| {variant} | {players} | " + " | ".join(parts) + " |")
    return "\n".join(lines)


def sign_p(only_a: int, only_b: int) -> float:
    """The two-sided sign test's p-value for ``only_a`` against ``only_b`` deals won by one bot
    only (McNemar's exact test); 1 when no deal was won by one only."""
    m = only_a + only_b
    tail = sum(math.comb(m, j) for j in range(min(only_a, only_b) + 1)) / 2 ** m if m else 1.0
    return min(1.0, 2 * tail)


def paired(rows: dict[tuple[str, int, int], dict[str, Any]], a: str, b: str, players: int,
           variants: tuple[str, ...], seed: int) -> dict[str, Any]:
    """Bots ``a`` and ``b`` on the deals both played (games.jsonl): wins, deals won by one only,
    and the two-sided sign test's p-value on those (McNemar's exact test)."""
    ka, kb = cell_key(a, players, variants), cell_key(b, players, variants)
    ia = {i: r["won"] for (k, s, i), r in rows.items() if k == ka and s == seed}
    ib = {i: r["won"] for (k, s, i), r in rows.items() if k == kb and s == seed}
    both = sorted(set(ia) & set(ib))
    only_a = sum(1 for i in both if ia[i] and not ib[i])
    only_b = sum(1 for i in both if ib[i] and not ia[i])
    m = only_a + only_b
    n = len(both)
    diff = (only_a - only_b) / n if n else 0.0
    # the paired difference's 95% interval (normal approximation for matched proportions)
    half = 1.96 * math.sqrt(max(0.0, m - (only_a - only_b) ** 2 / n)) / n if n else 1.0
    return {"a": a, "b": b, "players": players, "variants": list(variants), "deals": n,
            "wins_a": sum(ia[i] for i in both), "wins_b": sum(ib[i] for i in both),
            "only_a": only_a, "only_b": only_b, "p_sign": sign_p(only_a, only_b),
            "diff": diff, "diff_ci95": [diff - half, diff + half]}


def pair_table(rows: dict[tuple[str, int, int], dict[str, Any]], bots: list[str],
               seed: int) -> str:
    """A Markdown table: ``bots[0]`` against each other bot on the deals both played, for every
    player count and variant set where both have games in OUT.games.jsonl."""
    a = bots[0]
    groups = sorted({tuple(k.split("@")[1:]) for k, s, _ in rows
                     if s == seed and k.split("@")[0] == a},
                    key=lambda g: (len(g) > 1, g[1:] if len(g) > 1 else (), int(g[0])))
    lines = [f"| variant | players | vs | deals | {a} won | other won | {a} only | other only "
             "| sign test p | difference [95%] |", "|---|---|---|---|---|---|---|---|---|---|"]
    for g in groups:
        players = int(g[0])
        variants = tuple(g[1].split("+")) if len(g) > 1 else ()
        for b in bots[1:]:
            r = paired(rows, a, b, players, variants, seed)
            if not r["deals"]:
                continue
            n = r["deals"]
            lo, hi = wilson(r["wins_a"], n)
            lines.append(
                f"| {variant_name(r)} | {players} | {b} | {n} "
                f"| {r['wins_a']} ({100 * r['wins_a'] / n:.1f}% [{100 * lo:.0f}–{100 * hi:.0f}]) "
                f"| {r['wins_b']} ({100 * r['wins_b'] / n:.1f}%) | {r['only_a']} | {r['only_b']} "
                f"| {r['p_sign']:.2g} | {100 * r['diff']:+.1f} [{100 * r['diff_ci95'][0]:+.0f} "
                f"to {100 * r['diff_ci95'][1]:+.0f}] |")
    return "\n".join(lines)


def clobbers(args: argparse.Namespace, out: Path) -> bool:
    """Whether this run would write over an earlier one: playing without --resume (or --plan,
    --collect, which read what is kept) into an --out whose file or games log exists would
    replace the file's other cells and play its kept games again."""
    reads = args.resume or args.table or args.collect or args.merge or args.plan or args.pair
    return not reads and (out.exists() or out.with_suffix(".games.jsonl").exists())


def save(out: Path, seed: int, jobs: int, cells: dict[str, dict[str, Any]]) -> None:
    """Write the cells to the JSON file ``out`` (--out)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"seed": seed, "jobs": jobs, "cells": list(cells.values())},
                              indent=1) + "\n")


def keep_game(log: Path, key: str, seed: int, index: int, result: dict[str, Any]) -> None:
    """Append one finished game to OUT.games.jsonl (a stopped run loses no finished game)."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a") as f:
        f.write(json.dumps({"cell": key, "seed": seed, "index": index, "result": result}) + "\n")


def merge_cells(cells: dict[str, dict[str, Any]],
                more: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``cells`` with every cell of ``more`` that has at least as many games as the cell of the
    same key in ``cells`` (or has none there): a longer unpaired run is not replaced by a shorter
    paired one."""
    merged = dict(cells)
    for c in more:
        key = cell_key(c["bot"], c["players"], tuple(c.get("variants", [])))
        if key not in merged or c["games"] >= merged[key]["games"]:
            merged[key] = c
    return merged


def plan_tasks(plan: str, bots: list[str], seed: int,
               done: dict[tuple[str, int, int], dict[str, Any]]) -> list[Task]:
    """The games of ``plan`` ("3=100,4@harder=60": cells and their deals) not yet in ``done``,
    deal by deal: deal 0 of every cell and bot, then deal 1.., so a run stopped at any point
    leaves the bots paired on nearly the same deals."""
    cells = []
    for part in filter(None, plan.split(",")):
        spec, _, n = part.partition("=")
        p_text, _, variant_text = spec.partition("@")
        cells.append((int(p_text), tuple(sorted(filter(None, variant_text.split("+")))), int(n)))
    return [(bot, players, i, seed, variants)
            for i in range(max(n for *_, n in cells))
            for players, variants, n in cells if i < n
            for bot in bots if (cell_key(bot, players, variants), seed, i) not in done]


def play_plan(plan: str, bots: list[str], seed: int, jobs: int,
              done: dict[tuple[str, int, int], dict[str, Any]], log: Path,
              client: Client | None = None) -> None:
    """Play ``plan_tasks`` in one pool or on the cluster of ``client`` (no core idles at the end
    of a cell); every game is appended to ``log`` as it ends and added to ``done``."""
    tasks = plan_tasks(plan, bots, seed, done)
    t0 = time.time()
    games = run_tasks(_play_task, tasks, jobs=jobs, client=client, ordered=False)
    for n, (task, r) in enumerate(games, start=1):
        key = cell_key(task[0], task[1], task[4])
        done[(key, seed, task[2])] = r
        keep_game(log, key, seed, task[2], r)
        if n % 10 == 0:
            print(f"  plan: {n}/{len(tasks)} games, {time.time() - t0:.0f}s",
                  file=sys.stderr, flush=True)


def _play_task(task: Task) -> tuple[Task, dict[str, Any]]:
    return task, play_one(task)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="3,4,5,8", help="player counts (default 3,4,5,8)")
    ap.add_argument("--bots", default="random,heuristic,search", help="bots to run")
    ap.add_argument("--games", default="", help="games per bot, e.g. random=1000,search=200")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--cluster", metavar="ADDRESS",
                    help="play on the Dask cluster whose scheduler is at ADDRESS, e.g. "
                         "tcp://HOST:8786, instead of --jobs local processes (docs/cluster.md)")
    ap.add_argument("--cluster-timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                    help="how long to wait for the scheduler, then for a first worker "
                         f"(default {DEFAULT_TIMEOUT:g})")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variant", action="append", default=[], help="a variant; repeatable")
    ap.add_argument("--out", default=str(OUT), help="JSON file (default bench/results/bots.json)")
    ap.add_argument("--resume", action="store_true", help="keep cells already in --out")
    ap.add_argument("--table", action="store_true", help="only print the tables of --out")
    ap.add_argument("--first", type=int, default=0,
                    help="play games FIRST.. only (split a cell between runs; see --collect)")
    ap.add_argument("--collect", action="store_true",
                    help="summarise the games kept in OUT.games.jsonl into --out, playing none")
    ap.add_argument("--plan", default="",
                    help="CELL=N,..: e.g. 3=100,4@harder=60; plays --bots' missing games of all "
                         "these cells in one pool, deal by deal (see play_plan); then --collect")
    ap.add_argument("--merge", metavar="FILE",
                    help="copy FILE's cells into --out where they have at least as many games "
                         "as --out's cell of the same bot, players and variants; plays none")
    ap.add_argument("--pair", default="",
                    help="A,B[,C..]: A against each other bot on the deals both played "
                         "(OUT.games.jsonl), a Markdown table; plays none")
    args = ap.parse_args(argv)
    games = dict(DEFAULT_GAMES)
    for part in filter(None, args.games.split(",")):
        name, _, n = part.partition("=")
        games[name] = int(n)
    players = [int(p) for p in args.players.split(",")]
    bots = args.bots.split(",")
    out = Path(args.out)
    if clobbers(args, out):
        print(f"bench_bots.py: error: {out} holds an earlier run: --resume continues it (its games "
              "are kept), or choose another --out", file=sys.stderr)
        return 2
    cells: dict[str, dict[str, Any]] = {}
    if (args.resume or args.table or args.collect or args.merge or args.plan) and out.exists():
        saved = json.loads(out.read_text())
        for c in saved["cells"]:
            c.setdefault("variants", saved.get("variants", []))
            cells[cell_key(c["bot"], c["players"], tuple(c["variants"]))] = c
    if args.merge:
        cells = merge_cells(cells, json.loads(Path(args.merge).read_text())["cells"])
        save(out, args.seed, args.jobs, cells)
    if args.table or args.merge:
        print(table(list(cells.values())) + "\n\n" + oracle_table(list(cells.values())))
        return 0
    log = out.with_suffix(".games.jsonl")
    games_done: dict[tuple[str, int, int], dict[str, Any]] = {}
    if (args.resume or args.collect or args.pair or args.plan) and log.exists():
        for line in log.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                games_done[(row["cell"], row["seed"], row["index"])] = row["result"]
    if args.pair:
        print(pair_table(games_done, args.pair.split(","), args.seed))
        return 0
    with ExitStack() as stack:
        client = None
        if args.cluster and (args.plan or not args.collect):
            try:
                client = stack.enter_context(connect(args.cluster, args.cluster_timeout))
            except ClusterError as exc:
                print(f"bench_bots.py: error: {exc}", file=sys.stderr)
                return 2
        if args.plan or not args.collect:  # games are played: on which engine
            print(engine_line(pure_reason()), file=sys.stderr, flush=True)
        if args.plan:
            play_plan(args.plan, bots, args.seed, args.jobs, games_done, log, client)
        if not (args.collect or args.plan):
            play_cells(args, [(b, p) for b in bots for p in players], games, cells, games_done,
                       client)
            print(table(list(cells.values())) + "\n\n" + oracle_table(list(cells.values())))
            return 0
    by_cell: dict[str, list[dict[str, Any]]] = {}
    for (key, seed, _index), r in sorted(games_done.items()):
        if seed == args.seed:
            by_cell.setdefault(key, []).append(r)
    for key, kept in by_cell.items():
        bot, p_text, *rest = key.split("@")
        cells[key] = summarize(bot, int(p_text), kept)
        cells[key]["variants"] = rest[0].split("+") if rest else []
    save(out, args.seed, args.jobs, cells)
    print(table(list(cells.values())) + "\n\n" + oracle_table(list(cells.values())))
    return 0


def is_slow(bot: str) -> bool:
    """Whether ``bot`` searches (the search at any level, the oracle and its seers): its games are
    played one task each and kept as each ends, so a stopped run loses none; the others' are
    played in batches."""
    return bot.startswith(("search", "oracle"))


def play_cells(args: argparse.Namespace, plan: list[tuple[str, int]], games: dict[str, int],
               cells: dict[str, dict[str, Any]],
               games_done: dict[tuple[str, int, int], dict[str, Any]],
               client: Client | None) -> None:
    """Play the missing games of every (bot, players) cell of ``plan``, cell after cell, in a
    local pool or on the cluster of ``client``; each cell is summarised and saved when done."""
    variants = tuple(sorted(args.variant))
    out = Path(args.out)
    log = out.with_suffix(".games.jsonl")
    for bot, p in plan:
        key = cell_key(bot, p, variants)
        n = games.get(bot, games.get(bot.partition(":")[0], 200))
        if key in cells and cells[key]["games"] >= n:
            continue
        t0 = time.time()
        done: list[dict[str, Any]] = [games_done[(key, args.seed, i)] for i in range(n)
                                      if (key, args.seed, i) in games_done]
        tasks = [(bot, p, i, args.seed, variants) for i in range(args.first, n)
                 if (key, args.seed, i) not in games_done]
        slow = is_slow(bot)
        results = run_tasks(play_one, tasks, jobs=args.jobs, client=client, fast=not slow)
        for task, r in zip(tasks, results, strict=True):
            done.append(r)
            if slow:  # every slow game is kept at once: a stopped run loses none
                keep_game(log, key, args.seed, task[2], r)
            if slow and len(done) % 10 == 0:
                print(f"  {key}: {len(done)}/{n} games, {time.time() - t0:.0f}s",
                      file=sys.stderr, flush=True)
        cells[key] = summarize(bot, p, done)
        cells[key]["variants"] = list(variants)
        cells[key]["elapsed_s"] = round(time.time() - t0, 1)
        print(f"{key}: {cells[key]['wins']}/{n} won in {time.time() - t0:.0f}s",
              file=sys.stderr, flush=True)
        save(out, args.seed, args.jobs, cells)

if __name__ == "__main__":
    raise SystemExit(main())
