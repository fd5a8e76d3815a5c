"""The adjustments of the basic game (no money), named after the rules they check: the units a
power keeps, where it builds, and what it loses when it removes too few."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

import pytest

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.adjustments import (
    AdjustmentOrder,
    AdjustmentResult,
    Dismiss,
    Raise,
    adjudicate_basic_adjustments,
    allowance,
    build_sites,
)
from judge.core.machiavelli.board import Control, MachiavelliBoard, load_board
from judge.core.machiavelli.campaign import MachiavelliPosition, opening_position
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.phase import Phase
from judge.core.units import Unit, UnitType

A, F = UnitType.ARMY, UnitType.FLEET
NAP, VEN, FLO = "NAPLES", "VENICE", "FLORENCE"


@pytest.fixture(scope="module")
def board() -> MachiavelliBoard:
    return load_board()


def winter(
    board: MachiavelliBoard,
    units: Sequence[tuple[str, str]],
    garrisons: Mapping[str, str],
    provinces: Mapping[str, str] | None = None,
    cities: Mapping[str, str] | None = None,
) -> MachiavelliPosition:
    """W1454A with the opening's control, changed by ``provinces`` and ``cities``."""
    start = board.starting_control()
    control = Control(
        MappingProxyType({**start.provinces, **(provinces or {})}), MappingProxyType({**start.cities, **(cities or {})})
    )
    unit_list = tuple(Unit(power, UnitType(spec.split()[0]), spec.split()[1]) for power, spec in units)
    return MachiavelliPosition(Phase.parse("W1454A"), unit_list, MappingProxyType(dict(garrisons)), control)


def adjust(
    board: MachiavelliBoard, position: MachiavelliPosition, orders: Mapping[str, Sequence[AdjustmentOrder]]
) -> AdjustmentResult:
    return adjudicate_basic_adjustments(board, position, orders, MachiavelliOptions())


def outcome(result: AdjustmentResult, order: AdjustmentOrder) -> tuple[Outcome, str]:
    (found,) = [v for v in result.verdicts if v.order == order]
    return found.outcome, found.reason


def test_one_unit_for_each_city_controlled_with_its_province(board: MachiavelliBoard) -> None:
    assert allowance(board, opening_position(board), NAP) == 4  # Bari, Messina, Naples, Palermo
    # The city of Bari held by Naples, its province by Turkey: it counts for neither.
    bari_split = winter(board, [], {}, provinces={"BAR": "TURKEY"})
    assert allowance(board, bari_split, NAP) == 3
    assert allowance(board, bari_split, "TURKEY") == 3  # Albania, Durazzo, Tunis


def test_builds_only_in_home_cities_whose_city_and_province_are_controlled(board: MachiavelliBoard) -> None:
    position = winter(board, [], {}, cities={"PAL": "TURKEY"})
    assert build_sites(board, position, NAP) == frozenset({"BAR", "MES", "NAP"})
    result = adjust(board, position, {NAP: [Raise("PAL", A), Raise("CAP", A), Raise("NAP", F)]})
    assert outcome(result, Raise("PAL", A))[0] is Outcome.INVALID
    assert outcome(result, Raise("CAP", A))[0] is Outcome.INVALID  # a home province without a city
    assert outcome(result, Raise("NAP", F))[0] is Outcome.SUCCEEDS
    assert Unit(NAP, F, "NAP") in result.position.units


def test_builds_a_garrison_in_the_fortified_city_beside_an_army(board: MachiavelliBoard) -> None:
    position = winter(board, [(NAP, "A NAP")], {})
    result = adjust(board, position, {NAP: [Raise("NAP", garrison=True)]})
    assert outcome(result, Raise("NAP", garrison=True))[0] is Outcome.SUCCEEDS
    assert result.position.garrisons == {"NAP": NAP} and Unit(NAP, A, "NAP") in result.position.units


