"""Seeded random games of the Renaissance campaigns: whatever the orders, the board stays a board.

Each game draws, for every unit and garrison, one of the orders the game allows (hold, move,
support, besiege, lift a siege, convert, disband), plays the campaigns, their retreats and the
basic game's adjustments (random builds, removals by civil disorder) for a few years with and
without the master's options, and checks after every step what must
always hold: one army or fleet per province, garrisons only in fortified cities, one unit in
Venice, sieges only by a unit of the province against another owner's garrison, control held
by powers or autonomous garrisons over land only, the phases in the order of the year, and
every position the same once kept as JSON and read back.
"""

from __future__ import annotations

import json
import random

import pytest

from judge.core.machiavelli.adjustments import (
    AdjustmentOrder,
    Raise,
    adjudicate_basic_adjustments,
    allowance,
    build_sites,
    unit_count,
)
from judge.core.machiavelli.board import AUTONOMOUS, MachiavelliBoard, load_board
from judge.core.machiavelli.campaign import (
    MachiavelliPosition,
    adjudicate_campaign,
    adjudicate_retreats,
    end_of_campaign,
    opening_position,
)
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.machiavelli.orders import (
    Besiege,
    GarrisonConvert,
    GarrisonHold,
    GarrisonSupport,
    LiftSiege,
    MachiavelliOrder,
    ToGarrison,
)
from judge.core.machiavelli.serialization import position_from_json, position_to_json
from judge.core.machiavelli.special_units import specials_standing
from judge.core.orders import Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove
from judge.core.phase import Phase, PhaseType, Season
from judge.core.units import Unit, UnitRef, UnitType, province_of

YEARS = 4


def _moves(board: MachiavelliBoard, unit: Unit) -> list[str]:
    game_map = board.game_map
    return sorted(game_map.army_moves(unit.province) if unit.type is UnitType.ARMY else game_map.fleet_moves(unit.location))


def _field_order(rng: random.Random, board: MachiavelliBoard, position: MachiavelliPosition, unit: Unit) -> MachiavelliOrder:
    here = UnitRef(unit.type, unit.location)
    moves = _moves(board, unit)
    owner = position.garrisons.get(unit.province)
    if owner is not None and owner != unit.power and rng.random() < 0.7:
        return Besiege(here)
    enemies = [place for place in moves if any(u.province == province_of(place) and u.power != unit.power for u in position.units)]
    choice = rng.random()
    if choice < 0.4 and moves:
        return Move(here, rng.choice(enemies if enemies and rng.random() < 0.8 else moves))
    if choice < 0.45:
        return Besiege(here)
    if choice < 0.55:
        return ToGarrison(here)
    if choice < 0.58:
        return LiftSiege(here)
    if choice < 0.6:
        return Disband(here)
    return Hold(here)


def _garrison_order(rng: random.Random, board: MachiavelliBoard, city: str, units: dict[str, Unit]) -> MachiavelliOrder:
    choice = rng.random()
    if choice < 0.3:
        return GarrisonConvert(city, UnitType.FLEET if board.is_port(city) and rng.random() < 0.5 else UnitType.ARMY)
    if choice < 0.5 and city in units:
        unit = units[city]
        return GarrisonSupport(city, UnitRef(unit.type, unit.location), None)
    return GarrisonHold(city)


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.type, unit.location)


