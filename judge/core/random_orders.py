"""Random orders for a board: the one generator of the property tests and the benchmarks.

Seeded, pure (the caller passes a :class:`random.Random`; same seed, same
orders), and drawn from the board as it stands: each unit holds, moves to a
neighbour (an army of a railway's power anywhere along its line), supports a
neighbour's hold or move, or convoys an army next to it; dislodged units
retreat to one of their retreats or disband; powers build on their free build
sites (:func:`~judge.core.adjudicator.phases.build_sites`: home centres, any
owned centre where the variant says so), remove surplus units or waive. So
most orders are legal, and the adjudicator meets every kind of order,
conflict and convoy in the proportions a real game has. Neutral units get no
orders.

``mischief`` (0 by default: none) is the share of units and powers that get
something illegal on purpose besides: an order for a unit far away, a support
or convoy of any unit to anywhere, an order sent by the wrong power, no order
at all, builds where none may be, removals not owed. The property tests use
it; the benchmarks do not, and with ``mischief`` at 0 not one extra number is
drawn, so their games stay the games their figures were measured on
(``benchmarks/bench_adjudicator.py``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from judge.core.adjudicator.phases import build_sites
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
from judge.core.phase import PhaseType
from judge.core.position import Position
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitRef, UnitType, province_of

__all__ = ["RandomOrders", "opening_position"]


def opening_position(game_map: GameMap) -> Position:
    """The variant's opening position, in its first phase."""
    return Position(
        variant=game_map.name,
        phase=game_map.first_phase,
        units=game_map.opening_units,
        centers={power: frozenset(c) for power, c in game_map.starting_centers.items()},
    )


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.type, unit.location)


