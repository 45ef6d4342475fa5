#!/usr/bin/env bash
# Install everything the tests need into .venv, then run lint, types and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
# The exact versions of constraints.txt (pip itself, the build backend and every dependency).
.venv/bin/python -m pip install --quiet -c constraints.txt pip >/dev/null
.venv/bin/python -m pip install --quiet -c constraints.txt --build-constraint constraints.txt -e '.[test]'
# The browser tests drive Debian's Chromium (never a downloaded browser).
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "== installing Debian's chromium"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "warning: /usr/bin/chromium missing (run as root or: sudo apt-get install chromium)" >&2
  fi
fi
echo "== ruff"
.venv/bin/ruff check src tests bench
echo "== mypy (engine)"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest "$@"
