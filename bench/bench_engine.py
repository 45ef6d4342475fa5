#!/usr/bin/env python
"""Benchmark of the rules engine on ONE core (a script, not a test).

Measures, with the random legal bot and fixed seeds:

* complete random 4-player games per second (target: >= 200/s on one core, goal 1,000/s),
* engine steps (applied actions) per second and the split of one step's cost between
  ``legal_actions``, the bot's choice and ``apply``,
* the engine alone: the same games replayed from the bots' recorded choices (setup,
  ``legal_actions`` and ``apply``, no bot), games and steps per second,
* ``Game.copy()`` per second (with and without the log), on mid-game states,
* memory per game state: tracemalloc size of a mid-game state and of its copies, and the length of
  its save (``serialize.to_json``).

Usage::

    .venv/bin/python bench/bench_engine.py              # table + one JSON line (last line)
    .venv/bin/python bench/bench_engine.py --seconds 2  # shorter run
    .venv/bin/python bench/bench_engine.py --profile    # cProfile: hotspots in rednovember.rules
    .venv/bin/python bench/bench_engine.py --checksum   # digest of many seeded games (all configs)
    REDNOVEMBER_PURE=1 .venv/bin/python bench/bench_engine.py   # the pure-Python engine
    .venv/bin/python bench/bench_engine.py --compare 3  # compiled against pure, alternating
    .venv/bin/python bench/bench_engine.py --compare 3 --cpu-time  # per CPU second (loaded machine)

The engine is the one compiled with mypyc when there is one (setup.py), else the pure-Python modules;
``REDNOVEMBER_PURE=1`` forces the pure ones (rednovember/_engine.py). The output names it.

``--checksum`` prints one SHA-256 over ``serialize.to_dict`` of a fixed set of seeded random games
(every player count, gnome count and variant combination), plus mid-game snapshots and copies. A
behaviour-preserving engine speedup must leave it unchanged.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import io
import itertools
import json
import os
import pstats
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rednovember._engine import kind as engine_kind  # noqa: E402
from rednovember.bots import make_bot  # noqa: E402
from rednovember.rules import VARIANTS, Config, Game, load_data, new_game, serialize  # noqa: E402

PLAYERS = 4
# The clock of the games/s and copies/s runs: wall time, or with --cpu-time this process's CPU time
# (on a shared, loaded machine the wall clock also counts the time other processes had the core).
CLOCK = {"clock": time.perf_counter}


def pin_one_core() -> str:
    """Run on a single CPU so the figures are per core (best effort)."""
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity)"


def play(seed: int, players: int = PLAYERS, variants: frozenset[str] = frozenset(),
         per: int | None = None) -> Game:
    """One complete game of random bots (one per seat) from a fixed seed."""
    g = new_game(Config(players, per, variants, seed))
    bots = [make_bot("random", seed * 16 + p) for p in range(players)]
    while g.result is None:
        g.apply(bots[g.player_to_move].choose(g))
    return g


# --- measurements ------------------------------------------------------------------------------
def bench_games(seconds: float) -> dict[str, Any]:
    """Whole games (setup included) until ``seconds`` have passed; seeds 0, 1, 2, ..."""
    load_data()
    games = steps = 0
    clock = CLOCK["clock"]
    start = clock()
    elapsed = 0.0
    while elapsed < seconds:
        g = play(games)
        steps += len(g.history)
        games += 1
        elapsed = clock() - start
    return {"games": games, "steps": steps, "seconds": elapsed, "games_per_s": games / elapsed,
            "steps_per_s": steps / elapsed, "steps_per_game": steps / games}


def record_choices(games: int) -> list[list[int]]:
    """The random bots' choices in games 0 .. games-1 (seeds as :func:`play`), as indices into
    each step's legal list: replaying them plays the same games without the bots."""
    out = []
    for seed in range(games):
        g = new_game(Config(PLAYERS, seed=seed))
        bots = [make_bot("random", seed * 16 + p) for p in range(PLAYERS)]
        picks = []
        while g.result is None:
            legal = g.legal_actions()
            action = bots[g.player_to_move].choose(g)
            picks.append(next(i for i, a in enumerate(legal) if a is action))
            g.apply(action)
        out.append(picks)
    return out


def bench_engine_only(choices: list[list[int]], seconds: float) -> dict[str, Any]:
    """The engine alone: the recorded games replayed (setup, ``legal_actions`` and ``apply``; no
    bot, no random.Random), round after round until ``seconds`` have passed."""
    config = [Config(PLAYERS, seed=seed) for seed in range(len(choices))]
    games = steps = 0
    clock = CLOCK["clock"]
    start = clock()
    elapsed = 0.0
    while elapsed < seconds:
        for seed, picks in enumerate(choices):
            g = new_game(config[seed])
            for i in picks:
                g.apply(g.legal_actions()[i])
            steps += len(picks)
        games += len(choices)
        elapsed = clock() - start
    return {"engine_games_per_s": games / elapsed, "engine_steps_per_s": steps / elapsed}


