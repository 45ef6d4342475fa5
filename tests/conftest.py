"""Test-wide settings: the Hypothesis profiles. The rules tests' helpers are in helpers.py."""

from __future__ import annotations

import os
from pathlib import Path

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
