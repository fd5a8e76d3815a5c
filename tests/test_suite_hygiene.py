"""No test that cannot fail (issue 34): patterns that make an assertion vacuous are refused.

- an assertion ending in ``or True`` (always true);
- a statement after a ``return`` (or ``raise``) in the same block of a test module (never runs);
- ``pytest.mark.skipif`` without a ``reason``, or a skip mark used bare (a skip must say what
  optional tool is missing);
- ``pytest.skip`` with no message.
Read with :mod:`ast`, so strings and comments that merely mention these do not count.
"""

from __future__ import annotations

import ast
import functools
import itertools
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent


@functools.cache
def _parsed() -> tuple[tuple[Path, ast.Module], ...]:
    return tuple(
        (path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        for path in sorted(TESTS.rglob("*.py"))
    )


def _modules() -> Iterator[tuple[Path, ast.Module]]:
    yield from _parsed()


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(TESTS.parent)}:{getattr(node, 'lineno', '?')}"


def _always_true(test: ast.expr) -> bool:
    return isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) and any(
        isinstance(value, ast.Constant) and value.value is True for value in test.values
    )


def test_no_assertion_is_always_true() -> None:
    found = [
        _where(path, node)
        for path, module in _modules()
        for node in ast.walk(module)
        if isinstance(node, ast.Assert) and (_always_true(node.test) or (
            isinstance(node.test, ast.Constant) and bool(node.test.value) and node.test.value is not Ellipsis
        ))
    ]  # fmt: skip
    assert not found, found


def test_no_statement_follows_a_return_or_raise() -> None:
    found = []
    for path, module in _modules():
        for node in ast.walk(module):
            for field in ("body", "orelse", "finalbody"):
                block = getattr(node, field, None)
                if not isinstance(block, list):
                    continue
                for before, after in itertools.pairwise(block):
                    if isinstance(before, ast.Return | ast.Raise):
                        found.append(_where(path, after))
    assert not found, found


def _is_skip_mark(call: ast.Call, name: str) -> bool:
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr == name


def _bare_skip_marks(module: ast.Module) -> list[ast.Attribute]:
    """``pytest.mark.skip``/``skipif`` used without being called: no reason can be given."""
    called = {id(node.func) for node in ast.walk(module) if isinstance(node, ast.Call)}
    return [
        node for node in ast.walk(module)
        if isinstance(node, ast.Attribute) and node.attr in ("skip", "skipif") and id(node) not in called
        and isinstance(node.value, ast.Attribute) and node.value.attr == "mark"
    ]  # fmt: skip


def test_every_skip_says_why() -> None:
    found = []
    for path, module in _modules():
        found += [_where(path, node) for node in _bare_skip_marks(module)]
        for node in ast.walk(module):
            if not isinstance(node, ast.Call):
                continue
            if _is_skip_mark(node, "skipif") and not any(k.arg == "reason" for k in node.keywords):
                found.append(_where(path, node))
            if _is_skip_mark(node, "skip") and not node.args and not any(k.arg == "reason" for k in node.keywords):
                found.append(_where(path, node))
    assert not found, found


def test_the_checks_catch_what_they_look_for() -> None:
    """The patterns, planted in a scrap of code, are each found (the checks can fail)."""
    planted = ast.parse(
        "def test_x():\n"
        "    assert f() or True\n"
        "    return 1\n"
        "    assert g()\n"
        "@pytest.mark.skipif(cond)\n"
        "def test_y():\n"
        "    pytest.skip()\n"
        "@pytest.mark.skip\n"
        "def test_z():\n"
        "    pass\n"
    )
    asserts = [n for n in ast.walk(planted) if isinstance(n, ast.Assert)]
    assert _always_true(asserts[0].test) and not _always_true(asserts[1].test)
    calls = [n for n in ast.walk(planted) if isinstance(n, ast.Call)]
    assert any(_is_skip_mark(c, "skipif") and not c.keywords for c in calls)
    assert any(_is_skip_mark(c, "skip") and not c.args for c in calls)
    assert [node.lineno for node in _bare_skip_marks(planted)] == [8]
    body = planted.body[0].body  # type: ignore[attr-defined]
    assert isinstance(body[1], ast.Return) and len(body) == 3
