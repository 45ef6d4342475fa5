#!/usr/bin/env python
"""A learned leaf for the search, fitted to how the heuristic crew's games end (issue 21, stop 56).

The search judges the end of every rollout; the rollouts are the heuristic crew playing on
(:class:`rednovember.bots.rollout.Follower`), so the judge should say how often that crew wins from
there. This script learns it from the crew's own games:

* ``collect``: plays deals with the rollouts' crew in every seat (the standard rules, deals as
  ``bench/distill.py`` starts them) and writes one JSON line per game: at one turn start in three
  (the turn's number and the deal's agree modulo 3) the features of
  :func:`rednovember.bots.value.value_features` and the plain leaf's value, and whether the crew won.
* ``fit``: a logistic regression of the outcome on the features (standardised, a little ridge;
  :func:`fit_leaf.logistic`), fitted on four deals in five and checked on the fifth (deals whose
  number is 0 modulo 5): log loss and Brier score against the plain leaf recalibrated by its own
  one-feature fit. It prints the coefficients as the tuple ``SearchLevel.value`` takes.

Usage::

    .venv/bin/python bench/fit_value.py collect --first 100000 --games 40000 --out value.jsonl
    .venv/bin/python bench/fit_value.py fit value.jsonl
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

import fit_leaf  # noqa: E402
from distill import start  # noqa: E402  (bench/, beside this file)
from fit_leaf import logistic, logit, scores  # noqa: E402

from rednovember.bots.leaf import evaluate  # noqa: E402
from rednovember.bots.planning import DEFAULT_WEIGHTS  # noqa: E402
from rednovember.bots.rollout import Follower  # noqa: E402
from rednovember.bots.value import value_features  # noqa: E402
from rednovember.rules.state import MOVE  # noqa: E402

Rows = tuple[np.ndarray, np.ndarray, np.ndarray]  # features, plain leaf, won


def record(deal: int, players: int = 4) -> dict[str, Any]:
    """Play deal ``deal`` with the rollouts' crew in every seat; the features of its turn starts."""
    g = start(deal, players)
    crew = [Follower(DEFAULT_WEIGHTS) for _ in range(players)]
    features: list[list[float]] = []
    plain: list[float] = []
    seen = len(g.history)  # the deal's first turn start (a fresh deal) is not recorded
    while g.result is None:
        player = g.player_to_move
        if g.phase == MOVE and len(g.history) != seen and len(g.legal_actions()) > 1:
            seen = len(g.history)
            if g.turn % 3 == deal % 3:
                features.append([round(x, 5) for x in value_features(g, player)])
                plain.append(round(evaluate(g, player), 6))
        g.apply(crew[player].act(g))
    return {"deal": deal, "won": bool(g.result.won), "features": features, "plain": plain}


def load(path: Path, test: bool) -> Rows:
    """The rows of the test deals (number 0 modulo 5), or of the others, as arrays."""
    xs, plain, ys = fit_leaf.load(path, test, 5)
    return np.array(xs), np.array(plain), np.array(ys, dtype=float)


def fit_value(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Coefficients (intercept first) of the logistic regression of ``y`` on ``x``, fitted on the
    standardised features (so the ridge weighs them alike) and given back on the raw ones."""
    mu, sd = x.mean(0), x.std(0) + 1e-9
    beta = logistic((x - mu) / sd, y)
    return np.concatenate([[beta[0] - float(np.sum(beta[1:] * mu / sd))], beta[1:] / sd])


def fit(path: Path) -> None:
    x, p, y = load(path, False)
    tx, tp, ty = load(path, True)
    coef = fit_value(x, y)
    plain = logistic(logit(p), y, ridge=0.0)
    print(f"train: {len(y)} turn starts, test: {len(ty)} (deals whose number is 0 modulo 5); "
          f"won: {y.mean():.3f} of the training rows")
    for name, b, x_train, x_test in (("plain leaf, recalibrated", plain, logit(p), logit(tp)),
                                     ("learned leaf", coef, x, tx)):
        tr, te = scores(b, x_train, y), scores(b, x_test, ty)
        print(f"{name}: log loss {tr[0]:.4f} / {te[0]:.4f}, Brier {tr[1]:.4f} / {te[1]:.4f} "
              "(train / test)")
    print("value=(" + ", ".join(f"{c:.6g}" for c in coef) + ")")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--first", type=int, default=100000)
    c.add_argument("--games", type=int, default=40000)
    c.add_argument("--players", type=int, default=4)
    c.add_argument("--jobs", type=int, default=1)
    c.add_argument("--out", type=Path, required=True)
    sub.add_parser("fit").add_argument("rows", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "fit":
        fit(args.rows)
        return 0
    deals = range(args.first, args.first + args.games)
    with ProcessPoolExecutor(max(1, args.jobs)) as pool, args.out.open("w") as out:
        for row in pool.map(record, deals, [args.players] * len(deals), chunksize=20):
            out.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
