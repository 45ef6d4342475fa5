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
* with ``--fit``: the correction fitted on these positions — Platt scaling
  ``sigmoid(A + B * logit(raw))`` (``--method platt``, the default) or isotonic regression of the
  outcomes on the raw rollout fraction in ten bins (``--method isotonic``), given as
  ``winchance.CORRECTION``'s knots, and the Brier score of the other for comparison; put the knots into
  ``winchance.CORRECTION`` and check them on other seeds (``--seed``, or ``--from`` other
  positions with ``--correction FIT.json``): never judge a correction on its own positions;
* with ``--adaptive K``: on the same positions also the adaptive estimate of ``analyse`` (at most
  ``K`` rollouts, stopped once as precise as ``K`` rollouts at an even chance; the same rollout
  seeds), its Brier score and its mean number of rollouts beside the fixed count's: does stopping
  early cost calibration?
* with ``--compare BOT``: on the first ``--compare-positions`` positions also rollouts played by
  ``BOT`` (e.g. ``search:fast``), their time per rollout and Brier score beside the heuristic's on
  the same positions: what search rollouts would cost and buy.

Usage::

    nice .venv/bin/python bench/calibrate.py --games 120 --seed 1 --fit --out bench/results/fit.json
    nice .venv/bin/python bench/calibrate.py --games 150 --seed 2 --out bench/results/calibrate.json
    nice .venv/bin/python bench/calibrate.py --from bench/results/calibrate.json   # table again
    nice .venv/bin/python bench/calibrate.py --games 6 --positions 2 --compare search:fast
    nice .venv/bin/python bench/calibrate.py --games 40 --seed 5 --rollouts 100 --adaptive 64

Figures are from one machine; ``ms`` per rollout are CPU time of the worker process (so the other
work on a shared machine does not inflate them).
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
    win_chance,
)
from rednovember.bots import make_bot  # noqa: E402
from rednovember.rules import Config, Game, load_data, new_game  # noqa: E402
from rednovember.rules.config import VARIANTS  # noqa: E402
from rednovember.rules.state import MOVE  # noqa: E402

BINS = 10


Task = tuple[int, int, str, int, int, int, str | None, int, tuple[str, ...], int]


def play_game(task: Task) -> list[dict[str, Any]]:
    """One game and its sampled positions with their predictions (runs in a worker)."""
    seed, i, bot, players, positions, rollouts, compare, compare_rollouts, variants, adaptive = task
    data = load_data(None)
    g = new_game(Config(players=players, seed=derive_seed(seed, i, "game"),
                        variants=frozenset(variants)), data)
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
        t0 = time.process_time()
        est = win_chance(pos, seat, rollouts=rollouts, seed=derive_seed(seed, i, "predict", k))
        ms = (time.process_time() - t0) * 1000 / max(1, est.rollouts)
        row: dict[str, Any] = {
            "game": i, "players": players, "variants": list(variants), "turn": pos.turn,
            "minute": start - pos.gnomes[pos.active].keeper, "seat": seat,
            "wins": est.wins, "n": est.rollouts, "ms": round(ms, 2), "outcome": int(won)}
        if adaptive:
            t0 = time.process_time()
            ad = win_chance(pos, seat, rollouts=adaptive, seed=derive_seed(seed, i, "predict", k),
                            adaptive=True)
            row["adaptive"] = {"max": adaptive, "wins": ad.wins, "n": ad.rollouts,
                               "ms": round((time.process_time() - t0) * 1000, 1)}
        if compare and len(rows) < 1_000_000:
            t0 = time.process_time()
            other = win_chance(pos, seat, rollouts=compare_rollouts, policy=compare,
                               seed=derive_seed(seed, i, "predict", k))
            row["compare"] = {"bot": compare, "wins": other.wins, "n": other.rollouts,
                              "ms": round((time.process_time() - t0) * 1000 / other.rollouts, 1)}
        rows.append(row)
    return rows


Knots = tuple[tuple[float, float], ...]


