"""``rednovember simulate``: the report's shape and totals, determinism, jobs, bad arguments."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from rednovember.analysis import simulate, stats
from rednovember.cli import main
from rednovember.rules import Config, Result, load_data, new_game
from rednovember.rules.serialize import replay, to_dict

LOSS_CAUSES = ["asphyxiation", "heat", "pressure", "kraken", "crushed", "missile_launch",
               "asphyxiated", "all_dead"]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict[str, Any], str]:
    capsys.readouterr()
    assert main(["simulate", *argv, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1, "exactly one JSON line"
    return json.loads(out), out


def test_json_shape_and_totals(capsys: pytest.CaptureFixture[str]) -> None:
    report, _ = run_json(capsys, "--games", "60", "--players", "4", "--bot", "random",
                         "--seed", "3")
    data = load_data()
    assert report["games"] == 60
    assert isinstance(report["wins"], int)
    assert list(report["losses"]) == LOSS_CAUSES == [*data.tracks, *data.tokens, "all_dead"]
    assert report["wins"] + sum(report["losses"].values()) == report["games"]
    assert set(report["deaths"]) >= set(simulate.DEATH_CAUSES)
    assert report["mean_deaths"] == pytest.approx(sum(report["deaths"].values()) / 60, abs=1e-4)
    assert 0 < report["mean_turns"] <= report["mean_steps"] <= report["max_steps"]
    assert 0 < report["mean_minutes"] <= 60
    assert report["win_rate"] == pytest.approx(report["wins"] / 60, abs=1e-6)
    assert report["players"] == 4 and report["gnomes_per_player"] == 1
    assert report["variants"] == [] and report["bot"] == "random" and report["seed"] == 3
    assert report["data_set"] == data.describe()


def test_variants_and_gnomes_reported(capsys: pytest.CaptureFixture[str]) -> None:
    report, _ = run_json(capsys, "--games", "20", "--players", "1", "--gnomes", "4",
                         "--variant", "mad-gnomes", "--variant", "harder", "--seed", "9")
    assert report["variants"] == ["harder", "mad-gnomes"]
    assert report["players"] == 1 and report["gnomes_per_player"] == 4
    assert report["wins"] + sum(report["losses"].values()) == 20


def test_same_seed_same_output_other_seed_differs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--games", "40", "--players", "5", "--variant", "less-deadly-death", "--seed", "11")
    _, first = run_json(capsys, *args)
    _, again = run_json(capsys, *args)
    assert first == again
    _, other = run_json(capsys, "--games", "40", "--players", "5", "--variant",
                        "less-deadly-death", "--seed", "12")
    assert other != first


def test_jobs_do_not_change_the_output(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--games", "50", "--players", "4", "--variant", "hardest", "--seed", "7")
    _, one = run_json(capsys, *args, "--jobs", "1")
    _, two = run_json(capsys, *args, "--jobs", "2")
    _, three = run_json(capsys, *args, "--jobs", "3")
    assert one == two == three


def test_text_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "10", "--players", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "10 games" in out and "won" in out and "Missile Launch! token" in out
    assert not out.lstrip().startswith("{")


def test_the_text_names_causes_cards_and_items_as_the_game_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A reader of the text sees "Missile Launch! token", "burned to death", "Reactor Heating"
    and "Fire Extinguisher", not the ids the JSON keeps; the "uses" column is explained."""
    assert main(["simulate", "--games", "10", "--players", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    for name in ("Missile Launch! token", "Heat track", "nobody left aboard", "burned to death",
                 "fainted in the Sea and drowned", "Reactor Heating", "Fire Extinguisher",
                 "uses: event icons a Lucky Charm ignored"):
        assert name in out, name
    for ident in ("missile_launch", "all_dead", "fainted_in_sea", "reactor_heating",
                  "fire_extinguisher"):
        assert ident not in out, ident
    assert main(["simulate", "--games", "10", "--players", "3", "--seed", "1", "--json"]) == 0
    assert "missile_launch" in json.loads(capsys.readouterr().out)["losses"]  # the JSON keeps ids


@pytest.mark.parametrize("argv", [
    ["--games", "0"],
    ["--games", "-5"],
    ["--players", "0"],
    ["--players", "9"],
    ["--bot", "no-such-bot"],
    ["--players", "4", "--gnomes", "2"],  # one gnome each with 3+ players
    ["--players", "1", "--gnomes", "2"],  # a solo player runs 3..8
    ["--jobs", "-1"],
])
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *argv, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "error" in captured.err


def test_unknown_variant_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--variant", "easy"])
    assert info.value.code == 2


def test_game_records_are_reproducible_and_picklable() -> None:
    spec = simulate.RunSpec(4, None, frozenset({"harder"}), "random", 21)
    assert pickle.loads(pickle.dumps(spec)) == spec
    first = simulate.play_game(spec, 5)
    assert simulate.play_game(spec, 5) == first
    assert pickle.loads(pickle.dumps(first)) == first
    assert first.seed == simulate.derive_seed(21, 5, "game")
    assert first.won == (first.cause == "rescued")
    records = list(simulate.play_games(spec, 8, jobs=2))
    assert [r.game for r in records] == list(range(8))
    assert records[5] == first


def test_a_simulated_game_replays_from_its_seed() -> None:
    """Game i is an ordinary seeded game: rebuilding it with the derived seeds gives the same."""
    spec = simulate.RunSpec(3, None, frozenset(), "random", 4)
    record = simulate.play_game(spec, 2)
    from rednovember.bots import make_bot

    g = new_game(spec.config(2))
    bots = [make_bot("random", simulate.derive_seed(4, 2, "seat", p)) for p in range(3)]
    while not g.is_over:
        g.apply(bots[g.player_to_move].choose(g))
    assert len(g.history) == record.steps and g.turn == record.turns
    assert to_dict(replay(g.data, g.config, g.origin, g.history)) == to_dict(g)


def test_derive_seed_is_stable() -> None:
    # pinned: changing the derivation would silently change every published simulation
    assert simulate.derive_seed(0, 0, "game") == 6034055589930552543
    assert simulate.derive_seed(7, 3, "seat", 2) == 6224200752084349280
    seeds = {simulate.derive_seed(1, i, "game") for i in range(1000)}
    assert len(seeds) == 1000
    assert all(0 <= s < 2**63 for s in seeds)
    assert simulate.derive_seed(1, 0, "game") != simulate.derive_seed(1, 0, "seat", 0)


# --- several player counts, bots, confidence intervals, "mattered" tables ----------------------


@pytest.mark.parametrize(("text", "counts"), [
    ("4", [4]), ("3,5", [3, 5]), ("3-5", [3, 4, 5]), ("1,3-4,3", [1, 3, 4]),
    ("all", list(range(1, 9))), (" ALL ", list(range(1, 9))), (None, [4]), (6, [6]),
])
def test_parse_players(text: str | int | None, counts: list[int]) -> None:
    assert simulate.parse_players(text) == counts


@pytest.mark.parametrize("text", ["0", "9", "2-9", "5-3", "x", "3,", ""])
def test_parse_players_rejects(text: str) -> None:
    with pytest.raises(simulate.SimulateError):
        simulate.parse_players(text)


def test_several_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    multi, _ = run_json(capsys, "--games", "12", "--players", "1,3,5", "--gnomes", "3",
                        "--seed", "5", "--jobs", "2")
    assert list(multi) == ["runs"]
    runs = multi["runs"]
    assert [r["players"] for r in runs] == [1, 3, 5]
    assert [r["gnomes_per_player"] for r in runs] == [3, 1, 1]  # --gnomes only fits 1-2 players
    assert all(r["games"] == 12 for r in runs)
    single, _ = run_json(capsys, "--games", "12", "--players", "5", "--seed", "5", "--jobs", "1")
    assert single == runs[2]  # a count's run does not depend on the others, nor on --jobs
    assert main(["simulate", "--games", "3", "--players", "3,4", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "95% CI" in out and out.count("Red November —") == 2


def test_R16_two_players_run_exactly_two_gnomes_each(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "2", "--gnomes", "3", "--json"]) == 2
    assert "R16" in capsys.readouterr().err
    report, _ = run_json(capsys, "--games", "5", "--players", "2", "--seed", "4")
    assert report["gnomes_per_player"] == 2


def test_gnomes_must_fit_a_small_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "1-3", "--gnomes", "2", "--json"]) == 2
    assert "1 player(s)" in capsys.readouterr().err


def test_wilson_interval() -> None:
    assert stats.wilson(0, 0) == (0.0, 0.0)
    low, high = stats.wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = stats.wilson(5, 10)
    assert (low, high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    low, high = stats.wilson(10, 10)
    assert high == 1.0 and low == pytest.approx(0.7225, abs=1e-4)


def test_mattered_tables_and_timeline(capsys: pytest.CaptureFixture[str]) -> None:
    report, _ = run_json(capsys, "--games", "40", "--players", "4", "--seed", "3", "--jobs", "1")
    data = load_data()
    games, wins = report["games"], report["wins"]
    losses = games - wins
    low, high = report["win_rate_ci"]
    assert low <= report["win_rate"] <= high
    assert report["mean_minutes_lost"] <= 60 and report["last_turns"] == stats.LAST_TURNS
    events = report["events"]
    assert list(events) == list(data.event_kinds)
    assert sum(e["drawn"] for e in events.values()) > games
    for e in events.values():
        assert e["drawn"] == e["drawn_in_wins"] + e["drawn_in_losses"]
        assert e["games_drawn"] <= games and e["late_losses"] <= losses
    # every track or token loss has the event that caused it; all_dead may have none
    caused = sum(e["caused"] for e in events.values())
    assert losses - report["losses"]["all_dead"] <= caused <= losses
    items = report["items"]
    assert list(items) == [i.id for i in data.items]
    for i in items.values():
        assert i["saves"] <= i["played"] and i["played_in_wins"] <= i["played"]
    assert sum(i["played"] for i in items.values()) > 0
    tl = report["tracks_by_minute"]
    assert tl["start"] == 60 and tl["running"][0] == games
    assert all(a >= b for a, b in zip(tl["running"], tl["running"][1:], strict=False))
    for track in data.tracks:
        assert len(tl[track]) == len(tl["running"]) and tl[track][0] == 1.0


def test_a_repair_saved_by_an_item_is_counted() -> None:
    """The rulebook example: 7 minutes + Grog's 3 against a roll of 9."""
    from pathlib import Path

    from rednovember.rules import scenario

    spec = json.loads((Path(__file__).parent.parent / "examples" /
                       "missile-control-turn.json").read_text())
    g = scenario.run(spec)
    s = stats.game_stats(g)
    grog = g.data.item_index["grog"]
    assert s.item_plays[grog] == 1 and s.item_saves[grog] == 1 and sum(s.item_saves) == 1


def _card(kind: str) -> int:
    return next(i for i, c in enumerate(load_data().events) if c.kind == kind)


def test_loss_causing_and_late_events() -> None:
    data = load_data()
    kind = {k: i for i, k in enumerate(data.event_kinds)}
    g = new_game(Config(4, seed=1), data)
    heat = data.tracks.index("heat")
    g.log = [("setup", 4, 60, ""), ("turn", 0, 60), ("event", _card("missile_launch"), 57),
             ("token", 2, 47), ("turn", 1, 60), ("event", _card("reactor_heating"), 54),
             ("track", heat, 9), ("item_icon", 1, 50, 3), ("turn", 2, 60), ("turn", 3, 60),
             ("turn", 0, 54), ("event", _card("reactor_malfunction"), 51), ("track", heat, 10),
             ("lost", "heat")]
    g.result = Result(False, "heat")
    s = stats.game_stats(g, last_turns=2)
    assert s.cause_event == kind["reactor_malfunction"]
    assert s.late_events == (kind["reactor_malfunction"],)  # turns 4 and 5 only
    assert s.event_draws[kind["missile_launch"]] == 1
    assert len(s.tracks) == 3 * 7 and s.tracks[-3:] == (1, 10, 1)  # minute 6: final levels
    g.result = Result(False, "missile_launch")
    assert stats.game_stats(g).cause_event == kind["missile_launch"]
    g.log = [("setup", 4, 60, ""), ("turn", 0, 60), ("event", _card("fire"), 57), ("fire", 3),
             ("track", 0, 4), ("death", 0, "fire", 3), ("lost", "all_dead")]
    g.result = Result(False, "all_dead")
    assert stats.game_stats(g).cause_event == kind["fire"]
    g.log = [("setup", 4, 60, ""), ("turn", 0, 60), ("event", _card("fire"), 57), ("fire", 3),
             ("turn", 0, 56), ("death", 0, "fire", 3), ("lost", "all_dead")]
    assert stats.game_stats(g).cause_event == -1  # died in the Updates, not by an event


def test_mix_draws_seats_from_the_pool(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from rednovember.bots import BOTS
    from rednovember.bots.base import RandomBot

    for name in list(BOTS):
        if name != "random":
            monkeypatch.delitem(BOTS, name)
    assert main(["simulate", "--bot", "mix", "--games", "2", "--json"]) == 2
    assert "mix" in capsys.readouterr().err
    monkeypatch.setitem(BOTS, "alpha", RandomBot)
    monkeypatch.setitem(BOTS, "beta", RandomBot)
    monkeypatch.setitem(BOTS, "beta:fast", RandomBot)
    assert simulate.mix_pool() == ["alpha", "beta"]
    spec = simulate.RunSpec(5, None, frozenset(), "mix", 8)
    seats = [spec.seat_bots(i) for i in range(20)]
    assert seats == [spec.seat_bots(i) for i in range(20)]
    assert {b for s in seats for b in s} == {"alpha", "beta"}
    report, _ = run_json(capsys, "--bot", "mix", "--games", "5", "--players", "3", "--jobs", "1")
    assert report["bot"] == "mix" and report["mix_pool"] == ["alpha", "beta"]


def test_progress_bar_stays_off_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    spec = simulate.RunSpec(3, None, frozenset(), "random", 1)
    capsys.readouterr()
    reports = simulate.run_specs([spec], 4, 1, show_progress=True)
    assert capsys.readouterr().out == ""
    assert reports[0]["games"] == 4
    import argparse

    assert not simulate.progress_wanted(argparse.Namespace(quiet=True))


@pytest.mark.skipif("heuristic" not in simulate.BOTS, reason="heuristic bot not registered")
def test_heuristic_bot_runs(capsys: pytest.CaptureFixture[str]) -> None:
    report, _ = run_json(capsys, "--bot", "heuristic", "--games", "2", "--players", "4",
                         "--jobs", "1")
    assert report["games"] == 2 and report["bot"] == "heuristic"
