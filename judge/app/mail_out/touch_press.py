"""Touch press (``SET TOUCH PRESS``): which powers a power may send partial press to.

The Judge's touch press (judge-conventions §8: "touch (one broadcast per
turn, partial only to neighbours)"): a power may send partial press only to
the powers it *touches* at the start of the phase, that is, a power with a
unit or an owned supply centre in a province next to (or the same as) a
province where the sender has a unit or an owned supply centre; and it may
send one broadcast per phase. Neighbours are provinces a unit could move
between, army or fleet, whatever stands there.

Pure functions of the board and the map.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from judge.core.adjudicator.topology import topology
from judge.core.geography import GameMap
from judge.core.position import Position


@functools.cache
def neighbours(game_map: GameMap) -> Mapping[str, frozenset[str]]:
    """Each province with the provinces next to it (by army or by fleet, any coast)."""
    topo = topology(game_map)
    near: dict[str, set[str]] = {province: set(topo.army.get(province, ())) for province in topo.terrain}
    for location, reach in topo.fleet_reach.items():
        near[topo.province[location]].update(reach)
    return {province: frozenset(p) for province, p in near.items()}


def presence(position: Position, game_map: GameMap) -> dict[str, set[str]]:
    """Each power with the provinces where it has a unit (dislodged ones too) or owns a supply centre."""
    where = topology(game_map).province
    held: dict[str, set[str]] = {}
    for unit in position.units:
        held.setdefault(unit.power, set()).add(where[unit.location])
    for dislodged in position.dislodged:
        held.setdefault(dislodged.unit.power, set()).add(where[dislodged.unit.location])
    for power, centres in position.centers.items():
        held.setdefault(power, set()).update(centres)
    return held


def touching_powers(position: Position, game_map: GameMap, power: str) -> frozenset[str]:
    """The other powers that ``power`` touches on ``position`` (see the module)."""
    held = presence(position, game_map)
    own = held.get(power, set())
    near = neighbours(game_map)
    reach = set(own)
    for province in own:
        reach |= near.get(province, frozenset())
    return frozenset(other for other, provinces in held.items() if other != power and provinces & reach)