def fit(rows: list[dict[str, Any]], bins: int = BINS) -> Knots:
    """Isotonic regression of the outcome on the raw fraction: the positions in ``bins`` bins of
    the raw fraction, each bin's (mean raw, observed frequency), pooled (pool-adjacent-violators,
    weighted by count) until the frequencies never go down; flat beyond the end bins."""
    cells: list[list[float]] = []  # [sum raw, wins, count]
    for b in range(bins):
        cell = [r for r in rows if min(bins - 1, int(r["wins"] / r["n"] * bins)) == b]
        if cell:
            cells.append([sum(r["wins"] / r["n"] for r in cell), sum(r["outcome"] for r in cell),
                          len(cell)])
    pooled: list[list[float]] = []
    for c in cells:
        pooled.append(c)
        while len(pooled) > 1 and (pooled[-2][1] / pooled[-2][2] > pooled[-1][1] / pooled[-1][2]):
            last = pooled.pop()
            pooled[-1] = [a + b for a, b in zip(pooled[-1], last, strict=True)]
    return tuple((round(x / n, 4), round(w / n, 4)) for x, w, n in pooled)


def _logit(p: float) -> float:
    p = min(1 - 1e-4, max(1e-4, p))
    return math.log(p / (1 - p))


def platt(r: dict[str, Any], ab: tuple[float, float]) -> float:
    """Platt scaling of the smoothed raw fraction: the alternative to the isotonic correction."""
    x = _logit((r["wins"] + 0.5) / (r["n"] + 1))
    return 1 / (1 + math.exp(-(ab[0] + ab[1] * x)))


