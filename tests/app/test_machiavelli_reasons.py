"""The Renaissance game's results (issue 33): every unit no order named is listed as holding, and
every reason the core gives for an order's fate reaches a French reader in French.

The core's reasons are read from its source (each string its verdicts, refusals and ``why_not``
helpers can give, an f-string's values replaced by a number), so a reason added to the core
without its line in :mod:`judge.app.machiavelli.verdict_reasons` fails here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import judge
from judge.app.machiavelli.stored_phase import StoredSheet, play_stored_phase
from judge.app.machiavelli.verdict_reasons import REASONS, reason_text, shown_reason
from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.campaign import opening_position
from judge.core.machiavelli.money import finances
from judge.core.machiavelli.serialization import position_to_json
from judge.i18n import translation

PACKAGE = Path(judge.__file__).resolve().parent
BOARD = load_board()
FRENCH = translation("fr").gettext
ENGLISH = translation("en").gettext

_REASON_ARGUMENT = {"Verdict": 3, "MoneyVerdict": 3, "AdjustmentVerdict": 3, "refuse": 1, "_verdict": 3}
"""The calls that take a reason, and the place of the reason among their arguments."""
_REASON_NAMES = {"reason", "found"}
"""The variables the core keeps a reason in before giving it."""
_REASON_FUNCTIONS = ("why_not", "dismiss_unit", "bribe_price")
"""The helpers whose return value is a reason (``bribe_price``: the second of its pair)."""


def _leaves(node: ast.AST, constants: dict[str, str]) -> Iterator[str]:
    """The strings an expression can be: a literal, an f-string (each value as ``7``), either
    branch of a conditional, a module constant, the second of a pair."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        text = ""
        for part in node.values:
            if isinstance(part, ast.Constant):
                text += str(part.value)
            elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name) and part.value.id in constants:
                text += constants[part.value.id]
            else:
                text += "7"
        yield text
    elif isinstance(node, ast.IfExp):
        yield from _leaves(node.body, constants)
        yield from _leaves(node.orelse, constants)
    elif isinstance(node, ast.Name) and node.id in constants:
        yield constants[node.id]
    elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
        yield from _leaves(node.elts[1], constants)


def _reasons_in(path: Path, only_function: str | None = None) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants: dict[str, str] = {}
    for statement in tree.body:
        target = statement.targets[0] if isinstance(statement, ast.Assign) else getattr(statement, "target", None)
        value = getattr(statement, "value", None)
        if isinstance(target, ast.Name) and isinstance(value, ast.Constant) and isinstance(value.value, str):
            constants[target.id] = value.value
    scope: ast.AST = tree
    if only_function is not None:
        (scope,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == only_function]
    found: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in _REASON_ARGUMENT:
                if len(node.args) > _REASON_ARGUMENT[name]:
                    found.update(_leaves(node.args[_REASON_ARGUMENT[name]], constants))
                for keyword in node.keywords:
                    if keyword.arg == "reason":
                        found.update(_leaves(keyword.value, constants))
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            names |= {e.id for t in targets if isinstance(t, ast.Tuple) for e in t.elts if isinstance(e, ast.Name)}
            if names & _REASON_NAMES:
                found.update(_leaves(node.value, constants))
        elif isinstance(node, ast.FunctionDef) and any(part in node.name for part in _REASON_FUNCTIONS):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Return) and inner.value is not None:
                    found.update(_leaves(inner.value, constants))
    found.discard("")
    return found


def core_reasons() -> set[str]:
    """Every reason the Renaissance core can give, and the plain adjudicator's words for the moves."""
    reasons: set[str] = set()
    for path in sorted((PACKAGE / "core" / "machiavelli").glob("*.py")):
        reasons |= _reasons_in(path)
    return reasons | _reasons_in(PACKAGE / "core" / "adjudicator" / "movement_phase.py", "_judge")


def _named(value: str) -> str:
    return value


def test_the_scan_finds_the_reasons_it_must() -> None:
    reasons = core_reasons()
    assert len(reasons) >= 70, sorted(reasons)  # a scan that stopped reading would find few
    for known in ("no famine there", "famine relief costs 7 ducats", "no order", "no order, dislodged", "bounce", "cut"):
        assert known in reasons


def test_every_reason_the_core_gives_has_a_message_of_the_catalogs() -> None:
    unknown = sorted(reason for reason in core_reasons() if reason_text(reason, ENGLISH, _named) is None)
    assert not unknown, f"reasons without a line in judge/app/machiavelli/verdict_reasons.py: {unknown}"


@pytest.mark.parametrize("reason", sorted(core_reasons()))
def test_each_reason_reads_in_french_without_its_english_words(reason: str) -> None:
    french = reason_text(reason, FRENCH, _named)
    assert french is not None and french != reason, reason
    assert len(reason.split()) == 1 or reason not in french  # "famine" is a French word too


