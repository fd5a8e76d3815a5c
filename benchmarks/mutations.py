"""Mutation score of the suite over the judge's most load-bearing modules (issue 34): a benchmark, not a test.

Each mutant is one small change to one function of a target module, made on the syntax tree so
that comments and strings never count: a comparison loosened or tightened (``<`` and ``<=``,
``>`` and ``>=``, ``==`` and ``!=``, ``in`` and ``not in``, ``is`` and ``is not``), ``and`` and
``or`` swapped, ``+`` and ``-`` swapped, a whole number moved by one, a ``not`` dropped, ``True``
and ``False`` swapped in a return.

The targets are four areas: the core adjudicator, the order reader, the visibility rules (who
reads what) and the throttles (the sign-on limit and the flood limit). Which tests run against a
mutant is measured, not listed by hand: once per area (and again for a test file that changed,
or for all when a target module or a support file of the tests did) the area's pool of test files
runs under ``coverage`` with one context
per test, which maps each line of a target module to the tests that execute it, with each test's
time. A mutant then runs only the tests that execute its line (its expression's lines and its
statement's first line), fastest first, up to ``--budget`` seconds of their measured time, in a
scratch copy of the repository with ``PYTHONPATH`` naming the copy (so the ``judge`` command run
by a test runs the mutant too), ``-x``: the first failure kills it. A survivor gets a second
round with the covering tests the budget left out, up to ``--second-budget`` seconds more. A line run while a test's
module- or class-scoped fixture is set up (the DATC's one CLI run of all cases, say) counts for
every test of the pool that shares that fixture. A mutant whose line no test of the pool runs
survives as ``uncovered``; one whose tests outlive ``120 s + 10 x`` their measured time is counted
killed as ``timeout`` (the change made them hang); one that grows past 2 GiB of memory fails
(killed).

Usage (from the repository's root, with the project's virtualenv):

    .venv/bin/python benchmarks/mutations.py --per-area 40 --seed 1

``--fixed`` skips the mapping: each module has its own small, fast selection of test files
(:data:`SELECTIONS`, the fastest killers first; ``--tests`` names another), run whole against each
of its mutants in one pytest process with ``-x -q -p no:xdist -p no:randomly -p no:cov``, after
one run without a mutant that must pass (its time sets the mutant's timeout: ``60 s + 5 x``).
``--per-module N`` draws N mutants of each module (seeded; 0 or a module smaller than N: all):

    .venv/bin/python benchmarks/mutations.py --fixed --per-module 0 --area throttles

``--per-area N`` draws N mutants of each area in a seeded order (0: every mutant; an area has
hundreds, so a full run takes hours on two shared cores) and says how many it drew of how many.
It prints one line per mutant, the survivors with their place and change, the share killed in
each area, and last ``mutants killed: X.XX`` (the share killed over all mutants run). Survivors
are either killed by a new test or explained in docs/testing.md.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REPLAY_OFF = "JUDGE_TEST_NO_REPLAY"
"""Every test plays its game's start itself (tests/app/snapshots.py): a line a shared start runs then
counts for each test that begins with it, and a mutant there meets every one of them."""
CACHE = ROOT / ".mutation-cache"


@dataclass(frozen=True)
class Area:
    """Target modules (``path`` or ``path:function,function`` for some functions only) and the
    pool of test files whose tests may cover them."""

    modules: tuple[str, ...]
    pool: tuple[str, ...]


AREAS: dict[str, Area] = {
    "adjudicator": Area(
        modules=(
            "judge/core/adjudicator/movement.py", "judge/core/adjudicator/movement_phase.py",
            "judge/core/adjudicator/convoys.py", "judge/core/adjudicator/retreats.py",
            "judge/core/adjudicator/retreat_options.py", "judge/core/adjudicator/adjustments.py",
            "judge/core/adjudicator/civil_disorder.py", "judge/core/adjudicator/validation.py",
            "judge/core/adjudicator/phases.py", "judge/core/adjudicator/order_sets.py",
            "judge/core/adjudicator/rules.py", "judge/core/adjudicator/board.py",
        ),
        pool=(
            "tests/core/test_datc.py", "tests/core/test_adjudicator_datc.py",
            "tests/core/test_adjudicator_phases.py", "tests/core/test_adjudicator_properties.py",
            "tests/core/test_adjudicator_rules.py", "tests/core/test_adjudicator_validation.py",
            "tests/core/test_adjudicate_cli.py", "tests/core/test_rules_house_seed002.py",
            "tests/core/test_seed_examples.py", "tests/core/test_movement_fast_reading.py",
            "tests/core/test_variant_format_rules.py", "tests/app/test_orders_sheet.py",
        ),
    ),
    "order reader": Area(
        modules=(
            "judge/lang/orders.py", "judge/lang/order_values.py", "judge/lang/order_tokens.py",
            "judge/lang/order_grammar.py", "judge/lang/order_meaning.py", "judge/lang/order_fast_path.py",
        ),
        pool=(
            "tests/lang/test_order_fast_path.py", "tests/lang/test_orders.py", "tests/lang/test_golden.py", "tests/lang/test_postal_notations.py",
            "tests/lang/test_postal_properties.py", "tests/lang/test_properties.py",
            "tests/lang/test_province_suggestions.py", "tests/lang/test_fuzz.py", "tests/lang/test_mail_reader.py",
            "tests/core/test_error_messages.py",
        ),
    ),
    "visibility": Area(
        modules=(
            "judge/app/audience/council_members.py", "judge/core/councils/roles.py", "judge/app/audience/results_readers.py",
            "judge/app/session/readers.py:seat_addresses,player_addresses,master_addresses,observer_addresses,everyone,"
            "person_address",
            "judge/app/game_state/game_facts.py:audience,is_gunboat",
            "judge/app/mail_out/press_rules.py:resolve,_check_allowed,_grey,_shown,_own_addresses,_merge,readers,stored_recipients",
            "judge/core/visibility.py", "judge/app/audience/blind_view.py",
        ),
        pool=(
            "tests/core/test_councils_roles.py", "tests/core/test_councils_spies.py",
            "tests/core/test_councils_elections.py",
            # (not test_councils_secrets_game.py: one whole game, four minutes, beyond any budget)
            "tests/app/test_councils_secrets.py",
            "tests/app/test_councils_roles.py", "tests/app/test_councils_rules.py",
            "tests/app/test_councils_treason.py", "tests/app/test_one_reader_per_mail.py",
            "tests/app/test_games_press.py", "tests/app/test_press_modes.py", "tests/app/test_press_fakes.py",
            "tests/app/test_press_limits.py", "tests/app/test_press_touch.py", "tests/app/test_press_postal.py",
            "tests/app/test_reports_summary.py", "tests/app/test_reports_history.py",
            "tests/app/test_processing_results.py", "tests/app/test_identity_whois.py", "tests/app/test_info_list.py",
            "tests/app/test_set_language.py", "tests/app/test_games_settings.py",
            "tests/core/test_visibility.py", "tests/app/test_blind_game.py",
        ),
    ),
    "throttles": Area(
        modules=("judge/app/people/throttle.py", "judge/mail/ratelimit.py", "judge/mail/triage.py"),
        pool=(
            "tests/app/test_games_signon_throttle.py", "tests/app/test_signon_limit_edges.py",
            "tests/app/test_signon_unlock.py", "tests/app/test_worker_floods.py",
            "tests/mail/test_ratelimit.py", "tests/mail/test_triage.py", "tests/mail/test_door_limits.py",
            "tests/hostile/test_floods.py", "tests/timekeeping/test_window_edges.py",
        ),
    ),
}  # fmt: skip


_ADJUDICATION_TESTS = (
    "tests/core/test_datc.py", "tests/core/test_adjudicator_rules.py", "tests/core/test_adjudicator_phases.py",
    "tests/core/test_adjudicator_validation.py", "tests/core/test_rules_house_seed002.py",
    "tests/core/test_movement_fast_reading.py", "tests/core/test_variant_format_rules.py",
)
_READER_TESTS = (
    "tests/lang/test_golden.py", "tests/lang/test_postal_notations.py", "tests/core/test_error_messages.py",
    "tests/lang/test_province_suggestions.py", "tests/lang/test_order_fast_path.py", "tests/lang/test_orders.py",
)
SELECTIONS: dict[str, tuple[str, ...]] = {
    # ``--fixed``: a module's own small, fast selection (test files or node ids, fastest killers
    # first), run whole with ``-x`` against each of its mutants, with no coverage mapping first. A
    # module not listed here is left out of a ``--fixed`` run.
    **{module: _ADJUDICATION_TESTS for module in AREAS["adjudicator"].modules},
    **{module: _READER_TESTS for module in AREAS["order reader"].modules},
    "judge/core/visibility.py": ("tests/core/test_visibility.py", "tests/app/test_blind_game.py"),
    "judge/core/councils/roles.py": (
        "tests/core/test_councils_roles.py", "tests/core/test_councils_spies.py", "tests/core/test_councils_elections.py",
    ),
    "judge/app/audience/blind_view.py": ("tests/core/test_visibility.py", "tests/app/test_blind_game.py"),
    "judge/app/audience/council_members.py": (
        "tests/app/test_councils_master_broadcast.py", "tests/app/test_councils_roles.py",
        "tests/app/test_councils_notices.py", "tests/app/test_games_settings.py",
    ),
    "judge/app/audience/results_readers.py": (
        "tests/app/test_set_language.py", "tests/app/test_game_hooks.py", "tests/app/test_identity_whois.py",
        "tests/app/test_blind_game.py",
    ),
    "judge/mail/ratelimit.py": (
        "tests/mail/test_ratelimit.py", "tests/timekeeping/test_window_edges.py", "tests/mail/test_door_limits.py",
    ),
    "judge/mail/triage.py": ("tests/mail/test_triage.py", "tests/mail/test_ratelimit.py"),
    "judge/app/people/throttle.py": (
        "tests/app/test_signon_limit_edges.py", "tests/app/test_signon_unlock.py",
        "tests/app/test_games_signon_throttle.py",
    ),
}  # fmt: skip


EQUIVALENT: dict[tuple[str, str, str, str], str] = {
    # (module, function, the mutated line as written, change): why no test can tell the mutant from
    # the code.
    # Listed, not run, and left out of the share; docs/testing.md says more of each.
    ("judge/core/adjudicator/adjustments.py", "adjudicate_adjustments", "province = where.get(reading.unit.location) or reading.unit.province",
     "or -> and"): "the topology holds every location, under province_of(location) on every shipped map",
    ("judge/core/adjudicator/phases.py", "update_centers", "province = where.get(unit.location) or unit.province",
     "or -> and"): "the topology holds every location, under province_of(location) on every shipped map",
    ("judge/core/adjudicator/adjustments.py", "adjudicate_adjustments",
     "assert reading.target is not None and reading.build_type is not None", "and -> or"):
        "an assert for the type checker: a build's reading always has both",
    ("judge/core/adjudicator/civil_disorder.py", "default_retreat", "sums.get(province_of(loc), 10_000),", "10000 -> 10001"):
        "any distance larger than every distance on a map sorts the same",
    ("judge/core/adjudicator/civil_disorder.py", "removal_order",
     "far = 10_000  # a province no centre can be reached from: farthest of all", "10000 -> 10001"):
        "any distance larger than every distance on a map sorts the same",
    ("judge/core/adjudicator/movement.py", "_support_count", "count += 1", "1 -> 2"):
        "strengths 0, 1, 1 + n become 0, 1, 1 + 2n: strengths are only compared, and the order is kept",
    ("judge/core/adjudicator/movement.py", "dislodged_by", "return -1", "1 -> 2"):
        "no caller: dislodged_by is read by nothing in judge/",
    ("judge/core/adjudicator/movement_phase.py", "adjudicate_movement",
     "if attacker[i] < 0 and (k == K_HOLD or (res[i] and (k == K_MOVE or (k != K_CONVOY and matched[i])))):",
     "or -> and"): "the shortcut only narrows: the orders it leaves out go to _judge, which says the same",
    ("judge/core/adjudicator/retreat_options.py", "retreat_options", "province = where.get(loc) or province_of(loc)",
     "or -> and"): "the topology holds every location, under province_of(location) on every shipped map",
    ("judge/core/adjudicator/retreat_options.py", "retreat_options", "if candidates is None:", "Is -> IsNot"):
        "the topology's tables are the map's own army_moves and fleet_moves",
    ("judge/core/adjudicator/adjustments.py", "adjudicate_adjustments",
     "tuple(u for u in position.units if (where.get(u.location) or u.province) not in removed)", "or -> and"):
        "the topology holds every location, under province_of(location) on every shipped map",
    ("judge/core/adjudicator/adjustments.py", "adjudicate_adjustments",
     "owing = sorted(p for p in {u.power for u in position.units} if p != NEUTRAL and board.owed(p) < 0)",
     "Lt -> LtE"): "a power owing nothing and sending no order is visited and does nothing",
    ("judge/core/adjudicator/validation.py", "_own_unit",
     "province = board.where.get(location) or province_of(location)", "or -> and"):
        "the topology holds every location, under province_of(location) on every shipped map",
    ("judge/core/adjudicator/board.py", "__init__", "unit_at[where.get(location) or province_of(location)] = unit",
     "or -> and"): "the topology holds every location, under province_of(location) on every shipped map",
    ("judge/core/adjudicator/board.py", "province", "return self.where.get(location) or province_of(location)",
     "or -> and"): "the topology holds every location, under province_of(location) on every shipped map",
    ("judge/core/adjudicator/order_sets.py", "_adopt", "return True", "return True -> return False"):
        "_adopt's answer is read by no caller",
    ("judge/lang/order_meaning.py", "build",
     'if self._phase is PhaseType.RETREAT and keywords[0].type == "RETREAT":', "Is -> IsNot"):
        "the grammar gives a removal only with R or REMOVE: the keyword is never RETREAT there",
    ("judge/lang/order_meaning.py", "_suggestions", 'name = re.split(r"[/(]", written, maxsplit=1)[0]', "1 -> 2"):
        "only the piece before the first split is used",
    ("judge/lang/order_fast_path.py", "read_canonical", "if len(meanings) >= _MAX_WORD_MEANINGS:", "GtE -> Gt"):
        "a memo's bound one entry later: memory only",
    ("judge/lang/order_fast_path.py", "_is_plain_word", "return word.isascii() and word.isalpha()", "and -> or"):
        "the fast reader then reads accented words as the general reader does (the agreement properties)",
    ("judge/app/session/readers.py", "observer_addresses",
     "return [o.address for o in game.observers if o.address and not o.held_for_bounces]", "not x -> x"):
        "no caller: observer_addresses serves only everyone(), which nothing in judge/ calls",
    ("judge/app/session/readers.py", "everyone",
     "every = player_addresses(game) + master_addresses(game) + observer_addresses(game)", "+ -> -"):
        "no caller: nothing in judge/ calls everyone()",
    ("judge/lang/order_meaning.py", "build", "units = [c for c in children if type(c) is tuple and c[0] in _UNIT_TREES]",
     "and -> or"): "every rule of grammar/orders.lark puts its units before any other subtree: units[0] and units[1] stay",
    ("judge/lang/order_fast_path.py", "_word_meaning", "kind = keywords.get(folded) if slash < 0 else None", "0 -> 1"):
        "a word with its slash first that is a keyword was refused just above: the lookup gives None either way",
    ("judge/app/people/throttle.py", "_tell", "if master.person is not None and master.person.primary_address:",
     "and -> or"): "a game master is always a person (not nullable) with an address (the last one cannot be removed)",
    ("judge/app/people/throttle.py", "count_failure", "if game is None or power is None:", "or -> and"):
        "every caller passes the game and the power both or neither",
    ("judge/mail/ratelimit.py", "check", "self._calls += 1", "1 -> 2"):
        "how often idle senders are forgotten: memory only, forgetting never changes a decision",
    ("judge/mail/ratelimit.py", "check", "if self._calls % 1024 == 0:", "Eq -> NotEq"):
        "how often idle senders are forgotten: memory only, forgetting never changes a decision",
    ("judge/mail/ratelimit.py", "check", "if self._calls % 1024 == 0:", "1024 -> 1025"):
        "how often idle senders are forgotten: memory only, forgetting never changes a decision",
    ("judge/mail/ratelimit.py", "check", "if self._calls % 1024 == 0:", "0 -> 1"):
        "how often idle senders are forgotten: memory only, forgetting never changes a decision",
    ("judge/mail/ratelimit.py", "check",
     "return RateCheck(worst, max(ends) if ends and worst is not RateDecision.ALLOW else None)", "and -> or"):
        "an end is kept exactly for a key that is not allowed: ends is empty exactly when worst is ALLOW",
}  # fmt: skip


@dataclass(frozen=True)
class Mutant:
    area: str
    path: str
    index: int  # the index-th mutable node of the module, in walk order
    line: int
    lines: tuple[int, ...]  # the lines whose coverage says which tests reach the mutant
    change: str
    function: str
    text: str  # the mutated line as written (stripped)

    @property
    def equivalent(self) -> str | None:
        """Why the mutant is equivalent, when it is listed in :data:`EQUIVALENT`."""
        return EQUIVALENT.get((_split(self.path)[0], self.function, self.text, self.change))


_COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}  # fmt: skip


def _split(module: str) -> tuple[str, frozenset[str] | None]:
    path, _, functions = module.partition(":")
    return path, frozenset(functions.split(",")) if functions else None


def _in_functions(tree: ast.Module, only: frozenset[str] | None) -> Iterator[tuple[ast.AST, int, str]]:
    """Every node inside a function body (not annotations, decorators or module constants), with
    the first line of the statement it is part of and the function's name. ``only``: the functions
    (by name) to mutate."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (only is None or node.name in only):
            for statement in node.body:
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    continue  # the docstring
                for inner, line in _with_statement(statement):
                    yield inner, line, node.name