def _orders(rng: random.Random, board: MachiavelliBoard, position: MachiavelliPosition) -> dict[str, list[MachiavelliOrder]]:
    orders: dict[str, list[MachiavelliOrder]] = {}
    by_province = {unit.province: unit for unit in position.units}
    for unit in position.units:
        orders.setdefault(unit.power, []).append(_field_order(rng, board, position, unit))
    # Supports: a power's unit that holds supports one of its own moves it can reach.
    for given in orders.values():
        targets = [o for o in given if isinstance(o, Move)]
        for number, order in enumerate(given):
            if isinstance(order, Hold) and targets and rng.random() < 0.7:
                supporter = by_province[order.unit.province]
                reach = {province_of(place) for place in _moves(board, supporter)}
                helped = [m for m in targets if province_of(m.destination) in reach]
                if helped:
                    move = rng.choice(helped)
                    given[number] = SupportMove(order.unit, move.unit, province_of(move.destination))
    # A supported attack now and then: two units of a power against an enemy army or fleet.
    for power in sorted(orders):
        own = [unit for unit in position.units if unit.power == power]
        for target in rng.sample(position.units, len(position.units)):
            attackers = [u for u in own if target.province in {province_of(p) for p in _moves(board, u)}]
            if target.power != power and len(attackers) >= 2 and rng.random() < 0.5:
                first, second = attackers[:2]
                keep = [o for o in orders[power] if getattr(o, "unit", None) not in (_ref(first), _ref(second))]
                first_move = Move(_ref(first), next(p for p in _moves(board, first) if province_of(p) == target.province))
                orders[power] = [*keep, first_move, SupportMove(_ref(second), _ref(first), target.province)]
                break
    for city, owner in sorted(position.garrisons.items()):
        if owner != AUTONOMOUS:
            orders.setdefault(owner, []).append(_garrison_order(rng, board, city, by_province))
    for given in orders.values():
        if given and rng.random() < 0.2 and isinstance(given[0], Move):
            given.append(SupportHold(given[0].unit, given[0].unit))  # a second order to one unit
    return orders


def coastal_convoys(
    rng: random.Random, board: MachiavelliBoard, position: MachiavelliPosition, orders: dict[str, list[MachiavelliOrder]]
) -> None:
    """Now and then a fleet in a coastal province (SET COASTAL CONVOYS) carries an army of its
    power from a province its coast borders to another such coastal province, and a fleet that
    could not sails to a coastal province where it could: those orders replace the units' own."""
    game_map = board.game_map

    def ends(location: str) -> list[str]:
        return sorted({province_of(p) for p in game_map.fleet_moves(location)} - {province_of(location)})

    def carried(power: str, location: str) -> list[tuple[Unit, str]]:
        if game_map.is_water(province_of(location)) or "/" in location:
            return []
        armies = [u for u in position.units if u.type is UnitType.ARMY and u.power == power and u.province in ends(location)]
        return [(a, p) for a in armies for p in ends(location) if p != a.province and not game_map.is_water(p)]

    for fleet in position.units:
        if fleet.type is not UnitType.FLEET or rng.random() < 0.3:
            continue
        kept = [o for o in orders.get(fleet.power, []) if getattr(o, "unit", None) != _ref(fleet)]
        trips = carried(fleet.power, fleet.location)
        if trips:
            army, landing = rng.choice(trips)
            kept = [o for o in kept if getattr(o, "unit", None) != _ref(army)]
            orders[fleet.power] = [*kept, Move(_ref(army), landing), Convoy(_ref(fleet), _ref(army), landing)]
            continue
        stations = [p for p in game_map.fleet_moves(fleet.location) if carried(fleet.power, p)]
        if stations:
            orders[fleet.power] = [*kept, Move(_ref(fleet), rng.choice(stations))]


def _adjustments(rng: random.Random, board: MachiavelliBoard, position: MachiavelliPosition) -> dict[str, list[AdjustmentOrder]]:
    """Builds at random where the power may build (removals left to civil disorder)."""
    orders: dict[str, list[AdjustmentOrder]] = {}
    for power in board.game_map.powers:
        for site in sorted(build_sites(board, position, power)):
            if rng.random() < 0.5:
                kind = UnitType.FLEET if board.is_port(site) and rng.random() < 0.4 else UnitType.ARMY
                orders.setdefault(power, []).append(Raise(site, kind, garrison=rng.random() < 0.3))
    return orders


