#!/usr/bin/env bash
# Install everything the tests need into .venv, then run lint, types and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv test  # the versions of constraints.txt; pip runs only when they or pyproject.toml changed
# debian_package PACKAGE FILE: install Debian's PACKAGE (as root) unless FILE (a glob) exists.
debian_package() {
  if compgen -G "$2" >/dev/null; then return 0; fi
  if [ "$(id -u)" != 0 ]; then
    echo "warning: $1 is missing (run as root, or: sudo apt-get install $1)" >&2
    return 0
  fi
  echo "== installing Debian's $1"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null
}
# The browser tests drive Debian's Chromium (never a downloaded browser). The server tests run a
# second time on PostgreSQL (tests/web/pgcluster.py makes a throw-away cluster of its own).
debian_package chromium /usr/bin/chromium
debian_package postgresql "/usr/lib/postgresql/*/bin/initdb"
# The accessibility tests (tests/web/test_browser_a11y.py) run axe-core, pinned in
# tests/web/axe/package-lock.json and installed there (git-ignored) by npm ci when missing.
debian_package npm /usr/bin/npm
if [ ! -f tests/web/axe/node_modules/axe-core/axe.min.js ] && command -v npm >/dev/null; then
  echo "== installing axe-core (tests/web/axe/package-lock.json)"
  npm ci --prefix tests/web/axe --no-audit --no-fund --silent
fi
# mypyc compiles the rules engine with a C compiler and Python's headers (without: pure Python).
debian_package gcc /usr/bin/gcc
case "$(readlink -f .venv/bin/python)" in
  /usr/bin/*) debian_package python3-dev "/usr/include/python3*/Python.h" ;;
esac
ensure_engine  # compiles it if the compiler just came
echo "== ruff"
.venv/bin/ruff check src tests bench
echo "== mypy (strict, the whole package)"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest "$@"
if [ $# -eq 0 ]; then
  echo "== pytest: the server tests on PostgreSQL"
  RN_TEST_DB=postgresql .venv/bin/python -m pytest tests/web/test_server_*.py
  echo "== pytest: the engine tests on the pure-Python engine (REDNOVEMBER_PURE=1)"
  REDNOVEMBER_PURE=1 .venv/bin/python -m pytest -m engine
fi
