#!/usr/bin/env python
"""Benchmark of starting a terminal game: ``./scripts/play.sh`` when nothing changed since the
last install (issue 11: it reinstalled on every launch, 7 s). Each run starts the line mode with an
empty standard input, so the program sets up the game, draws the first screen, finds the input
ended, saves and exits: the time until a player could type.

It reports the median and the slowest of the runs for play.sh, and for the same command without
the script (``.venv/bin/rednovember play --plain``), whose difference is the script's own cost
(the install check: a hash of three files). Usage::

    .venv/bin/python bench/bench_play_start.py            # 7 runs each
    .venv/bin/python bench/bench_play_start.py --runs 15
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = ["--plain", "--players", "3", "--seed", "1"]


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7, help="runs per command (default 7)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, REDNOVEMBER_AUTOSAVE=str(Path(tmp) / "autosave.json"))
        commands = {"play.sh": [str(ROOT / "scripts" / "play.sh"), *GAME],
                    "rednovember": [str(ROOT / ".venv" / "bin" / "rednovember"), "play", *GAME]}
        timed(commands["play.sh"], env)  # the first run may install: not measured
        out: dict[str, dict[str, float]] = {}
        for name, command in commands.items():
            times = [timed(command, env) for _ in range(args.runs)]
            out[name] = {"median_s": round(statistics.median(times), 3),
                         "max_s": round(max(times), 3)}
            print(f"{name:<12} median {out[name]['median_s']:.3f} s   slowest "
                  f"{out[name]['max_s']:.3f} s   ({args.runs} runs)")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
