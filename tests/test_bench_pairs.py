"""bench/bench_bots.py's paired comparison (deals won by one bot only, the sign test)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_bots", ROOT / "bench" / "bench_bots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows(cell: str, wins: list[bool], seed: int = 0) -> dict[tuple[str, int, int], Any]:
    return {(cell, seed, i): {"won": w} for i, w in enumerate(wins)}


def test_paired_counts_the_deals_won_by_one_only() -> None:
    bench = _bench()
    rows = {**_rows("search@4", [True, True, True, False, False]),
            **_rows("search:v1@4", [False, True, False, True]),  # deal 4 not played by v1
            **_rows("search@4@mad-gnomes", [False, False])}
    r = bench.paired(rows, "search", "search:v1", 4, (), 0)
    assert (r["deals"], r["wins_a"], r["wins_b"], r["only_a"], r["only_b"]) == (4, 3, 2, 2, 1)
    assert r["p_sign"] == 1.0  # 2 against 1: two-sided exact sign test
    strong = {**_rows("search@4", [True] * 10), **_rows("search:v1@4", [False] * 10)}
    assert bench.paired(strong, "search", "search:v1", 4, (), 0)["p_sign"] == 2 / 2 ** 10
    table = bench.pair_table(rows, ["search", "search:v1"], 0)
    assert "| standard | 4 | search:v1 | 4 | 3 (75.0%" in table
    assert "mad-gnomes" not in table  # no search:v1 games there
