"""The win-chance estimate (analysis/winchance.py), the curve and its turning points
(analysis/turning.py) and the commands ``analyse`` and ``replay --show``."""

from __future__ import annotations

import gc
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rednovember.analysis.report_winchance import replay_game, spec_of
from rednovember.analysis.turning import (
    MIN_SWING,
    Point,
    analyse,
    headline,
    positions,
    turning_points,
)
from rednovember.analysis.winchance import (
    MIN_ROLLOUTS,
    WinChance,
    collector_paused,
    correct,
    estimate,
    rollout,
    win_chance,
)
from rednovember.bots import make_bot, play_out
from rednovember.cli import main
from rednovember.rules import Config, Game, new_game
from rednovember.rules.scenario import build
from rednovember.rules.serialize import to_dict

LANGS = ("en", "de", "fr", "pl", "ru", "es")


def scenario(**position: Any) -> Game:
    return build({"config": {"players": 3, "seed": 4}, "position": position})


@cache
def played(players: int = 3, seed: int = 7) -> Game:
    """A whole game the heuristic bot wins, with turning points (184 actions, three players)."""
    g = new_game(Config(players=players, seed=seed))
    return play_out(g, [make_bot("heuristic", p) for p in range(players)])


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("saves") / "game.json"
    path.write_text(json.dumps(to_dict(played())), "utf-8")
    return path


# --- the estimate --------------------------------------------------------------------------------

def test_a_finished_game_is_exactly_won_or_lost_without_rollouts() -> None:
    g = played()
    assert g.result is not None
    est = win_chance(g, 0)
    assert est.rollouts == 0 and est.chance == est.low == est.high == float(g.result.won)


def test_a_position_one_minute_from_rescue_is_near_certain_to_win() -> None:
    g = scenario(gnomes=[{"keeper": 2}, {"keeper": 2}, {"keeper": 2}])
    est = win_chance(g, 0, rollouts=24, seed=1)
    assert est.wins == est.rollouts == 24
    assert est.chance > 0.9 and est.high == pytest.approx(1.0, abs=0.02)


def test_every_track_one_space_from_its_end_is_near_certain_to_lose() -> None:
    g = scenario(tracks={"heat": 9, "pressure": 9, "asphyxiation": 9}, fire=[1, 2, 3, 4, 5])
    est = win_chance(g, 1, rollouts=24, seed=1)
    assert est.wins == 0 and est.chance < 0.1 and est.low == pytest.approx(0.0, abs=0.02)


def test_the_same_seed_gives_the_same_estimate_and_other_seeds_other_futures() -> None:
    g = new_game(Config(players=4, seed=9))
    a = win_chance(g, 0, rollouts=20, seed=3)
    assert win_chance(g, 0, rollouts=20, seed=3) == a
    assert a.rollouts == 20 and 0 <= a.low <= a.chance <= a.high <= 1
    assert len({win_chance(g, 0, rollouts=20, seed=s).wins for s in range(6)}) > 1
    assert g.history == [] and g.result is None  # the game itself is untouched


def test_estimates_depend_only_on_what_the_seat_may_see() -> None:
    # the item deck's order is hidden from everyone: another order, the same estimate
    a = build({"config": {"players": 3, "seed": 4}, "item_deck": ["grog", "toolbox"]})
    b = build({"config": {"players": 3, "seed": 4}, "item_deck": ["toolbox", "grog"]})
    assert a.item_deck != b.item_deck
    assert win_chance(a, 0, rollouts=12, seed=7) == win_chance(b, 0, rollouts=12, seed=7)


def test_other_seats_hidden_hands_in_mad_gnomes_do_not_change_the_estimate() -> None:
    def game(hand: list[str]) -> Game:
        return build({"config": {"players": 3, "seed": 4, "variants": ["mad-gnomes"]},
                      "position": {"gnomes": [{"hand": ["grog"]}, {"hand": hand}, {}]}})

    a, b = game(["toolbox", "crowbar"]), game(["aqualung", "coffee"])
    assert a.gnomes[1].hand != b.gnomes[1].hand
    seat0 = [win_chance(g, 0, rollouts=12, seed=2) for g in (a, b)]
    assert seat0[0] == seat0[1]
    assert win_chance(a, None, rollouts=12, seed=2) == win_chance(b, None, rollouts=12, seed=2)


def test_a_time_budget_stops_early_but_never_before_the_minimum() -> None:
    g = new_game(Config(players=3, seed=2))
    ticks = iter(range(10_000))
    est = win_chance(g, 0, rollouts=500, budget_s=0.5, clock=lambda: float(next(ticks)))
    assert est.rollouts == MIN_ROLLOUTS
    # the first rollouts are the same rollouts as without a budget
    assert est.wins == win_chance(g, 0, rollouts=MIN_ROLLOUTS).wins


