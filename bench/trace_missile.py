#!/usr/bin/env python
"""Where the Missile Launch! losses of a bot benchmark come from.

Replays the games of ``bench_bots.py``'s ``OUT.games.jsonl`` that one cell lost to the Missile
Launch! token (the same deals and seats: the games repeat exactly), and for every time the token
was placed records Missile Control's state (burning, low or high water), each gnome's minutes
left before the token (its keeper minus the token's space), the crew's Grogs and Fire
Extinguishers (to enter a burning room) and Deactivation Codes, and every attempt to stop it (the
minutes, the bonus and the minutes the gnome left unused). Prints one JSON line per placement
and a summary of the placements the crew did not stop.

Usage::

    .venv/bin/python bench/trace_missile.py bench/results/bots_strong.games.jsonl search:deep@4 \\
        --jobs 2 > missile.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench_bots import Task, deal  # noqa: E402

from rednovember.rules import Game  # noqa: E402

MISSILE_CONTROL = 7
WATER = {1: "low water", 2: "high water"}


def placement(g: Game, space: int) -> dict[str, Any]:
    """The crew and Missile Control as the token lands on ``space``."""
    ids = g.data.item_index
    entry = {ids["grog"], ids["fire_extinguisher"]}
    crew = [gn for gn in g.gnomes if gn.alive and not gn.abandoned]
    return {"space": space, "fire": bool(g.fire[MISSILE_CONTROL]),
            "water": g.water[MISSILE_CONTROL], "blocked": sum(g.blocked),
            "minutes_left": sorted((gn.keeper - space for gn in crew), reverse=True),
            "entry_items": sum(1 for gn in crew for k in gn.hand if k in entry),
            "codes": sum(1 for gn in crew for k in gn.hand if k == ids["deactivation_code"]),
            "attempts": [], "stopped": False}


def trace(task: Task) -> list[dict[str, Any]]:
    """Replay one deal as ``bench_bots.play_one`` plays it; the token's placements."""
    g, bots = deal(task)
    token = g.data.tokens.index("missile_launch")
    out: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    while g.result is None:
        before = g.tokens[token]
        action = bots[g.player_to_move].choose(g)
        if current is not None and action.kind == "stop_missile_launch":
            penalty = 2 if g.water[MISSILE_CONTROL] == 1 else 0
            current["attempts"].append({
                "minutes": action.minutes, "bonus": g.bonus("stop_missile_launch"),
                "unused": g.ghost - penalty - action.minutes - g.tokens[token]})
        g.apply(action)
        if before < 0 <= g.tokens[token]:
            current = {"index": task[2], **placement(g, g.tokens[token])}
            out.append(current)
        elif current is not None and before >= 0 > g.tokens[token]:
            current["stopped"] = True
            current = None
    return out


def summary(rows: list[dict[str, Any]]) -> str:
    """The placements nobody stopped: Missile Control's state, attempts, the best-placed gnome."""
    fatal = [r for r in rows if not r["stopped"]]
    state: Counter[str] = Counter()
    for r in fatal:
        state["burning" if r["fire"] else WATER.get(r["water"], "clear")] += 1
    nth = Counter(sum(1 for o in rows if o["index"] == r["index"] and o["space"] >= r["space"])
                  for r in fatal)
    tried = sum(1 for r in fatal if r["attempts"])
    unused = sum(1 for r in fatal for a in r["attempts"] if a["unused"] > 0)
    attempts = sum(len(r["attempts"]) for r in fatal)
    return (f"{len(rows)} placements in {len({r['index'] for r in rows})} games, "
            f"{len(fatal)} not stopped. Missile Control then: {dict(state.most_common())}. "
            f"The game's n-th placement: {dict(sorted(nth.items()))}. "
            f"Attempted in {tried}; {unused} of {attempts} attempts left minutes unused.")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=Path, help="a bench_bots.py OUT.games.jsonl file")
    ap.add_argument("cell", help="its cell, e.g. search:deep@4 or search@4@hardest")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    bot, players, *variants = args.cell.split("@")
    tasks: list[Task] = []
    for line in args.games.read_text("utf-8").splitlines():
        game = json.loads(line)
        if game["cell"] == args.cell and game["result"]["cause"] == "missile_launch":
            tasks.append((bot, int(players), game["index"], game["seed"], tuple(variants)))
    rows: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        for found in pool.map(trace, tasks):
            for row in found:
                print(json.dumps(row), flush=True)
            rows += found
    print(summary(rows), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