def bench_split(games: int) -> dict[str, Any]:
    """The cost of one step split into legal_actions, the bot's choice and apply (µs)."""
    clock = time.perf_counter
    t_setup = t_legal = t_bot = t_apply = 0.0
    steps = 0
    for seed in range(games):
        t0 = clock()
        g = new_game(Config(PLAYERS, seed=seed))
        bots = [make_bot("random", seed * 16 + p) for p in range(PLAYERS)]
        t_setup += clock() - t0
        while g.result is None:
            t0 = clock()
            g.legal_actions()
            t1 = clock()
            a = bots[g.player_to_move].choose(g)
            t2 = clock()
            g.apply(a)
            t3 = clock()
            t_legal += t1 - t0
            t_bot += t2 - t1
            t_apply += t3 - t2
            steps += 1
    us = 1e6 / steps
    return {"steps": steps, "legal_us": t_legal * us, "bot_us": t_bot * us,
            "apply_us": t_apply * us, "legal_apply_us": (t_legal + t_apply) * us,
            "setup_us_per_game": t_setup * 1e6 / games}


def midgame_states(count: int) -> list[Game]:
    """Games stopped half way (by their own length), from fixed seeds."""
    out = []
    for seed in range(count):
        n = len(play(seed).history)
        g = new_game(Config(PLAYERS, seed=seed))
        bots = [make_bot("random", seed * 16 + p) for p in range(PLAYERS)]
        for _ in range(n // 2):
            g.apply(bots[g.player_to_move].choose(g))
        out.append(g)
    return out


def bench_copy(states: list[Game], seconds: float) -> dict[str, Any]:
    res: dict[str, Any] = {}
    for keep_log in (True, False):
        n = 0
        clock = CLOCK["clock"]
        start = clock()
        elapsed = 0.0
        while elapsed < seconds:
            for g in states:
                g.copy(keep_log)
            n += len(states)
            elapsed = clock() - start
        res["copies_per_s" if keep_log else "copies_no_log_per_s"] = n / elapsed
    return res


def _traced(build: Any) -> tuple[Any, int]:
    """The object ``build()`` returns and the bytes it keeps allocated (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    obj = build()
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return obj, after - before


def bench_memory(states: list[Game]) -> dict[str, Any]:
    """Mean sizes over the mid-game states: the state itself, its copies and its save."""
    seeds = list(range(len(states)))
    sizes: dict[str, list[int]] = {"state": [], "copy": [], "copy_no_log": [], "json": [],
                                   "log_entries": [], "history": []}
    for seed, g in zip(seeds, states, strict=True):
        n = len(g.history)
        bots = [make_bot("random", seed * 16 + p) for p in range(PLAYERS)]

        def rebuild(seed: int = seed, n: int = n, bots: list[Any] = bots) -> Game:
            twin = new_game(Config(PLAYERS, seed=seed))
            for _ in range(n):
                twin.apply(bots[twin.player_to_move].choose(twin))
            twin._legal = None  # the cached legal list is not part of the state
            return twin

        twin, size = _traced(rebuild)
        sizes["state"].append(size)
        sizes["copy"].append(_traced(lambda twin=twin: twin.copy())[1])
        sizes["copy_no_log"].append(_traced(lambda twin=twin: twin.copy(False))[1])
        sizes["json"].append(len(serialize.to_json(twin)))
        sizes["log_entries"].append(len(twin.log))
        sizes["history"].append(len(twin.history))
    return {f"{k}_bytes" if k not in ("log_entries", "history") else k: sum(v) / len(v)
            for k, v in sizes.items()}


# --- profile -----------------------------------------------------------------------------------
def profile(games: int, top: int) -> str:
    load_data()
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(games):
        play(seed)
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    out.write("\n--- by cumulative time, rednovember only ---\n")
    stats.sort_stats("cumulative").print_stats("rednovember", top)
    return out.getvalue()


# --- checksum ----------------------------------------------------------------------------------
def checksum_configs() -> Iterator[tuple[int, int | None, frozenset[str]]]:
    combos = [frozenset(c) for r in range(len(VARIANTS) + 1)
              for c in itertools.combinations(VARIANTS, r)]
    setups: list[tuple[int, int | None]] = [(1, k) for k in range(3, 9)] + [(2, 2)]
    setups += [(p, None) for p in range(3, 9)]
    for (players, per), variants in itertools.product(setups, combos):
        yield players, per, variants


def checksum(seeds_per_config: int) -> tuple[str, int, int, dict[str, str]]:
    """SHA-256 over to_dict of seeded random games, with snapshots every 17 steps and copies;
    also one digest per configuration, to tell which configurations a rules change touched."""
    h = hashlib.sha256()
    games = steps = 0
    per_config: dict[str, str] = {}
    for players, per, variants in checksum_configs():
        hc = hashlib.sha256()
        sampled = 0  # per configuration, so that one configuration's change touches only its digest
        for s in range(seeds_per_config):
            seed = s * 1_000_003 + players * 101 + (per or 0) * 7 + len(variants)
            g = new_game(Config(players, per, variants, seed))
            bots = [make_bot("random", seed * 16 + p) for p in range(players)]
            while g.result is None:
                legal = g.legal_actions()
                chunk = repr(legal).encode()
                g.apply(bots[g.player_to_move].choose(g))
                steps += 1
                sampled += 1
                if sampled % 17 == 0:
                    chunk += json.dumps(serialize.snapshot(g), sort_keys=True).encode()
                    twin = g.copy()
                    assert serialize.to_dict(twin) == serialize.to_dict(g)
                h.update(chunk)
                hc.update(chunk)
            final = json.dumps(serialize.to_dict(g), sort_keys=True).encode()
            h.update(final)
            hc.update(final)
            games += 1
        name = f"{players}p" + (f"x{per}" if per else "") + "".join(f"+{v}" for v in sorted(variants))
        per_config[name] = hc.hexdigest()[:16]
    return h.hexdigest(), games, steps, per_config


# --- compiled against pure ---------------------------------------------------------------------
def quick(seconds: float) -> dict[str, Any]:
    """games/s, steps/s and copies/s of the engine this process runs (for --compare)."""
    games = bench_games(seconds)
    copies = bench_copy(midgame_states(50), max(0.5, seconds / 5))
    alone = bench_engine_only(record_choices(200), max(0.5, seconds / 2))
    return {"engine": engine_kind(), "games_per_s": games["games_per_s"],
            "steps_per_s": games["steps_per_s"], "copies_per_s": copies["copies_per_s"],
            "copies_no_log_per_s": copies["copies_no_log_per_s"], **alone}


def compare(rounds: int, seconds: float, cpu_time: bool = False) -> dict[str, Any]:
    """The compiled and the pure engine in alternate child processes (same seeds, one core each
    in turn), ``rounds`` times; the best round of each, and their ratios. Alternating within one
    run keeps the ratio fair on a shared, noisy machine."""
    best: dict[str, dict[str, float]] = {}
    for _ in range(rounds):
        for pure in ("", "1"):
            env = dict(os.environ, REDNOVEMBER_PURE=pure)
            argv = [sys.executable, __file__, "--quick", "--seconds", str(seconds)]
            argv += ["--cpu-time"] if cpu_time else []
            out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout
            row = json.loads(out.splitlines()[-1])
            kind = row.pop("engine")
            for key, value in row.items():
                best.setdefault(kind, {})[key] = max(best.get(kind, {}).get(key, 0.0), value)
    if set(best) != {"compiled", "pure"}:
        raise SystemExit(f"no compiled engine to compare (engines run: {sorted(best)})")
    ratios = {k: best["compiled"][k] / best["pure"][k] for k in best["pure"]}
    return {"bench": "engine_compare", "rounds": rounds, "seconds": seconds,
            "clock": "cpu" if cpu_time else "wall", **best,
            "ratio": ratios}


# --- main --------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time for the games/s run")
    ap.add_argument("--profile", action="store_true", help="cProfile random games instead")
    ap.add_argument("--profile-games", type=int, default=2000)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--checksum", action="store_true",
                    help="print a digest of many seeded games instead (before/after a speedup)")
    ap.add_argument("--checksum-seeds", type=int, default=3, help="seeds per configuration")
    ap.add_argument("--by-config", metavar="FILE",
                    help="with --checksum: write one digest per configuration to FILE (JSON)")
    ap.add_argument("--compare", type=int, metavar="ROUNDS",
                    help="compiled against pure: games/s, steps/s, copies/s and their ratios")
    ap.add_argument("--cpu-time", action="store_true",
                    help="time the games/s and copies/s runs by this process's CPU time, not the "
                         "wall clock (a loaded machine)")
    ap.add_argument("--quick", action="store_true", help=argparse.SUPPRESS)  # --compare's child
    args = ap.parse_args(argv)
    if args.cpu_time:
        CLOCK["clock"] = time.process_time
    pinned = pin_one_core()

    if args.compare:
        res = compare(args.compare, args.seconds, args.cpu_time)
        for kind in ("compiled", "pure"):
            r = res[kind]
            print(f"  {kind:<9} {r['games_per_s']:>8,.0f} games/s  {r['steps_per_s']:>10,.0f} steps/s"
                  f"  {r['copies_per_s']:>10,.0f} copies/s  ({r['copies_no_log_per_s']:,.0f} "
                  f"without log)  engine alone {r['engine_games_per_s']:,.0f} games/s")
        q = res["ratio"]
        print(f"  compiled/pure: games {q['games_per_s']:.2f}x, steps {q['steps_per_s']:.2f}x, "
              f"copies {q['copies_per_s']:.2f}x, engine alone {q['engine_games_per_s']:.2f}x "
              f"({pinned}; {res['clock']} clock)")
        print(json.dumps(res))
        return 0
    if args.quick:
        print(json.dumps(quick(args.seconds)))
        return 0

    if args.checksum:
        start = time.perf_counter()
        digest, games, steps, per_config = checksum(args.checksum_seeds)
        if args.by_config:
            with open(args.by_config, "w", encoding="utf-8") as f:
                json.dump(per_config, f, indent=1, sort_keys=True)
        print(json.dumps({"checksum": digest, "engine": engine_kind(), "games": games, "steps": steps,
                          "seconds": round(time.perf_counter() - start, 1)}))
        return 0
    if args.profile:
        print(profile(args.profile_games, args.top))
        return 0

    games = bench_games(args.seconds)
    alone = bench_engine_only(record_choices(200), max(0.5, args.seconds / 2))
    split = bench_split(max(50, games["games"] // 5))
    states = midgame_states(50)
    copies = bench_copy(states, max(0.5, args.seconds / 5))
    memory = bench_memory(states[:20])
    rows = [
        ("random 4-player games / s (1 core)", f"{games['games_per_s']:,.0f}",
         f"{games['games']} games in {games['seconds']:.1f} s; target >= 200, goal 1,000"),
        ("engine steps / s", f"{games['steps_per_s']:,.0f}",
         f"{games['steps_per_game']:.1f} steps per game, bot included"),
        ("the same games, engine alone / s", f"{alone['engine_games_per_s']:,.0f}",
         f"{alone['engine_steps_per_s']:,.0f} steps/s: recorded choices replayed, no bot"),
        ("legal_actions + apply / step", f"{split['legal_apply_us']:.2f} µs",
         f"legal {split['legal_us']:.2f} + apply {split['apply_us']:.2f}; "
         f"bot {split['bot_us']:.2f}; setup {split['setup_us_per_game']:.0f} µs/game"),
        ("Game.copy() / s", f"{copies['copies_per_s']:,.0f}",
         f"without log: {copies['copies_no_log_per_s']:,.0f} / s"),
        ("mid-game state (tracemalloc)", f"{memory['state_bytes'] / 1024:.1f} KiB",
         f"{memory['log_entries']:.0f} log entries, {memory['history']:.0f} actions"),
        ("its copy / copy(keep_log=False)", f"{memory['copy_bytes'] / 1024:.1f} KiB",
         f"{memory['copy_no_log_bytes'] / 1024:.1f} KiB without log"),
        ("its save (to_json)", f"{memory['json_bytes'] / 1024:.1f} KiB", "characters / 1024"),
    ]
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    print(f"Red November engine benchmark — {engine_kind()} engine, Python {sys.version.split()[0]}, "
          f"{pinned}")
    for name, value, note in rows:
        print(f"  {name:<{width}}  {value:>{vwidth}}  {note}")
    result = {"bench": "engine", "engine": engine_kind(), "python": sys.version.split()[0],
              "players": PLAYERS,
              "games_per_s": round(games["games_per_s"], 1),
              "steps_per_s": round(games["steps_per_s"]),
              "steps_per_game": round(games["steps_per_game"], 2),
              "engine_alone_games_per_s": round(alone["engine_games_per_s"], 1),
              "engine_alone_steps_per_s": round(alone["engine_steps_per_s"]),
              "legal_us_per_step": round(split["legal_us"], 3),
              "apply_us_per_step": round(split["apply_us"], 3),
              "bot_us_per_step": round(split["bot_us"], 3),
              "setup_us_per_game": round(split["setup_us_per_game"], 1),
              "copies_per_s": round(copies["copies_per_s"]),
              "copies_no_log_per_s": round(copies["copies_no_log_per_s"]),
              "midgame_state_bytes": round(memory["state_bytes"]),
              "midgame_copy_bytes": round(memory["copy_bytes"]),
              "midgame_copy_no_log_bytes": round(memory["copy_no_log_bytes"]),
              "midgame_json_chars": round(memory["json_bytes"])}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
