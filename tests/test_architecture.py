"""The rules package reads one way: its modules import each other without a cycle, only at the top
of a module, and never an interface (terminal, web, bots, analysis) or any I/O module."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import rednovember.bots
import rednovember.rules

RULES = Path(rednovember.rules.__file__).parent
FORBIDDEN = {"os", "sys", "random", "time", "datetime", "socket", "subprocess", "logging",
             "rednovember.terminal", "rednovember.web", "rednovember.bots",
             "rednovember.analysis", "rednovember.i18n"}


def _imports(path: Path) -> tuple[set[str], list[int], set[str]]:
    """(sibling modules imported at the top, lines of imports inside functions, absolute imports)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top: set[str] = set()
    absolute: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            top.add(node.module or "")
        elif isinstance(node, ast.ImportFrom) and node.module:
            absolute.add(node.module)
        elif isinstance(node, ast.Import):
            absolute.update(a.name for a in node.names)
    inner = [n.lineno for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
             for n in ast.walk(f) if isinstance(n, ast.Import | ast.ImportFrom)]
    return top, inner, absolute


def rules_graph() -> dict[str, set[str]]:
    return {p.stem: _imports(p)[0] for p in RULES.glob("*.py") if p.stem != "__init__"}


def test_rules_modules_import_each_other_without_a_cycle() -> None:
    graph = rules_graph()
    assert {"state", "legal", "turn", "apply", "game", "events"} <= set(graph)
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as exc:  # pragma: no cover - the failure message
        raise AssertionError(f"import cycle in rules/: {exc.args[1]}") from None
    assert order.index("state") < order.index("legal") < order.index("turn") < order.index("apply")


def test_the_turn_driver_alone_decides_what_happens_next() -> None:
    graph = rules_graph()
    below_driver = {m for m in graph if "turn" not in _closure(graph, m) and m != "turn"}
    assert {"events", "deaths", "decks", "legal", "state"} <= below_driver
    assert "turn" in graph["apply"]


def _closure(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph.get(todo.pop(), set()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_no_import_inside_a_function_and_no_io_or_interface_import() -> None:
    for path in RULES.glob("*.py"):
        _, inner, absolute = _imports(path)
        assert not inner, f"{path.name}: imports inside functions at lines {inner}"
        bad = {m for m in absolute if m in FORBIDDEN or m.split(".")[0] in FORBIDDEN}
        assert not bad, f"{path.name} imports {bad}"


def test_the_bots_import_only_at_the_top_of_a_module() -> None:
    """The bots depend on the engine and on each other one way, so no import needs to hide in a
    function (the house rule for rules/, kept in bots/ too)."""
    bots = Path(rednovember.bots.__file__).parent
    paths = sorted(bots.glob("*.py"))
    assert {p.stem for p in paths} >= {"base", "facts", "heuristic", "planning", "plans", "search",
                                       "oracle"}
    for path in paths:
        _, inner, _ = _imports(path)
        assert not inner, f"{path.name}: imports inside functions at lines {inner}"