def _with_statement(statement: ast.stmt) -> Iterator[tuple[ast.AST, int]]:
    """``statement`` and every node under it, depth first, each with its nearest statement's first line."""
    stack: list[tuple[ast.AST, int]] = [(statement, statement.lineno)]
    while stack:
        node, line = stack.pop()
        if isinstance(node, ast.stmt | ast.excepthandler):
            line = node.lineno
        yield node, line
        stack.extend((child, line) for child in reversed(list(ast.iter_child_nodes(node))))


def _candidates(tree: ast.Module, only: frozenset[str] | None) -> list[tuple[ast.AST, int, str, str]]:
    """The mutable nodes of ``tree`` with their statement's line, what the mutation does and their
    function, in a fixed order."""
    found: list[tuple[ast.AST, int, str, str]] = []
    seen: set[int] = set()
    for node, statement_line, function in _in_functions(tree, only):
        if id(node) in seen:
            continue
        seen.add(id(node))
        change = _change_of(node)
        if change is not None:
            found.append((node, statement_line, change, function))
    return found


def _change_of(node: ast.AST) -> str | None:
    if isinstance(node, ast.Compare) and type(node.ops[0]) in _COMPARE_SWAPS:
        return f"{type(node.ops[0]).__name__} -> {_COMPARE_SWAPS[type(node.ops[0])].__name__}"
    if isinstance(node, ast.BoolOp):
        return "and -> or" if isinstance(node.op, ast.And) else "or -> and"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        return "+ -> -" if isinstance(node.op, ast.Add) else "- -> +"
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return f"{node.value} -> {node.value + 1}"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return "not x -> x"
    if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant) and type(node.value.value) is bool:
        return f"return {node.value.value} -> return {not node.value.value}"
    return None


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


