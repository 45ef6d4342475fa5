"""Test-wide settings: the Hypothesis profiles, and the terminal tests' autosave file. The rules
tests' helpers are in helpers.py."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
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


# The rules engine's own tests. The whole suite runs on the compiled engine (when there is one:
# setup.py, rednovember/_engine.py); ./scripts/test.sh runs these a second time on the pure-Python
# modules: REDNOVEMBER_PURE=1 pytest -m engine.
ENGINE_TESTS = {"test_actions.py", "test_architecture.py", "test_data.py", "test_death_and_end.py",
                "test_engine_build.py", "test_events.py", "test_hidden.py", "test_movement.py",
                "test_properties.py", "test_rng.py", "test_rulings.py", "test_scenario.py",
                "test_setup.py", "test_variants.py"}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "engine: the rules engine's tests (run compiled and pure)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in ENGINE_TESTS:
            item.add_marker(pytest.mark.engine)


@pytest.fixture
def autosave(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A terminal game that saves on quitting saves into the test's folder, never the user's
    (the terminal tests use it for every test: ``pytestmark``)."""
    path = tmp_path / "autosave.json"
    monkeypatch.setenv("REDNOVEMBER_AUTOSAVE", str(path))
    return path


@pytest.fixture
def logging_restored() -> Iterator[None]:
    """For a test that configures logging in-process (``web.logs.configure``): puts back the root
    logger's handlers and level afterwards, so no later test logs into this test's closed stderr."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    errors = logging.getLogger("uvicorn.error")
    filters = errors.filters[:]
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    errors.filters[:] = filters
    logging.getLogger("uvicorn.access").disabled = False
