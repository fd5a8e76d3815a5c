"""What a power of the Renaissance game still owes for a phase: when its orders are complete.

The judge processes a phase before its deadline once every power that has something to order
has complete orders; this is the Renaissance game's own measure of "complete", by its phases:

* a campaign: each army, fleet and garrison of the power is named by an order (its money orders
  are never owed: a power may spend nothing);
* its retreats: each of the power's dislodged units is named by a retreat or a disband;
* the adjustments with money: each army, fleet and garrison is maintained or removed (a unit
  neither is disbanded unpaid, so the judge waits for the power to say which); builds are never
  owed;
* the adjustments without money (SET NO MONEY): the builds it may place (as many as it is owed
  and has sites for) and the removals it owes, as in Diplomacy.

Pure: a position and orders in, the answer out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from judge.core.machiavelli.adjustments import (
    Dismiss,
    Maintain,
    Raise,
    allowance,
    build_sites,
    unit_count,
)
from judge.core.machiavelli.board import MachiavelliBoard
from judge.core.machiavelli.campaign import MachiavelliPosition
from judge.core.machiavelli.options import FIRST_EDITION, MachiavelliOptions
from judge.core.machiavelli.orders import (
    GarrisonConvert,
    GarrisonDisband,
    GarrisonHold,
    GarrisonSupport,
)
from judge.core.phase import PhaseType
from judge.core.units import Unit, UnitRef


@dataclass(frozen=True, slots=True)
class Owed:
    """``owes``: the power has something to order in the phase; ``units`` and ``garrisons``
    (by city): those no order names yet; ``builds_left`` and ``removals_left``: the basic game's
    adjustments still to give."""

    owes: bool
    units: tuple[Unit, ...] = ()
    garrisons: tuple[str, ...] = ()
    builds_left: int = 0
    removals_left: int = 0

    @property
    def complete(self) -> bool:
        return (
            not self.units
            and not self.garrisons
            and self.builds_left <= 0
            and self.removals_left <= 0
        )


def orders_owed(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    power: str,
    orders: Iterable[object],
    options: MachiavelliOptions = FIRST_EDITION,
) -> Owed:
    """What ``power`` still owes in ``position``'s phase, given the ``orders`` on its sheet."""
    given = list(orders)
    kind = position.phase.type
    if kind is PhaseType.RETREAT:
        dislodged = [d.unit for d in position.dislodged if d.unit.power == power]
        named = {_field_province(order) for order in given}
        return Owed(bool(dislodged), tuple(u for u in dislodged if u.province not in named))
    units = sorted((u for u in position.units if u.power == power), key=lambda u: u.location)
    garrisons = sorted(city for city, owner in position.garrisons.items() if owner == power)
    if kind is PhaseType.ADJUSTMENT and not options.money:
        return _basic_adjustments(board, position, power, given)
    if kind is PhaseType.ADJUSTMENT:
        kept = {
            (order.province, order.garrison)
            for order in given
            if isinstance(order, Maintain | Dismiss)
        }
        named_field = {province for province, garrison in kept if not garrison}
        named_cities = {province for province, garrison in kept if garrison}
    else:
        named_field = {p for p in map(_field_province, given) if p is not None}
        named_cities = {p for p in map(_garrison_province, given) if p is not None}
    return Owed(
        bool(units or garrisons),
        tuple(u for u in units if u.province not in named_field),
        tuple(city for city in garrisons if city not in named_cities),
    )


def _basic_adjustments(
    board: MachiavelliBoard, position: MachiavelliPosition, power: str, given: list[object]
) -> Owed:
    owed = allowance(board, position, power) - unit_count(position, power)
    if owed < 0:
        removed = sum(isinstance(order, Dismiss) for order in given)
        return Owed(True, removals_left=max(0, -owed - removed))
    possible = min(owed, len(build_sites(board, position, power)))
    if possible <= 0:
        return Owed(False)
    built = sum(isinstance(order, Raise) for order in given)
    return Owed(True, builds_left=max(0, possible - built))


def _field_province(order: object) -> str | None:
    """The province of the army or fleet an order names (None: it names none)."""
    unit = getattr(order, "unit", None)
    return unit.province if isinstance(unit, UnitRef) else None


def _garrison_province(order: object) -> str | None:
    """The city of the garrison an order names (None: it names none)."""
    if isinstance(order, GarrisonHold | GarrisonSupport | GarrisonConvert | GarrisonDisband):
        return order.province
    return None
