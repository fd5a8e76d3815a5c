"""Fog of War (Blind): what one power sees of the board and of a phase's results (judge.core.visibility)."""

from __future__ import annotations

import random

import pytest

from judge.core.adjudicator import Rules, adjudicate
from judge.core.geography import GameMap
from judge.core.orders import Build
from judge.core.phase import Phase
from judge.core.position import DislodgedUnit, Position
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from judge.core.visibility import (
    end_province,
    entry_seen,
    position_seen,
    result_seen,
    seen_provinces,
)
from tests.core.datc_orders import parse_orders

A, F = UnitType.ARMY, UnitType.FLEET
STANDARD = load_map("standard")


def _start() -> Position:
    return Position("standard", Phase.parse("S1901M"), STANDARD.starting_units, STANDARD.starting_centers)


def test_a_power_sees_its_units_their_neighbours_and_its_centres_at_the_start() -> None:
    seen = seen_provinces(STANDARD, _start(), "FRANCE")
    expected = {"PAR", "MAR", "BRE"}
    for province in ("PAR", "MAR", "BRE"):
        expected |= STANDARD.province_neighbours(province)
    assert seen == expected
    assert {"BUR", "ENG", "MAO", "SPA", "PIE", "LYO", "PIC", "GAS"} <= seen
    assert not seen & {"MUN", "LON", "RUH", "BEL", "VEN", "LVP"}


def test_an_owned_centre_without_a_unit_is_seen_but_not_its_neighbours() -> None:
    position = Position(
        "standard", Phase.parse("S1902M"), (Unit("FRANCE", A, "PAR"),),
        {"FRANCE": frozenset({"PAR", "TUN"})},
    )  # fmt: skip
    seen = seen_provinces(STANDARD, position, "FRANCE")
    assert "TUN" in seen
    assert not seen & {"NAF", "ION", "TYS"}
    assert "BUR" in seen and "MAR" not in STANDARD.province_neighbours("TUN")


def test_a_unit_waiting_to_retreat_sees_around_it_too() -> None:
    position = Position(
        "standard", Phase.parse("S1901R"), (Unit("GERMANY", A, "BUR"),), {},
        (DislodgedUnit(Unit("FRANCE", A, "BUR"), "MUN"),),
    )  # fmt: skip
    seen = seen_provinces(STANDARD, position, "FRANCE")
    assert seen == {"BUR"} | STANDARD.province_neighbours("BUR")


def test_the_board_seen_hides_far_units_and_the_owners_of_far_centres() -> None:
    start = _start()
    seen = seen_provinces(STANDARD, start, "FRANCE")
    board = position_seen(start, "FRANCE", seen)
    assert {u.power for u in board.units} == {"FRANCE"}  # no foreign unit borders France in 1901
    assert board.centers["FRANCE"] == STANDARD.starting_centers["FRANCE"]
    assert set(board.centers) == {"FRANCE"}
    german = Position(
        "standard", Phase.parse("S1901M"), (*start.units, Unit("GERMANY", A, "BUR")), start.centers
    )
    board = position_seen(german, "FRANCE", seen_provinces(STANDARD, german, "FRANCE"))
    assert Unit("GERMANY", A, "BUR") in board.units
    assert Unit("GERMANY", A, "MUN") not in board.units


def test_the_board_seen_keeps_the_owners_of_centres_in_sight_and_only_the_standoffs_in_sight() -> None:
    # France (Paris, Brest, Marseilles, armies in Gascony and Burgundy) sees Spain and Munich, not
    # Moscow; a France that lost every centre still has its (empty) entry.
    units = (Unit("FRANCE", A, "GAS"), Unit("FRANCE", A, "BUR"))
    centers = {
        "FRANCE": frozenset(),
        "ITALY": frozenset({"SPA"}),
        "GERMANY": frozenset({"MUN", "BER"}),
        "RUSSIA": frozenset({"MOS"}),
    }
    position = Position("standard", Phase.parse("F1901M"), units, centers, (), frozenset({"SPA", "MOS", "PAR"}))
    seen = seen_provinces(STANDARD, position, "FRANCE")
    board = position_seen(position, "FRANCE", seen)
    assert board.centers == {"FRANCE": frozenset(), "ITALY": frozenset({"SPA"}), "GERMANY": frozenset({"MUN"})}
    assert board.standoffs == frozenset({"SPA", "PAR"})


def test_the_results_seen_are_its_own_and_those_of_units_seen_leaving_or_arriving() -> None:
    units = (
        Unit("FRANCE", A, "PAR"), Unit("FRANCE", A, "MAR"), Unit("FRANCE", F, "BRE"),
        Unit("GERMANY", A, "MUN"), Unit("GERMANY", A, "KIE"),
        Unit("ITALY", A, "PIE"), Unit("RUSSIA", A, "WAR"),
    )  # fmt: skip
    start = Position("standard", Phase.parse("S1901M"), units, _start().centers)
    orders = {
        "FRANCE": ["A PAR - PIC", "A MAR H", "F BRE - MAO"],
        "GERMANY": ["A MUN - BUR", "A KIE - RUH"],  # arrives where France sees; moves out of sight
        "ITALY": ["A PIE - TYR"],  # seen leaving
        "RUSSIA": ["A WAR - GAL"],  # never seen
    }
    result = adjudicate(start, parse_orders(orders, start.phase), Rules(), STANDARD)
    before, shown = result_seen(STANDARD, start, result, "FRANCE")
    told = {(e.power, e.unit.location if e.unit else None) for e in shown.results}
    assert told == {
        ("FRANCE", "PAR"), ("FRANCE", "MAR"), ("FRANCE", "BRE"), ("GERMANY", "MUN"), ("ITALY", "PIE"),
    }
    assert Unit("ITALY", A, "PIE") in before.units and Unit("GERMANY", A, "MUN") not in before.units
    after = {(u.power, u.location) for u in shown.position.units}
    assert ("GERMANY", "BUR") in after
    assert ("ITALY", "TYR") not in after and ("GERMANY", "RUH") not in after and ("RUSSIA", "GAL") not in after
    # Germany sees its own in full, and the French army that left Paris (Burgundy borders it):
    _, german = result_seen(STANDARD, start, result, "GERMANY")
    assert {e.power for e in german.results} >= {"GERMANY"}
    assert ("RUSSIA", "WAR") not in {(e.power, e.unit.location if e.unit else None) for e in german.results}
    assert ("FRANCE", "PAR") in {(e.power, e.unit.location if e.unit else None) for e in german.results}


