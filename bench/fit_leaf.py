#!/usr/bin/env python
"""A leaf for the search fitted to the search's own outcomes (issue 21, stop 36).

The search scores the end of every rollout with :func:`rednovember.bots.leaf.evaluate`, a
hand-made product of factors (the tracks against the coming events, the tokens against the
gnomes' time, fires, water, the dead, the items). This script asks how much each kind of factor
should count, judged by how games the search itself plays really end:

* ``collect``: plays search games (the default in every seat, seeded as ``bench/distill.py``
  seeds them) and writes one JSON line per game: at every turn start with a choice, the summed
  log of each term's factors (:func:`rednovember.bots.leaf.leaf_features`) and the plain
  leaf's value, and whether the crew won.
* ``fit``: a logistic regression of the outcome on those features (Newton's method, a little
  ridge, no coefficient below 0), fitted on two deals in three and checked on the third: log
  loss and Brier score of the fitted leaf against the plain one (recalibrated by its own
  one-feature logistic fit, so that the comparison is of what each ranks, not of scale). It
  prints the coefficients as the tuple ``SearchLevel.leaf`` takes.

Usage::

    .venv/bin/python bench/fit_leaf.py collect --first 5000 --games 300 --out leaf.jsonl --jobs 2
    .venv/bin/python bench/fit_leaf.py fit bench/results/leaf_fit.jsonl  # the stored rows (stop 36)
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from distill import collect_parser, seat_seed, start  # noqa: E402  (bench/, beside this file)

from rednovember.bots.leaf import LEAF_TERMS, evaluate, leaf_factors, leaf_features  # noqa: E402
from rednovember.bots.search import SearchBot  # noqa: E402
from rednovember.rules.state import MOVE  # noqa: E402

Rows = tuple[list[list[float]], list[float], list[int]]  # features, plain leaf, won


def record(deal: int, players: int = 4, level: str = "default") -> dict[str, Any]:
    """Play one deal with the search in every seat; the features of its turn starts."""
    g = start(deal, players)
    bots = [SearchBot(seat_seed(deal, p), level) for p in range(players)]
    features: list[list[float]] = []
    plain: list[float] = []
    while g.result is None:
        player = g.player_to_move
        if g.phase == MOVE and len(g.legal_actions()) > 1:
            features.append([round(x, 6) for x in leaf_features(leaf_factors(g, player))])
            plain.append(round(evaluate(g, player), 6))
        g.apply(bots[player].choose(g))
    return {"deal": deal, "won": bool(g.result.won), "features": features, "plain": plain}


def load(path: Path, test: bool, every: int = 3) -> Rows:
    """The rows of the test deals (number 0 modulo ``every``), or of the others."""
    xs: list[list[float]] = []
    plain: list[float] = []
    ys: list[int] = []
    for line in path.read_text("utf-8").splitlines():
        r = json.loads(line)
        if (r["deal"] % every == 0) != test:
            continue
        xs += r["features"]
        plain += r["plain"]
        ys += [int(r["won"])] * len(r["features"])
    return xs, plain, ys


def logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1.0,
             offset: np.ndarray | None = None) -> np.ndarray:
    """Coefficients (intercept first) of a logistic regression by Newton's method (each step
    halved until the penalised loss falls), with ``offset`` (a fixed part of every row's
    log-odds) added in if given."""
    a = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(a.shape[1])
    pen = ridge * np.eye(a.shape[1])
    pen[0, 0] = 0.0
    base = np.zeros(len(y)) if offset is None else offset

    def loss(b: np.ndarray) -> float:
        z = base + a @ b
        return float(np.sum(np.logaddexp(0, z) - y * z) + 0.5 * b @ pen @ b)

    for _ in range(100):
        p = 1 / (1 + np.exp(-np.clip(base + a @ beta, -30, 30)))
        grad = a.T @ (p - y) + pen @ beta
        hess = a.T @ (a * (p * (1 - p))[:, None]) + pen
        step = np.linalg.solve(hess, grad)
        before = loss(beta)
        while loss(beta - step) > before and float(np.abs(step).max()) > 1e-12:
            step = step / 2
        beta -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return beta


def nonnegative(x: np.ndarray, y: np.ndarray, floor: np.ndarray | None = None) -> np.ndarray:
    """:func:`logistic` with no term's coefficient below its ``floor`` (0 unless given: every
    term is a factor the plain leaf multiplies in, so a worse factor may lower the estimate,
    never raise it): each coefficient is its floor plus a part fitted with the floors' share of
    the log-odds as an offset; terms whose part comes out negative are held at their floor and
    the rest fitted again."""
    low = np.zeros(x.shape[1]) if floor is None else floor
    offset = x @ low
    free = list(range(x.shape[1]))
    while True:
        beta = logistic(x[:, free], y, offset=offset)
        out = np.concatenate([[beta[0]], low])
        out[[f + 1 for f in free]] += beta[1:]
        negative = [f for f, c in zip(free, beta[1:], strict=True) if c < 0]
        if not negative:
            return out
        free = [f for f in free if f not in negative]


def scores(beta: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Log loss and Brier score of ``beta`` on ``x``."""
    p = 1 / (1 + np.exp(-np.clip(beta[0] + x @ beta[1:], -30, 30)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return (float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))),
            float(np.mean((p - y) ** 2)))