def test_builds_one_new_unit_a_province(board: MachiavelliBoard) -> None:
    position = winter(board, [], {})
    result = adjust(board, position, {NAP: [Raise("NAP", A), Raise("NAP", garrison=True)]})
    assert outcome(result, Raise("NAP", garrison=True)) == (Outcome.INVALID, "one new unit a province")


def test_builds_fleets_only_at_ports_and_garrisons_only_in_fortified_cities(board: MachiavelliBoard) -> None:
    position = winter(board, [], {})
    result = adjust(board, position, {FLO: [Raise("FLO", F), Raise("PSA", F)], "TURKEY": [Raise("ALB", garrison=True)]})
    assert outcome(result, Raise("FLO", F)) == (Outcome.INVALID, "fleets are built only at ports")
    assert outcome(result, Raise("PSA", F))[0] is Outcome.SUCCEEDS
    assert outcome(result, Raise("ALB", garrison=True)) == (Outcome.INVALID, "no fortified city")


def test_builds_nothing_in_venice_while_a_unit_stands_there(board: MachiavelliBoard) -> None:
    position = winter(board, [], {"VEN": VEN})
    result = adjust(board, position, {VEN: [Raise("VEN", F)]})
    assert outcome(result, Raise("VEN", F)) == (Outcome.INVALID, "Venice holds one unit")


def test_no_old_unit_traded_for_a_new_one_in_one_place(board: MachiavelliBoard) -> None:
    position = winter(board, [(NAP, "A NAP")], {})
    result = adjust(board, position, {NAP: [Dismiss("NAP"), Raise("NAP", F), Raise("BAR", A)]})
    assert outcome(result, Raise("NAP", F)) == (Outcome.INVALID, "no new unit for an old one in one place")
    assert outcome(result, Raise("BAR", A))[0] is Outcome.SUCCEEDS
    # A garrison may give way to an army in its province.
    position = winter(board, [], {"NAP": NAP})
    result = adjust(board, position, {NAP: [Dismiss("NAP", garrison=True), Raise("NAP", A)]})
    assert outcome(result, Raise("NAP", A))[0] is Outcome.SUCCEEDS


def test_removals_in_civil_disorder_go_farthest_from_home_first(board: MachiavelliBoard) -> None:
    # Florence controls its three cities and their provinces: three units; it has five.
    position = winter(board, [(FLO, "A FLO"), (FLO, "A TUN"), (FLO, "F WMS"), (FLO, "A ARE")], {"PSA": FLO})
    result = adjust(board, position, {})
    removed = {v.order for v in result.verdicts if v.reason == "civil disorder"}
    assert removed == {Dismiss("TUN"), Dismiss("WMS")}
    assert {str(u) for u in result.position.units} == {"A FLO", "A ARE"} and result.position.garrisons == {"PSA": FLO}
    assert str(result.position.phase) == "S1455M"


def test_a_removal_ordered_counts_and_builds_are_refused_when_removals_are_due(board: MachiavelliBoard) -> None:
    position = winter(board, [(FLO, "A FLO"), (FLO, "A ARE"), (FLO, "A SIE")], {"PSA": FLO})
    result = adjust(board, position, {FLO: [Dismiss("SIE"), Raise("FLO", garrison=True)]})
    assert outcome(result, Dismiss("SIE"))[0] is Outcome.SUCCEEDS
    assert outcome(result, Raise("FLO", garrison=True)) == (Outcome.INVALID, "removals are due")
    assert not any(v.reason == "civil disorder" for v in result.verdicts if v.power == FLO)


def test_no_garrison_is_built_under_set_no_garrisons(board: MachiavelliBoard) -> None:
    position = winter(board, [], {})
    result = adjudicate_basic_adjustments(board, position, {NAP: [Raise("NAP", garrison=True)]}, MachiavelliOptions(garrisons=False))
    assert outcome(result, Raise("NAP", garrison=True)) == (Outcome.INVALID, "no garrisons in this game (SET NO GARRISONS)")
