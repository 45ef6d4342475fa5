# Sourced by play.sh, serve.sh and test.sh (from the repository root): `ensure_venv EXTRA` makes
# .venv if needed and installs the project into it ("" the game alone, "test" everything the tests
# need) at the exact versions of constraints.txt. A stamp in .venv (a hash of pyproject.toml,
# constraints.txt and this file) records what was installed: when nothing changed, no pip runs.
# The install compiles the rules engine and the bots with mypyc (setup.py); ensure_engine recompiles it in place
# when its sources changed since (another stamp), so an edit never leaves a stale engine behind.

_venv_stamp() {  # the stamp file of an install with this extra
  echo ".venv/.rednovember-installed${1:+-$1}"
}

# pip, with the one harmless warning of this machine's pip configuration filtered out: every
# package the extra local index lacks gives "WARNING: Location 'file:///…/NAME/' is ignored: it is
# neither a file nor a directory." Everything else pip says (and its exit status) passes through.
_venv_pip() {
  local noise="^WARNING: Location '[^']*' is ignored: it is neither a file nor a directory\.\$"
  local status=0
  { .venv/bin/python -m pip "$@" 2>&1 1>&3 3>&- | { grep -v -E "$noise" >&2 || true; }; } 3>&1 \
    || status=$?
  return "$status"
}

ensure_venv() {
  local extra=${1:-} want stamp
  [ -x .venv/bin/python ] || "${PYTHON:-python3}" -m venv .venv
  want=$(cat pyproject.toml constraints.txt scripts/venv.sh | sha256sum)
  stamp=$(_venv_stamp "$extra")
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    ensure_engine
    return 0
  fi
  # setuptools too: tests/test_engine_build.py builds the sdist and wheels with the venv's own
  _venv_pip install --quiet -c constraints.txt pip setuptools >/dev/null
  _venv_pip install --quiet -c constraints.txt --build-constraint constraints.txt \
    -e ".${extra:+[$extra]}" >/dev/null
  echo "$want" >"$stamp"
  if [ -n "$extra" ]; then  # the game alone is part of any install with extras
    echo "$want" >"$(_venv_stamp "")"
  fi
  if [ "$extra" = test ]; then  # and the test extra holds the postgres one (serve.sh's)
    echo "$want" >"$(_venv_stamp postgres)"
  fi
  _engine_sources >.venv/.rednovember-engine  # the install compiled them
}

_engine_sources() {  # what the compiled engine is made of, and whether there is a C compiler
  { cat setup.py src/rednovember/rules/*.py src/rednovember/bots/*.py; command -v cc gcc || true
    compgen -G "/usr/include/python3*/Python.h" || true; } | sha256sum
}

# ensure_engine: recompile the rules engine and the bots in place (the same editable build, without touching the
# dependencies; mypyc, a few minutes) if its sources changed since the last build. Without a C
# compiler setup.py says so and the engine stays pure Python.
ensure_engine() {
  local want
  want=$(_engine_sources)
  if [ -f .venv/.rednovember-engine ] && [ "$(cat .venv/.rednovember-engine)" = "$want" ]; then
    return 0
  fi
  echo "== compiling the rules engine and the bots (mypyc): their sources changed" >&2
  _venv_pip install --quiet --no-deps -c constraints.txt --build-constraint constraints.txt -e . \
    >/dev/null
  echo "$want" >.venv/.rednovember-engine
}
