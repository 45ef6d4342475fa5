"""bench/bench_bots.py's bookkeeping: the paired comparison (deals won by one bot only, the sign
test), plans, merges, and never writing over an earlier run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
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


def test_a_run_on_the_pure_engine_says_so_loudly() -> None:
    bench = bench_script("bench_bots")
    assert bench.engine_line("") == "bench_bots.py: the compiled engine"
    line = bench.engine_line("the compiled engine is older than bots/levels.py")
    assert line.startswith("bench_bots.py: WARNING: the pure-Python engine (the compiled engine "
                           "is older than bots/levels.py)") and "./scripts/test.sh" in line
    assert "rebuild" not in bench.engine_line("REDNOVEMBER_PURE=1")  # asked for, nothing to fix


def test_every_searching_bot_keeps_its_games_one_by_one() -> None:
    bench = bench_script("bench_bots")
    for bot in ("search", "search:fast", "search:sharp", "oracle", "oracle:events", "oracle:dice"):
        assert bench.is_slow(bot), bot
    for bot in ("random", "heuristic", "heuristic:v1"):
        assert not bench.is_slow(bot), bot


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


def test_a_run_never_writes_over_an_earlier_one(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    bench = bench_script("bench_bots")
    out = tmp_path / "bots.json"
    args = ["--out", str(out), "--bots", "random", "--games", "random=2", "--players", "3",
            "--jobs", "1"]
    assert bench.main(args) == 0
    first = out.read_text()
    assert json.loads(first)["cells"][0]["games"] == 2
    capsys.readouterr()
    more = [*args[:5], "random=3", *args[6:]]
    assert bench.main(more) == 2  # it would replace the file and lose its cells
    err = capsys.readouterr().err
    assert err == (f"bench_bots.py: error: {out} holds an earlier run: --resume continues it "
                   "(its games are kept), or choose another --out\n")
    assert out.read_text() == first
    assert bench.main([*more, "--resume", "--bots", "random", "--players", "3,4"]) == 0
    cells = {(c["players"], c["games"]) for c in json.loads(out.read_text())["cells"]}
    assert cells == {(3, 3), (4, 3)}
    log = tmp_path / "bots.games.jsonl"
    log.write_text("")  # a games log alone is an earlier run too
    out.unlink()
    assert bench.main(args) == 2 and not out.exists()
