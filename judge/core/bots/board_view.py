"""What a bot sees of one position: who reaches what, what threatens what, what a province is worth.

Shared by both levels of :mod:`judge.core.bots`. Everything here is a pure
function of the map, the position and the power asking; the few tables that
depend on the map alone (distances between provinces along each unit type's
own graph) are made once per map and kept, since a map is one object per
variant (:class:`~judge.core.geography.GameMap` is hashed by identity).

A province's *worth* to a power for a unit type is a sum over the map's
supply centres of the centre's weight, decayed by the number of moves that
type of unit needs to get there (:data:`DECAY` per move). The weights say what
the power wants: centres it does not own pull, the more so when neutral;
centres it owns pull in proportion to how many foreign units could enter
them. However far the nearest centre it does not own, each move nearer is
worth :data:`PULL`, so that units far from everything still advance. So a unit drifts toward the centres it can take and back to those it
must keep, without any list of openings or fronts written for one map.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from judge.core.adjudicator.board import Board
from judge.core.adjudicator.rules import Rules
from judge.core.adjudicator.validation import interpret
from judge.core.errors import OrderError
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.position import Position
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitType, province_of

DECAY = 0.4
"""How much of a centre's weight is left one move farther away."""

PULL = 0.15
"""What each move between a place and the nearest centre the power does not own costs."""

_ARMY = UnitType.ARMY
_FLEET = UnitType.FLEET


@dataclass(frozen=True, slots=True)
class MapTables:
    """Per map: each province's neighbours along each unit type's graph, and distances to centres."""

    army_next: Mapping[str, frozenset[str]]
    fleet_next: Mapping[str, frozenset[str]]
    army_distance: Mapping[str, Mapping[str, int]]
    """centre -> province -> moves an army needs by land (absent: only a convoy gets it there)."""
    fleet_distance: Mapping[str, Mapping[str, int]]
    centres: tuple[str, ...]


def _bfs(start: str, graph: Mapping[str, frozenset[str]]) -> dict[str, int]:
    distance = {start: 0}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        step = distance[current] + 1
        for nxt in sorted(graph.get(current, frozenset())):
            if nxt not in distance:
                distance[nxt] = step
                queue.append(nxt)
    return distance


@functools.cache
def map_tables(game_map: GameMap) -> MapTables:
    """The tables of ``game_map`` (made once per map object)."""
    army: dict[str, frozenset[str]] = {}
    fleet: dict[str, frozenset[str]] = {}
    for code in game_map.provinces:
        if game_map.is_land(code):
            army[code] = frozenset(game_map.army_moves(code))
        steps: set[str] = set()
        for location in game_map.fleet_locations(code):
            steps.update(province_of(d) for d in game_map.fleet_moves(location))
        if steps:
            fleet[code] = frozenset(steps)
    centres = tuple(sorted(game_map.supply_centers))
    return MapTables(
        army_next=army,
        fleet_next=fleet,
        army_distance={c: _bfs(c, army) for c in centres if c in army},
        fleet_distance={c: _bfs(c, fleet) for c in centres if c in fleet},
        centres=centres,
    )


def unit_reach(game_map: GameMap, unit: Unit) -> tuple[str, ...]:
    """The locations ``unit`` can move to by itself (no convoy, no railway), sorted."""
    if unit.type is _ARMY:
        return tuple(sorted(game_map.army_moves(unit.province)))
    return tuple(sorted(game_map.fleet_moves(unit.location)))


