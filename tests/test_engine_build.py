"""The compiled rules engine and bots (setup.py compiles ``rules/`` and ``bots/`` with mypyc) and
their pure-Python fallback (``rednovember/_engine.py``): the same games both ways,
``REDNOVEMBER_PURE=1`` forcing the pure modules, a build older than its sources never used, no C
compiler giving a pure build, and a wheel built from the sdist carrying the compiled engine."""

from __future__ import annotations

import json
import mmap
import os
import runpy
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from rednovember import _engine

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "rednovember"
PURE_RUN = os.environ.get("REDNOVEMBER_PURE") == "1"  # scripts/test.sh's second run


def can_compile() -> bool:
    """A C compiler, the Python headers and mypyc: what setup.py needs to compile the engine."""
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return False
    return shutil.which(os.environ.get("CC", "cc")) is not None and headers.exists()


built = pytest.mark.skipif(not _engine.MANIFEST.exists(), reason="no compiled engine in src/")
compiled_run = pytest.mark.skipif(PURE_RUN, reason="builds and compares both engines itself")

# A seeded 4-player game of random bots: the engine it ran on and a digest of its final state.
GAME = """
import hashlib, json, rednovember._engine as e
from rednovember.bots import make_bot
from rednovember.rules import Config, new_game, serialize
g = new_game(Config(4, seed=11))
bots = [make_bot("random", 11 * 16 + p) for p in range(4)]
while g.result is None:
    g.apply(bots[g.player_to_move].choose(g))
state = json.dumps(serialize.to_dict(g), sort_keys=True).encode()
print(e.kind(), len(g.history), hashlib.sha256(state).hexdigest())
"""


# A seeded 3-player game of the heuristic and the fast search (the bots' compiled hot paths:
# planning, rollouts, evaluation): the engine, the number of actions and a digest of the final state
# (its log and every action).
BOTS_GAME = """
import hashlib, json, rednovember._engine as e
from rednovember.bots import make_bot
from rednovember.rules import Config, new_game, serialize
g = new_game(Config(3, seed=5))
bots = [make_bot("search:fast", 7), make_bot("heuristic", 8), make_bot("search:fast", 9)]
while g.result is None:
    g.apply(bots[g.player_to_move].choose(g))
state = json.dumps(serialize.to_dict(g), sort_keys=True).encode()
print(e.kind(), len(g.history), hashlib.sha256(state).hexdigest())
"""


def python(code: str, pure: bool, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, REDNOVEMBER_PURE="1" if pure else "")
    if path is not None:
        env["PYTHONPATH"] = str(path)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=600, check=True)


def test_the_engine_is_compiled_unless_forced_pure() -> None:
    want = "pure" if PURE_RUN or not can_compile() else "compiled"
    assert _engine.kind() == want, "rebuild the engine: ./scripts/test.sh, or pip install -e ."


@built
@pytest.mark.parametrize("game", [GAME, BOTS_GAME], ids=["random", "heuristic-and-search"])
def test_rednovember_pure_forces_the_pure_modules_with_the_same_game(game: str) -> None:
    compiled = python(game, pure=False).stdout.split()
    pure = python(game, pure=True).stdout.split()
    assert (compiled[0], pure[0]) == ("compiled", "pure")
    assert compiled[1:] == pure[1:]


@built
@compiled_run
def test_checksum_identical_compiled_and_pure() -> None:
    bench = str(ROOT / "bench" / "bench_engine.py")
    run = f"import runpy, sys; sys.argv = ['', '--checksum', '--checksum-seeds', '1']; " \
          f"runpy.run_path({bench!r}, run_name='__main__')"
    compiled = json.loads(python(run, pure=False).stdout)
    pure = json.loads(python(run, pure=True).stdout)
    assert (compiled["engine"], pure["engine"]) == ("compiled", "pure")
    assert compiled["games"] == pure["games"] == 208  # one seed of every configuration
    assert compiled["checksum"] == pure["checksum"]


