"""Units and the locations they stand on.

A *location* is a province code, upper case (``"PAR"``), or, for a fleet on a
province with split coasts, the code and the coast (``"STP/NC"``). Armies never
carry a coast. Keeping locations as plain strings makes positions cheap to hash,
copy and serialise; :func:`province_of` and :func:`coast_of` take them apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class UnitType(StrEnum):
    ARMY = "A"
    FLEET = "F"


def province_of(location: str) -> str:
    """``"STP/NC"`` -> ``"STP"``; ``"PAR"`` -> ``"PAR"``."""
    slash = location.find("/")
    return location if slash < 0 else location[:slash]


def coast_of(location: str) -> str | None:
    """``"STP/NC"`` -> ``"NC"``; ``"PAR"`` -> ``None``."""
    slash = location.find("/")
    return None if slash < 0 else location[slash + 1 :]


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on the board: who owns it, what it is, where it stands."""

    power: str
    type: UnitType
    location: str

    @property
    def province(self) -> str:
        return province_of(self.location)

    def __str__(self) -> str:
        return self.type._value_ + " " + self.location  # _value_: the enum's plain attribute, not its property


@dataclass(frozen=True, slots=True)
class UnitRef:
    """A unit as an order names it: the type may be left out or be wrong.

    Orders are read before they are checked against the board, so the type a
    player wrote is kept as written (``None`` when omitted) and the location
    may carry a coast the player gave or not.
    """

    type: UnitType | None
    location: str

    @property
    def province(self) -> str:
        return province_of(self.location)

    def __str__(self) -> str:
        return self.location if self.type is None else self.type._value_ + " " + self.location


# A frozen dataclass's __init__ sets each field through object.__setattr__, which costs more
# than the rest of moving a unit; the engine makes a unit for every successful move, so
# unit_of fills the slots directly. Same object, same invariants: each field set once,
# before anyone sees the unit.
_NEW = object.__new__
_SET_POWER = Unit.__dict__["power"].__set__
_SET_TYPE = Unit.__dict__["type"].__set__
_SET_LOCATION = Unit.__dict__["location"].__set__


def unit_of(power: str, unit_type: UnitType, location: str) -> Unit:
    """``Unit(power, unit_type, location)``, built without the frozen-init overhead."""
    unit: Unit = _NEW(Unit)
    _SET_POWER(unit, power)
    _SET_TYPE(unit, unit_type)
    _SET_LOCATION(unit, location)
    return unit