@dataclass(slots=True)
class View:
    """One power's view of a position (see the module's docstring)."""

    game_map: GameMap
    position: Position
    power: str
    rules: Rules
    board: Board = field(init=False)
    tables: MapTables = field(init=False)
    owner: dict[str, str] = field(init=False)
    """centre -> the power owning it."""
    occupant: dict[str, Unit] = field(init=False)
    """province -> the unit standing there."""
    mine: list[Unit] = field(init=False)
    threat: dict[str, int] = field(init=False)
    """province -> how many units of other powers could move there this phase (neutral units never move)."""
    reaching: dict[str, int] = field(init=False)
    """province -> how many units of the power could move there this phase."""
    _worth: dict[tuple[UnitType, str], float] = field(init=False)
    _weights: dict[str, float] = field(init=False)

    def __post_init__(self) -> None:
        self.board = Board(self.position, self.game_map)
        self.tables = map_tables(self.game_map)
        self.owner = {c: p for p, owned in self.position.centers.items() for c in owned}
        self.occupant = {u.province: u for u in self.position.units}
        self.mine = sorted((u for u in self.position.units if u.power == self.power), key=lambda u: u.location)
        threat: dict[str, int] = {}
        for unit in self.position.units:
            if unit.power in (self.power, NEUTRAL):
                continue
            for province in {province_of(loc) for loc in unit_reach(self.game_map, unit)}:
                threat[province] = threat.get(province, 0) + 1
        self.threat = threat
        self._worth = {}
        self._weights = self._centre_weights()
        reaching: dict[str, int] = {}
        for unit in self.mine:
            for province in {province_of(loc) for loc in self.reach(unit)}:
                reaching[province] = reaching.get(province, 0) + 1
        self.reaching = reaching

    # ----------------------------------------------------------- facts

    def owns(self, province: str) -> bool:
        return self.owner.get(province) == self.power

    def is_centre(self, province: str) -> bool:
        return self.game_map.counts_as_centre(province, self.power)

    def foreign_at(self, province: str) -> Unit | None:
        """The unit of another power (or a neutral one) standing in ``province``, if any."""
        unit = self.occupant.get(province)
        return unit if unit is not None and unit.power != self.power else None

    def reach(self, unit: Unit) -> tuple[str, ...]:
        return unit_reach(self.game_map, unit)

    def reaches_province(self, unit: Unit, province: str) -> bool:
        return any(province_of(loc) == province for loc in self.reach(unit))

    def legal(self, order: Order) -> bool:
        """Whether the core's validation accepts ``order`` from this power on this board."""
        try:
            interpret(self.board, self.power, order, self.rules)
        except OrderError:
            return False
        return True

    @property
    def building(self) -> bool:
        """Whether the power may have builds to make next winter (as many centres as units, or more)."""
        return len(self.position.centers.get(self.power, frozenset())) >= len(self.mine)

    def distance_to_owned(self) -> Mapping[str, int]:
        """Province steps (any terrain) to the nearest centre this power owns."""
        owned = sorted(self.position.centers.get(self.power, frozenset()))
        return self.game_map.distances_from(owned) if owned else {}

    # ----------------------------------------------------------- worth

    def _centre_weights(self) -> dict[str, float]:
        weights: dict[str, float] = {}
        homes = self.game_map.home_centers.get(self.power, frozenset())
        for centre in self.tables.centres:
            if not self.is_centre(centre):
                continue
            threat = self.threat.get(centre, 0)
            if self.owns(centre):
                weights[centre] = 0.15 + 0.45 * min(threat, 3)
                continue
            owner = self.owner.get(centre)
            weight = 1.3 if owner is None else 1.0
            if centre in homes:
                weight += 0.5
            occupant = self.occupant.get(centre)
            if occupant is not None and occupant.power != self.power:
                weight -= 0.3
            weights[centre] = weight - 0.15 * min(threat, 3)
        return weights

    def worth(self, unit_type: UnitType, province: str) -> float:
        """What standing in ``province`` with a unit of ``unit_type`` is worth to the power."""
        key = (unit_type, province)
        cached = self._worth.get(key)
        if cached is not None:
            return cached
        distances = self.tables.army_distance if unit_type is _ARMY else self.tables.fleet_distance
        total = 0.0
        nearest = 99
        for centre, weight in self._weights.items():
            table = distances.get(centre)
            if table is None:
                continue
            steps = table.get(province)
            if steps is not None:
                total += weight * DECAY**steps
                if steps < nearest and not self.owns(centre):
                    nearest = steps
        # However far the centres it could take, a step nearer is worth something.
        total -= PULL * min(nearest, 12)
        self._worth[key] = total
        return total

    def next_to(self, unit_type: UnitType, province: str) -> frozenset[str]:
        """The provinces a unit of ``unit_type`` in ``province`` could move to (any coast)."""
        graph = self.tables.army_next if unit_type is _ARMY else self.tables.fleet_next
        return graph.get(province, frozenset())

    def wanted_and_held(self, province: str) -> bool:
        """A centre the power does not own, with a unit of another power in it."""
        return self.is_centre(province) and not self.owns(province) and self.foreign_at(province) is not None

    def build_locations(self, site: str) -> Iterable[tuple[UnitType, str]]:
        """The units that could be built in ``site``: an army on land, a fleet on each coast."""
        if self.game_map.is_land(site):
            yield _ARMY, site
        for location in self.game_map.fleet_locations(site):
            yield _FLEET, location