def test_a_reasons_values_come_back_and_a_power_by_its_name() -> None:
    name = {"VENICE": "Venise"}.get
    assert reason_text("famine relief costs 3 ducats", FRENCH, lambda v: name(v) or v) == (
        "secourir une famine coûte 3 ducats"
    )
    assert reason_text("the strait is held by VENICE", FRENCH, lambda v: name(v) or v) == (
        "le détroit est tenu par Venise"
    )
    assert reason_text("bounce, dislodged", ENGLISH, _named) == "bounce, dislodged"
    assert reason_text("no order, dislodged", ENGLISH, _named) == "no order, holds, dislodged"


def test_a_reason_the_table_does_not_know_is_english_only() -> None:
    sentence = "Army in Rome cannot reach Adriatic Sea"  # the plain adjudicator's OrderError
    assert shown_reason(sentence, ENGLISH, _named, "en") == sentence
    assert shown_reason(sentence, FRENCH, _named, "fr") == ""


def test_every_reason_maps_to_a_distinct_catalog_line() -> None:
    assert len(set(REASONS.values())) == len(REASONS)


def spring(treasuries: dict[str, int]) -> dict[str, Any]:
    """The first campaign of the scenario, with these treasuries."""
    start = opening_position(BOARD)
    kept = position_to_json(replace(start, money=finances(BOARD, start)))
    kept["treasuries"] = {**kept["treasuries"], **treasuries}
    return kept


SHEETS = {
    "FLORENCE": (
        "EXPENSE 1: 3 DUCATS FAMINE RELIEF PSA",  # no famine there
        "EXPENSE 2: 2 DUCATS PACIFY REBELLION PSA",  # no rebellion there
        "EXPENSE 3: 1 DUCATS DISBAND A ARE",  # a power does not bribe its own unit
        "BORROW 5 DUCATS FOR 3 YEARS",  # a loan runs for 1 or 2 years
        "A ARE - PER",  # bounce
        "G FLO H",  # no such garrison
        "F PSA BESIEGE",  # no garrison to besiege
    ),
    "PAPACY": (
        "A PER H",
        "PAY 3 DUCATS TO BANK",  # no debt to the bank
        "EXPENSE 1: 4 DUCATS BUY A ARE",  # too few ducats
    ),
}


def test_a_french_players_results_hold_no_english_failure_reason() -> None:
    played = play_stored_phase(
        BOARD,
        spring({"FLORENCE": 20, "PAPACY": 20}),
        {power: StoredSheet(lines, french=True) for power, lines in SHEETS.items()},
        seed="reasons",
    )
    assert not played.unread
    result = played.result
    assert result.money is not None and result.campaign is not None
    given = [v.reason for v in (*result.money.verdicts, *result.campaign.verdicts, *result.campaign.unordered)]
    assert {"no famine there", "a loan runs for 1 or 2 years", "bounce", "no such garrison", "no order"} <= set(given)
    french = played.texts(BOARD, "fr").for_reader(BOARD.game_map.powers)
    english = played.texts(BOARD, "en").for_reader(BOARD.game_map.powers)
    for reason in {r for r in given if r}:
        assert f"({reason})" not in french and f": {reason}" not in french, reason
        assert f"({reason})" in english or f": {reason_text(reason, ENGLISH, _named)}" in english, reason
    assert "(pas de famine à cet endroit)" in french and "(rebond)" in french


def test_every_unit_and_garrison_without_an_order_is_listed_as_holding() -> None:
    played = play_stored_phase(
        BOARD, spring({}), {"FLORENCE": StoredSheet(("A ARE - PER",))}, seed="no orders"
    )
    english = played.texts(BOARD, "en").for_reader(())
    french = played.texts(BOARD, "fr").for_reader(())
    start = opening_position(BOARD)
    for unit in start.units:
        name = BOARD.game_map.power_display_name(unit.power, "en")
        line = f"  {name}: {unit.type.value} {unit.location}: no order, holds"
        assert (line in english) is (unit.location != "ARE"), (unit, english)
    for city, owner in start.garrisons.items():
        if owner in BOARD.game_map.powers:
            assert f"  {BOARD.game_map.power_display_name(owner, 'en')}: G {city}: no order, holds" in english
        else:  # the autonomous garrisons never order: not listed
            assert f": G {city}: no order" not in english
    assert "Florence: A ARE - PER: fails (bounce)" in english
    assert "Florence: A FLO: no order, holds" in english
    assert "Florence: A FLO: pas d'ordre, tient" in french
    # each power's lines together, its orders first
    lines = [line for line in english.splitlines() if line.startswith("  Florence:")]
    assert lines[0] == "  Florence: A ARE - PER: fails (bounce)"
