"""Which rules engine this process runs: the one compiled with mypyc, or the pure-Python modules.

A build with a C compiler (setup.py) puts compiled modules next to the ``.py`` sources of
``rednovember/rules`` and lists the sources it compiled, with their SHA-256, in ``_engine.json``.
Python's import system prefers an extension module to a ``.py`` file in the same directory, so the
compiled engine is used by default. :func:`choose` (run once, by ``rednovember/__init__.py``)
installs an import hook that loads the ``.py`` files instead when

* ``REDNOVEMBER_PURE=1`` is set, or
* a source changed since the build (an editable install after an edit): the compiled code would
  not be the code on disk, so it is not used, and a warning says how to rebuild.

The decision covers all the compiled modules at once: compiled and pure modules are never mixed.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "_engine.json"


class StaleEngineWarning(RuntimeWarning):
    """The compiled engine was built from other sources than the ``.py`` files on disk."""


def kind() -> str:
    """``"compiled"`` or ``"pure"``: the engine this process imports (imports it to tell)."""
    module = importlib.import_module(f"{__package__}.rules.state")
    loader = module.__spec__.loader if module.__spec__ else None
    return "compiled" if isinstance(loader, importlib.machinery.ExtensionFileLoader) else "pure"


_why_pure = ""  # why choose() chose the pure engine ("" when it did not)
FORCED = "REDNOVEMBER_PURE=1"  # that reason when the environment asked for the pure engine


def pure_reason() -> str:
    """Why this process runs the pure-Python engine ("" when it runs the compiled one), as
    :func:`choose` decided it: a long benchmark says so at its start (bench/bench_bots.py), since
    the games are the same but about six times slower."""
    if kind() == "compiled":
        return ""
    return _why_pure or "the compiled engine could not be loaded"


def _compiled_sources() -> dict[str, str] | None:
    """The sources the compiled engine was built from (relative path → SHA-256), or None."""
    try:
        sources: dict[str, str] = json.loads(MANIFEST.read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return sources


def _stale(sources: dict[str, str]) -> list[str]:
    """The compiled sources whose file on disk differs from the one compiled."""
    changed = []
    for name, digest in sources.items():
        try:
            now = hashlib.sha256((PACKAGE / name).read_bytes()).hexdigest()
        except OSError:
            now = ""
        if now != digest:
            changed.append(name)
    return changed


def _module_name(path: str) -> str:
    """``rules/state.py`` → ``rednovember.rules.state``; ``rules/__init__.py`` → the package."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([__package__ or "rednovember", *parts])


class _PureFinder(importlib.abc.MetaPathFinder):
    """Finds the ``.py`` file of a compiled module, ahead of its extension module."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.files = {_module_name(name): PACKAGE / name for name in sources}

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        package = [str(file.parent)] if file.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(fullname, file,
                                                      submodule_search_locations=package)


def choose() -> None:
    """Decide once per process, before any compiled module is imported."""
    global _why_pure
    if any(isinstance(f, _PureFinder) for f in sys.meta_path):
        return
    sources = _compiled_sources()
    if sources is None:  # a pure build (no C compiler), or the sources of a checkout
        _why_pure = "no compiled engine is built"
        return
    if os.environ.get("REDNOVEMBER_PURE") == "1":
        _why_pure = FORCED
    elif stale := _stale(sources):
        _why_pure = f"the compiled engine is older than {', '.join(stale)}"
        warnings.warn(f"{_why_pure}: using the pure-Python engine (rebuild with ./scripts/test.sh, "
                      "or pip install -e .)", StaleEngineWarning, stacklevel=3)
    if _why_pure:
        sys.meta_path.insert(0, _PureFinder(sources))
