"""The adjustments of the Renaissance game without money (the basic game, SET NO MONEY).

After the fall a power may keep one unit (army, fleet or garrison) for each city it controls
together with the province around it; it builds the difference or removes the excess, as in
Diplomacy. Builds follow the rules' placement:

* only in a city of its home country whose city and province it both controls;
* an army or fleet in the province, or a garrison in the city when it is fortified (a fortress
  when fortresses are in play); a fleet, or a garrison, only where the place is free; a fleet
  only at a port;
* one new unit at most in a province: never one in the city and one in the province at once;
* Venice is one space: nothing is built there while a unit stands in it;
* no old unit is traded for a new one in the same place (an army for a fleet in a province;
  a garrison for an army or fleet, or the other way round, is allowed, except in Venice).

A power that removes fewer units than it must loses the ones farthest from its home country
(the Judge's civil-disorder rule, distances counted on the board whatever the terrain),
garrisons and armies alike; ties go in the board's order. With money (the advanced game),
units are paid for instead (:mod:`.money`), placed by the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from judge.core.adjudicator import Outcome
from judge.core.machiavelli.board import MachiavelliBoard
from judge.core.machiavelli.campaign import MachiavelliPosition, countries_held, update_control
from judge.core.machiavelli.options import FIRST_EDITION, MachiavelliOptions
from judge.core.machiavelli.special_units import SpecialKind
from judge.core.machiavelli.year import next_phase
from judge.core.phase import PhaseType
from judge.core.units import Unit, UnitType


@dataclass(frozen=True, slots=True)
class Raise:
    """Build a unit: ``garrison`` in the city of ``province``, else an army or fleet in it;
    ``special``: of that kind (SET SPECIAL, with money: :mod:`.special_units`)."""

    province: str
    type: UnitType | None = None
    garrison: bool = False
    special: SpecialKind | None = None


@dataclass(frozen=True, slots=True)
class Dismiss:
    """Remove the army or fleet of ``province`` (or, ``garrison``, the garrison of its city)."""

    province: str
    garrison: bool = False


@dataclass(frozen=True, slots=True)
class Maintain:
    """Keep, and pay for, the army or fleet of ``province`` or (``garrison``) its garrison: an
    order of the advanced game only (:mod:`.money`); the basic game keeps what it may."""

    province: str
    garrison: bool = False


AdjustmentOrder = Raise | Dismiss


@dataclass(frozen=True, slots=True)
class AdjustmentVerdict:
    power: str
    order: AdjustmentOrder | Maintain | None
    outcome: Outcome
    reason: str = ""


@dataclass(frozen=True, slots=True)
class AdjustmentResult:
    verdicts: tuple[AdjustmentVerdict, ...]
    position: MachiavelliPosition


def allowance(board: MachiavelliBoard, position: MachiavelliPosition, power: str) -> int:
    """The units ``power`` may keep: the cities it controls together with their provinces."""
    control = position.control
    return sum(
        1 for city in board.cities if control.cities.get(city) == power and control.provinces.get(city) == power
    )


def unit_count(position: MachiavelliPosition, power: str) -> int:
    return sum(unit.power == power for unit in position.units) + sum(
        owner == power for owner in position.garrisons.values()
    )


def build_sites(board: MachiavelliBoard, position: MachiavelliPosition, power: str) -> frozenset[str]:
    """The home cities where ``power`` may place a new unit: in the countries it holds (its own,
    and those it conquered), city and province both its own."""
    control = position.control
    homes = [country for country, holder in countries_held(board, position).items() if holder == power]
    return frozenset(
        city
        for country in homes
        for city in board.game_map.home_centers[country]
        if control.cities.get(city) == power and control.provinces.get(city) == power
    )


def adjudicate_basic_adjustments(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    orders: Mapping[str, Sequence[AdjustmentOrder]],
    options: MachiavelliOptions = FIRST_EDITION,
) -> AdjustmentResult:
    """Resolve the adjustments of ``position`` (no money): builds and removals, then the spring."""
    if position.phase.type is not PhaseType.ADJUSTMENT:
        raise ValueError(f"{position.phase} is not an adjustment phase")
    units = list(position.units)
    garrisons = dict(position.garrisons)
    verdicts: list[AdjustmentVerdict] = []
    for power in board.game_map.powers:
        owed = allowance(board, position, power) - unit_count(position, power)
        given = list(orders.get(power, ()))
        if owed < 0:
            verdicts += _removals(board, power, -owed, given, units, garrisons)
        else:
            verdicts += _builds(board, position, power, owed, given, units, garrisons, options)
    return AdjustmentResult(
        tuple(verdicts),
        MachiavelliPosition(
            phase=next_phase(position.phase, summer=options.summer),
            units=tuple(units),
            garrisons=MappingProxyType(garrisons),
            control=update_control(board, position.control, tuple(units), garrisons),
            sieges=MappingProxyType(
                {city: unit for city, unit in position.sieges.items() if unit in units and city in garrisons}
            ),
            countries=position.countries,
            money=position.money,
            unrest=position.unrest,
        ),
    )


def _removals(
    board: MachiavelliBoard,
    power: str,
    due: int,
    given: list[AdjustmentOrder],
    units: list[Unit],
    garrisons: dict[str, str],
) -> list[AdjustmentVerdict]:
    verdicts: list[AdjustmentVerdict] = []
    for order in given:
        if isinstance(order, Raise):
            verdicts.append(AdjustmentVerdict(power, order, Outcome.INVALID, "removals are due"))
            continue
        found = dismiss_unit(power, order, units, garrisons) if due else "no more removals are due"
        if found:
            verdicts.append(AdjustmentVerdict(power, order, Outcome.INVALID, found))
        else:
            due -= 1
            verdicts.append(AdjustmentVerdict(power, order, Outcome.SUCCEEDS))
    if due:
        distance = board.game_map.distances_from(board.home_countries[power])
        places = [(unit.province, False) for unit in units if unit.power == power]
        places += [(city, True) for city, owner in garrisons.items() if owner == power]
        places.sort(key=lambda place: (-distance.get(place[0], 999), place[0], place[1]))
        for province, garrison in places[:due]:
            order = Dismiss(province, garrison)
            dismiss_unit(power, order, units, garrisons)
            verdicts.append(AdjustmentVerdict(power, order, Outcome.SUCCEEDS, "civil disorder"))
    return verdicts


def trades_old_for_new(board: MachiavelliBoard, order: Raise, dismissed: set[tuple[str, bool]]) -> bool:
    """Whether ``order`` builds where a unit of the same kind (army or fleet, or garrison) was
    removed this winter, or anything in Venice after a removal there."""
    return (order.province, order.garrison) in dismissed or (
        order.province in board.single_space and any(province == order.province for province, _ in dismissed)
    )


def dismiss_unit(power: str, order: Dismiss, units: list[Unit], garrisons: dict[str, str]) -> str:
    """Remove the unit ``order`` names from ``units`` or ``garrisons``; why not, or ""."""
    if order.garrison:
        if garrisons.get(order.province) != power:
            return "no such garrison"
        del garrisons[order.province]
        return ""
    for unit in units:
        if unit.power == power and unit.province == order.province:
            units.remove(unit)
            return ""
    return "no such unit"


def _builds(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    power: str,
    allowed: int,
    given: list[AdjustmentOrder],
    units: list[Unit],
    garrisons: dict[str, str],
    options: MachiavelliOptions,
) -> list[AdjustmentVerdict]:
    verdicts: list[AdjustmentVerdict] = []
    sites = build_sites(board, position, power)
    used: set[str] = set()
    dismissed: set[tuple[str, bool]] = set()  # (province, garrison) of the units removed
    for order in given:
        if isinstance(order, Dismiss):
            found = dismiss_unit(power, order, units, garrisons)
            verdicts.append(AdjustmentVerdict(power, order, Outcome.INVALID if found else Outcome.SUCCEEDS, found))
            if not found:
                dismissed.add((order.province, order.garrison))
            continue
        if trades_old_for_new(board, order, dismissed):
            verdicts.append(AdjustmentVerdict(power, order, Outcome.INVALID, "no new unit for an old one in one place"))
            continue
        reason = why_not_build(board, order, sites, used, units, garrisons, options) if allowed else "no build is due"
        if reason:
            verdicts.append(AdjustmentVerdict(power, order, Outcome.INVALID, reason))
            continue
        allowed -= 1
        used.add(order.province)
        if order.garrison:
            garrisons[order.province] = power
        else:
            units.append(Unit(power, order.type or UnitType.ARMY, order.province))
        verdicts.append(AdjustmentVerdict(power, order, Outcome.SUCCEEDS))
    return verdicts


def why_not_build(
    board: MachiavelliBoard,
    order: Raise,
    sites: frozenset[str],
    used: set[str],
    units: list[Unit],
    garrisons: Mapping[str, str],
    options: MachiavelliOptions,
) -> str:
    province = order.province
    if order.special is not None and not (options.special and options.money):
        return "no special units in this game (SET SPECIAL, with money)"
    if province not in sites:
        return "not a home city whose city and province are controlled"
    if province in used:
        return "one new unit a province"
    field = any(unit.province == province for unit in units)
    if province in board.single_space and (field or province in garrisons):
        return "Venice holds one unit"
    if order.garrison:
        if not options.garrisons:
            return "no garrisons in this game (SET NO GARRISONS)"
        if not board.may_garrison(province, fortresses=options.fortresses):
            return "no fortified city"
        return "city occupied" if province in garrisons else ""
    if field:
        return "province occupied"
    if order.type is UnitType.FLEET and not board.is_port(province, fortresses=options.fortresses):
        return "fleets are built only at ports"
    return ""