def test_rollouts_make_no_reference_cycles_so_pausing_the_collector_loses_no_memory() -> None:
    """analyse pauses the cyclic collector; that is only safe while a rollout leaves nothing
    for it (compiled, the heuristic's closures once tied every decision's analysis in a cycle:
    32,000 objects for five rollouts)."""
    g = positions(played())[6][2]
    gc.collect()
    with collector_paused():
        assert not gc.isenabled()
        for i in range(5):
            rollout(g, None, i)
            rollout(g, 0, i)
        assert gc.collect() == 0
    assert gc.isenabled()


def test_the_collector_stays_off_when_it_was_off_before() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_bad_arguments_are_refused() -> None:
    g = new_game(Config(players=3, seed=2))
    with pytest.raises(ValueError, match="rollouts"):
        win_chance(g, 0, rollouts=0)
    with pytest.raises(ValueError, match="seat"):
        win_chance(g, 3)
    with pytest.raises(ValueError):
        estimate(0, 0)


def test_the_correction_is_monotone_and_keeps_the_interval_around_the_chance() -> None:
    values = [correct(p / 20) for p in range(21)]
    assert values == sorted(values) and all(0 <= v <= 1 for v in values)
    for wins in range(0, 41, 5):
        e = estimate(wins, 40)
        assert 0 <= e.low <= e.chance <= e.high <= 1 and e.raw == wins / 40


def test_search_rollouts_are_a_policy_too_uncorrected() -> None:
    g = scenario(gnomes=[{"keeper": 2}, {"keeper": 2}, {"keeper": 2}])
    est = win_chance(g, 0, rollouts=2, policy="search:fast", seed=1)
    assert est.policy == "search:fast" and est.chance == est.raw == 1.0


# --- the curve and the turning points ------------------------------------------------------------

def _point(step: int, chance: float, n: int = 100) -> Point:
    wins = round(chance * n)
    return Point(step, step, step, "turn", WinChance(chance, chance, chance, wins, n, chance))


def test_turning_points_are_the_biggest_real_swings_in_game_order() -> None:
    pts = [_point(0, 0.5), _point(1, 0.52), _point(2, 0.9), _point(3, 0.3), _point(4, 0.35),
           _point(5, 0.6)]
    fire = (10, ("fire", 4))
    segments: list[list[tuple[int, tuple[Any, ...]]]] = [
        [], [], [(5, ("draw", 0, (1, 2)))], [(7, ("event", 3, 53)), fire, (7, ("track", 0, 5))],
        [], [(9, ("repair", 1, "fix_engine", 4, 6, 3, True, False, -1))]]
    tps = turning_points(pts, segments, limit=2)
    assert [(t.from_step, t.step) for t in tps] == [(1, 2), (2, 3)]  # +38 and -60, not +25
    assert tps[1].before == 0.9 and tps[1].after == 0.3 and tps[1].delta == pytest.approx(-0.6)
    assert [e for _, e in tps[1].entries] == [("fire", 4), ("track", 0, 5)]  # not the card
    assert tps[1].minute == 3  # the minute of the point the swing arrives at, as the table shows
    # a swing within the rollouts' noise or under MIN_SWING is no turning point
    noisy = [_point(0, 0.5, n=8), _point(1, 0.75, n=8), _point(2, 0.5 + MIN_SWING / 2)]
    assert turning_points(noisy, [[], [], []]) == []


def test_headlines_prefer_deaths_and_repairs_over_draws() -> None:
    seg = [(1, ("draw", 0, (1,))), (2, ("death", 1, "fire", 4)), (2, ("open", 0, 1, 2)),
           (3, ("repair", 1, "fix_engine", 4, 6, 3, True, False, -1))]
    assert [e[0] for _, e in headline(seg)] == ["death", "repair"]
    assert headline([(1, ("open", 0, 1, 2))]) == []
    # a rise is told by its good news, a fall by its bad news
    assert [e[0] for _, e in headline(seg, up=True)] == ["draw", "repair"]
    assert [e[0] for _, e in headline(seg, up=False)] == ["death"]
    failed = [(3, ("repair", 1, "fix_engine", 4, 6, 9, False, False, -1)), (3, ("token", 2, 30))]
    assert headline(failed, up=True) == []  # no good news: a rise is not credited to bad news
    assert [e[0] for _, e in headline(failed, up=False)] == ["repair", "token"]


def test_the_curve_has_a_point_after_every_turn_and_ends_exactly() -> None:
    g = played()
    pts = positions(g)
    kinds = [k for _, k, _, _ in pts]
    assert kinds[0] == "start" and kinds[-1] == "end" and pts[-1][0] == len(g.history)
    assert kinds.count("turn") == g.turn - 1  # every turn after the first one begins once
    assert [s for s, _, _, _ in pts] == sorted({s for s, _, _, _ in pts})
    a = analyse(g, None, rollouts=3, seed=1)
    assert [p.step for p in a.points] == [s for s, _, _, _ in pts]
    assert a.points[-1].estimate.chance == 1.0 * bool(g.result and g.result.won)
    minutes = [p.minute for p in a.points]
    assert minutes == sorted(minutes) and minutes[-1] <= 60


