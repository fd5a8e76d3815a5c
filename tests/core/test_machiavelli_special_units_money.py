"""SET SPECIAL with money: what raising, keeping and bribing a special unit costs, and the one
special unit a power may have (the classic Judge's rules file, "Special units (optional)" and
"List of allowed expenditures and bribes"), played from the 1454 opening.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.adjustments import (
    Dismiss,
    Maintain,
    Raise,
    adjudicate_basic_adjustments,
)
from judge.core.machiavelli.board import MachiavelliBoard, load_board
from judge.core.machiavelli.campaign import MachiavelliPosition, opening_position
from judge.core.machiavelli.money import MoneyResult, adjudicate_money, adjudicate_money_adjustments
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.machiavelli.orders import Bribe, BribeKind, Expense, MoneyOrder, Target
from judge.core.machiavelli.special_units import SpecialKind, UnitPlace
from judge.core.machiavelli.treasury import Finances
from judge.core.phase import Phase
from judge.core.units import Unit, UnitType

A = UnitType.ARMY
MILITIA, MERCENARIES, PROFESSIONALS = SpecialKind.MILITIA, SpecialKind.MERCENARIES, SpecialKind.PROFESSIONALS
FLO, PAP = "FLORENCE", "PAPACY"
BOARD: MachiavelliBoard = load_board()


def at(
    phase: str,
    treasuries: Mapping[str, int],
    specials: Mapping[UnitPlace, SpecialKind] | None = None,
    *,
    units: Sequence[Unit] | None = None,
    garrisons: Mapping[str, str] | None = None,
) -> MachiavelliPosition:
    start = opening_position(BOARD)
    return replace(
        start,
        phase=Phase.parse(phase),
        units=tuple(units) if units is not None else start.units,
        garrisons=MappingProxyType(dict(garrisons)) if garrisons is not None else start.garrisons,
        money=Finances(MappingProxyType({power: treasuries.get(power, 0) for power in BOARD.game_map.powers})),
        specials=MappingProxyType(dict(specials or {})),
    )


def treasury(position: MachiavelliPosition, power: str) -> int:
    assert position.money is not None
    return position.money.treasury(power)


def outcomes(verdicts: Sequence[object], power: str) -> dict[object, tuple[Outcome, str]]:
    return {v.order: (v.outcome, v.reason) for v in verdicts if getattr(v, "power", None) == power}  # type: ignore[attr-defined]


def money(position: MachiavelliPosition, orders: Mapping[str, Sequence[MoneyOrder]]) -> MoneyResult:
    return adjudicate_money(BOARD, position, orders, MachiavelliOptions(), seed="special-units")


WITHOUT_ARE = [u for u in opening_position(BOARD).units if u.province != "ARE"]


# ----------------------------------------------------------------------------- builds and upkeep


def test_special_units_raising_elite_mercenaries_costs_six_ducats() -> None:
    position = at("W1454A", {FLO: 6}, units=WITHOUT_ARE)
    build = Raise("ARE", A, special=MERCENARIES)
    result = adjudicate_money_adjustments(BOARD, position, {FLO: [build]})
    assert outcomes(result.verdicts, FLO)[build] == (Outcome.SUCCEEDS, "")
    assert treasury(result.position, FLO) == 0
    assert result.position.specials == {UnitPlace(FLO, "ARE"): MERCENARIES}
    assert [e.ducats for e in result.ledger if e.power == FLO] == [-6]


def test_special_units_raising_elite_professionals_costs_nine_ducats() -> None:
    build = Raise("ARE", A, special=PROFESSIONALS)
    short = adjudicate_money_adjustments(BOARD, at("W1454A", {FLO: 8}, units=WITHOUT_ARE), {FLO: [build]})
    assert outcomes(short.verdicts, FLO)[build] == (Outcome.INVALID, "not enough ducats")
    assert short.position.specials == {}
    paid = adjudicate_money_adjustments(BOARD, at("W1454A", {FLO: 9}, units=WITHOUT_ARE), {FLO: [build]})
    assert outcomes(paid.verdicts, FLO)[build] == (Outcome.SUCCEEDS, "")
    assert treasury(paid.position, FLO) == 0


def test_special_units_a_special_garrison_is_raised_in_a_city() -> None:
    build = Raise("FLO", garrison=True, special=MILITIA)
    result = adjudicate_money_adjustments(BOARD, at("W1454A", {FLO: 6}), {FLO: [build]})
    assert outcomes(result.verdicts, FLO)[build] == (Outcome.SUCCEEDS, "")
    assert result.position.garrisons["FLO"] == FLO
    assert result.position.specials == {UnitPlace(FLO, "FLO", True): MILITIA}


def test_special_units_keeping_one_costs_what_raising_it_does() -> None:
    position = at("W1454A", {FLO: 9}, {UnitPlace(FLO, "ARE"): PROFESSIONALS})
    result = adjudicate_money_adjustments(BOARD, position, {FLO: [Maintain("ARE")]})
    assert treasury(result.position, FLO) == 0
    assert result.position.specials == {UnitPlace(FLO, "ARE"): PROFESSIONALS}
    poorer = adjudicate_money_adjustments(BOARD, replace(position, money=Finances(MappingProxyType({FLO: 8}))), {FLO: [Maintain("ARE")]})
    assert outcomes(poorer.verdicts, FLO)[Maintain("ARE")] == (Outcome.INVALID, "not enough ducats")
    assert Unit(FLO, A, "ARE") not in poorer.position.units
    assert poorer.position.specials == {}


def test_special_units_one_special_unit_a_power() -> None:
    """A second special build fails while the first is in play; removing the first frees the way."""
    position = at("W1454A", {FLO: 30}, {UnitPlace(FLO, "FLO"): MERCENARIES}, units=WITHOUT_ARE)
    second = Raise("ARE", A, special=MILITIA)
    result = adjudicate_money_adjustments(BOARD, position, {FLO: [Maintain("FLO"), second]})
    assert outcomes(result.verdicts, FLO)[second] == (Outcome.INVALID, "one special unit a power")
    freed = adjudicate_money_adjustments(BOARD, position, {FLO: [Dismiss("FLO"), second]})
    assert outcomes(freed.verdicts, FLO)[second] == (Outcome.SUCCEEDS, "")
    assert freed.position.specials == {UnitPlace(FLO, "ARE"): MILITIA}


def test_special_units_none_without_the_option_or_without_money() -> None:
    build = Raise("ARE", A, special=MERCENARIES)
    result = adjudicate_money_adjustments(
        BOARD, at("W1454A", {FLO: 30}, units=WITHOUT_ARE), {FLO: [build]}, MachiavelliOptions(special=False)
    )
    assert outcomes(result.verdicts, FLO)[build][0] is Outcome.INVALID
    basic = MachiavelliOptions(money=False)
    position = replace(at("W1454A", {}, units=WITHOUT_ARE), money=None)
    found = adjudicate_basic_adjustments(BOARD, position, {FLO: [build]}, basic)
    assert [(v.outcome, v.reason) for v in found.verdicts if v.order == build] == [
        (Outcome.INVALID, "no special units in this game (SET SPECIAL, with money)")
    ]


# ----------------------------------------------------------------------------- bribes


def _papal_army_in_perugia(kind: SpecialKind, ducats: int) -> MachiavelliPosition:
    units = [*WITHOUT_ARE, Unit(FLO, A, "ARE")]
    return at("S1455M", {FLO: ducats}, {UnitPlace(PAP, "PER"): kind}, units=units)


def test_special_units_disbanding_a_citizens_militia_costs_twice() -> None:
    cheap = Expense(1, 12, Bribe(BribeKind.DISBAND, Target("PER")))
    result = money(_papal_army_in_perugia(MILITIA, 24), {FLO: [cheap]})
    assert outcomes(result.verdicts, FLO)[cheap] == (Outcome.FAILS, "too few ducats")
    enough = Expense(1, 24, Bribe(BribeKind.DISBAND, Target("PER")))
    result = money(_papal_army_in_perugia(MILITIA, 24), {FLO: [enough]})
    assert outcomes(result.verdicts, FLO)[enough] == (Outcome.SUCCEEDS, "")
    assert Unit(PAP, A, "PER") not in result.position.units
    assert result.position.specials == {}


def test_special_units_elite_mercenaries_are_bribed_for_the_ordinary_price() -> None:
    buy = Expense(1, 18, Bribe(BribeKind.BUY, Target("PER")))
    result = money(_papal_army_in_perugia(MERCENARIES, 18), {FLO: [buy]})
    assert outcomes(result.verdicts, FLO)[buy] == (Outcome.SUCCEEDS, "")
    assert Unit(FLO, A, "PER") in result.position.units
    assert result.position.specials == {UnitPlace(FLO, "PER"): MERCENARIES}


def test_special_units_a_militia_garrison_of_a_major_city_costs_four_times() -> None:
    """"A citizen's militia garrison in Rome would cost 12*2*2=48 ducats to disband"."""
    position = at(
        "S1455M", {FLO: 48}, {UnitPlace(PAP, "RME", True): MILITIA}, garrisons={"RME": PAP},
        units=[*WITHOUT_ARE, Unit(FLO, A, "SPO")],
    )
    short = Expense(1, 45, Bribe(BribeKind.DISBAND, Target("RME", garrison=True)))
    assert outcomes(money(position, {FLO: [short]}).verdicts, FLO)[short] == (Outcome.FAILS, "too few ducats")
    enough = Expense(1, 48, Bribe(BribeKind.DISBAND, Target("RME", garrison=True)))
    result = money(position, {FLO: [enough]})
    assert outcomes(result.verdicts, FLO)[enough] == (Outcome.SUCCEEDS, "")
    assert "RME" not in result.position.garrisons


def test_special_units_buying_a_second_special_unit_fails_and_the_ducats_are_lost() -> None:
    position = at(
        "S1455M",
        {FLO: 18},
        {UnitPlace(PAP, "PER"): MERCENARIES, UnitPlace(FLO, "FLO"): MILITIA},
        units=[*WITHOUT_ARE, Unit(FLO, A, "ARE")],
    )
    buy = Expense(1, 18, Bribe(BribeKind.BUY, Target("PER")))
    result = money(position, {FLO: [buy]})
    assert outcomes(result.verdicts, FLO)[buy] == (Outcome.FAILS, "one special unit a power")
    assert treasury(result.position, FLO) == 0
    assert Unit(PAP, A, "PER") in result.position.units


def test_special_units_a_garrison_made_autonomous_stays_special() -> None:
    position = at(
        "S1455M", {FLO: 18}, {UnitPlace(PAP, "PER", True): MERCENARIES}, garrisons={"PER": PAP},
        units=[*WITHOUT_ARE, Unit(FLO, A, "ARE")],
    )
    order = Expense(1, 9, Bribe(BribeKind.TO_AUTONOMOUS, Target("PER", garrison=True)))
    result = money(position, {FLO: [order]})
    assert outcomes(result.verdicts, FLO)[order] == (Outcome.SUCCEEDS, "")
    assert result.position.specials == {UnitPlace("AUTONOMOUS", "PER", True): MERCENARIES}


def test_special_units_under_the_second_edition_each_power_builds_only_its_kinds() -> None:
    """Mach2: "Austria, Turkey and Venice may own Elite Professionals. Florence, Milan, Papacy
    and Venice may own Citizen's Militia. Every country except Turkey may own Elite Mercenaries"
    (the Judge limits the builds only)."""
    mach2 = MachiavelliOptions(mach2=True)
    professionals = Raise("ARE", A, special=PROFESSIONALS)
    refused = adjudicate_money_adjustments(BOARD, at("W1454A", {FLO: 30}, units=WITHOUT_ARE), {FLO: [professionals]}, mach2)
    assert outcomes(refused.verdicts, FLO)[professionals] == (
        Outcome.INVALID, "this power raises no such special unit (SET MACH2)"
    )
    first_edition = adjudicate_money_adjustments(BOARD, at("W1454A", {FLO: 30}, units=WITHOUT_ARE), {FLO: [professionals]})
    assert outcomes(first_edition.verdicts, FLO)[professionals] == (Outcome.SUCCEEDS, "")
    militia = Raise("ARE", A, special=MILITIA)
    allowed = adjudicate_money_adjustments(BOARD, at("W1454A", {FLO: 30}, units=WITHOUT_ARE), {FLO: [militia]}, mach2)
    assert outcomes(allowed.verdicts, FLO)[militia] == (Outcome.SUCCEEDS, "")
    assert BOARD.second_edition_specials["TURKEY"] == {PROFESSIONALS}
    assert MERCENARIES not in BOARD.second_edition_specials["TURKEY"]
    assert all(MERCENARIES in kinds for power, kinds in BOARD.second_edition_specials.items() if power != "TURKEY")
