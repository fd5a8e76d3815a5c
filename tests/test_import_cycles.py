"""No import circles: a ratchet on the one that judge.app inherited.

Modules import each other at module level (``TYPE_CHECKING`` blocks aside).
A circle makes every module in it depend on all the others: none can be
tested, read or moved alone. ``LEGACY_CIRCLE`` lists the modules caught in
the one circle that existed when this test was written; the test fails when
a module outside that list joins a circle (a new circle), and when a listed
module has left it (take it off the list, so it can never come back).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "judge"

LEGACY_CIRCLE: frozenset[str] = frozenset()


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    name = ".".join(parts)
    return name.removesuffix(".__init__")


def _runtime_imports(tree: ast.Module) -> list[ast.ImportFrom | ast.Import]:
    """Imports executed when the module loads (those under ``if TYPE_CHECKING:`` are not)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            skipped.update(id(sub) for sub in ast.walk(node))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in skipped
    ]


def import_graph() -> dict[str, set[str]]:
    modules = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level or not node.module:
                    continue
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    if target in modules:
                        graph[name].add(target)
                    elif node.module in modules:
                        graph[name].add(node.module)
            else:
                graph[name].update(alias.name for alias in node.names if alias.name in modules)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative (the graph is a few hundred modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, pending = work[-1]
            if pending:
                nxt = pending.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph[nxt])))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components


def test_no_new_module_joins_an_import_circle() -> None:
    in_circles = set().union(*(c for c in strongly_connected(import_graph()) if len(c) > 1))
    newcomers = sorted(in_circles - LEGACY_CIRCLE)
    assert not newcomers, f"modules caught in an import circle: {newcomers}"


def test_modules_that_left_the_circle_are_off_the_list() -> None:
    in_circles = set().union(*(c for c in strongly_connected(import_graph()) if len(c) > 1))
    left = sorted(LEGACY_CIRCLE - in_circles)
    assert not left, f"these modules left the import circle; remove them from LEGACY_CIRCLE: {left}"


def test_the_check_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert [c for c in strongly_connected(graph) if len(c) > 1] == [{"a", "b", "c"}]
