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
echo "== ruff"
.venv/bin/ruff check src tests bench
echo "== mypy (strict, the whole package)"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest "$@"
