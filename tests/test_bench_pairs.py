"""bench/bench_bots.py's paired comparison (deals won by one bot only, the sign test)."""

from __future__ import annotations

from typing import Any

from helpers import bench_script


def _rows(cell: str, wins: list[bool], seed: int = 0) -> dict[tuple[str, int, int], Any]:
    return {(cell, seed, i): {"won": w} for i, w in enumerate(wins)}


def test_paired_counts_the_deals_won_by_one_only() -> None:
    bench = bench_script("bench_bots")
    rows = {**_rows("search@4", [True, True, True, False, False]),
            **_rows("search:v1@4", [False, True, False, True]),  # deal 4 not played by v1
            **_rows("search@4@mad-gnomes", [False, False])}
    r = bench.paired(rows, "search", "search:v1", 4, (), 0)
    assert (r["deals"], r["wins_a"], r["wins_b"], r["only_a"], r["only_b"]) == (4, 3, 2, 2, 1)
    assert r["p_sign"] == 1.0  # 2 against 1: two-sided exact sign test
    assert r["diff"] == 0.25  # (2 - 1) / 4 deals
    low, high = r["diff_ci95"]  # half-width 1.96 * sqrt(3 - 1 / 4) / 4
    assert abs(high - low - 2 * 1.96 * (3 - 0.25) ** 0.5 / 4) < 1e-12 and low < 0 < high
    strong = {**_rows("search@4", [True] * 10), **_rows("search:v1@4", [False] * 10)}
    assert bench.paired(strong, "search", "search:v1", 4, (), 0)["p_sign"] == 2 / 2 ** 10
    table = bench.pair_table(rows, ["search", "search:v1"], 0)
    assert "| standard | 4 | search:v1 | 4 | 3 (75.0%" in table
    assert "| 1 | +25.0 [-56 to +106] |" in table
    assert "mad-gnomes" not in table  # no search:v1 games there


def test_a_plan_plays_deal_by_deal_and_skips_the_games_kept() -> None:
    bench = bench_script("bench_bots")
    done = {("search@3", 0, 1): {"won": True}}
    tasks = bench.plan_tasks("3=3,4@mad-gnomes=2", ["search", "search:v1"], 0, done)
    assert [(t[0], t[1], t[2], t[4]) for t in tasks] == [
        ("search", 3, 0, ()), ("search:v1", 3, 0, ()),
        ("search", 4, 0, ("mad-gnomes",)), ("search:v1", 4, 0, ("mad-gnomes",)),
        ("search:v1", 3, 1, ()),  # search's deal 1 at 3 players is kept already
        ("search", 4, 1, ("mad-gnomes",)), ("search:v1", 4, 1, ("mad-gnomes",)),
        ("search", 3, 2, ()), ("search:v1", 3, 2, ())]


def test_a_merge_keeps_the_longer_run_of_a_cell() -> None:
    bench = bench_script("bench_bots")
    cells = {"search:v1@3": {"bot": "search:v1", "players": 3, "variants": [], "games": 200},
             "search@3": {"bot": "search", "players": 3, "variants": [], "games": 10}}
    more = [{"bot": "search:v1", "players": 3, "variants": [], "games": 100},
            {"bot": "search", "players": 3, "variants": [], "games": 100},
            {"bot": "search", "players": 4, "variants": ["harder"], "games": 60}]
    merged = bench.merge_cells(cells, more)
    assert {k: c["games"] for k, c in merged.items()} == {
        "search:v1@3": 200, "search@3": 100, "search@4@harder": 60}
