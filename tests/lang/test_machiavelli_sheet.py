"""A year of the Renaissance game played from order sheets as players write them (issue 33):
the sheet reader (English and French) and the one phase step the deadline calls
(:func:`judge.core.machiavelli.season.play_phase`): the first adjustments with income and upkeep,
a spring with a bribe and moves, a summer, a fall, and the next adjustments."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.board import AUTONOMOUS, MachiavelliBoard, load_board
from judge.core.machiavelli.campaign import MachiavelliPosition, opening_position
from judge.core.machiavelli.money import finances
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.machiavelli.orders import Bribe, BribeKind, Expense, Target
from judge.core.machiavelli.season import SeasonResult, play_phase
from judge.core.machiavelli.serialization import position_from_json, position_to_json
from judge.core.orders import Retreat
from judge.core.phase import PhaseType
from judge.core.units import UnitRef, UnitType
from judge.lang.machiavelli_sheet import read_sheet

BOARD: MachiavelliBoard = load_board()
MAP = BOARD.game_map
SEED = "sheet-year"


def first_adjustments() -> MachiavelliPosition:
    """The game as it opens: the adjustments of 1453, empty treasuries."""
    start = opening_position(BOARD)
    return replace(start, phase=BOARD.first_phase, money=finances(BOARD, start))


def keep_everything(position: MachiavelliPosition, power: str) -> list[str]:
    lines = [
        f"MAINTAIN {unit.type.name[0]} {unit.location}"
        for unit in position.units
        if unit.power == power
    ]
    return lines + [
        f"MAINTAIN G {city}" for city, owner in position.garrisons.items() if owner == power
    ]


def play(
    position: MachiavelliPosition,
    sheets: Mapping[str, Sequence[str]],
    options: MachiavelliOptions | None = None,
) -> SeasonResult:
    orders = {}
    for power, lines in sheets.items():
        sheet = read_sheet(lines, MAP, position.phase.type)
        assert not sheet.errors, sheet.errors
        orders[power] = sheet.orders
    result = play_phase(BOARD, position, orders, options or MachiavelliOptions(), seed=SEED)
    # What the judge stores is the JSON form, read back for the next phase.
    stored = position_to_json(result.position)
    kept = position_from_json(BOARD, stored)
    assert position_to_json(kept) == stored
    return replace(result, position=kept)


def test_a_year_from_the_sheets_income_upkeep_a_bribe_and_moves() -> None:
    winter = play(
        first_adjustments(),
        {power: keep_everything(first_adjustments(), power) for power in MAP.powers},
    )
    assert winter.income is not None and str(winter.position.phase) == "S1454M"
    income = {report.power: report.total for report in winter.income.reports}
    treasuries = winter.position.money.treasuries if winter.position.money else {}
    florence_units = sum(u.power == "FLORENCE" for u in winter.before.units)
    assert treasuries["FLORENCE"] == income["FLORENCE"] - 3 * florence_units

    spring = play(winter.position, {
        "FLORENCE": ["EXPENSE 1: 6 DUCATS DISBAND G SIE", "A ARE - SIE", "A FLO H"],
        "MILAN": ["A MIL - PIA"],
    })  # fmt: skip
    assert spring.money is not None and spring.campaign is not None
    (bribe,) = [v for v in spring.money.verdicts if isinstance(v.order, Expense)]
    assert bribe.order == Expense(1, 6, Bribe(BribeKind.DISBAND, Target("SIE", garrison=True)))
    assert bribe.outcome is Outcome.SUCCEEDS and bribe.paid == 6
    assert "SIE" not in spring.position.garrisons and "SIE" in winter.position.garrisons
    assert (
        spring.position.money
        and spring.position.money.treasuries["FLORENCE"] == treasuries["FLORENCE"] - 6
    )
    assert {(u.power, u.location) for u in spring.position.units} >= {
        ("FLORENCE", "SIE"),
        ("MILAN", "PIA"),
    }
    assert spring.position.phase.season.name == "SUMMER"

    summer = play(spring.position, {"FLORENCE": ["A SIE - PIO"]})
    assert summer.position.phase.season.name == "FALL"
    fall = play(
        summer.position,
        {"FLORENCE": ["A PIO BESIEGE"]} if "PIO" in summer.position.garrisons else {},
    )
    assert fall.position.phase.type is PhaseType.ADJUSTMENT

    before = fall.position.money.treasuries if fall.position.money else {}
    last = play(
        fall.position, {power: keep_everything(fall.position, power) for power in MAP.powers}
    )
    assert last.income is not None and str(last.position.phase) == "S1455M"
    upkeep = {power: 3 * (sum(u.power == power for u in fall.position.units)
                          + sum(o == power for o in fall.position.garrisons.values())) for power in MAP.powers}  # fmt: skip
    for report in last.income.reports:
        kept = min(upkeep[report.power], 3 * ((before[report.power] + report.total) // 3))
        assert last.position.money and last.position.money.treasuries[report.power] == (
            before[report.power] + report.total - kept
        ), report.power


def test_the_same_phase_played_again_gives_the_same_dice() -> None:
    start = first_adjustments()
    sheets = {power: keep_everything(start, power) for power in MAP.powers}
    assert position_to_json(play(start, sheets).position) == position_to_json(
        play(start, sheets).position
    )
    other, again = (
        play_phase(BOARD, start, {}, seed="another game").income,
        play(start, sheets).income,
    )
    assert other is not None and again is not None
    assert [r.rolls for r in other.reports] != [r.rolls for r in again.reports]


def test_french_sheets_read_the_same_orders() -> None:
    english = read_sheet(
        ["DEPENSE 1: 6 DUCATS DISPERSE G SIE", "A ARE - SIE"], MAP, PhaseType.MOVEMENT, french=True
    )
    assert (
        english.orders
        == read_sheet(
            ["EXPENSE 1: 6 DUCATS DISBAND G SIE", "A ARE - SIE"], MAP, PhaseType.MOVEMENT
        ).orders
    )
    french_winter = read_sheet(
        ["ENTRETIENT A FLO", "CONSTRUIT A PSA"], MAP, PhaseType.ADJUSTMENT, french=True
    )
    assert (
        french_winter.orders
        == read_sheet(["MAINTAIN A FLO", "BUILD A PSA"], MAP, PhaseType.ADJUSTMENT).orders
    )


def test_a_line_that_cannot_be_read_is_named_and_the_rest_is_kept() -> None:
    sheet = read_sheet(
        ["A ARE - SIE", "EXPENSE 9: 6 DUCATS DISBAND G SIE", "A ZZZ - SIE"], MAP, PhaseType.MOVEMENT
    )
    assert [line.text for line in sheet.errors] == [
        "EXPENSE 9: 6 DUCATS DISBAND G SIE",
        "A ZZZ - SIE",
    ]
    assert "numbered 1 to 4" in sheet.errors[0].error
    assert len(sheet.orders) == 1


def test_a_build_given_in_a_campaign_is_set_aside_not_played() -> None:
    start = play(
        first_adjustments(), {p: keep_everything(first_adjustments(), p) for p in MAP.powers}
    ).position
    winter_order = read_sheet(["MAINTAIN A FLO"], MAP, PhaseType.ADJUSTMENT).orders
    result = play_phase(BOARD, start, {"FLORENCE": winter_order}, seed=SEED)
    assert result.misplaced == (("FLORENCE", winter_order[0]),)


def test_a_retreat_phase_reads_a_move_as_the_retreat() -> None:
    sheet = read_sheet(["A SIE - PER", "A FLO - SIE"], MAP, PhaseType.RETREAT)
    assert sheet.orders == (
        Retreat(UnitRef(UnitType.ARMY, "SIE"), "PER"),
        Retreat(UnitRef(UnitType.ARMY, "FLO"), "SIE"),
    )


@pytest.mark.parametrize("line", ["BESIEGE", "EXPENSE 1: 6 DUCATS DISBAND G SIE"])
def test_a_retreat_phase_refuses_what_is_no_retreat(line: str) -> None:
    sheet = read_sheet([line if " " in line else f"A SIE {line}"], MAP, PhaseType.RETREAT)
    assert not sheet.orders and sheet.errors


def test_autonomous_garrisons_remain_autonomous_between_phases() -> None:
    start = first_adjustments()
    after = play(start, {p: keep_everything(start, p) for p in MAP.powers}).position
    assert {c for c, o in after.garrisons.items() if o == AUTONOMOUS} == {
        c for c, o in start.garrisons.items() if o == AUTONOMOUS
    }


WORDS = st.sampled_from(
    [
        "A", "F", "G", "EXPENSE", "1:", "9", "12", "DUCATS", "DISBAND", "BUY", "BRIBE", "COUNTER-BRIBE", "BORROW",
        "FOR", "2", "YEARS", "PAY", "GIVE", "TO", "BANK", "MILAN", "SIE", "ARE", "FLO", "-", "S", "H", "C", "BESIEGE",
        "LIFT", "SIEGE", "MAINTAIN", "BUILD", "REMOVE", "DÉPENSE", "ÉTÉ", "99999999999999999999", ":", "/", "NONE",
        "PACIFY", "FAMINE", "RELIEF", "CAUSE", "REBELLION", "ARE$", "SIE#", "VEN", "AUTONOMOUS",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.lists(WORDS, max_size=8).map(" ".join), st.text(max_size=40)), max_size=5
    ),
    st.sampled_from(list(PhaseType)),
    st.booleans(),
)
def test_any_text_is_read_or_refused_by_name_never_raised(
    lines: list[str], phase: PhaseType, french: bool
) -> None:
    """A hostile sheet: every line is an order or a named refusal; nothing escapes the reader."""
    sheet = read_sheet(lines, MAP, phase, french=french)
    assert len(sheet.lines) == sum(1 for line in lines if line.strip())
    assert all(line.error for line in sheet.errors)
