"""``rednovember report``: Markdown/HTML documents with PNG charts, from a run or saved JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from rednovember.bots import BOTS  # noqa: E402
from rednovember.cli import main  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"


def _check_png(path: Path) -> None:
    from matplotlib.image import imread

    assert path.read_bytes()[:8] == PNG
    pixels = imread(path)
    assert pixels.shape[0] > 200 and pixels.shape[1] > 400
    assert float(pixels[..., :3].std()) > 0.05, f"{path.name} looks blank"


def test_markdown_report_with_charts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bots = "random,heuristic" if "heuristic" in BOTS else "random"
    out = tmp_path / "rep"
    assert main(["report", "--games", "8", "--players", "3,4", "--bots", bots, "--seed", "2",
                 "--jobs", "1", "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out / "report.md")
    doc = (out / "report.md").read_text("utf-8")
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert {"winrate.png", "losses.png", "deaths.png", "tracks-random.png"} <= set(pngs)
    for name in pngs:
        assert f"]({name})" in doc
        _check_png(out / name)
    for heading in ("## Summary", "## Losses by cause", "## Deaths by cause", "## Events — random",
                    "## Items — random", "## Definitions"):
        assert heading in doc
    # the tables name causes, cards and items as the game does; the JSON keeps the ids
    assert "Missile Launch! token" in doc and "Heat track" in doc and "burned to death" in doc
    assert "| Hatch Blocked |" in doc and "| Grog |" in doc
    assert "missile_launch" not in doc and "hatch_blocked" not in doc
    saved = json.loads((out / "simulation.json").read_text("utf-8"))
    assert [(r["bot"], r["players"]) for r in saved["runs"]][:2] == [(bots.split(",")[0], 3),
                                                                   (bots.split(",")[0], 4)]
    assert all(r["games"] == 8 for r in saved["runs"])


def test_html_report_from_saved_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["simulate", "--games", "6", "--players", "5", "--variant", "harder",
                 "--jobs", "1", "--json"]) == 0
    single = tmp_path / "five.json"
    single.write_text(capsys.readouterr().out, "utf-8")
    assert main(["simulate", "--games", "6", "--players", "3", "--jobs", "1", "--json"]) == 0
    other = tmp_path / "three.json"
    other.write_text(capsys.readouterr().out, "utf-8")
    out = tmp_path / "html"
    assert main(["report", "--from", str(single), str(other), "--format", "html",
                 "--out", str(out)]) == 0
    page = (out / "report.html").read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>") and '<img src="winrate.png"' in page
    assert "random [harder]" in page and "random [no variant]" in page  # variants tell apart
    assert not (out / "simulation.json").exists()
    for png in out.glob("*.png"):
        _check_png(png)


@pytest.mark.parametrize("argv", [
    ["--bots", "nobody"],
    ["--players", "9"],
    ["--games", "0"],
])
def test_bad_report_arguments(argv: list[str], tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", *argv, "--out", str(tmp_path / "x")]) == 2
    assert "error" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_bad_saved_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"games": 3}', "utf-8")
    assert main(["report", "--from", str(bad), "--out", str(tmp_path / "o")]) == 2
    assert "not a simulation report" in capsys.readouterr().err
    assert main(["report", "--from", str(tmp_path / "missing.json"),
                 "--out", str(tmp_path / "o")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_saved_file_that_is_not_text_is_a_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "run.json"
    binary.write_bytes(b"\xff\xfe\x00{not text")
    assert main(["report", "--from", str(binary), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert f"cannot read {binary}" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()
