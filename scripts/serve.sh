#!/usr/bin/env bash
# Install the game into .venv and start the web server (extra arguments go to `rednovember serve`).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv  # pip runs only when pyproject.toml or constraints.txt changed
exec .venv/bin/rednovember serve "$@"
