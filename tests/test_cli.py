"""The ``rednovember`` command's own behaviour: help, version, ``python -m``."""

from __future__ import annotations

import subprocess
import sys

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
