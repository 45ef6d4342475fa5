"""The data files are read once, validated, and identified by a digest."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rednovember.rules import DataError, load_data
from rednovember.rules.data import FILES

SRC = Path(__file__).resolve().parents[1] / "src" / "rednovember" / "data"


def copy_data(tmp_path: Path) -> Path:
    for name in FILES:
        shutil.copy(SRC / f"{name}.json", tmp_path / f"{name}.json")
    return tmp_path


def edit(path: Path, name: str, change: object) -> None:
    file = path / f"{name}.json"
    d = json.loads(file.read_text())
    change(d)  # type: ignore[operator]
    file.write_text(json.dumps(d))


def test_builtin_data_matches_data_md() -> None:
    d = load_data()
    assert len(d.events) == 56
    assert sum(i.count for i in d.items) == 54
    assert d.stock_count == 6 and d.items[d.stock_item].id == "grog"
    assert d.interior_count == 15 and len(d.hatches) == 18
    assert d.blocked_tokens == 15
    assert sorted(d.event_icons) == list(range(3, 58, 3))
    assert sorted(d.item_icons) == [10, 20, 30, 40, 50]
    assert d.start_spaces[3] == 60 and d.start_spaces[8] == 45
    assert d.track_length == 10 and d.reset_stars == (1, 5)
    assert d.events[d.set_aside].kind == "kraken"


def test_builtin_data_is_read_once() -> None:
    assert load_data() is load_data()


def test_digest_identifies_content(tmp_path: Path) -> None:
    path = copy_data(tmp_path)
    assert load_data(path).digest == load_data().digest
    edit(path, "timetrack", lambda d: d["item_icons"].append(5))
    assert load_data(path).digest != load_data().digest


@pytest.mark.parametrize(("name", "change", "message"), [
    ("board", lambda d: d["interior_hatches"].append([1, 11]), "bad interior hatch"),
    ("board", lambda d: d["interior_hatches"].append([2, 1]), "duplicate interior hatch"),
    ("board", lambda d: d["rooms"].pop(), "ten rooms"),
    ("events", lambda d: d["cards"][0]["faint"].append(7), "faint numbers"),
    ("events", lambda d: d["cards"][0]["effects"].append({"type": "boom"}), "unknown effect"),
    ("items", lambda d: d["items"][0]["bonus"].update({"fly": 2}), "unknown repair"),
    ("timetrack", lambda d: d["start_spaces"].pop("8"), "start_spaces"),
    ("tracks", lambda d: d.update(length=3), "length"),
])
def test_broken_data_file_is_a_clear_error(tmp_path: Path, name: str, change: object,
                                           message: str) -> None:
    path = copy_data(tmp_path)
    edit(path, name, change)
    with pytest.raises(DataError, match=message) as info:
        load_data(path)
    assert f"{name}.json" in str(info.value) or "malformed" in str(info.value)


def test_invalid_json_names_the_file(tmp_path: Path) -> None:
    path = copy_data(tmp_path)
    (path / "events.json").write_text("{not json")
    with pytest.raises(DataError, match="events.json is not valid JSON"):
        load_data(path)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot be read"):
        load_data(tmp_path)


def test_cli_uses_a_house_data_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rednovember.cli import main

    path = copy_data(tmp_path)
    edit(path, "timetrack", lambda d: d.update(item_icons=[55, 45, 35, 25, 15, 5]))
    assert main(["--data", str(path), "data"]) == 0
    out = capsys.readouterr().out
    assert load_data(path).digest in out and load_data().digest not in out
    assert main(["--data", str(path), "simulate", "--games", "3", "--json"]) == 0
    assert load_data(path).digest[:12] in capsys.readouterr().out


def test_cli_refuses_a_broken_data_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rednovember.cli import main

    path = copy_data(tmp_path)
    (path / "board.json").write_text("[]")
    assert main(["--data", str(path), "play", "--players", "3"]) == 2
    assert "board.json" in capsys.readouterr().err


def test_save_from_other_data_set_is_refused(tmp_path: Path) -> None:
    from rednovember.rules import Config, new_game
    from rednovember.rules.serialize import SaveError, from_json, to_json

    path = copy_data(tmp_path)
    edit(path, "timetrack", lambda d: d.update(item_icons=[55, 45]))
    text = to_json(new_game(Config(players=3, seed=1), load_data(path)))
    assert from_json(text, load_data(path)).config.seed == 1
    with pytest.raises(SaveError, match="another data set"):
        from_json(text)


def test_an_items_bonus_to_a_repair_counts_its_own_and_grogs_bonus_to_everything() -> None:
    """RULES.md, repairs: the bonuses of the items played are added to the minutes."""
    items = {it.id: it for it in load_data().items}
    assert items["reactor_manual"].bonus_to("fix_reactor") == 4
    assert items["toolbox"].bonus_to("fix_reactor") == 3
    assert items["reactor_manual"].bonus_to("fix_engine") == 0
    assert items["grog"].bonus_to("fix_engine") == items["grog"].bonus_to("kill_kraken") == 3
    assert items["coffee"].bonus_to("fix_reactor") == 0
