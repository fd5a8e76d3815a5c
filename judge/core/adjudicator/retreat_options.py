"""Where a dislodged unit may retreat.

Anywhere it could move by itself (no convoy), except an occupied province,
a province left empty by a standoff, and the province its attacker came
from -- unless that attacker came by convoy (2023 rulebook, DATC 4.A.5).
Fleets on split coasts get one location per reachable coast, armies bare
provinces, so a player can be told exactly what to write.
"""

from __future__ import annotations

from judge.core.adjudicator.board import Board
from judge.core.adjudicator.rules import Rules
from judge.core.position import DislodgedUnit
from judge.core.units import UnitType, province_of

# Enum members read through the class cost ~0.2 us each on Python 3.11: bind them once.
_ARMY = UnitType.ARMY


def retreat_options(board: Board, dislodged: DislodgedUnit, rules: Rules) -> tuple[str, ...]:
    """The legal retreat locations of ``dislodged`` on ``board`` (the board after the movement), sorted."""
    unit = dislodged.unit
    topo = board.topo
    occupied = board.unit_at
    standoffs = board.position.standoffs
    barred = (
        None if dislodged.attacker_via_convoy and rules.retreat_to_convoy_origin else dislodged.attacker_from
    )
    if unit.type is _ARMY:
        candidates = topo.army.get(unit.location)
        if candidates is None:  # not a province: the map's own question says why
            candidates = board.game_map.army_moves(unit.province)
    else:
        candidates = topo.fleet.get(unit.location)
        if candidates is None:
            candidates = board.game_map.fleet_moves(unit.location)
    where = topo.province
    options = []
    for loc in candidates:
        province = where.get(loc) or province_of(loc)
        if province not in occupied and province not in standoffs and province != barred:
            options.append(loc)
    options.sort()
    return tuple(options)
