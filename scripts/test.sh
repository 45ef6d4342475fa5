#!/usr/bin/env bash
# Install everything the tests need into .venv, then run lint, types and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv test  # the versions of constraints.txt; pip runs only when they or pyproject.toml changed
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
# The server tests run a second time on PostgreSQL (Debian's server; tests/web/pgcluster.py makes
# a throw-away cluster of its own, nothing is configured on the machine).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "== installing Debian's postgresql"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  else
    echo "warning: PostgreSQL missing (run as root or: sudo apt-get install postgresql)" >&2
  fi
fi
echo "== ruff"
.venv/bin/ruff check src tests bench
echo "== mypy (strict, the whole package)"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest "$@"
if [ $# -eq 0 ]; then
  echo "== pytest: the server tests on PostgreSQL"
  RN_TEST_DB=postgresql .venv/bin/python -m pytest tests/web/test_server_*.py
fi