def mutants_of(area: str, module: str) -> list[Mutant]:
    path, only = _split(module)
    source = (ROOT / path).read_text(encoding="utf-8")
    written = source.splitlines()
    tree = ast.parse(source)
    mutants = []
    for index, (node, statement_line, change, function) in enumerate(_candidates(tree, only)):
        first = getattr(node, "lineno", statement_line)
        last = getattr(node, "end_lineno", None) or first
        lines = tuple(sorted({statement_line, *range(first, last + 1)}))
        mutants.append(Mutant(area, module, index, first, lines, change, function, written[first - 1].strip()))
    return mutants


def mutated_source(mutant: Mutant, base: Path = ROOT) -> str:
    """The module's source with the mutant in it, read from ``base`` (the scratch copy while a run
    goes on: the repository may move meanwhile)."""
    path, only = _split(mutant.path)
    tree = ast.parse((base / path).read_text(encoding="utf-8"))
    node, _line, _change, _function = _candidates(tree, only)[mutant.index]
    replacement = _apply(node)
    if replacement is not None:
        tree = _Replace(node, replacement).visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


# -- which tests reach which line ------------------------------------------------------------------


def _pool_files(area: Area) -> list[Path]:
    return sorted(path for entry in area.pool for path in _py_files(ROOT / entry))


