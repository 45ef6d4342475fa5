#!/usr/bin/env bash
# Install everything the tests need into .venv, then run lint, types and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null
.venv/bin/python -m pip install --quiet -e '.[test]'
echo "== ruff"
.venv/bin/ruff check src tests bench
echo "== mypy (engine)"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest "$@"
