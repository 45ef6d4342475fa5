"""Test-wide settings: the Hypothesis profiles, and the terminal tests' autosave file. The rules
tests' helpers are in helpers.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.database import DirectoryBasedExampleDatabase

# Hypothesis profiles (HYPOTHESIS_PROFILE picks one; ./scripts/test.sh and CI use "ci"):
# - "ci": reproducible, the same examples on every run (derandomised, no example database);
# - "explore": new random examples on every run, 50 times as many, failures remembered in
#   .hypothesis/examples and tried first next time. Tests that ask for more examples than the
#   profile's (tests/test_properties.py) scale from settings.default.max_examples.
settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile(
    "explore", derandomize=False, max_examples=5_000, deadline=None, print_blob=True,
    database=DirectoryBasedExampleDatabase(Path(__file__).resolve().parents[1]
                                           / ".hypothesis" / "examples"))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def autosave(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A terminal game that saves on quitting saves into the test's folder, never the user's
    (the terminal tests use it for every test: ``pytestmark``)."""
    path = tmp_path / "autosave.json"
    monkeypatch.setenv("REDNOVEMBER_AUTOSAVE", str(path))
    return path
