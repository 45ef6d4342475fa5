#!/usr/bin/env bash
# Install the game into .venv and start a terminal game (extra arguments go to `rednovember play`).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv  # pip runs only when pyproject.toml or constraints.txt changed
exec .venv/bin/rednovember play "$@"
