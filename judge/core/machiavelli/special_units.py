"""The special units of the Renaissance game (SET SPECIAL, with money): what they are and cost.

The classic Judge's rules file ("Special units (optional)"): besides the ordinary mercenaries,
three kinds of unit, each an army, a fleet or a garrison:

* the **citizens' militia**: 6 ducats to build and to keep a year, strength 1, twice the price
  of any bribe aimed at it;
* the **elite mercenaries**: 6 ducats, strength 2, bribed for the ordinary price;
* the **elite professionals**: 9 ducats, strength 2, twice the price of a bribe.

A power has one special unit at most in play: a build, an upkeep or a purchase that would give
it a second one fails (the ducats of a bribe are spent all the same). A unit of strength 2 counts
twice when it moves, holds and supports (a strength-1 attack still cuts its whole support), and
as one unit in the retreats. Without money (SET NO MONEY) there are no special units.

A special unit is named in the position by its owner and place (:class:`UnitPlace`): the army
or fleet of a province, or the garrison of its city. The owner is part of the name because in a
retreat phase a dislodged unit and the unit that dislodged it share a province.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from judge.core.position import DislodgedUnit
from judge.core.units import Unit

ORDINARY_UPKEEP = 3
"""Ducats an ordinary unit costs to build, and to keep each year."""


class SpecialKind(StrEnum):
    MILITIA = "militia"
    MERCENARIES = "mercenaries"
    PROFESSIONALS = "professionals"

    @property
    def upkeep(self) -> int:
        """Ducats to build it, and to keep it each year."""
        return 9 if self is SpecialKind.PROFESSIONALS else 6

    @property
    def strength(self) -> int:
        return 1 if self is SpecialKind.MILITIA else 2

    @property
    def bribe_factor(self) -> int:
        """What the least price of a bribe aimed at it is multiplied by."""
        return 1 if self is SpecialKind.MERCENARIES else 2


def upkeep(kind: SpecialKind | None) -> int:
    """Ducats a unit of ``kind`` (None: an ordinary unit) costs to build or keep a year."""
    return ORDINARY_UPKEEP if kind is None else kind.upkeep


@dataclass(frozen=True, slots=True, order=True)
class UnitPlace:
    """The unit of ``power`` in ``province``: its army or fleet, or (``garrison``) its garrison."""

    power: str
    province: str
    garrison: bool = False


Specials = Mapping[UnitPlace, SpecialKind]
NO_SPECIALS: Specials = MappingProxyType({})


def special_of(specials: Specials, power: str, province: str, garrison: bool = False) -> SpecialKind | None:
    return specials.get(UnitPlace(power, province, garrison))


def has_special(specials: Specials, power: str) -> bool:
    """Whether ``power`` already has its one special unit."""
    return any(place.power == power for place in specials)


def specials_standing(
    specials: Specials,
    units: Iterable[Unit],
    garrisons: Mapping[str, str],
    dislodged: Iterable[DislodgedUnit] = (),
) -> Specials:
    """``specials`` without those whose unit is no longer there (eliminated, disbanded, removed
    by the dice): a special unit is its owner's army, fleet or garrison in its place."""
    if not specials:
        return NO_SPECIALS
    field = {(unit.power, unit.province) for unit in units} | {(d.unit.power, d.unit.province) for d in dislodged}
    kept = {
        place: kind
        for place, kind in specials.items()
        if (garrisons.get(place.province) == place.power if place.garrison else (place.power, place.province) in field)
    }
    return specials if len(kept) == len(specials) else MappingProxyType(kept)
