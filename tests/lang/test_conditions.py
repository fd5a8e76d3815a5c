"""Conditions of IF blocks: reading terms with the map, and evaluating strictly left to right."""

from __future__ import annotations

import pytest

from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from judge.lang.conditions import And, Not, Or, UnitPresent, Word, holds, read_term
from judge.lang.errors import CommandError
from judge.lang.mail import parse_mail

STANDARD = load_map("standard")


def words(text: str) -> list[Word]:
    out: list[Word] = []
    position = 0
    for word in text.split():
        position = text.index(word, position)
        out.append(Word(word, position + 1))
        position += len(word)
    return out


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("ruhr", UnitPresent("RUH")),
        ("french army ruhr", UnitPresent("RUH", "FRANCE", UnitType.ARMY)),
        ("ruhr army french", UnitPresent("RUH", "FRANCE", UnitType.ARMY)),
        ("not fr a ruh", Not(UnitPresent("RUH", "FRANCE", UnitType.ARMY))),
        ("not not ruh", UnitPresent("RUH")),
        ("english channel", UnitPresent("ENG")),
        ("english fleet english channel", UnitPresent("ENG", "ENGLAND", UnitType.FLEET)),
        ("russian stp", UnitPresent("STP", "RUSSIA")),
        ("f north sea", UnitPresent("NTH", None, UnitType.FLEET)),
    ],
)
def test_terms(text: str, condition: UnitPresent | Not) -> None:
    assert read_term(words(text), STANDARD) == condition


def test_french_names_and_adjectives() -> None:
    term = read_term(words("armée française Ruhr"), STANDARD, french=True)
    assert term == UnitPresent("RUH", "FRANCE", UnitType.ARMY)
    assert read_term(words("russe mer du Nord"), STANDARD, french=True) == UnitPresent("NTH", "RUSSIA")


def test_an_unknown_province_suggests_and_points_at_it() -> None:
    with pytest.raises(CommandError) as caught:
        read_term(words("russian siliesia"), STANDARD)
    assert "siliesia" in caught.value.message
    assert "did you mean" in caught.value.message
    assert caught.value.column == 9


def test_a_term_without_a_province_is_refused() -> None:
    with pytest.raises(CommandError, match="names no province"):
        read_term(words("not russian army"), STANDARD)


def test_two_powers_in_one_term_are_refused() -> None:
    with pytest.raises(CommandError):
        read_term(words("russian german kiel"), STANDARD)


UNITS = (
    Unit("GERMANY", UnitType.ARMY, "KIE"),
    Unit("RUSSIA", UnitType.FLEET, "STP/SC"),
    Unit("ENGLAND", UnitType.FLEET, "NTH"),
)


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        (UnitPresent("KIE"), True),
        (UnitPresent("KIE", "GERMANY", UnitType.FLEET), False),
        (UnitPresent("STP", "RUSSIA"), True),
        (Not(UnitPresent("BER")), True),
        # strictly left to right: (NTH or BER) and MUN = False; NTH or (BER and MUN) would be True
        (And(Or(UnitPresent("NTH"), UnitPresent("BER")), UnitPresent("MUN")), False),
        (Or(And(UnitPresent("BER"), UnitPresent("MUN")), UnitPresent("NTH")), True),
    ],
)
def test_holds(condition: UnitPresent | Not | And | Or, expected: bool) -> None:
    assert holds(condition, UNITS) is expected


def test_and_or_read_left_to_right_without_precedence() -> None:
    result = parse_mail("signon Edt pw\nif nth or ber and mun\nF Nth H\nendif\n")
    conditional = result.commands[1]
    condition = conditional.branches[0].condition  # type: ignore[attr-defined]
    assert condition == And(Or(UnitPresent("NTH"), UnitPresent("BER")), UnitPresent("MUN"))
    assert holds(condition, UNITS) is False


def test_parentheses_group_and_the_line_end_closes_them() -> None:
    result = parse_mail("signon Edt pw\nif nth or (ber and mun\nF Nth H\nendif\n")
    assert result.errors == ()
    condition = result.commands[1].branches[0].condition  # type: ignore[attr-defined]
    assert condition == Or(UnitPresent("NTH"), And(UnitPresent("BER"), UnitPresent("MUN")))
    assert holds(condition, UNITS) is True


def test_a_long_chain_evaluates_without_recursion_limits() -> None:
    condition: UnitPresent | And | Or = UnitPresent("KIE")
    for _ in range(5_000):
        condition = Or(condition, UnitPresent("BER"))
    assert holds(condition, UNITS) is True


def test_a_bare_end_closes_an_if_block_as_endif() -> None:
    """Issue 13: players close a block with END; the orders after it are outside the block."""
    from judge.lang import commands as c

    result = parse_mail(
        "SIGNON Fdemo secret\nIF French Army Burgundy\nA Burgundy - Munich\nEND\nA Paris - Gascony\n", STANDARD
    )
    assert result.ok, result.errors
    conditional = next(command for command in result.commands if isinstance(command, c.Conditional))
    assert conditional.closed
    assert len(conditional.branches[0].body) == 1
    assert isinstance(result.commands[-1], c.OrderCommand)
    last = result.commands[-1]
    assert last.read is not None and last.read.text == "A Paris - Gascony"