def logit(p: np.ndarray | list[float]) -> np.ndarray:
    """The log-odds of ``p`` as a one-column matrix (clipped away from 0 and 1)."""
    q = np.clip(np.asarray(p, dtype=float), 1e-6, 1 - 1e-6)
    return np.log(q / (1 - q))[:, None]


def floors(given: tuple[str, ...]) -> np.ndarray:
    """The lowest coefficient of each term, from ``TERM=VALUE`` strings (0 for the rest)."""
    out = np.zeros(len(LEAF_TERMS))
    for item in given:
        term, _, value = item.partition("=")
        if term not in LEAF_TERMS:
            raise SystemExit(f"fit_leaf: no term {term!r} (the terms: {', '.join(LEAF_TERMS)})")
        out[LEAF_TERMS.index(term)] = float(value)
    return out


def fit(path: Path, floor: tuple[str, ...] = ()) -> None:
    train_x, train_plain, train_y = load(path, False)
    test_x, test_plain, test_y = load(path, True)
    xs, ys = np.array(train_x), np.array(train_y, dtype=float)
    tx, ty = np.array(test_x), np.array(test_y, dtype=float)
    beta = nonnegative(xs, ys, floors(floor))
    plain = logistic(logit(train_plain), ys, ridge=0.0)
    print(f"train: {len(ys)} turn starts, test: {len(ty)} (deals whose number is 0 modulo 3)")
    for name, b, x_train, x_test in (("plain leaf, recalibrated", plain, logit(train_plain),
                                      logit(test_plain)), ("fitted leaf", beta, xs, tx)):
        tr, te = scores(b, x_train, ys), scores(b, x_test, ty)
        print(f"{name}: log loss {tr[0]:.4f} / {te[0]:.4f}, Brier {tr[1]:.4f} / {te[1]:.4f} "
              "(train / test)")
    for term, c in zip(("intercept", *LEAF_TERMS), beta, strict=True):
        print(f"  {term:>14} {c:+.3f}")
    print("leaf=(" + ", ".join(f"{c:.3f}" for c in beta) + ")")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    collect_parser(sub, 5000, 300)
    fitting = sub.add_parser("fit")
    fitting.add_argument("rows", type=Path)
    fitting.add_argument("--floor", action="append", default=[], metavar="TERM=VALUE",
                         help="hold a term's coefficient at VALUE or above (repeatable)")
    args = ap.parse_args(argv)
    if args.cmd == "fit":
        fit(args.rows, tuple(args.floor))
        return 0
    deals = range(args.first, args.first + args.games)
    with ProcessPoolExecutor(max(1, args.jobs)) as pool, args.out.open("w") as f:
        for row in pool.map(record, deals, [args.players] * len(deals),
                            [args.level] * len(deals)):
            f.write(json.dumps(row) + "\n")
            f.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
