"""Build: the rules engine (``src/rednovember/rules``) and the bots (``src/rednovember/bots``: their
planning and rollouts are the hot path of every search, win chance and hint) compiled with mypyc when
it can be, the pure Python modules otherwise. Everything else about the package is in pyproject.toml.

The compiled modules sit next to their ``.py`` sources (the ``.py`` files are always installed):
``rednovember/_engine__mypyc*.so`` holds the code, one small ``rules/NAME*.so`` or
``bots/NAME*.so`` per module loads it,
and ``rednovember/_engine.json`` lists the sources it was compiled from with their SHA-256.
``rednovember/_engine.py`` chooses at import time: the compiled modules unless ``REDNOVEMBER_PURE=1``
is set or a source changed since the build (then the pure modules, with a warning).

No C compiler (or no Python headers, or no mypy) gives a pure build with a warning, never a failed
install. ``REDNOVEMBER_PURE=1`` at build time also gives a pure build.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "rednovember"
COMPILED = ["rules", "bots"]  # the packages compiled, under src/rednovember
# Not compiled: invariants.py (InvariantError derives from AssertionError, which mypyc cannot
# subclass natively; the checks run on loading a save and in the tests, not in play), and the
# packages' __init__.py (a compiled package cannot import its pure submodules).
PURE = {"rules/invariants.py", "rules/__init__.py", "bots/__init__.py"}
GROUP = "rednovember._engine"  # the shared library: rednovember/_engine__mypyc*.so
MANIFEST = "_engine.json"  # written next to it: the sources it was compiled from


def _say(message: str) -> None:
    print(f"rednovember build: {message}", file=sys.stderr)


def sources() -> list[Path]:
    return sorted(p for package in COMPILED for p in (PACKAGE / package).glob("*.py")
                  if p.relative_to(PACKAGE).as_posix() not in PURE)


def manifest() -> dict[str, Any]:
    """What ``rednovember._engine`` compares with the sources at import time."""
    files = {p.relative_to(PACKAGE).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in sources()}
    return {"group": GROUP, "sources": files}


def have_c_compiler() -> bool:
    """Compile a one-line extension source, as build_ext will (compiler and Python headers)."""
    from setuptools._distutils import ccompiler, sysconfig

    compiler: Any = ccompiler.new_compiler()
    sysconfig.customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.c"
        src.write_text("#include <Python.h>\nint probe(void) { return 0; }\n", encoding="utf-8")
        try:
            compiler.compile([str(src)], output_dir=tmp,
                             include_dirs=[sysconfig.get_python_inc()])
        except Exception as exc:  # CompileError, or no compiler program at all
            _say(f"no working C compiler ({exc}); building the pure-Python engine")
            return False
    return True


def extensions() -> list[Any]:
    if os.environ.get("REDNOVEMBER_PURE") == "1":
        _say("REDNOVEMBER_PURE=1: building the pure-Python engine")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypy (mypyc) is not installed; building the pure-Python engine")
        return []
    if not have_c_compiler():
        return []
    paths = [str(p.relative_to(ROOT)) for p in sources()]
    try:
        return list(mypycify(paths, group_name=GROUP, opt_level="3", debug_level="0"))
    except (Exception, SystemExit) as exc:  # mypyc reports its errors and exits
        _say(f"mypyc cannot compile the engine ({exc!r}); building the pure-Python engine")
        return []


class BuildEngine(build_ext):
    """build_ext that runs mypyc (only when extensions are built: not for the sdist or the
    metadata), writes the manifest, and falls back to pure if compiling fails."""

    def run(self) -> None:
        compiled = manifest()  # the sources as mypyc reads them (an edit meanwhile: stale)
        self.extensions = extensions()
        if not self.extensions:
            return
        for ext in self.extensions:  # what setuptools' finalize_options does for each (no Library)
            ext._full_name = self.get_ext_fullname(ext.name)
            self.ext_map[ext._full_name] = ext
            ext._links_to_dynamic = ext._needs_stub = False
            ext._file_name = self.get_ext_filename(ext._full_name)
        try:
            super().run()
        except Exception as exc:  # a compiler error: the .py modules are the engine
            _say(f"compiling the engine failed ({exc}); the pure-Python engine is installed")
            self._remove_built()
            return
        root = PACKAGE if self.inplace or getattr(self, "editable_mode", False) else \
            Path(self.build_lib) / "rednovember"
        root.mkdir(parents=True, exist_ok=True)
        (root / MANIFEST).write_text(json.dumps(compiled, indent=1) + "\n", encoding="utf-8")

    def _remove_built(self) -> None:
        for ext in self.extensions:
            for base in (self.build_lib, str(ROOT / "src")):
                path = Path(base) / self.get_ext_filename(self.get_ext_fullname(ext.name))
                path.unlink(missing_ok=True)
        (PACKAGE / MANIFEST).unlink(missing_ok=True)

    def get_outputs(self) -> list[str]:
        outputs: list[str] = super().get_outputs()
        if self.extensions and not (self.inplace or getattr(self, "editable_mode", False)):
            outputs.append(str(Path(self.build_lib) / "rednovember" / MANIFEST))
        return outputs


# A stand-in for the extensions mypycify makes when build_ext runs (BuildEngine.run): it marks the
# wheel as platform-specific.
setup(ext_modules=[Extension(f"{GROUP}__mypyc", sources=[])], cmdclass={"build_ext": BuildEngine})
