"""Scenarios (docs/formats.md) and the `scenario run` / `replay` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rednovember.cli import main
from rednovember.rules import Config, new_game
from rednovember.rules.scenario import ScenarioError, build, run
from rednovember.rules.serialize import from_json, replay, to_dict, to_json

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "missile-control-turn.json"


def example() -> dict[str, object]:
    return json.loads(EXAMPLE.read_text())  # type: ignore[no-any-return]


def test_example_scenario_reproduces_the_rulebook_turn() -> None:
    g = run(example())
    yellow = g.gnomes[0]
    assert yellow.room == 1 and yellow.fainted and yellow.keeper == 19
    assert not g.fire[1] and g.fire[2]
    assert [e[0] for e in g.log].count("event") == 7
    assert [e[0] for e in g.log].count("item_icon") == 2


def test_scenario_run_prints_state_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "run", str(EXAMPLE)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["state"]["gnomes"][0]["keeper"] == 19
    assert out["format"] == "rednovember-save"


def test_scenario_output_loads_and_replays(capsys: pytest.CaptureFixture[str]) -> None:
    main(["scenario", "run", str(EXAMPLE)])
    g = from_json(capsys.readouterr().out)  # verifies by replaying from the arranged origin
    twin = replay(g.data, g.config, g.origin, g.history)
    assert to_dict(twin) == to_dict(g)
    seen: list[tuple[int, int]] = []  # the game before each action: its history and log so far
    replay(g.data, g.config, g.origin, g.history,
           lambda at: seen.append((len(at.history), len(at.log))))
    assert [h for h, _ in seen] == list(range(len(g.history)))
    logs = [n for _, n in seen]
    assert logs == sorted(logs) and len(g.origin["log"]) < logs[0] and logs[-1] < len(g.log)


def test_illegal_action_exits_nonzero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = example()
    spec["actions"] = ["open 10"]  # Missile Control (7) has no hatch to the Captain's Cabin
    f = tmp_path / "s.json"
    f.write_text(json.dumps(spec))
    assert main(["scenario", "run", str(f)]) == 1
    err = capsys.readouterr().err
    assert "actions[0]" in err and "open 10" in err and "not legal" in err


@pytest.mark.parametrize(("spec", "message"), [
    ({"format": "chess"}, "not a scenario"),
    ({"bogus": 1}, "unknown scenario field"),
    ({"config": {"players": 9}}, "players must be 1..8"),
    ({"position": {"fire": [11]}}, "fire"),
    ({"position": {"water": {"3": "deep"}}}, "low' or 'high"),
    ({"position": {"blocked": [[3, 9]]}}, "not an interior hatch"),
    ({"position": {"gnomes": [{"hand": ["coffee", "coffee"]}]}}, "no coffee left"),
    ({"position": {"fire": [3], "water": {"3": "low"}}}, "both burning and flooded"),
    ({"event_deck": ["fire/9"]}, "no event card"),
    ({"dice": [0]}, "dice"),
])
def test_bad_scenarios_are_clear_errors(spec: dict[str, object], message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        build(spec)


def test_bad_file_exits_nonzero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "bad.json"
    f.write_text("{")
    assert main(["scenario", "run", str(f)]) == 1
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["scenario", "run", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err
    f.write_bytes(b"\xff\xfe{")  # not UTF-8 text: said, not a traceback
    assert main(["scenario", "run", str(f)]) == 1
    assert f"cannot read {f}: it is not a text file (not UTF-8)" in capsys.readouterr().err


def test_scenario_fixes_cards_and_dice() -> None:
    g = build({"config": {"players": 3, "seed": 2}, "event_deck": ["kraken", "fire/-"],
               "item_deck": ["coffee"], "dice": [4, 4]})
    assert g.data.events[g.event_deck[-1]].kind == "kraken"
    second = g.data.events[g.event_deck[-2]]
    assert second.kind == "fire" and second.faint is None
    assert not g.kraken_aside
    assert g.item_name(g.item_deck[-1]) == "coffee"
    assert g.rng.die() == 4


def test_replay_command_checks_a_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = new_game(Config(players=3, seed=9))
    for _ in range(40):
        g.apply(g.legal_actions()[-1])
    f = tmp_path / "save.json"
    f.write_text(to_json(g))
    assert main(["replay", str(f)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "OK: replaying 40 actions from the seed reaches the saved state.",
        "The game is still going on."]
    assert main(["replay", str(f), "--lang", "pl"]) == 0  # in the player's language
    assert capsys.readouterr().out.startswith("OK: odtworzenie 40 akcji od seeda")
    d = json.loads(f.read_text())
    d["state"]["tracks"]["heat"] = 9  # tampered: no longer follows from the history
    f.write_text(json.dumps(d))
    assert main(["replay", str(f)]) == 1
    assert "corrupt" in capsys.readouterr().err
