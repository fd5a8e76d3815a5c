"""The orders only the Renaissance game has: besiege, lift a siege, and the conversions.

An army or fleet is ordered as in Diplomacy (:mod:`judge.core.orders`: hold, move, support,
convoy) or with one of these; a garrison is named by its city's province and may hold, support
an action into its own province, or convert to an army or a fleet (:class:`GarrisonConvert`).
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.core.orders import Order
from judge.core.units import UnitRef, UnitType


@dataclass(frozen=True, slots=True)
class Besiege:
    """An army (or, at a port, a fleet) besieges the garrison of the city of its province."""

    unit: UnitRef


@dataclass(frozen=True, slots=True)
class LiftSiege:
    """The besieger ends its siege; it holds."""

    unit: UnitRef


@dataclass(frozen=True, slots=True)
class ToGarrison:
    """An army (or, at a port, a fleet) converts into the garrison of its province's empty city."""

    unit: UnitRef


@dataclass(frozen=True, slots=True)
class GarrisonHold:
    province: str


@dataclass(frozen=True, slots=True)
class GarrisonSupport:
    """The garrison of ``province`` supports ``supported`` to hold in, or to move into, its province."""

    province: str
    supported: UnitRef
    destination: str | None = None


@dataclass(frozen=True, slots=True)
class GarrisonConvert:
    """The garrison of ``province`` converts into an army or (at a port) a fleet in its province."""

    province: str
    to: UnitType


@dataclass(frozen=True, slots=True)
class GarrisonDisband:
    """The garrison of ``province`` disbands (SET DISBAND; an army or fleet disbands with
    :class:`judge.core.orders.Disband`)."""

    province: str


MachiavelliOrder = (
    Order | Besiege | LiftSiege | ToGarrison | GarrisonHold | GarrisonSupport | GarrisonConvert | GarrisonDisband
)
