#!/usr/bin/env bash
# Install the game into .venv and start a terminal game (extra arguments go to `rednovember play`).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
if [ "$(cat "$(_venv_stamp "")" 2>/dev/null)" != "$(cat pyproject.toml constraints.txt scripts/venv.sh | sha256sum)" ]; then
  echo "Installing Red November and its libraries into .venv (the first start takes a minute or less)…" >&2
fi
ensure_venv  # pip runs only when pyproject.toml or constraints.txt changed
export REDNOVEMBER_PLAY_COMMAND="${REDNOVEMBER_PLAY_COMMAND:-$0}"  # the resume hint names this script
exec .venv/bin/rednovember play "$@"
