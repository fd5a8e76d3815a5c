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