def _py_files(path: Path) -> list[Path]:
    return sorted(path.rglob("*.py")) if path.is_dir() else [path]


def _digest(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _support_files() -> list[Path]:
    """What every test leans on: conftests, helpers, loaders (every file under tests/ but the test modules)."""
    return sorted(p for p in (ROOT / "tests").rglob("*.py") if not p.name.startswith("test_"))


def _base_fingerprint(area: Area) -> str:
    """The area's modules and the tests' support files: a change to any remaps every test file."""
    sources = sorted({_split(module)[0] for module in area.modules})
    return _digest([*(ROOT / source for source in sources), *_support_files()])


def _fingerprint(area: Area) -> str:
    """The whole-pool fingerprint of maps written before they were kept per test file."""
    sources = {_split(module)[0] for module in area.modules}
    conftests = sorted((ROOT / "tests").rglob("conftest.py"))
    return _digest([*(ROOT / source for source in sorted(sources)), *_pool_files(area), *conftests])


@dataclass
class CoverageMap:
    lines: dict[str, dict[int, list[str]]]  # module path -> line -> contexts ("nodeid" or "nodeid|setup")
    durations: dict[str, float]  # node id -> seconds (setup, call and teardown)
    passed: set[str]  # node ids that passed (a failing or skipped test kills nothing)
    shared: dict[str, list[str]]  # node id -> its module/class-scoped fixtures (keys)


def _split_by_file(raw: dict[str, Any], files: list[str]) -> dict[str, dict[str, Any]]:
    """One pool run's map cut into one map per test file (a node id starts with its file's path)."""
    def of(node: str) -> str:
        return node.partition("|")[0].split("::")[0]

    parts: dict[str, dict[str, Any]] = {}
    for file in files:
        parts[file] = {
            "hash": _digest([ROOT / file]),
            "lines": {
                module: {line: kept for line, contexts in by_line.items() if (kept := [c for c in contexts if of(c) == file])}
                for module, by_line in raw["lines"].items()
            },
            "durations": {node: seconds for node, seconds in raw["durations"].items() if of(node) == file},
            "passed": [node for node in raw["passed"] if of(node) == file],
            "shared": {node: keys for node, keys in raw["shared"].items() if of(node) == file},
        }  # fmt: skip
    return parts


def coverage_map(name: str, area: Area, *, refresh: bool) -> CoverageMap:
    """The area's map: kept per test file, and only the test files that changed (or all, when a
    module of the area or a support file of the tests changed) run again under coverage."""
    CACHE.mkdir(exist_ok=True)
    slug = name.replace(" ", "-")
    cached = CACHE / f"{slug}.json"
    base = _base_fingerprint(area)
    stored: dict[str, Any] = {}
    if not refresh and cached.exists():
        stored = json.loads(cached.read_text(encoding="utf-8"))
    elif not refresh and (old := CACHE / f"{slug}-{_fingerprint(area)}.json").exists():
        stored = {"base": base, "files": _split_by_file(json.loads(old.read_text(encoding="utf-8")), list(area.pool))}
    if stored.get("base") != base:
        stored = {"base": base, "files": {}}
    files: dict[str, Any] = {f: v for f, v in stored["files"].items() if f in area.pool}
    stale = [file for file in area.pool if files.get(file, {}).get("hash") != _digest([ROOT / file])]
    if stale:
        print(f"mapping {name}: {len(stale)} of {len(area.pool)} test files run under coverage", flush=True)
        began = time.perf_counter()
        modules = sorted({_split(module)[0] for module in area.modules})
        run = CACHE / f"{slug}.run.json"
        command = [sys.executable, str(Path(__file__).resolve()), "--map-run", str(run), *modules, "--", *stale]
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", REPLAY_OFF: "1"}
        env.pop("JUDGE_TEST_POSTGRES_URL", None)  # the engine cannot change who reads what
        subprocess.run(command, cwd=ROOT, env=env, check=True)
        files.update(_split_by_file(json.loads(run.read_text(encoding="utf-8")), stale))
        run.unlink()
        print(f"mapped {name} in {time.perf_counter() - began:.0f} s", flush=True)
    cached.write_text(json.dumps({"base": base, "files": files}), encoding="utf-8")
    covered = CoverageMap(lines=defaultdict(lambda: defaultdict(list)), durations={}, passed=set(), shared={})
    for part in files.values():
        for module, by_line in part["lines"].items():
            for line, contexts in by_line.items():
                covered.lines[module][int(line)].extend(contexts)
        covered.durations.update(part["durations"])
        covered.passed.update(part["passed"])
        covered.shared.update(part["shared"])
    return covered


def _map_run(out: Path, modules: list[str], pool: list[str]) -> int:
    """Run ``pool`` under coverage with one dynamic context per test phase; write the map to ``out``."""
    import coverage  # only the mapping needs it (the dev extra installs it)

    cov = coverage.Coverage(data_file=None, include=[str(ROOT / module) for module in modules], branch=False)
    cov.start()
    import pytest

    durations: dict[str, float] = defaultdict(float)
    passed: set[str] = set()
    failed: set[str] = set()
    shared: dict[str, list[str]] = {}

    class Contexts:
        """Names the coverage context after the running test, its setup apart."""

        @pytest.hookimpl(tryfirst=True)
        def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
            for item in items:
                info = getattr(item, "_fixtureinfo", None)
                keys = []
                for fixture, definitions in (info.name2fixturedefs.items() if info is not None else []):
                    last = definitions[-1]
                    if last.scope in ("module", "class", "package"):
                        keys.append(f"{last.baseid}::{fixture}")
                shared[item.nodeid] = keys

        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_setup(self, item: pytest.Item) -> None:
            cov.switch_context(item.nodeid + "|setup")

        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_call(self, item: pytest.Item) -> None:
            cov.switch_context(item.nodeid)

        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_teardown(self, item: pytest.Item) -> None:
            cov.switch_context(item.nodeid)

        def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
            durations[report.nodeid] += report.duration
            if report.failed:
                failed.add(report.nodeid)
            elif report.when == "call" and report.passed:
                passed.add(report.nodeid)

    status = pytest.main(
        ["-q", "-n", "0", "-p", "no:cacheprovider", "-p", "no:randomly", "-k", "not postgresql", *pool],
        plugins=[Contexts()],
    )
    cov.stop()
    if status not in (0, 1):  # not "all passed" nor "some failed": the pool did not run; keep no map
        print(f"the pool's run ended with pytest status {status}: no map written", file=sys.stderr)
        return 2
    data = cov.get_data()
    lines: dict[str, dict[int, list[str]]] = {}
    for measured in data.measured_files():
        relative = str(Path(measured).resolve().relative_to(ROOT))
        by_line = data.contexts_by_lineno(measured)
        lines[relative] = {line: sorted(c for c in contexts if c) for line, contexts in by_line.items()}
    out.write_text(json.dumps({
        "lines": lines, "durations": durations, "passed": sorted(passed - failed), "shared": shared,
    }), encoding="utf-8")  # fmt: skip
    if failed:
        print(f"{len(failed)} tests of the pool failed before any mutation; they are left out", file=sys.stderr)
    return 0


def tests_for(mutant: Mutant, covered: CoverageMap, budget: float, *, skip: frozenset[str] = frozenset()) -> list[str]:
    """The tests that run the mutant's lines (but ``skip``), fastest first, up to ``budget`` seconds
    of measured time."""
    by_line = covered.lines.get(_split(mutant.path)[0], {})
    members: dict[str, set[str]] = defaultdict(set)
    for node, keys in covered.shared.items():
        for key in keys:
            members[key].add(node)
    chosen: set[str] = set()
    for line in mutant.lines:
        for context in by_line.get(line, []):
            node, _, phase = context.partition("|")
            chosen.add(node)
            if phase == "setup":
                for key in covered.shared.get(node, []):
                    chosen |= members[key]
    ranked = sorted(
        (node for node in chosen if node in covered.passed and node not in skip),
        key=lambda node: covered.durations.get(node, 0.0),
    )
    selected: list[str] = []
    spent = 0.0
    for node in ranked:
        cost = covered.durations.get(node, 0.0)
        if selected and spent + cost > budget:
            continue
        selected.append(node)
        spent += cost
    files = list(dict.fromkeys(node.split("::")[0] for node in selected))
    return sorted(selected, key=lambda node: files.index(node.split("::")[0]))  # one file's tests together


_PYTEST_OPTIONS = ["-x", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:cov"]


def _test_env(copy: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1", REPLAY_OFF: "1"}
    env.pop("JUDGE_TEST_POSTGRES_URL", None)  # the engine cannot change what these modules compute
    return env


def run_tests(copy: Path, tests: list[str], timeout: float) -> str:
    """``killed``, ``survived`` or ``timeout`` (counted as killed: the mutant hung the tests). One
    pytest run, stopped at the first failure, one process (xdist not even loaded), no coverage, in
    a fixed order."""
    command = [sys.executable, "-m", "pytest", *_PYTEST_OPTIONS, *tests]
    try:
        result = subprocess.run(
            command, cwd=copy, env=_test_env(copy), capture_output=True, timeout=timeout, check=False,
            preexec_fn=_memory_cap,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return "timeout"
    return "survived" if result.returncode == 0 else "killed"


class ForkRunner:
    """Runs a selection in a child forked from a process that has already imported every module
    the selection imports but the judge's and the tests' own (pytest, hypothesis, SQLAlchemy,
    lark...): a mutant then pays only for importing the judge (its mutated module among them) and
    running its tests, not for the third-party imports, a third or more of a short run. The child
    runs ``pytest.main`` with the same options as :func:`run_tests`; the parent waits up to the
    timeout, then kills it."""

    def __init__(self, copy: Path, tests: list[str]) -> None:
        self.copy = copy
        probe = (
            "import sys, pytest\n"
            f"pytest.main({[*_PYTEST_OPTIONS, '--collect-only', *tests]!r})\n"
            "print('\\n'.join(sys.modules), file=open(sys.argv[1], 'w'))\n"
        )
        with tempfile.NamedTemporaryFile("r", suffix=".txt") as listing:
            subprocess.run(
                [sys.executable, "-c", probe, listing.name], cwd=copy, env=_test_env(copy),
                capture_output=True, check=False,
            )  # fmt: skip
            names = listing.read().split()
        import importlib

        for name in names:
            if name.split(".")[0] in ("judge", "tests", "conftest", "__main__") or name.startswith("test_"):
                continue
            try:
                module = importlib.import_module(name)
            except Exception:  # a module that imports only in its package's order
                continue
            where = getattr(module, "__file__", None) or ""
            assert not where.startswith((str(copy), str(ROOT / "judge"))), name
        preloaded = [name for name in sys.modules if name.split(".")[0] in ("judge", "tests", "conftest")]
        assert not preloaded, f"the judge's own modules must be imported by each mutant's child: {preloaded}"

    def run(self, tests: list[str], timeout: float) -> str:
        """``killed``, ``survived`` or ``timeout``, as :func:`run_tests`."""
        import signal

        pid = os.fork()
        if pid == 0:  # the child: never returns
            code = 3
            try:
                os.chdir(self.copy)
                os.environ.clear()
                os.environ.update(_test_env(self.copy))
                sys.path.insert(0, str(self.copy))
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, 1)
                os.dup2(null, 2)
                _memory_cap()
                import pytest

                code = int(pytest.main([*_PYTEST_OPTIONS, *tests]))
            finally:
                os._exit(code)
        deadline = time.monotonic() + timeout
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return "survived" if os.waitstatus_to_exitcode(status) == 0 else "killed"
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return "timeout"
            time.sleep(0.05)


MEMORY_CAP = 2 * 1024**3
"""Bytes of address space for one mutant's tests: a mutant that makes a loop grow a list without end
fails on MemoryError (killed) instead of filling a machine others share."""


def _memory_cap() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--per-area", type=int, default=40, help="mutants drawn from each area (0: all of them)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=30.0, help="seconds of measured test time for one mutant")
    parser.add_argument(
        "--second-budget", type=float, default=120.0,
        help="seconds more for a survivor of the first round, with the covering tests left out of it",
    )
    parser.add_argument("--area", action="append", default=[], choices=sorted(AREAS), help="an area (repeatable)")
    parser.add_argument("--only", action="append", default=[], help="a target module's path (repeatable)")
    parser.add_argument("--refresh", action="store_true", help="map the lines to the tests again, forget kills")
    parser.add_argument("--list", action="store_true", help="list the mutants drawn and their tests, run nothing")
    parser.add_argument(
        "--fixed", action="store_true",
        help="run each module's own selection (SELECTIONS) whole against its mutants: no coverage mapping",
    )
    parser.add_argument(
        "--tests", action="append", default=[],
        help="with --fixed: this test file or node id instead of the modules' selections (repeatable)",
    )
    parser.add_argument(
        "--no-fork", action="store_true",
        help="with --fixed: a fresh interpreter per mutant instead of a child of one that preloaded the libraries",
    )
    parser.add_argument(
        "--per-module", type=int, default=None,
        help="mutants drawn from each module, seeded (0: all of it); replaces --per-area",
    )
    return parser


class _Kills:
    """Mutants killed before, by module version: a mutant of a module unchanged since is counted
    killed again without running, on the rule that tests are added, not weakened (a test that is
    weakened or removed calls for ``--refresh``, which forgets every kill). Any change to the module
    forgets its own."""

    def __init__(self, *, refresh: bool) -> None:
        self.path = CACHE / "kills.json"
        CACHE.mkdir(exist_ok=True)
        self.known_keys: set[str] = set()
        if not refresh and self.path.exists():
            self.known_keys = set(json.loads(self.path.read_text(encoding="utf-8")))

    @staticmethod
    def _key(mutant: Mutant, copy: Path) -> str:
        source = (copy / _split(mutant.path)[0]).read_bytes()
        return f"{hashlib.sha256(source).hexdigest()[:16]}:{mutant.path}:{mutant.index}:{mutant.change}"

    def known(self, mutant: Mutant, copy: Path) -> bool:
        return self._key(mutant, copy) in self.known_keys

    def add(self, mutant: Mutant, copy: Path) -> None:
        self.known_keys.add(self._key(mutant, copy))
        if self.path.exists():  # another run (of another area) may have added some meanwhile
            self.known_keys |= set(json.loads(self.path.read_text(encoding="utf-8")))
        scratch = self.path.with_suffix(f".{os.getpid()}")
        scratch.write_text(json.dumps(sorted(self.known_keys)), encoding="utf-8")
        scratch.replace(self.path)


def _covered_rounds(
    copy: Path, mutant: Mutant, tests: list[str], covered: CoverageMap, second_budget: float
) -> tuple[str, list[str]]:
    """The covering tests within the budget, then, for a survivor, a second round: the covering
    tests the budget left out, up to ``second_budget`` seconds more (a mutant dies fast, so this
    costs little). The outcome, and every test run."""
    durations = covered.durations
    outcome = run_tests(copy, tests, 120.0 + 10 * sum(durations.get(n, 0.0) for n in tests))
    more = tests_for(mutant, covered, second_budget, skip=frozenset(tests))
    if outcome == "survived" and more:
        outcome = run_tests(copy, more, 120.0 + 10 * sum(durations.get(n, 0.0) for n in more))
        tests = tests + more
    return outcome, tests


def _baseline(runner: ForkRunner | None, copy: Path, tests: list[str]) -> float:
    """Seconds the selection takes on the unmutated copy; it must pass, or no mutant can be judged."""
    began = time.perf_counter()
    outcome = runner.run(tests, 600.0) if runner is not None else run_tests(copy, tests, 600.0)
    if outcome != "survived":
        raise SystemExit(f"the selection {tests} does not pass without a mutant ({outcome}): fix it first")
    seconds = time.perf_counter() - began
    print(f"baseline {seconds:.0f} s: {' '.join(tests)}", flush=True)
    return seconds


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--map-run":
        split = sys.argv.index("--")
        return _map_run(Path(sys.argv[2]), sys.argv[3:split], sys.argv[split + 1 :])
    args = arguments().parse_args()
    kills = _Kills(refresh=args.refresh)
    drawn: list[Mutant] = []
    maps: dict[str, CoverageMap] = {}
    for name, area in AREAS.items():
        if args.area and name not in args.area:
            continue
        modules = [m for m in area.modules if not args.only or _split(m)[0] in args.only]
        if not modules:
            continue
        if args.fixed and not args.tests:
            modules = [m for m in modules if _split(m)[0] in SELECTIONS]
            if not modules:
                continue
        if args.per_module is not None:
            some, every = [], []
            for module in modules:
                own = mutants_of(name, module)
                random.Random(args.seed).shuffle(own)  # each module drawn alike, whichever run
                every += own
                some += own[: args.per_module] if args.per_module else own
                print(f"  {_split(module)[0]}: {min(len(own), args.per_module or len(own))} of {len(own)}")
        else:
            every = [mutant for module in modules for mutant in mutants_of(name, module)]
            random.Random(args.seed).shuffle(every)  # each area drawn alike, whichever areas run
            some = every[: args.per_area] if args.per_area else every
        print(f"{name}: {len(some)} mutants drawn of {len(every)} over {len(modules)} modules", flush=True)
        drawn += some
        if not args.fixed:
            maps[name] = coverage_map(name, area, refresh=args.refresh)
    outcomes: dict[str, list[str]] = defaultdict(list)
    survivors: list[tuple[Mutant, str]] = []
    equivalents: list[Mutant] = []
    with tempfile.TemporaryDirectory(prefix="judge-mutants-") as scratch:
        copy = Path(scratch) / "repo"
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
            ".venv", ".git", ".mutation-cache", "__pycache__", "*.pyc", ".hypothesis", ".*_cache",
        ))  # fmt: skip
        baselines: dict[tuple[str, ...], float] = {}
        runners: dict[tuple[str, ...], ForkRunner | None] = {}
        for number, mutant in enumerate(drawn, 1):
            path = _split(mutant.path)[0]
            if args.fixed:
                tests = list(args.tests or SELECTIONS[path])
                if tuple(tests) not in baselines and not args.list:
                    runners[tuple(tests)] = None if args.no_fork else ForkRunner(copy, tests)
                    baselines[tuple(tests)] = _baseline(runners[tuple(tests)], copy, tests)
            else:
                tests = tests_for(mutant, maps[mutant.area], args.budget)
            if args.list:
                print(f"{path}:{mutant.line} {mutant.change}: {len(tests)} tests {tests[:3]}")
                continue
            began = time.perf_counter()
            if mutant.equivalent is not None:
                outcome = "equivalent"
            elif kills.known(mutant, copy):
                outcome = "killed"  # before, by the same tests of the same module
                tests = []
            elif not tests:
                outcome = "uncovered"
            else:
                original = (copy / path).read_text(encoding="utf-8")
                (copy / path).write_text(mutated_source(mutant, copy), encoding="utf-8")
                try:
                    if args.fixed:
                        timeout = 60.0 + 5 * baselines[tuple(tests)]
                        runner = runners[tuple(tests)]
                        outcome = runner.run(tests, timeout) if runner else run_tests(copy, tests, timeout)
                    else:
                        outcome, tests = _covered_rounds(copy, mutant, tests, maps[mutant.area], args.second_budget)
                finally:
                    (copy / path).write_text(original, encoding="utf-8")
            if outcome in ("killed", "timeout") and tests:
                kills.add(mutant, copy)
            if outcome == "equivalent":
                equivalents.append(mutant)
            else:
                outcomes[mutant.area].append(outcome)
            if outcome in ("survived", "uncovered"):
                survivors.append((mutant, outcome))
            print(f"[{number}/{len(drawn)}] {outcome:9} {path}:{mutant.line} {mutant.change}"
                  f" ({len(tests)} tests, {time.perf_counter() - began:.0f} s)", flush=True)  # fmt: skip
    if args.list:
        return 0
    print(f"survivors: {len(survivors)}")
    for mutant, outcome in survivors:
        print(f"  {_split(mutant.path)[0]}:{mutant.line} {mutant.change} ({outcome})")
    print(f"equivalent (listed in EQUIVALENT, not counted): {len(equivalents)}")
    for mutant in equivalents:
        print(f"  {_split(mutant.path)[0]}:{mutant.line} {mutant.change}: {mutant.equivalent}")
    killed = total = 0
    for name, results in outcomes.items():
        dead = sum(result in ("killed", "timeout") for result in results)
        print(f"{name}: {dead}/{len(results)} killed")
        killed, total = killed + dead, total + len(results)
    print(f"mutants killed: {killed / total if total else 0.0:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
