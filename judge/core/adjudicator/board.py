"""A read-only view of one position on one map, indexed for the questions orders ask.

Built once per adjudication (or per validated order): which unit stands in a
province, which unit waits to retreat from it, and the readable name of a
place for error messages. Keeping the indexes here means validation and the
phase engines never scan the unit list.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from types import MappingProxyType

from judge.core.adjudicator.topology import topology
from judge.core.geography import GameMap
from judge.core.position import DislodgedUnit, Position
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitType, coast_of, province_of

# Enum members read through the class cost ~0.2 us each on Python 3.11: bind them once.
_ARMY = UnitType.ARMY
_FLEET = UnitType.FLEET

_NONE_CLOSED: Mapping[str, Collection[frozenset[str]]] = MappingProxyType({})
"""No step closed to any convoy: every board of an ordinary game shares it."""

_COAST_NAMES = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}


class Board:
    """Units by province, dislodged units by province, and place names."""

    __slots__ = (
        "_fleets", "_owed", "closed_steps", "dislodged_at", "game_map", "phase_type", "position", "topo", "unit_at",
        "where",
    )  # fmt: skip

    def __init__(
        self,
        position: Position,
        game_map: GameMap,
        closed_steps: Mapping[str, Collection[frozenset[str]]] | None = None,
    ) -> None:
        """``closed_steps``: by a convoyed army's location, the steps no convoy may carry it across
        (the Renaissance game's straits): a convoy order is judged on the routes left open to it."""
        self.position = position
        self.closed_steps: Mapping[str, Collection[frozenset[str]]] = closed_steps or _NONE_CLOSED
        self.phase_type = position.phase.type
        self.game_map = game_map
        self.topo = topo = topology(game_map)
        self.where = where = topo.province
        """Location -> province, for every location of the map (``topo.province``)."""
        unit_at: dict[str, Unit] = {}
        for unit in position.units:
            location = unit.location
            unit_at[where.get(location) or province_of(location)] = unit
        self.unit_at = unit_at
        self.dislodged_at: dict[str, DislodgedUnit] = (
            {d.unit.province: d for d in position.dislodged} if position.dislodged else {}
        )
        self._fleets: frozenset[str] | None = None
        self._owed: dict[str, int] | None = None

    def owed(self, power: str) -> int:
        """Supply centres minus units of ``power``: builds if positive, removals if negative."""
        if self._owed is None:
            owed = {p: len(c) for p, c in self.position.centers.items()}
            for unit in self.position.units:
                if unit.power != NEUTRAL:  # neutral units are never built nor removed
                    owed[unit.power] = owed.get(unit.power, 0) - 1
            self._owed = owed
        return self._owed.get(power, 0)

    def province(self, location: str) -> str:
        """The province of a location, by table lookup when the location is known."""
        return self.where.get(location) or province_of(location)

    def name(self, location: str) -> str:
        """``"SPA/NC"`` -> ``"Spain (north coast)"``; unknown codes are returned as given."""
        province = self.game_map.provinces.get(province_of(location))
        if province is None:
            return location
        coast = coast_of(location)
        if coast is None:
            return province.name
        return f"{province.name} ({_COAST_NAMES.get(coast, coast)})"

    def unit_name(self, unit: Unit, *, capital: bool = False) -> str:
        """``"the fleet in Spain (north coast)"``; ``capital`` to start a sentence with it."""
        kind = "army" if unit.type is _ARMY else "fleet"
        return f"{'The' if capital else 'the'} {kind} in {self.name(unit.location)}"

    def fleet_provinces(self) -> frozenset[str]:
        """Provinces where a fleet stands: the possible links of a convoy chain."""
        if self._fleets is None:
            self._fleets = frozenset(p for p, u in self.unit_at.items() if u.type is _FLEET)
        return self._fleets
