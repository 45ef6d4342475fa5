"""bench/distill.py records the search's searched turns as the search saw and scored them."""

from __future__ import annotations

import json

from helpers import bench_script

from rednovember.bots.heuristic import best_plans
from rednovember.bots.planning import DEFAULT_WEIGHTS


def test_the_recorded_means_choose_what_the_search_chose() -> None:
    distill = bench_script("distill")
    rows = distill.record(7, players=3, level="fast")  # search:fast: no prior, six twins each
    assert len(rows) >= 5
    turns = distill.load(json.dumps(r) for r in rows)
    for row, turn in zip(rows, turns, strict=True):
        assert set(turn.counts) == {6}
        best = turn.candidates[turn.best()]
        assert list(best[0]) == row["taken"]  # the search took the first step of the best mean
        plans = best_plans(turn.view, turn.player, DEFAULT_WEIGHTS, limit=3)
        assert [p.steps for p in plans if p.steps in turn.candidates] == turn.candidates
        assert distill.regret(turn, next(p for p in plans if p.steps == best)) == 0.0
    total, same = distill.score(turns, DEFAULT_WEIGHTS)
    assert total >= 0.0
    assert same == sum(t.candidates[0] == t.candidates[t.best()] for t in turns)