@dataclass
class RandomOrders:
    """Draws the orders of one phase at a time from ``rng`` (see the module's docstring)."""

    game_map: GameMap
    rng: random.Random
    mischief: float = 0.0

    def orders(self, position: Position, retreats: Mapping[Unit, Sequence[str]]) -> dict[str, list[Order]]:
        """Each power's orders for the phase of ``position``; ``retreats``: the last phase's
        retreat options (``AdjudicationResult.retreats``)."""
        kind = position.phase.type
        if kind is PhaseType.MOVEMENT:
            return self._movement(position)
        if kind is PhaseType.RETREAT:
            return self._retreats(position, retreats)
        return self._adjustments(position)

    # ------------------------------------------------------------ movement

    def _targets(self, unit: Unit, *, by_rail: bool = True) -> list[str]:
        """Where ``unit`` may move (``by_rail``: an army on its power's railway anywhere along the
        line too; a support or convoy reaches its neighbours only)."""
        game_map = self.game_map
        if unit.type is not UnitType.ARMY:
            return sorted(game_map.fleet_moves(unit.location))
        targets = sorted(game_map.army_moves(unit.location))
        railway = game_map.special.railway
        if by_rail and railway is not None and unit.power == railway.power and unit.province in railway.provinces:
            targets = sorted({*targets, *(p for p in railway.provinces if p != unit.province)})
        return targets

    def _movement(self, position: Position) -> dict[str, list[Order]]:
        rng = self.rng
        units = [u for u in position.units if u.power != NEUTRAL]
        by_province = {u.province: u for u in position.units}
        intent: dict[Unit, Order | None] = {}
        moves_to: dict[Unit, str] = {}
        for unit in units:
            targets = self._targets(unit)
            if targets and rng.random() < 0.6:
                destination = rng.choice(targets)
                intent[unit] = Move(_ref(unit), destination)
                moves_to[unit] = destination
            else:
                intent[unit] = Hold(_ref(unit))
        for unit in units:
            roll = rng.random()
            if roll < 0.25:
                self._support(unit, by_province, moves_to, intent)
            elif roll < 0.35 and self.game_map.is_water(unit.location):
                self._convoy(unit, by_province, intent)
        senders = {unit: unit.power for unit in units}
        if self.mischief:
            for unit in units:
                if rng.random() < self.mischief:
                    intent[unit] = self._illegal(unit, position)
                    if rng.random() < 0.2:
                        senders[unit] = rng.choice(sorted(self.game_map.powers))
        orders: dict[str, list[Order]] = {}
        for unit in units:
            order = intent[unit]
            if order is not None:
                orders.setdefault(senders[unit], []).append(order)
        return orders

    def _support(
        self,
        unit: Unit,
        by_province: Mapping[str, Unit],
        moves_to: Mapping[Unit, str],
        intent: dict[Unit, Order | None],
    ) -> None:
        reach = {province_of(t) for t in self._targets(unit, by_rail=False)}
        friends = [by_province[p] for p in sorted(reach) if p in by_province]
        movers = [u for u in by_province.values() if u is not unit and province_of(moves_to.get(u, "")) in reach]
        movers.sort(key=lambda u: u.location)
        if movers and self.rng.random() < 0.6:
            other = self.rng.choice(movers)
            intent[unit] = SupportMove(_ref(unit), _ref(other), province_of(moves_to[other]))
        elif friends:
            other = self.rng.choice(friends)
            intent[unit] = SupportHold(_ref(unit), _ref(other))

    def _convoy(self, fleet: Unit, by_province: Mapping[str, Unit], intent: dict[Unit, Order | None]) -> None:
        shores = sorted({province_of(t) for t in self._targets(fleet, by_rail=False)} - {fleet.province})
        armies = [by_province[p] for p in shores if p in by_province and by_province[p].type is UnitType.ARMY]
        if not armies:
            return
        army = self.rng.choice(armies)
        landings = [p for p in shores if p != army.province and self.game_map.is_land(p)]
        if not landings:
            return
        destination = self.rng.choice(landings)
        intent[fleet] = Convoy(_ref(fleet), _ref(army), destination)
        intent[army] = Move(_ref(army), destination, via_convoy=True)

    def _illegal(self, unit: Unit, position: Position) -> Order | None:
        """Something a careless or hostile player sends for ``unit`` (None: nothing at all)."""
        rng = self.rng
        provinces = sorted(self.game_map.provinces)
        other = rng.choice(position.units)
        roll = rng.random()
        if roll < 0.2:
            return None
        if roll < 0.4:
            return Move(_ref(unit), rng.choice(provinces), via_convoy=rng.random() < 0.5)
        if roll < 0.55:
            return SupportHold(_ref(unit), _ref(other))
        if roll < 0.75:
            return SupportMove(_ref(unit), _ref(other), rng.choice(provinces))
        if roll < 0.9:
            return Convoy(_ref(unit), _ref(other), rng.choice(provinces))
        return Retreat(_ref(unit), rng.choice(provinces))  # no retreat in a movement phase

    # ------------------------------------------------------------ retreats

    def _retreats(self, position: Position, retreats: Mapping[Unit, Sequence[str]]) -> dict[str, list[Order]]:
        rng = self.rng
        orders: dict[str, list[Order]] = {}
        for dislodged in position.dislodged:
            unit = dislodged.unit
            options = list(retreats.get(unit, ()))
            order: Order
            if options and rng.random() < 0.85:
                order = Retreat(_ref(unit), rng.choice(sorted(options)))
            else:
                order = Disband(_ref(unit))
            if self.mischief and rng.random() < self.mischief:
                if rng.random() < 0.5:
                    continue  # no order: the engine's rule for missing retreats decides
                order = Retreat(_ref(unit), rng.choice(sorted(self.game_map.provinces)))
            orders.setdefault(unit.power, []).append(order)
        return orders

    # ------------------------------------------------------------ adjustments

    def _adjustments(self, position: Position) -> dict[str, list[Order]]:
        rng = self.rng
        game_map = self.game_map
        orders: dict[str, list[Order]] = {}
        for power in game_map.powers:
            owned = position.centers.get(power, frozenset())
            units = [u for u in position.units if u.power == power]
            owed = len(owned) - len(units)
            if owed > 0:
                sites = sorted(build_sites(position, power, game_map))
                rng.shuffle(sites)
                for site in sites[:owed]:
                    orders.setdefault(power, []).append(self._build(site))
                if len(sites) < owed or rng.random() < 0.1:
                    orders.setdefault(power, []).append(Waive())
            elif owed < 0:
                for unit in rng.sample(sorted(units, key=lambda u: u.location), -owed):
                    orders.setdefault(power, []).append(Remove(_ref(unit)))
            if self.mischief and rng.random() < self.mischief:
                orders.setdefault(power, []).extend(self._illegal_adjustments(power, units))
        return orders

    def _build(self, site: str) -> Build:
        fleet_spots = self.game_map.fleet_locations(site)
        if fleet_spots and self.rng.random() < 0.4:
            return Build(UnitType.FLEET, self.rng.choice(fleet_spots))
        return Build(UnitType.ARMY, site)

    def _illegal_adjustments(self, power: str, units: Sequence[Unit]) -> list[Order]:
        """Builds anywhere of either type, waives and removals nobody owes."""
        rng = self.rng
        out: list[Order] = []
        for _ in range(rng.randint(1, 3)):
            roll = rng.random()
            if roll < 0.5:
                site = rng.choice(sorted(self.game_map.supply_centers))
                out.append(Build(rng.choice([UnitType.ARMY, UnitType.FLEET]), site))
            elif roll < 0.6:
                out.append(Waive())
            elif units:
                out.append(Remove(_ref(rng.choice(units))))
        return out