def _check(board: MachiavelliBoard, position: MachiavelliPosition, options: MachiavelliOptions) -> None:
    game_map = board.game_map
    provinces = [unit.province for unit in position.units]
    assert len(provinces) == len(set(provinces)), "two armies or fleets in one province"
    for unit in position.units:
        assert game_map.can_hold(unit.type, unit.location), unit
        assert unit.power in game_map.powers, unit
    for city, owner in position.garrisons.items():
        assert board.may_garrison(city, fortresses=options.fortresses), city
        assert owner in game_map.powers or owner == AUTONOMOUS, owner
        if city in board.single_space:
            assert city not in provinces, "two units in Venice"
    for city, besieger in position.sieges.items():
        assert besieger in position.units and besieger.province == city
        rebels = position.unrest.rebellions.get(city)
        if city in position.garrisons or rebels is None:
            assert position.garrisons.get(city) not in (None, besieger.power)
        else:  # the siege of a city rebelling against the besieger's power
            assert rebels.city and rebels.against == besieger.power
    for province, owner in position.control.provinces.items():
        assert game_map.is_land(province) and (owner in game_map.powers or owner == AUTONOMOUS)
    for city, owner in position.control.cities.items():
        assert city in board.cities and (owner in game_map.powers or owner == AUTONOMOUS)
    for city, owner in position.garrisons.items():
        if city in board.cities:
            assert position.control.cities[city] == owner or options.mach2
    for dislodged in position.dislodged:
        assert position.retreats[dislodged.unit], "a dislodged unit with nowhere to go is destroyed"
    specials = position.specials
    assert specials_standing(specials, position.units, position.garrisons, position.dislodged) == specials, (
        "a special unit whose unit is gone"
    )
    owners = [place.power for place in specials if place.power != AUTONOMOUS]
    assert len(owners) == len(set(owners)), "a power with two special units"
    assert not specials or (options.special and options.money), "special units without SET SPECIAL and money"
    kept = position_to_json(position)
    assert position_to_json(position_from_json(board, json.loads(json.dumps(kept)))) == kept


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (1, MachiavelliOptions()),
        (2, MachiavelliOptions(summer=False, disband=True)),
        (3, MachiavelliOptions(fortresses=True, mach2=True)),
        (4, MachiavelliOptions(disband=True)),
        (5, MachiavelliOptions(garrisons=False)),
    ],
)
def test_seeded_random_campaigns_keep_a_legal_board(seed: int, options: MachiavelliOptions) -> None:
    rng = random.Random(seed)
    board = load_board()
    position = opening_position(board, options)
    played: list[str] = []
    sieges_completed = 0
    while position.phase.year < 1454 + YEARS:
        _check(board, position, options)
        for power in board.game_map.powers:
            if position.phase.type is PhaseType.MOVEMENT and position.phase.season is Season.SPRING:
                assert unit_count(position, power) <= max(allowance(board, position, power), 0) or position.phase.year == 1454

        played.append(str(position.phase))
        if position.phase.type is PhaseType.ADJUSTMENT:
            position = adjudicate_basic_adjustments(board, position, _adjustments(rng, board, position), options).position
            continue
        if position.phase.type is PhaseType.RETREAT:
            retreats: dict[str, list[Retreat | Disband]] = {}
            for unit, places in position.retreats.items():
                here = UnitRef(unit.type, unit.location)
                order = Retreat(here, rng.choice(places)) if rng.random() < 0.8 else Disband(here)
                retreats.setdefault(unit.power, []).append(order)
            position = adjudicate_retreats(board, position, retreats, options)
        else:
            orders = _orders(rng, board, position)
            result = adjudicate_campaign(board, position, orders, options)
            assert len(result.verdicts) == sum(len(given) for given in orders.values())  # every order judged
            sieges_completed += len(result.sieges_completed)
            position = result.position
        if position.phase.type is not PhaseType.RETREAT:
            position = end_of_campaign(board, position)[1]
    seasons = {Phase.parse(name).season for name in played if name.endswith("M")}
    assert (Season.SUMMER in seasons) is options.summer
    assert any(name.endswith("R") for name in played), "no retreat phase in the whole game: too quiet to test"
    assert sieges_completed > 0 or not options.garrisons, "no siege completed in the whole game: too quiet to test"
    assert options.garrisons or not position.garrisons
