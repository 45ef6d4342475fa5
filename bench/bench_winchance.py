#!/usr/bin/env python
"""How long the win-chance analysis of a finished game takes (``rednovember analyse``), in CPU
seconds of one core.

For each player count, the heuristic bot plays one whole standard game (seed ``--seed``; every
seat, seeds ``10 * seed + seat``), or ``--save`` gives saved games; then
:func:`rednovember.analysis.turning.analyse` (a spectator's view, ``--rollouts``, seed 0, as the
command runs it) is timed with ``time.process_time`` (so the other work on a shared machine
counts less than on a wall clock). Prints one line per game: players, actions, points, rollouts
played, CPU seconds.

Usage::

    nice -n 10 .venv/bin/python bench/bench_winchance.py --players 4 --seed 1
    nice -n 10 .venv/bin/python bench/bench_winchance.py --players 3,5,8
    nice -n 10 .venv/bin/python bench/bench_winchance.py --save game.json
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rednovember.analysis.turning import ANALYSE_ROLLOUTS, analyse  # noqa: E402
from rednovember.bots import make_bot, play_out  # noqa: E402
from rednovember.rules import Config, Game, load_data, new_game  # noqa: E402
from rednovember.rules.serialize import from_json  # noqa: E402


def played(players: int, seed: int) -> Game:
    g = new_game(Config(players=players, seed=seed))
    return play_out(g, [make_bot("heuristic", 10 * seed + p) for p in range(players)])


def timed(g: Game, rollouts: int) -> str:
    t0 = time.process_time()
    a = analyse(g, None, rollouts=rollouts, seed=0)
    cpu = time.process_time() - t0
    n = sum(p.estimate.rollouts for p in a.points)
    return (f"{g.config.players} players, {len(g.history)} actions, {len(a.points)} points, "
            f"{n} rollouts: {cpu:.1f} CPU s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="4", help="player counts, comma-separated (default 4)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rollouts", type=int, default=ANALYSE_ROLLOUTS)
    ap.add_argument("--save", nargs="+", help="saved games to analyse instead")
    args = ap.parse_args(argv)
    if args.save:
        games = [from_json(Path(f).read_text("utf-8"), load_data(None)) for f in args.save]
    else:
        games = [played(int(p), args.seed) for p in args.players.split(",")]
    for g in games:
        print(timed(g, args.rollouts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
