#!/usr/bin/env bash
# Install the game into .venv and start the web server (extra arguments go to `rednovember serve`).
# The install includes the PostgreSQL driver (the postgres extra), so --db postgresql+psycopg://…
# works as well as the default SQLite file.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv postgres  # pip runs only when pyproject.toml or constraints.txt changed
exec .venv/bin/rednovember serve "$@"