def test_a_dislodged_unit_out_of_sight_and_its_retreats_are_not_told() -> None:
    units = (
        Unit("FRANCE", A, "PAR"), Unit("GERMANY", A, "WAR"),
        Unit("RUSSIA", A, "PRU"), Unit("RUSSIA", A, "SIL"), Unit("RUSSIA", A, "GAL"),
    )  # fmt: skip
    start = Position("standard", Phase.parse("S1901M"), units, {})
    orders = {"RUSSIA": ["A PRU - WAR", "A SIL S A PRU - WAR", "A GAL H"], "GERMANY": ["A WAR H"]}
    result = adjudicate(start, parse_orders(orders, start.phase), Rules(), STANDARD)
    assert result.dislodged
    _, french = result_seen(STANDARD, start, result, "FRANCE")
    assert french.dislodged == () and dict(french.retreats) == {}
    assert {e.power for e in french.results} == {"FRANCE"}
    _, german = result_seen(STANDARD, start, result, "GERMANY")
    assert [d.unit for d in german.dislodged] == [Unit("GERMANY", A, "WAR")]
    assert set(german.retreats) == {Unit("GERMANY", A, "WAR")}


def test_a_waive_or_an_order_naming_no_unit_is_its_own_powers_alone() -> None:
    start = _start()
    result = adjudicate(start, parse_orders({"FRANCE": ["A PAR - BUR"]}, start.phase), Rules(), STANDARD)
    entry = next(e for e in result.results if e.power == "FRANCE")
    everything = frozenset(STANDARD.provinces)
    assert entry_seen(entry, "FRANCE", frozenset(), frozenset())
    assert entry_seen(entry, "GERMANY", everything, frozenset())
    assert not entry_seen(entry, "GERMANY", frozenset(), frozenset())
    waived = type(entry)("FRANCE", None, None, entry.outcome, "")
    assert not entry_seen(waived, "GERMANY", everything, everything)


def _oracle_seen(game_map: GameMap, position: Position, power: str) -> set[str]:
    """The rule read again, independently: its units' provinces (retreating too) and their
    neighbours by an army's or a fleet's moves, and its own centres."""
    out: set[str] = set(position.centers.get(power, frozenset()))
    units = [u for u in position.units if u.power == power] + [d.unit for d in position.dislodged if d.unit.power == power]
    for unit in units:
        out.add(unit.province)
        for code in game_map.provinces:
            locations = (code, *(f"{code}/{c}" for c in game_map.province(code).coasts))
            if any(game_map.army_adjacent(unit.location, loc) or game_map.fleet_adjacent(unit.location, loc)
                   for loc in locations if game_map.is_location(loc)) or any(game_map.fleet_adjacent(f"{unit.province}/{c}", loc) or game_map.army_adjacent(unit.province, loc)
                     for c in game_map.province(unit.province).coasts for loc in locations):  # fmt: skip
                out.add(code)
    return out


@pytest.mark.parametrize(("variant", "seed"), [("standard", 1), ("standard", 2), ("ancmed", 3), ("france_austria", 4)])
def test_seeded_random_games_each_power_is_told_exactly_what_the_rule_lets_it_see(variant: str, seed: int) -> None:
    """Random games (the property tests' order generator, mischief included): at every phase, for
    every power, the results and boards it is told against the rule read again here."""
    game_map = load_map(variant)
    rng = random.Random(seed)
    maker = RandomOrders(game_map, rng, mischief=0.2)
    position = opening_position(game_map)
    options: dict[Unit, tuple[str, ...]] = {}
    for _ in range(12):
        result = adjudicate(position, maker.orders(position, options), Rules(), game_map)
        for power in game_map.powers:
            before_seen = _oracle_seen(game_map, position, power)
            after_seen = _oracle_seen(game_map, result.position, power)
            assert seen_provinces(game_map, position, power) == before_seen
            before, shown = result_seen(game_map, position, result, power)
            for entry in result.results:
                unit = entry.unit
                end = end_province(entry)
                told = entry.power == power or (
                    unit is not None and not isinstance(entry.order, Build)
                    and (unit.province in before_seen or (end is not None and end in after_seen))
                ) or (isinstance(entry.order, Build) and end in after_seen)  # fmt: skip
                assert (entry in shown.results) == told, (power, entry)
            for board, sight in ((before, before_seen), (shown.position, after_seen)):
                assert all(u.power == power or u.province in sight for u in board.units)
                assert {u for u in board.units if u.power == power} == {
                    u for u in (position if board is before else result.position).units if u.power == power
                }
                for owner, owned in board.centers.items():
                    full = (position if board is before else result.position).centers.get(owner, frozenset())
                    assert owned == (full if owner == power else full & sight), (power, owner)
            assert all(d.unit.power == power or d.unit.province in before_seen | after_seen for d in shown.dislodged)
        if result.winner is not None:
            break
        options = dict(result.retreats)
        position = result.position
