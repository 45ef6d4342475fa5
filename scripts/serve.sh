#!/usr/bin/env bash
# Install the game into .venv and start the web server (extra arguments go to `rednovember serve`).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet -c constraints.txt pip >/dev/null
.venv/bin/python -m pip install --quiet -c constraints.txt --build-constraint constraints.txt -e . >/dev/null
exec .venv/bin/rednovember serve "$@"