def fit_platt(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """Maximum-likelihood logistic regression of the outcome on logit(smoothed raw)."""
    xs = [(_logit((r["wins"] + 0.5) / (r["n"] + 1)), r["outcome"]) for r in rows]
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


def platt_knots(ab: tuple[float, float], n: int = 64, points: int = 21) -> Knots:
    """Platt scaling as ``winchance.CORRECTION`` knots: the map at ``points`` raw fractions (the
    raw fraction smoothed as for ``n`` rollouts, the count it was fitted with)."""
    out = []
    for k in range(points):
        p = k / (points - 1)
        out.append((round(p, 4), round(platt({"wins": p * n, "n": n}, ab), 4)))
    return tuple(out)


def predicted(r: dict[str, Any], correction: Knots) -> float:
    return correct(r["wins"] / r["n"], correction)


def brier(pairs: list[tuple[float, int]]) -> float:
    return sum((p - y) ** 2 for p, y in pairs) / len(pairs) if pairs else float("nan")


def table(rows: list[dict[str, Any]], correction: Knots,
          ab: tuple[float, float] | None = None) -> list[str]:
    """The reliability table and the Brier scores, as Markdown lines."""
    pairs = [(predicted(r, correction), r["outcome"]) for r in rows]
    raw = [(r["wins"] / r["n"], r["outcome"]) for r in rows]
    rate = sum(y for _, y in pairs) / len(pairs)
    out = [f"positions: {len(rows)} from {len({(r['players'], r['game']) for r in rows})} games; "
           f"observed win frequency {rate:.3f}; correction knots {list(correction)}", "",
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
            *([f"Brier score, Platt scaling A={ab[0]:.3f} B={ab[1]:.3f}: "
               f"{brier([(platt(r, ab), r['outcome']) for r in rows]):.4f}"] if ab else []),
            f"Brier score, base rate ({rate:.3f} always): {rate * (1 - rate):.4f}"]
    ms = [r["ms"] for r in rows]
    out.append(f"heuristic rollout: mean {sum(ms) / len(ms):.1f} ms (one core)")
    out += adaptive_lines(rows, correction)
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


def adaptive_lines(rows: list[dict[str, Any]], correction: Knots) -> list[str]:
    """The adaptive estimate against the fixed count on the same positions (``--adaptive``)."""
    ad = [r for r in rows if "adaptive" in r]
    if not ad:
        return []
    fixed = [(predicted(r, correction), r["outcome"]) for r in ad]
    mine = [(predicted(r["adaptive"], correction), r["outcome"]) for r in ad]
    n_fixed = sum(r["n"] for r in ad) / len(ad)
    n_ad = sum(r["adaptive"]["n"] for r in ad) / len(ad)
    ms_fixed = sum(r["ms"] * r["n"] for r in ad) / len(ad)
    ms_ad = sum(r["adaptive"]["ms"] for r in ad) / len(ad)
    return ["", f"adaptive (at most {ad[0]['adaptive']['max']}) against fixed ({ad[0]['n']}) on "
            f"the same {len(ad)} positions: Brier {brier(mine):.4f} against {brier(fixed):.4f}; "
            f"{n_ad:.1f} rollouts per position against {n_fixed:.0f}; CPU {ms_ad:.0f} ms per "
            f"position against {ms_fixed:.0f}", "", "The adaptive estimate's table:", "",
            *table([{k: v for k, v in r.items() if k != "adaptive"}
                    | {"wins": r["adaptive"]["wins"], "n": r["adaptive"]["n"],
                       "ms": r["adaptive"]["ms"] / max(1, r["adaptive"]["n"])} for r in ad],
                   correction)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", default="4", help="player counts, comma-separated (default 4)")
    ap.add_argument("--variant", action="append", default=[], choices=VARIANTS,
                    help="a variant to play (repeatable; none: the standard rules)")
    ap.add_argument("--positions", type=int, default=4, help="positions drawn per game")
    ap.add_argument("--rollouts", type=int, default=64, help="heuristic rollouts per prediction")
    ap.add_argument("--bot", default="search", help="the bot playing the actual games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=max(1, (multiprocessing.cpu_count() or 1)))
    ap.add_argument("--fit", action="store_true", help="fit the correction on these positions")
    ap.add_argument("--method", choices=("platt", "isotonic"), default="platt",
                    help="the correction --fit gives as knots (default platt: it did better on "
                         "positions it was not fitted on)")
    ap.add_argument("--correction", help="a JSON file's fitted correction instead of "
                                         "winchance.CORRECTION (also its Platt A,B)")
    ap.add_argument("--adaptive", type=int, default=0, metavar="K",
                    help="also predict adaptively with at most K rollouts (as analyse does)")
    ap.add_argument("--compare", metavar="BOT", help="also predict with BOT's rollouts")
    ap.add_argument("--compare-rollouts", type=int, default=8)
    ap.add_argument("--out", help="write the positions and figures as JSON")
    ap.add_argument("--from", dest="from_files", nargs="+", help="read positions from JSON")
    args = ap.parse_args(argv)
    correction: Knots = CORRECTION
    ab: tuple[float, float] | None = None
    if args.correction:
        doc = json.loads(Path(args.correction).read_text())
        correction = tuple((float(x), float(y)) for x, y in doc["correction"])
        ab = (float(doc["platt"][0]), float(doc["platt"][1])) if doc.get("platt") else None
    rows: list[dict[str, Any]] = []
    if args.from_files:
        for f in args.from_files:
            rows += json.loads(Path(f).read_text())["positions"]
    else:
        tasks: list[Task] = [(args.seed, i, args.bot, int(p), args.positions, args.rollouts,
                              args.compare, args.compare_rollouts, tuple(args.variant),
                              args.adaptive)
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
        ab = fit_platt(rows)
        iso = fit(rows)
        correction = platt_knots(ab, args.rollouts) if args.method == "platt" else iso
        print(f"fitted correction ({args.method}): CORRECTION = {correction} (judge it on other "
              f"seeds); Platt A,B = {ab[0]:.4f}, {ab[1]:.4f}; isotonic knots {iso}")
    lines = table(rows, correction, ab)
    print("\n".join(lines))
    if args.out:
        write(args, correction, lines, rows, ab)
    return 0


def write(args: argparse.Namespace, correction: Knots, lines: list[str],
          rows: list[dict[str, Any]], ab: tuple[float, float] | None = None) -> None:
    Path(args.out).write_text(json.dumps(
        {"args": {k: v for k, v in vars(args).items() if k != "from_files"},
         "policy": HEURISTIC, "correction": correction, "platt": ab, "report": lines,
         "positions": rows}, indent=0))


if __name__ == "__main__":
    sys.exit(main())