# --- the commands --------------------------------------------------------------------------------

def test_analyse_prints_the_curve_and_the_turning_points(save: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(save), "--rollouts", "6", "--seat", "2"]) == 0
    out = capsys.readouterr().out
    assert "as seat 2 saw it (up to 6 rollouts per point" in out
    assert "Turn 1, minute 0 (space 60):" in out and "Turning points" in out  # 3 players
    assert "The crew is rescued! Victory." in out


def test_analyse_json_holds_points_and_turning_points_with_sentences(
        save: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(save), "--json", "--rollouts", "6", "--lang", "de"]) == 0
    d = json.loads(capsys.readouterr().out)
    g = played()
    assert d["steps"] == len(g.history) and d["seat"] is None and d["rollouts"] == 6
    assert d["result"] == {"won": True, "cause": "rescued"}
    assert d["points"][0]["step"] == 0 and d["points"][-1]["chance"] == 1.0
    assert all(p["rollouts"] in (0, 6) and 0 <= p["low"] <= p["chance"] <= p["high"] <= 1
               for p in d["points"])
    for t in d["turning"]:
        assert abs(t["after"] - t["before"]) >= MIN_SWING
        assert t["space"] == 60 - t["minute"]  # 3 players start on space 60
        assert t["text"].startswith(f"Minute {t['minute']} (Feld {t['space']}): ")
        assert "→" in t["text"]
        assert " %" in t["text"]  # German writes "48 %"


def test_analyse_names_its_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  save: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", "utf-8")
    assert main(["analyse", str(bad)]) == 2  # as play --load and replay: a file not loaded
    assert capsys.readouterr().err.startswith(f"error: cannot load {bad}")
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad.write_text('{"a": 1}', "utf-8")
    assert main(["analyse", str(bad)]) == 2
    assert capsys.readouterr().err.strip().endswith("not a Red November save")  # no "None"
    assert main(["analyse", str(save), "--seat", "9"]) == 1
    assert "--seat must be 1..3" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["analyse", str(save), "--rollouts", "0"])


def test_replay_show_draws_the_chart_with_its_turning_points(
        save: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(save), "--show", "--rollouts", "8", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK : rejouer ")
    assert "Chances de victoire au fil de la partie" in out
    assert "100 %│" in out and "0 %│" in out and "└" in out
    assert "1, 2, 3… : les tournants" in out
    marks = out.split("100 %│")[0].splitlines()[-1]  # the row of numbers above the chart
    listed = re.findall(r"^(\d+) Minute", out, re.MULTILINE)
    assert listed and listed == marks.split()  # the chart and the list: the same numbers


def test_replay_without_show_draws_nothing(save: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(save)]) == 0
    assert "│" not in capsys.readouterr().out


@pytest.mark.parametrize("lang", LANGS)
def test_the_sentences_exist_in_every_language(lang: str) -> None:
    g = played()
    a = analyse(g, 0, rollouts=2, seed=0, limit=1)
    pts = [_point(0, 0.5), _point(31, 0.1)]
    a.points = pts
    a.turning = turning_points(pts, [[], [(31, ("fire", 4))]])
    text = a.sentence(a.turning[0], lang)
    assert "31" in text and "→" in text and "{" not in text


# --- report --winchance --------------------------------------------------------------------------

def test_report_with_winchance_draws_the_mean_curve_and_lists_the_swings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "rep"
    assert main(["report", "--games", "3", "--players", "3", "--bots", "heuristic", "--seed", "4",
                 "--jobs", "1", "--out", str(out), "--winchance", "2",
                 "--winchance-rollouts", "4", "--quiet"]) == 0
    capsys.readouterr()
    doc = (out / "report.md").read_text("utf-8")
    assert "](winchance.png)" in doc and (out / "winchance.png").read_bytes()[:4] == b"\x89PNG"
    run = json.loads((out / "simulation.json").read_text("utf-8"))["runs"][0]
    wc = run["winchance"]
    assert wc["games"] == 2 and wc["rollouts"] == 4 and len(wc["mean_by_minute"]) == 61
    # the curve ends on the analysed games' outcomes: the replayed games are the simulated ones
    outcomes = [replay_game(spec_of(run), i).result for i in range(2)]
    assert all(o is not None for o in outcomes)
    outcomes_won = [bool(o and o.won) for o in outcomes]
    assert wc["mean_by_minute"][-1] == pytest.approx(sum(outcomes_won) / 2)
    if wc["swings"]:
        assert "## Biggest win-chance swings" in doc and wc["swings"][0]["text"] in doc
    # a report made again from the saved JSON keeps the curve
    again = tmp_path / "again"
    assert main(["report", "--from", str(out / "simulation.json"), "--out", str(again)]) == 0
    assert (again / "winchance.png").exists()
