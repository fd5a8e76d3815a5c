"""Seeded random games for benchmarks: legal-ish orders for every unit, every phase.

The orders are drawn from the board as it stands (each unit holds, moves to a
neighbour, supports a neighbour's hold or move, or convoys an army next to it;
dislodged units retreat to one of their retreats or disband; powers build on
free home centres, remove surplus units or waive), so most are legal and the
adjudicator meets every kind of order, conflict and convoy in the proportions
a real game has. Same seed, same games.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from judge.core.geography import GameMap
from judge.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.core.units import Unit, UnitRef, UnitType, province_of


def starting_position(game_map: GameMap, year: int = 1901) -> Position:
    """The variant's opening position, spring of ``year``."""
    return Position(
        variant=game_map.name,
        phase=Phase.parse(f"S{year}M"),
        units=game_map.starting_units,
        centers={power: frozenset(c) for power, c in game_map.starting_centers.items()},
    )


def ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.type, unit.location)


@dataclass
class OrderMaker:
    """Draws the orders of one phase from a seeded generator."""

    game_map: GameMap
    rng: random.Random

    def orders(
        self, position: Position, retreats: Mapping[Unit, Sequence[str]]
    ) -> dict[str, list[Order]]:
        kind = position.phase.type
        if kind is PhaseType.MOVEMENT:
            return self._movement(position)
        if kind is PhaseType.RETREAT:
            return self._retreats(position, retreats)
        return self._adjustments(position)

    # ------------------------------------------------------------ movement

    def _targets(self, unit: Unit) -> list[str]:
        if unit.type is UnitType.ARMY:
            return sorted(self.game_map.army_moves(unit.location))
        return sorted(self.game_map.fleet_moves(unit.location))

    def _movement(self, position: Position) -> dict[str, list[Order]]:
        rng = self.rng
        by_province = {u.province: u for u in position.units}
        intent: dict[Unit, Order] = {}
        moves_to: dict[Unit, str] = {}
        for unit in position.units:
            targets = self._targets(unit)
            if targets and rng.random() < 0.6:
                destination = rng.choice(targets)
                intent[unit] = Move(ref(unit), destination)
                moves_to[unit] = destination
            else:
                intent[unit] = Hold(ref(unit))
        for unit in position.units:
            roll = rng.random()
            if roll < 0.25:
                self._support(unit, by_province, moves_to, intent)
            elif roll < 0.35 and self.game_map.is_water(unit.location):
                self._convoy(unit, by_province, intent)
        orders: dict[str, list[Order]] = {}
        for unit in position.units:
            orders.setdefault(unit.power, []).append(intent[unit])
        return orders

    def _support(
        self,
        unit: Unit,
        by_province: Mapping[str, Unit],
        moves_to: Mapping[Unit, str],
        intent: dict[Unit, Order],
    ) -> None:
        reach = {province_of(t) for t in self._targets(unit)}
        friends = [by_province[p] for p in sorted(reach) if p in by_province]
        movers = [
            u
            for u in by_province.values()
            if u is not unit and province_of(moves_to.get(u, "")) in reach
        ]
        movers.sort(key=lambda u: u.location)
        if movers and self.rng.random() < 0.6:
            other = self.rng.choice(movers)
            intent[unit] = SupportMove(ref(unit), ref(other), province_of(moves_to[other]))
        elif friends:
            other = self.rng.choice(friends)
            intent[unit] = SupportHold(ref(unit), ref(other))

    def _convoy(
        self, fleet: Unit, by_province: Mapping[str, Unit], intent: dict[Unit, Order]
    ) -> None:
        shores = sorted({province_of(t) for t in self._targets(fleet)} - {fleet.province})
        armies = [
            by_province[p]
            for p in shores
            if p in by_province and by_province[p].type is UnitType.ARMY
        ]
        if not armies:
            return
        army = self.rng.choice(armies)
        landings = [p for p in shores if p != army.province and self.game_map.is_land(p)]
        if not landings:
            return
        destination = self.rng.choice(landings)
        intent[fleet] = Convoy(ref(fleet), ref(army), destination)
        intent[army] = Move(ref(army), destination, via_convoy=True)

    # ------------------------------------------------------------ retreats

    def _retreats(
        self, position: Position, retreats: Mapping[Unit, Sequence[str]]
    ) -> dict[str, list[Order]]:
        orders: dict[str, list[Order]] = {}
        for dislodged in position.dislodged:
            unit = dislodged.unit
            options = list(retreats.get(unit, ()))
            order: Order
            if options and self.rng.random() < 0.85:
                order = Retreat(ref(unit), self.rng.choice(sorted(options)))
            else:
                order = Disband(ref(unit))
            orders.setdefault(unit.power, []).append(order)
        return orders

    # ------------------------------------------------------------ adjustments

    def _adjustments(self, position: Position) -> dict[str, list[Order]]:
        game_map = self.game_map
        occupied = {u.province for u in position.units}
        orders: dict[str, list[Order]] = {}
        for power in game_map.powers:
            owned = position.centers.get(power, frozenset())
            units = [u for u in position.units if u.power == power]
            owed = len(owned) - len(units)
            if owed > 0:
                sites = sorted(c for c in game_map.home_centers[power] & owned if c not in occupied)
                self.rng.shuffle(sites)
                for site in sites[:owed]:
                    orders.setdefault(power, []).append(self._build(site))
                if len(sites) < owed or self.rng.random() < 0.1:
                    orders.setdefault(power, []).append(Waive())
            elif owed < 0:
                for unit in self.rng.sample(sorted(units, key=lambda u: u.location), -owed):
                    orders.setdefault(power, []).append(Remove(ref(unit)))
        return orders

    def _build(self, site: str) -> Build:
        fleet_spots = self.game_map.fleet_locations(site)
        if fleet_spots and self.rng.random() < 0.4:
            return Build(UnitType.FLEET, self.rng.choice(fleet_spots))
        return Build(UnitType.ARMY, site)


def to_diplomacy_package(order: Order) -> str:
    """The same order in the syntax of the PyPI ``diplomacy`` package (``A LON B``, ``A IRO R MAO``)."""
    if isinstance(order, Hold):
        return f"{order.unit} H"
    if isinstance(order, Move):
        via = " VIA" if order.wants_convoy else ""
        return f"{order.unit} - {order.destination}{via}"
    if isinstance(order, SupportHold):
        return f"{order.unit} S {order.supported}"
    if isinstance(order, SupportMove):
        return f"{order.unit} S {order.supported} - {province_of(order.destination)}"
    if isinstance(order, Convoy):
        return f"{order.unit} C {order.convoyed} - {province_of(order.destination)}"
    if isinstance(order, Retreat):
        return f"{order.unit} R {order.destination}"
    if isinstance(order, (Disband, Remove)):
        return f"{order.unit} D"
    if isinstance(order, Build):
        return f"{order.type.value} {order.location} B"
    return "WAIVE"
