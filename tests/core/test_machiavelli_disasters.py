"""Famine, plague and storms in the Renaissance game, one rule a test (issue 33).

Hand positions of the standard scenario, the dice pinned where the outcome is asserted (the core
takes the dice of each disaster as a parameter), and the tables read from the scenario's data: a
test names the row or column it throws and the places the scenario's table puts there.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

import pytest

from judge.core.machiavelli.board import AUTONOMOUS, MachiavelliBoard, load_board
from judge.core.machiavelli.campaign import MachiavelliPosition, opening_position
from judge.core.machiavelli.disasters import Dice, after_fall, after_spring, strike
from judge.core.machiavelli.money import collect_income
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.machiavelli.orders import Besiege, Expense, FamineRelief
from judge.core.machiavelli.season import SeasonOrder, SeasonResult, play_phase
from judge.core.machiavelli.serialization import position_from_json, position_to_json
from judge.core.machiavelli.treasury import Finances, Unrest
from judge.core.orders import Move
from judge.core.phase import Phase, PhaseType
from judge.core.units import Unit, UnitRef, UnitType

A, F = UnitType.ARMY, UnitType.FLEET
BOARD: MachiavelliBoard = load_board()
ALL_DICE = MachiavelliOptions(plague=True, storms=True)
SEED = "disaster-tests"


def pinned(*throws: Sequence[int]) -> Dice:
    """Dice that fall as ``throws``, one throw a call (a call for another count fails the test)."""
    left: Iterator[Sequence[int]] = iter(throws)

    def dice(count: int) -> tuple[int, ...]:
        thrown = tuple(next(left))
        assert len(thrown) == count, f"asked {count} dice, pinned {thrown}"
        return thrown

    return dice


def at(
    phase: str,
    *,
    units: Sequence[Unit] | None = None,
    garrisons: Mapping[str, str] | None = None,
    famine: frozenset[str] = frozenset(),
    treasuries: Mapping[str, int] | None = None,
) -> MachiavelliPosition:
    start = opening_position(BOARD)
    return replace(
        start,
        phase=Phase.parse(phase),
        units=tuple(units) if units is not None else start.units,
        garrisons=MappingProxyType(dict(garrisons)) if garrisons is not None else start.garrisons,
        money=Finances(
            MappingProxyType({p: (treasuries or {}).get(p, 0) for p in BOARD.game_map.powers})
        ),
        unrest=Unrest(famine=famine),
    )


def play(
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[SeasonOrder]] | None = None,
    options: MachiavelliOptions = ALL_DICE,
    **dice: Dice,
) -> SeasonResult:
    return play_phase(BOARD, position, orders or {}, options, seed=SEED, disaster_dice=dice)


def where(position: MachiavelliPosition) -> set[str]:
    return {unit.province for unit in position.units}


# ----------------------------------------------------------------------------- the tables


def test_the_severity_of_a_disaster_is_two_dice_none_a_row_a_column_or_both() -> None:
    """2-3 no disaster, 4 or 7 a row only, 5 or 6 a column only, 8-12 a row and a column."""
    table = BOARD.famine_table
    assert strike(table, "famine", pinned((1, 2))).places == frozenset()
    row_six = {"MAR", "RAG", "VIC", "CRI", "BER", "PST", "SPO", "PIA", "HUN"}
    assert strike(table, "famine", pinned((3, 4), (2, 4))).places == row_six
    column_four = {"PRO", "OTR", "BOL", "VIC", "SLA", "RME", "CRO", "SAR", "VEN"}
    assert strike(table, "famine", pinned((2, 3), (1, 3))).places == column_four
    both = strike(table, "famine", pinned((6, 6), (3, 3), (2, 2)))
    assert both.places == row_six | column_four
    assert [(r.subject, r.dice) for r in both.rolls] == [
        ("severity", (6, 6)),
        ("row", (3, 3)),
        ("column", (2, 2)),
    ]


def test_under_mach2_the_severity_is_one_die() -> None:
    """SET MACH2: 1 none, 2-3 a row, 4-5 a column, 6 a row and a column."""
    table = BOARD.famine_table
    assert strike(table, "famine", pinned((1,)), mach2=True).places == frozenset()
    assert "HUN" in strike(table, "famine", pinned((3,), (2, 4)), mach2=True).places
    assert "VEN" in strike(table, "famine", pinned((5,), (1, 3)), mach2=True).places
    assert len(strike(table, "famine", pinned((6,), (3, 3), (2, 2)), mach2=True).rolls) == 3


def test_the_scenario_tables_strike_land_for_famine_and_plague_and_seas_for_storms() -> None:
    game_map = BOARD.game_map
    for table in (BOARD.famine_table, BOARD.plague_table):
        assert len(table) == 11 and all(len(row) == 11 for row in table)
        assert all(game_map.is_land(c) for row in table for c in row if c is not None)
    assert all(game_map.is_water(c) for row in BOARD.storm_table for c in row if c is not None)
    # The Judge's notes: Perugia is on no famine line; Arezzo, Piombino, Pistoia and Ragusa on
    # no plague line.
    assert all("PER" not in row for row in BOARD.famine_table)
    assert all(p not in row for row in BOARD.plague_table for p in ("ARE", "PIO", "PST", "RAG"))


# ----------------------------------------------------------------------------- famine


def test_famine_markers_are_laid_after_the_fall_and_a_starving_province_yields_nothing() -> None:
    """The fall's end throws the famine: row 6 starves Marseilles, Hungary, Ragusa...; the
    adjustments that follow pay no ducat for a starving province or its ungarrisoned city."""
    fall = play(at("F1454M"), famine=pinned((2, 2), (3, 3)))
    after = fall.position
    assert after.phase == Phase.parse("W1454A")
    assert {"MAR", "HUN", "RAG", "VIC"} <= after.unrest.famine
    assert after.units == at("F1454M").units, "famine kills nobody before the spring ends"
    assert after.control == at("F1454M").control, "famine has no effect on control"
    fed = collect_income(BOARD, replace(after, unrest=Unrest()), seed=SEED)
    starved = collect_income(BOARD, after, seed=SEED)
    france = {r.power: r for r in fed.reports}["FRANCE"], {r.power: r for r in starved.reports}["FRANCE"]
    assert france[0].provinces - france[1].provinces == 1  # Marseilles
    assert france[0].cities - france[1].cities == BOARD.cities["MAR"].income


def test_famine_marker_eliminates_the_unit_at_the_end_of_spring_garrisons_too() -> None:
    """Every unit left in a starving province when the spring ends is lost (the autonomous
    garrison of Ragusa too), and every marker is lifted."""
    result = play(at("S1455M", famine=frozenset({"MAR", "HUN", "RAG"})), plague=pinned((1, 1)))
    after = result.position
    assert after.phase == Phase.parse("U1455M")
    assert not {"MAR", "HUN"} & where(after)
    assert "RAG" not in after.garrisons
    assert after.unrest.famine == frozenset()
    starved, plague = result.disasters
    assert plague.disaster == "plague" and not plague.places
    assert set(starved.lost) == {Unit("FRANCE", F, "MAR"), Unit("AUSTRIA", A, "HUN")}
    assert starved.garrisons_lost == (("RAG", AUTONOMOUS),)


def test_a_unit_that_leaves_a_starving_province_in_the_spring_survives() -> None:
    orders: dict[str, list[SeasonOrder]] = {"AUSTRIA": [Move(UnitRef(A, "HUN"), "SLA")]}
    after = play(at("S1455M", famine=frozenset({"HUN"})), orders, plague=pinned((1, 1))).position
    assert Unit("AUSTRIA", A, "SLA") in after.units


def test_famine_relief_in_the_spring_saves_the_units_of_the_province() -> None:
    """Relief (3 ducats, a unit in or next to the province) lifts the marker before the spring's
    end: France's fleet in Marseilles lives; Austria's army in Hungary, unrelieved, dies."""
    relief = Expense(1, 3, FamineRelief("MAR"))
    position = at("S1455M", famine=frozenset({"MAR", "HUN"}), treasuries={"FRANCE": 5})
    after = play(position, {"FRANCE": [relief]}, plague=pinned((1, 1))).position
    assert Unit("FRANCE", F, "MAR") in after.units
    assert "HUN" not in where(after)


def test_set_no_famine_lays_no_marker() -> None:
    off = MachiavelliOptions(famine=False)
    result = play(at("F1454M"), options=off, famine=pinned((6, 6), (3, 3), (2, 2)))
    assert result.position.unrest.famine == frozenset() and result.rolls == ()


# ----------------------------------------------------------------------------- plague


def test_plague_eliminates_every_unit_in_a_struck_province_before_the_summer() -> None:
    """Row 8 of the plague table: Durazzo, Naples, Modena, Perugia, Cremona, Venice, Florence;
    armies, fleets and garrisons there (autonomous ones too) are lost when the spring ends."""
    result = play(at("S1455M"), plague=pinned((2, 2), (4, 4)))
    after = result.position
    gone = {"DUR", "NAP", "PER", "CRE", "FLO"}
    assert not gone & where(after)
    assert "VEN" not in after.garrisons and "MOD" not in after.garrisons
    assert Unit("FLORENCE", A, "ARE") in after.units  # Arezzo is on no plague line
    (plague,) = result.disasters
    assert plague.disaster == "plague" and gone <= {u.province for u in plague.lost}


def test_a_unit_lost_to_the_plague_ends_its_siege() -> None:
    """Florence's army besieging the autonomous garrison of Siena... is struck in Siena: the
    siege ends with it (row 6, column 5 of the plague table is Siena)."""
    besieger = Unit("FLORENCE", A, "SIE")
    units = [*(u for u in at("S1455M").units if u.province != "ARE"), besieger]
    position = replace(at("S1455M", units=units), sieges=MappingProxyType({"SIE": besieger}))
    after = play(position, {"FLORENCE": [Besiege(UnitRef(A, "SIE"))]}, plague=pinned((2, 3), (2, 3))).position
    assert "SIE" not in where(after) and not after.sieges


def test_no_plague_in_a_game_without_summer_nor_by_default() -> None:
    """The plague comes before the summer: SET NO SUMMER has none; the first edition's default
    is SET NO PLAGUE."""
    bare = MachiavelliOptions(plague=True, summer=False)
    assert play(at("S1455M"), options=bare, plague=pinned((6, 6), (4, 4), (4, 4))).disasters == ()
    assert play(at("S1455M"), options=MachiavelliOptions()).rolls == ()


# ----------------------------------------------------------------------------- storms


def test_a_storm_sinks_the_fleets_in_a_struck_sea_after_the_fall() -> None:
    """Row 10 of the storm table: the Ionian Sea and the Western Mediterranean. Only fleets at
    sea are lost; a fleet on a coast stays."""
    units = [*at("F1454M").units, Unit("TURKEY", F, "ION"), Unit("FRANCE", F, "WMS")]
    result = play(at("F1454M", units=units), storm=pinned((2, 2), (5, 5)), famine=pinned((1, 1)))
    after = result.position
    assert not {"ION", "WMS"} & where(after)
    assert Unit("TURKEY", F, "TUN") in after.units
    storm, famine = result.disasters
    assert storm.disaster == "storm" and set(storm.lost) == {
        Unit("TURKEY", F, "ION"),
        Unit("FRANCE", F, "WMS"),
    }
    assert famine.places == frozenset()


def test_storms_are_off_by_default() -> None:
    units = [*at("F1454M").units, Unit("TURKEY", F, "ION")]
    result = play(at("F1454M", units=units), options=MachiavelliOptions(), storm=pinned((6, 6), (5, 5), (6, 6)))
    assert Unit("TURKEY", F, "ION") in result.position.units


# ----------------------------------------------------------------------------- the dice


def test_set_no_dice_throws_no_disaster_whatever_their_flags() -> None:
    """SET NO DICE: no famine, plague or storm (and no loan, no assassination expense)."""
    none = MachiavelliOptions(dice=False, plague=True, storms=True, famine=True)
    assert not (none.plays_famine or none.plays_plague or none.plays_storms)
    assert not (none.lends or none.plays_assassinations)
    fall = play(at("F1454M"), options=none)
    assert fall.disasters == () and fall.position.unrest.famine == frozenset()


@pytest.mark.parametrize("phase", ["S1455M", "F1454M"])
def test_a_phase_replayed_from_the_same_position_and_seed_throws_the_same_dice(phase: str) -> None:
    """The dice come from the game's seed and the phase only: the same kept position played again
    gives the same rolls and the same position; another game's seed throws its own."""
    kept = position_to_json(at(phase, famine=frozenset({"HUN"}) if phase[0] == "S" else frozenset()))
    first = play_phase(BOARD, position_from_json(BOARD, kept), {}, ALL_DICE, seed="game-1")
    again = play_phase(BOARD, position_from_json(BOARD, kept), {}, ALL_DICE, seed="game-1")
    assert first.rolls and first.rolls == again.rolls
    assert position_to_json(first.position) == position_to_json(again.position)
    others = {
        play_phase(BOARD, position_from_json(BOARD, kept), {}, ALL_DICE, seed=f"game-{n}").rolls
        for n in range(2, 8)
    }
    assert len(others | {first.rolls}) > 1, "the seed changes nothing"


def test_after_spring_and_after_fall_take_no_dice_when_nothing_is_played() -> None:
    quiet = MachiavelliOptions(famine=False)
    spring = after_spring(BOARD, at("U1455M"), quiet, seed=SEED, plague_dice=pinned())
    fall = after_fall(BOARD, at("W1455A"), quiet, seed=SEED, famine_dice=pinned(), storm_dice=pinned())
    assert spring.events == () and fall.events == ()
    assert at("W1455A").phase.type is PhaseType.ADJUSTMENT
