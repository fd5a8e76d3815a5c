"""What a power of the Renaissance game that sent no orders plays: its units hold, its garrisons
stay, and at the adjustments (with money) it keeps what its treasury pays for.

In a campaign a unit no order names holds (:mod:`.campaign`), so a silent power needs nothing
more there. At the adjustments with money, a unit neither maintained nor removed is disbanded
unpaid (:func:`~judge.core.machiavelli.money.adjudicate_money_adjustments`): a power that missed
the deadline would lose its whole army for a late mail. The judge instead maintains, for a power
with no orders at all, each of its units in turn, nearest its home country first (garrisons
before armies and fleets at one distance, then by province), as far as its ducats go; the
adjustments refuse the upkeep it cannot pay ("not enough ducats"), and those units go.
Without money the basic game's own civil-disorder removals apply
(:mod:`.adjustments`). Pure.
"""

from __future__ import annotations

from judge.core.machiavelli.adjustments import Maintain
from judge.core.machiavelli.board import MachiavelliBoard
from judge.core.machiavelli.campaign import MachiavelliPosition


def upkeep_in_disorder(
    board: MachiavelliBoard, position: MachiavelliPosition, power: str
) -> tuple[Maintain, ...]:
    """The upkeep orders of ``power``, given no orders, nearest its home country first."""
    distance = board.game_map.distances_from(board.home_countries[power])
    kept = [(unit.province, False) for unit in position.units if unit.power == power]
    kept += [(city, True) for city, owner in position.garrisons.items() if owner == power]
    kept.sort(key=lambda place: (distance.get(place[0], 999), not place[1], place[0]))
    return tuple(Maintain(province, garrison) for province, garrison in kept)
