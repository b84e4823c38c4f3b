"""The engine's module structure (issue 20): no import circle among app/engine's modules, counting
imports made only for type checking, and no module over ~600 lines without a reason.

The operations see the run through app/engine/protocols.py, the host model, placement and
results functions import sim_state.py (the run's state), and simulate.py (the step loop) sits on
top: a circle would make one module's import depend on another's half-initialised globals, and
mypyc compile the pair as one knot.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "app" / "engine"
PACKAGE = "app.engine"
MAX_LINES = 650  # "~600"
REASON = "Over 600 lines:"  # a longer module's docstring says why after this


def engine_imports(path: Path) -> set[str]:
    """The app.engine modules `path` imports anywhere in it (also under TYPE_CHECKING, also in a
    function), as module names without the package."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                base = node.module or ""
            elif node.level == 0 and (node.module or "").startswith(PACKAGE + "."):
                base = node.module[len(PACKAGE) + 1:]
            else:
                continue
            if base:
                found.add(base.split(".")[0])
            else:  # from . import x
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + "."):
                    found.add(alias.name[len(PACKAGE) + 1:].split(".")[0])
    return found


def import_graph(engine: Path = ENGINE) -> dict[str, set[str]]:
    modules = {p.stem: p for p in engine.glob("*.py") if p.stem != "__init__"}
    return {name: engine_imports(path) & set(modules) - {name} for name, path in modules.items()}


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle (its modules in order, the first again at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for dep in sorted(graph[name]):
            if state.get(dep) == 1:
                return path[path.index(dep):] + [dep]
            if dep not in state:
                circle = walk(dep)
                if circle:
                    return circle
        path.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state:
            circle = walk(name)
            if circle:
                return circle
    return None


def test_the_engine_modules_import_each_other_in_no_circle():
    circle = find_circle(import_graph())
    assert circle is None, "import circle: " + " -> ".join(circle)


def test_the_circle_finder_finds_one():
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b"}, "b": set()}) is None


def test_the_operations_do_not_import_the_simulation():
    """protocols.py keeps the operations apart from the run that drives them."""
    graph = import_graph()
    run_side = {"simulate", "sim_state", "host_terms", "host_model", "host_solve", "placement", "placement_ctx",
                "results"}
    for name in [n for n in graph if n.startswith("op_") or n in ("ops", "run_index")]:
        assert not graph[name] & run_side, f"app/engine/{name}.py imports {sorted(graph[name] & run_side)}"


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_no_engine_module_is_over_600_lines_without_a_reason(path):
    lines = path.read_text(encoding="utf-8").count("\n")
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    assert lines <= MAX_LINES or REASON in doc, (
        f"app/engine/{path.name} has {lines} lines: split it, or say why in its docstring ('{REASON} ...')")
