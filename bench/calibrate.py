#!/usr/bin/env python
"""Is the win-chance estimate calibrated? Predicted chances against how the games really ended.

For each game ``i`` (seed ``derive_seed(S, i, "game")``) the bots (``--bot``, default ``search``,
the strongest bot) play a whole game. ``--positions`` turn starts of it are drawn at random
(reproducibly); at each, :func:`rednovember.analysis.winchance.win_chance` predicts the crew's
chance from the view of the seat to move, with ``--rollouts`` heuristic rollouts; the *actual*
outcome is how that very game went on and ended. The report:

* a reliability table: predictions in ten bins, per bin the positions, the mean prediction and the
  observed win frequency (with its 95% Wilson interval);
* the Brier score of the corrected prediction, of the raw rollout fraction, and of the base rate
  (always predicting the overall win frequency: the score to beat);
* with ``--fit``: the logistic correction ``sigmoid(A + B * logit(raw))`` fitted on these
  positions (maximum likelihood, Newton's method), to be put into ``winchance.CORRECTION`` and
  then checked on other seeds (``--seed``) — never judge it on the positions it was fitted on;
* with ``--compare BOT``: on the first ``--compare-positions`` positions also rollouts played by
  ``BOT`` (e.g. ``search:fast``), their time per rollout and Brier score beside the heuristic's on
  the same positions: what search rollouts would cost and buy.

Usage::

    nice .venv/bin/python bench/calibrate.py --games 120 --seed 1 --fit --out bench/results/fit.json
    nice .venv/bin/python bench/calibrate.py --games 150 --seed 2 --out bench/results/calibrate.json
    nice .venv/bin/python bench/calibrate.py --from bench/results/calibrate.json   # table again
    nice .venv/bin/python bench/calibrate.py --games 6 --positions 2 --compare search:fast

Figures are from one machine; ``ms`` per rollout are on one core of a shared machine.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rednovember.analysis.simulate import derive_seed  # noqa: E402
from rednovember.analysis.stats import wilson  # noqa: E402
from rednovember.analysis.winchance import (  # noqa: E402
    CORRECTION,
    HEURISTIC,
    correct,
    smoothed,
    win_chance,
)
from rednovember.bots import make_bot  # noqa: E402
from rednovember.rules import Config, Game, load_data, new_game  # noqa: E402
from rednovember.rules.state import MOVE  # noqa: E402

BINS = 10


def play_game(task: tuple[int, int, str, int, int, int, str | None, int]) -> list[dict[str, Any]]:
    """One game and its sampled positions with their predictions (runs in a worker)."""
    seed, i, bot, players, positions, rollouts, compare, compare_rollouts = task
    data = load_data(None)
    g = new_game(Config(players=players, seed=derive_seed(seed, i, "game")), data)
    bots = [make_bot(bot, derive_seed(seed, i, "seat", p)) for p in range(players)]
    starts: list[Game] = []
    turn = -1
    while g.result is None:
        if g.turn != turn and g.phase == MOVE:
            turn = g.turn
            starts.append(g.copy(keep_log=False))
        g.apply(bots[g.player_to_move].choose(g))
    assert g.result is not None
    won = g.result.won
    start = data.start_spaces[g.config.gnomes]
    picks = sorted({derive_seed(seed, i, "pick", k) % len(starts) for k in range(positions)})
    rows: list[dict[str, Any]] = []
    for k in picks:
        pos = starts[k]
        seat = pos.player_to_move
        t0 = time.perf_counter()
        est = win_chance(pos, seat, rollouts=rollouts, seed=derive_seed(seed, i, "predict", k))
        ms = (time.perf_counter() - t0) * 1000 / max(1, est.rollouts)
        row: dict[str, Any] = {
            "game": i, "players": players, "turn": pos.turn,
            "minute": start - pos.gnomes[pos.active].keeper, "seat": seat,
            "wins": est.wins, "n": est.rollouts, "ms": round(ms, 2), "outcome": int(won)}
        if compare and len(rows) < 1_000_000:
            t0 = time.perf_counter()
            other = win_chance(pos, seat, rollouts=compare_rollouts, policy=compare,
                               seed=derive_seed(seed, i, "predict", k))
            row["compare"] = {"bot": compare, "wins": other.wins, "n": other.rollouts,
                              "ms": round((time.perf_counter() - t0) * 1000 / other.rollouts, 1)}
        rows.append(row)
    return rows


def fit(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """Maximum-likelihood logistic regression of the outcome on logit(smoothed raw)."""
    xs = []
    for r in rows:
        p = smoothed(r["wins"], r["n"])
        xs.append((math.log(p / (1 - p)), r["outcome"]))
    a, b = 0.0, 1.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in xs:
            p = 1 / (1 + math.exp(-(a + b * x)))
            w = p * (1 - p)
            ga += y - p
            gb += (y - p) * x
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-10:
            break
    return a, b


def predicted(r: dict[str, Any], correction: tuple[float, float]) -> float:
    return correct(smoothed(r["wins"], r["n"]), correction)


def brier(pairs: list[tuple[float, int]]) -> float:
    return sum((p - y) ** 2 for p, y in pairs) / len(pairs) if pairs else float("nan")


def table(rows: list[dict[str, Any]], correction: tuple[float, float]) -> list[str]:
    """The reliability table and the Brier scores, as Markdown lines."""
    pairs = [(predicted(r, correction), r["outcome"]) for r in rows]
    raw = [(r["wins"] / r["n"], r["outcome"]) for r in rows]
    rate = sum(y for _, y in pairs) / len(pairs)
    out = [f"positions: {len(rows)} from {len({(r['players'], r['game']) for r in rows})} games; "
           f"observed win frequency {rate:.3f}; correction A={correction[0]:.4f} "
           f"B={correction[1]:.4f}", "",
           "| predicted | positions | mean predicted | observed | 95% interval |",
           "|---|---:|---:|---:|---|"]
    for b in range(BINS):
        lo, hi = b / BINS, (b + 1) / BINS
        cell = [(p, y) for p, y in pairs if lo <= p < hi or (b == BINS - 1 and p == 1.0)]
        if not cell:
            out.append(f"| {lo:.1f}-{hi:.1f} | 0 | | | |")
            continue
        wins = sum(y for _, y in cell)
        w_lo, w_hi = wilson(wins, len(cell))
        out.append(f"| {lo:.1f}-{hi:.1f} | {len(cell)} | {sum(p for p, _ in cell) / len(cell):.3f}"
                   f" | {wins / len(cell):.3f} | {w_lo:.2f}-{w_hi:.2f} |")
    out += ["", f"Brier score, corrected: {brier(pairs):.4f}",
            f"Brier score, raw heuristic rollouts: {brier(raw):.4f}",
            f"Brier score, base rate ({rate:.3f} always): {rate * (1 - rate):.4f}"]
    ms = [r["ms"] for r in rows]
    out.append(f"heuristic rollout: mean {sum(ms) / len(ms):.1f} ms (one core)")
    comp = [r for r in rows if "compare" in r]
    if comp:
        bot = comp[0]["compare"]["bot"]
        c_pairs = [(r["compare"]["wins"] / r["compare"]["n"], r["outcome"]) for r in comp]
        h_pairs = [(predicted(r, correction), r["outcome"]) for r in comp]
        c_ms = sum(r["compare"]["ms"] for r in comp) / len(comp)
        h_ms = sum(r["ms"] for r in comp) / len(comp)
        out += ["", f"compare on the same {len(comp)} positions: {bot} rollouts "
                f"({comp[0]['compare']['n']} each) {c_ms:.0f} ms per rollout, Brier "
                f"{brier(c_pairs):.4f}; heuristic ({comp[0]['n']} each, corrected) {h_ms:.1f} ms "
                f"per rollout, Brier {brier(h_pairs):.4f}; cost ratio {c_ms / h_ms:.0f}x"]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", default="4", help="player counts, comma-separated (default 4)")
    ap.add_argument("--positions", type=int, default=4, help="positions drawn per game")
    ap.add_argument("--rollouts", type=int, default=64, help="heuristic rollouts per prediction")
    ap.add_argument("--bot", default="search", help="the bot playing the actual games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=max(1, (multiprocessing.cpu_count() or 1)))
    ap.add_argument("--fit", action="store_true", help="fit the correction on these positions")
    ap.add_argument("--correction", help="A,B instead of winchance.CORRECTION")
    ap.add_argument("--compare", metavar="BOT", help="also predict with BOT's rollouts")
    ap.add_argument("--compare-rollouts", type=int, default=8)
    ap.add_argument("--out", help="write the positions and figures as JSON")
    ap.add_argument("--from", dest="from_files", nargs="+", help="read positions from JSON")
    args = ap.parse_args(argv)
    correction = CORRECTION
    if args.correction:
        a, b = (float(v) for v in args.correction.split(","))
        correction = (a, b)
    rows: list[dict[str, Any]] = []
    if args.from_files:
        for f in args.from_files:
            rows += json.loads(Path(f).read_text())["positions"]
    else:
        tasks = [(args.seed, i, args.bot, int(p), args.positions, args.rollouts, args.compare,
                  args.compare_rollouts)
                 for p in args.players.split(",") for i in range(args.games)]
        t0 = time.perf_counter()
        with multiprocessing.Pool(args.jobs) as pool:
            for k, part in enumerate(pool.imap(play_game, tasks)):
                rows += part
                print(f"\r{k + 1}/{len(tasks)} games, {time.perf_counter() - t0:.0f} s",
                      end="", file=sys.stderr, flush=True)
                if args.out:  # as it goes: a long run stopped early keeps its positions
                    write(args, correction, [], rows)
        print(file=sys.stderr)
    if args.fit:
        correction = fit(rows)
        print(f"fitted correction: CORRECTION = ({correction[0]:.4f}, {correction[1]:.4f})"
              " (judge it on other seeds)")
    lines = table(rows, correction)
    print("\n".join(lines))
    if args.out:
        write(args, correction, lines, rows)
    return 0


def write(args: argparse.Namespace, correction: tuple[float, float], lines: list[str],
          rows: list[dict[str, Any]]) -> None:
    Path(args.out).write_text(json.dumps(
        {"args": {k: v for k, v in vars(args).items() if k != "from_files"},
         "policy": HEURISTIC, "correction": correction, "report": lines,
         "positions": rows}, indent=0))


if __name__ == "__main__":
    sys.exit(main())
