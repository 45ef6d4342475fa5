"""The web package reads one way (issue 19): its modules, sub-packages included, import each other
without a cycle (imports only for type checking count too), none is over 600 lines, and the live
server's parts (web/hub/) depend on each other in the order its facade's docstring gives."""

from __future__ import annotations

import ast
import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from test_architecture import _closure

import rednovember.web

WEB = Path(rednovember.web.__file__).parent
PACKAGE = "rednovember.web"
MAX_LINES = 600


def _name(path: Path) -> str:
    parts = path.relative_to(WEB).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def _modules() -> dict[str, Path]:
    return {_name(p): p for p in WEB.rglob("*.py") if "migrations" not in p.parts}


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, *([target] if target else [])])


def web_graph() -> dict[str, set[str]]:
    """Module -> the modules of the web package it imports (anywhere in the module)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps: set[str] = set()
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    target = _resolve(name, is_package, node.level, node.module)
                else:
                    target = node.module or ""
                for alias in node.names:  # `from . import security` imports a module
                    sub = f"{target}.{alias.name}"
                    deps.add(sub if sub in modules else target)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def test_web_modules_import_each_other_without_a_cycle() -> None:
    graph = web_graph()
    assert f"{PACKAGE}.hub.writer" in graph and f"{PACKAGE}.app" in graph
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError as exc:  # pragma: no cover - the failure message
        raise AssertionError(f"import cycle in web/: {' -> '.join(exc.args[1])}") from None


def test_no_web_module_is_over_600_lines() -> None:
    long = {name: n for name, p in _modules().items()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_the_hub_parts_depend_on_each_other_in_one_order() -> None:
    graph = web_graph()
    order = ["runtime", "views", "games", "talk", "writer", "seats", "notices", "away", "follower",
             "deadline", "driver"]
    for i, lower in enumerate(order):
        below = _closure(graph, f"{PACKAGE}.hub.{lower}")
        higher = {f"{PACKAGE}.hub.{m}" for m in order[i + 1:]}
        assert not below & higher, f"hub.{lower} depends on {below & higher}"
    # the storage and the values the hub uses know nothing of the hub or the endpoints
    for base in ("store", "tables", "protocol", "chat", "mail"):
        below = _closure(graph, f"{PACKAGE}.{base}")
        assert not any(m.startswith(f"{PACKAGE}.hub") or m == f"{PACKAGE}.app" for m in below), \
            f"web.{base} depends on {below}"


def test_the_page_scripts_import_each_other_without_a_cycle() -> None:
    """No page imports the entry point (app.js): toasts and errors are ui.js's, moving between
    pages router.js's (issue 19)."""
    js = WEB / "static" / "js"
    graph = {p.name: set(re.findall(r'from "\./([\w-]+\.js)"', p.read_text(encoding="utf-8")))
             for p in js.glob("*.js")}
    assert "app.js" in graph and not any("app.js" in deps for deps in graph.values())
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError as exc:  # pragma: no cover - the failure message
        raise AssertionError(f"import cycle among the page scripts: {exc.args[1]}") from None
