"""Mutation score of the suite over the judge's most load-bearing modules (issue 34): a benchmark, not a test.

Each mutant is one small change to one function of a target module, made on the syntax tree so
that comments and strings never count: a comparison loosened or tightened (``<`` and ``<=``,
``>`` and ``>=``, ``==`` and ``!=``, ``in`` and ``not in``), ``and`` and ``or`` swapped, ``+``
and ``-`` swapped, a whole number moved by one, a ``not`` dropped, ``True`` and ``False``
swapped in a return. The mutants of all targets are drawn in a seeded order (``--sample`` of
them, or all), each is written into a scratch copy of the repository, and the tests that cover
its module run there (``-x``, first failure wins) with ``PYTHONPATH`` naming the copy, so
subprocesses (the ``judge`` command) run the mutant too. A mutant is *killed* when those tests
fail (or time out), and *survives* when they pass.

Usage (from the repository's root, with the project's virtualenv):

    .venv/bin/python benchmarks/mutations.py --sample 60 --seed 1

It prints one line per mutant, then the survivors with their place and change, and last
``mutants killed: X.XX`` (the share killed). Survivors are either killed by a new test or
explained in docs/testing.md (an equivalent mutant, or why it cannot matter).
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TARGETS: dict[str, tuple[str, ...]] = {
    # The core adjudicator: the DATC, the rules, the phases and the property tests.
    "judge/core/adjudicator/movement.py": ("tests/core/test_datc.py", "tests/core/test_adjudicator_datc.py"),
    "judge/core/adjudicator/convoys.py": ("tests/core/test_datc.py", "tests/core/test_adjudicator_datc.py"),
    "judge/core/adjudicator/retreats.py": ("tests/core/test_datc.py", "tests/core/test_adjudicator_phases.py"),
    "judge/core/adjudicator/adjustments.py": (
        "tests/core/test_datc.py", "tests/core/test_adjudicator_phases.py", "tests/core/test_adjudicator_rules.py",
    ),
    "judge/core/adjudicator/validation.py": (
        "tests/core/test_datc.py", "tests/core/test_adjudicator_validation.py",
    ),
    "judge/core/adjudicator/phases.py": (
        "tests/core/test_adjudicator_phases.py", "tests/app/test_orders_sheet.py", "tests/core/test_datc.py",
    ),
    # The order reader.
    "judge/lang/orders.py": ("tests/lang/test_orders.py", "tests/lang/test_golden.py", "tests/lang/test_postal_notations.py"),
    # The throttles.
    "judge/mail/ratelimit.py": ("tests/mail/test_ratelimit.py",),
    "judge/app/people/throttle.py": (
        "tests/app/test_games_signon_throttle.py", "tests/app/test_signon_limit_edges.py",
        "tests/app/test_signon_unlock.py",
    ),
    # The clock of a phase (deadlines, grace, notices).
    "judge/timekeeping/lateness.py": ("tests/timekeeping",),
}


@dataclass(frozen=True)
class Mutant:
    path: str
    index: int  # the index-th mutable node of the module, in walk order
    line: int
    change: str


_COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}  # fmt: skip


def _in_functions(tree: ast.Module) -> Iterator[ast.AST]:
    """Every node inside a function body (not annotations, decorators or module constants)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for statement in node.body:
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    continue  # the docstring
                yield from ast.walk(statement)


