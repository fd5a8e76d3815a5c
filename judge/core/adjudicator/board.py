"""A read-only view of one position on one map, indexed for the questions orders ask.

Built once per adjudication (or per validated order): which unit stands in a
province, which unit waits to retreat from it, and the readable name of a
place for error messages. Keeping the indexes here means validation and the
phase engines never scan the unit list.
"""

from __future__ import annotations

from judge.core.geography import GameMap
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, UnitType, coast_of, province_of

_COAST_NAMES = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}


class Board:
    """Units by province, dislodged units by province, and place names."""

    __slots__ = ("dislodged_at", "game_map", "position", "unit_at")

    def __init__(self, position: Position, game_map: GameMap) -> None:
        self.position = position
        self.game_map = game_map
        self.unit_at: dict[str, Unit] = {unit.province: unit for unit in position.units}
        self.dislodged_at: dict[str, DislodgedUnit] = {d.unit.province: d for d in position.dislodged}

    def name(self, location: str) -> str:
        """``"SPA/NC"`` -> ``"Spain (north coast)"``; unknown codes are returned as given."""
        province = self.game_map.provinces.get(province_of(location))
        if province is None:
            return location
        coast = coast_of(location)
        if coast is None:
            return province.name
        return f"{province.name} ({_COAST_NAMES.get(coast, coast)})"

    def unit_name(self, unit: Unit) -> str:
        kind = "army" if unit.type is UnitType.ARMY else "fleet"
        return f"the {kind} in {self.name(unit.location)}"

    def fleet_provinces(self) -> frozenset[str]:
        """Provinces where a fleet stands: the possible links of a convoy chain."""
        return frozenset(u.province for u in self.position.units if u.type is UnitType.FLEET)