@built
def test_a_source_changed_since_the_build_falls_back_to_pure_with_a_warning(tmp_path: Path) -> None:
    copy = tmp_path / "rednovember"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    where = "import rednovember, rednovember._engine as e; print(e.kind(), rednovember.__file__)"
    kind, file = python(where, pure=False, path=tmp_path).stdout.split()
    assert (kind, Path(file).parent) == ("compiled", copy)
    legal = copy / "rules" / "legal.py"
    legal.write_text(legal.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    edited = python(where, pure=False, path=tmp_path)
    assert edited.stdout.split()[0] == "pure"
    assert "StaleEngineWarning" in edited.stderr and "rules/legal.py" in edited.stderr
    why = "import rednovember._engine as e; print(e.pure_reason())"
    assert python(why, pure=False, path=tmp_path).stdout.strip() == \
        "the compiled engine is older than rules/legal.py"
    assert python(why, pure=True, path=tmp_path).stdout.strip() == "REDNOVEMBER_PURE=1"
    legal.write_text(legal.read_text(encoding="utf-8").removesuffix("\n# edited\n"),
                     encoding="utf-8")
    assert python(why, pure=False, path=tmp_path).stdout.strip() == ""  # compiled again


def _unpacked_sdist(tmp_path: Path, name: str) -> Path:
    """The sdist built from this checkout, unpacked into tmp_path/name."""
    dist = tmp_path / "dist"
    if not dist.exists():
        dist.mkdir()
        subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
                        "build_meta.build_sdist(sys.argv[1])", str(dist)],
                       cwd=ROOT, check=True, capture_output=True, timeout=600)
    [sdist] = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
        tar.extractall(tmp_path / name, filter="data")
    assert any(n.endswith("/setup.py") for n in names)
    assert any(n.endswith("/rednovember/rules/state.py") for n in names)
    assert not [n for n in names if n.endswith(".so") or n.endswith("_engine.json")]
    [tree] = (tmp_path / name).iterdir()
    return tree


Built = tuple[Path, subprocess.CompletedProcess[str]]


def _wheel(tree: Path, out: Path, cc: str | None = None) -> Built:
    env = dict(os.environ, REDNOVEMBER_PURE="")
    if cc is not None:
        env["CC"] = cc
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps",
                           "--no-build-isolation",
                           "--wheel-dir", str(out), str(tree)], env=env, capture_output=True,
                          text=True, check=True, timeout=1200)
    [wheel] = out.glob("*.whl")
    return wheel, done


@compiled_run
@pytest.mark.skipif(not can_compile(), reason="no C compiler, Python headers or mypyc")
def test_a_wheel_built_from_the_sdist_carries_the_compiled_engine(tmp_path: Path) -> None:
    wheel, _ = _wheel(_unpacked_sdist(tmp_path, "src1"), tmp_path / "wheel")
    assert "-none-any" not in wheel.name  # a platform wheel: it holds extension modules
    names = zipfile.ZipFile(wheel).namelist()
    assert "rednovember/_engine.json" in names
    assert [n for n in names if n.startswith("rednovember/_engine__mypyc") and n.endswith(".so")]
    for module in ("rules/state", "rules/legal", "rules/apply", "rules/turn", "bots/facts",
                   "bots/planning", "bots/plans", "bots/heuristic", "bots/search"):
        assert f"rednovember/{module}.py" in names
        assert [n for n in names if n.startswith(f"rednovember/{module}.") and n.endswith(".so")]
    installed = tmp_path / "installed"
    zipfile.ZipFile(wheel).extractall(installed)  # what pip install puts in site-packages
    compiled = python(GAME, pure=False, path=installed).stdout.split()
    pure = python(GAME, pure=True, path=installed).stdout.split()
    assert (compiled[0], pure[0]) == ("compiled", "pure")
    assert compiled[1:] == pure[1:]


@compiled_run
def test_without_a_c_compiler_the_build_is_pure_python(tmp_path: Path) -> None:
    wheel, done = _wheel(_unpacked_sdist(tmp_path, "src2"), tmp_path / "wheel",
                         cc="/nonexistent/cc")
    assert "no working C compiler" in done.stdout + done.stderr
    names = zipfile.ZipFile(wheel).namelist()
    assert "rednovember/rules/state.py" in names
    assert not [n for n in names if n.endswith(".so") or n.endswith("_engine.json")]
    installed = tmp_path / "installed"
    zipfile.ZipFile(wheel).extractall(installed)
    assert python(GAME, pure=False, path=installed).stdout.split()[0] == "pure"


def test_a_rebuild_never_writes_into_a_module_a_running_process_has_mapped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An editable rebuild (``./scripts/test.sh`` after a pull, beside a running server) puts each
    compiled module in place with setup.py's build_ext, whose copy (setuptools') removes the old
    file before writing the new one: the server's mapping of the old file keeps the old code,
    where writing into that file would change the code under it."""
    import setuptools
    from setuptools.dist import Distribution

    monkeypatch.setattr(setuptools, "setup", lambda **_: None)
    build = runpy.run_path(str(ROOT / "setup.py"))["BuildEngine"](Distribution())
    loaded, built = tmp_path / "state.so", tmp_path / "build" / "state.so"
    built.parent.mkdir()
    loaded.write_bytes(b"old!" * 4096)
    built.write_bytes(b"new!" * 4096)
    built.chmod(0o755)
    with loaded.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        assert build.copy_file(str(built), str(loaded)) == (str(loaded), True)
        assert mapped[:8] == b"old!old!" and mapped[-4:] == b"old!"
    assert loaded.read_bytes() == built.read_bytes() and loaded.stat().st_mode & 0o777 == 0o755
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build", "state.so"]  # no temp left
