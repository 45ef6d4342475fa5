"""The ``rednovember`` command's own behaviour: help, version, ``python -m``."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from rednovember import __version__
from rednovember.cli import main


def test_no_command_prints_help_and_succeeds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "usage: rednovember" in out and "play" in out and "serve" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"rednovember {__version__}"


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "rednovember", "--version"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stdout.strip() == f"rednovember {__version__}"


def test_play_help_lists_the_bots(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert all(name in out for name in ("random", "heuristic", "search"))


@pytest.mark.parametrize(("content", "reason"), [
    ('{"seed": 1, "hist', "cut short"),  # a truncated save
    ('{"seed": 1, "history": ["open\t5"]}', "cut short"),  # was a raw "Invalid control character"
    ('{"a": 1}', "not a Red November save"),
    ('{"format": "rednovember-save", "version": 1}', "incomplete"),  # was "another data set (None)"
    (b"\x89PNG\r\n\x1a\n\xff\xfe", "not a text file"),  # was "'utf-8' codec can't decode"
    (None, "No such file or directory"),  # was "[Errno 2]"
])
def test_issue18_a_bad_save_gets_a_plain_reason_and_the_same_status_in_play_replay_and_analyse(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes | None,
        reason: str) -> None:
    path = tmp_path / "save.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    assert main(["play", "--plain", "--load", str(path)]) == 2
    assert main(["replay", str(path)]) == 2
    assert main(["analyse", str(path)]) == 2
    err = " ".join(capsys.readouterr().err.split())  # the console wraps long lines
    assert err.count(reason) == 3 and "Errno" not in err and "JSON:" not in err
    assert "Traceback" not in err and "None" not in err and "codec" not in err
    assert "control character" not in err


def test_issue18_learn_takes_a_lessons_number_from_the_menu(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["learn", "1"]) == 0
    assert "Moving and the time track" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["learn", "15"])
    assert exc.value.code == 2 and "1-14" in capsys.readouterr().err
