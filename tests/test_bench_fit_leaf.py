"""bench/fit_leaf.py's fit: a logistic regression with each coefficient held at a floor."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import bench_script

fit_leaf = bench_script("fit_leaf")


def synthetic(rows: int = 4000, seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """Outcomes drawn from a known logistic model of three non-positive features (log-factors):
    intercept 1.0, coefficients 2.0, 0.3 and 0.0."""
    rng = np.random.default_rng(seed)
    x = -rng.exponential(0.6, size=(rows, 3))
    z = 1.0 + x @ np.array([2.0, 0.3, 0.0])
    y = (rng.random(rows) < 1 / (1 + np.exp(-z))).astype(float)
    return x, y


def test_the_fit_recovers_a_known_model() -> None:
    x, y = synthetic()
    beta = fit_leaf.nonnegative(x, y)
    assert beta == pytest.approx([1.0, 2.0, 0.3, 0.0], abs=0.2)
    assert min(beta[1:]) >= 0.0


def test_a_floor_holds_a_coefficient_up_and_the_others_make_up_for_it() -> None:
    x, y = synthetic()
    free = fit_leaf.nonnegative(x, y)
    floor = np.array([0.0, 1.0, 0.0])
    held = fit_leaf.nonnegative(x, y, floor)
    assert held[2] == pytest.approx(1.0, abs=1e-9)  # the model's 0.3 is below the floor: held at it
    assert held[1] >= 0.0 and held[3] >= 0.0
    assert held[2] > free[2] + 0.5
    # a floor below the fitted value changes next to nothing (the little ridge pulls each
    # coefficient towards its floor, not towards 0)
    assert fit_leaf.nonnegative(x, y, np.array([1.0, 0.0, 0.0])) == pytest.approx(free, abs=0.02)


def test_a_floor_on_a_term_with_extreme_logs_still_converges() -> None:
    # a factor of 0 (log 1e-9, about -20.7) in games that were won anyway: the floored offset
    # puts those rows' log-odds far below zero, where plain Newton steps overshoot (to an
    # intercept of about 1e12 here without the halving)
    x, y = synthetic()
    x[:1600, 1] = np.log(1e-9)
    y[:1600] = 1.0
    beta = fit_leaf.nonnegative(x, y, np.array([0.0, 1.0, 0.0]))
    assert np.all(np.isfinite(beta)) and abs(beta[0]) < 100
    assert beta[2] >= 1.0


def test_floors_are_read_by_term_name() -> None:
    got = fit_leaf.floors(("token_on=1", "track_soon=0.5"))
    terms = list(fit_leaf.LEAF_TERMS)
    assert got[terms.index("token_on")] == 1.0 and got[terms.index("track_soon")] == 0.5
    assert got.sum() == 1.5
    with pytest.raises(SystemExit, match="no term 'tokens'"):
        fit_leaf.floors(("tokens=1",))