def _candidates(tree: ast.Module) -> list[tuple[ast.AST, str]]:
    """The mutable nodes of ``tree`` with what the mutation does, in a fixed order."""
    found: list[tuple[ast.AST, str]] = []
    seen: set[int] = set()
    for node in _in_functions(tree):
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ast.Compare) and type(node.ops[0]) in _COMPARE_SWAPS:
            swapped = _COMPARE_SWAPS[type(node.ops[0])]
            found.append((node, f"{type(node.ops[0]).__name__} -> {swapped.__name__}"))
        elif isinstance(node, ast.BoolOp):
            found.append((node, "and -> or" if isinstance(node.op, ast.And) else "or -> and"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            found.append((node, "+ -> -" if isinstance(node.op, ast.Add) else "- -> +"))
        elif isinstance(node, ast.Constant) and type(node.value) is int and not isinstance(node.value, bool):
            found.append((node, f"{node.value} -> {node.value + 1}"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            found.append((node, "not x -> x"))
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Constant) and type(node.value.value) is bool:
            found.append((node, f"return {node.value.value} -> return {not node.value.value}"))
    return found


def _apply(node: ast.AST) -> ast.AST | None:
    """Mutate ``node`` in place, or return the node that replaces it."""
    if isinstance(node, ast.Compare):
        node.ops[0] = _COMPARE_SWAPS[type(node.ops[0])]()
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, ast.BinOp):
        node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
    elif isinstance(node, ast.Constant):
        node.value = node.value + 1
    elif isinstance(node, ast.UnaryOp):
        return node.operand
    elif isinstance(node, ast.Return) and isinstance(node.value, ast.Constant):
        node.value.value = not node.value.value
    return None


class _Replace(ast.NodeTransformer):
    def __init__(self, target: ast.AST, replacement: ast.AST) -> None:
        self.target, self.replacement = target, replacement

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            return self.replacement
        return super().generic_visit(node)


def mutants_of(path: str) -> list[Mutant]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return [
        Mutant(path, index, getattr(node, "lineno", 0), change)
        for index, (node, change) in enumerate(_candidates(tree))
    ]


def mutated_source(mutant: Mutant) -> str:
    tree = ast.parse((ROOT / mutant.path).read_text(encoding="utf-8"))
    node, _change = _candidates(tree)[mutant.index]
    replacement = _apply(node)
    if replacement is not None:
        tree = _Replace(node, replacement).visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


def run_tests(copy: Path, tests: tuple[str, ...], timeout: float) -> str:
    """``killed``, ``survived`` or ``timeout`` (counted as killed: the mutant hung the tests)."""
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("JUDGE_TEST_POSTGRES_URL", None)  # the engine cannot change what these modules compute
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider",
               "-p", "no:randomly", "-k", "not postgresql", *tests]  # fmt: skip
    try:
        result = subprocess.run(command, cwd=copy, env=env, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return "timeout"
    return "survived" if result.returncode == 0 else "killed"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=0, help="how many mutants (0: all of them)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds for one mutant's tests")
    parser.add_argument("--only", action="append", default=[], help="a target module (repeatable)")
    args = parser.parse_args()
    targets = {path: tests for path, tests in TARGETS.items() if not args.only or path in args.only}
    mutants = [mutant for path in targets for mutant in mutants_of(path)]
    random.Random(args.seed).shuffle(mutants)
    if args.sample:
        mutants = mutants[: args.sample]
    print(f"{len(mutants)} mutants over {len(targets)} modules")
    survivors: list[Mutant] = []
    killed = 0
    with tempfile.TemporaryDirectory(prefix="judge-mutants-") as scratch:
        copy = Path(scratch) / "repo"
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "data", "__pycache__", "*.pyc"))
        for number, mutant in enumerate(mutants, 1):
            original = (copy / mutant.path).read_text(encoding="utf-8")
            (copy / mutant.path).write_text(mutated_source(mutant), encoding="utf-8")
            began = time.perf_counter()
            try:
                outcome = run_tests(copy, targets[mutant.path], args.timeout)
            finally:
                (copy / mutant.path).write_text(original, encoding="utf-8")
            killed += outcome != "survived"
            if outcome == "survived":
                survivors.append(mutant)
            print(f"[{number}/{len(mutants)}] {outcome:8} {mutant.path}:{mutant.line} {mutant.change}"
                  f" ({time.perf_counter() - began:.0f} s)", flush=True)  # fmt: skip
    print(f"survivors: {len(survivors)}")
    for mutant in survivors:
        print(f"  {mutant.path}:{mutant.line} {mutant.change}")
    share = killed / len(mutants) if mutants else 0.0
    print(f"mutants killed: {share:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
