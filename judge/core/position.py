"""A position: everything on the board at the start of a phase.

Immutable: adjudication returns a new position, never edits one, so any
position can be kept, compared, serialised and replayed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from judge.core.phase import Phase
from judge.core.units import Unit


@dataclass(frozen=True, slots=True)
class DislodgedUnit:
    """A unit dislodged in the movement phase, waiting to retreat.

    ``attacker_from`` is a province (no coast); a unit cannot retreat there,
    unless the attack came by convoy (2023 rulebook).
    """

    unit: Unit
    attacker_from: str
    attacker_via_convoy: bool = False


@dataclass(frozen=True, slots=True)
class Position:
    """The board at the start of ``phase``.

    ``centers`` maps each power to the supply centres it owns (powers with none
    may be absent). ``dislodged`` and ``standoffs`` matter in retreat phases
    only: the units waiting to retreat, and the provinces left empty by a
    bounce, where no retreat may go.
    """

    variant: str
    phase: Phase
    units: tuple[Unit, ...]
    centers: Mapping[str, frozenset[str]]
    dislodged: tuple[DislodgedUnit, ...] = ()
    standoffs: frozenset[str] = field(default_factory=frozenset)


# A frozen dataclass's __init__ sets each field through object.__setattr__; the engine makes a
# position or two per phase, so position_of fills the slots directly (as units.unit_of does).
# Same object, same invariants: each field set once, before anyone sees the position.
_NEW = object.__new__
_SET_VARIANT = Position.__dict__["variant"].__set__
_SET_PHASE = Position.__dict__["phase"].__set__
_SET_UNITS = Position.__dict__["units"].__set__
_SET_CENTERS = Position.__dict__["centers"].__set__
_SET_DISLODGED = Position.__dict__["dislodged"].__set__
_SET_STANDOFFS = Position.__dict__["standoffs"].__set__
_NO_STANDOFFS: frozenset[str] = frozenset()


def position_of(
    variant: str,
    phase: Phase,
    units: tuple[Unit, ...],
    centers: Mapping[str, frozenset[str]],
    dislodged: tuple[DislodgedUnit, ...] = (),
    standoffs: frozenset[str] = _NO_STANDOFFS,
) -> Position:
    """``Position(variant, phase, units, centers, dislodged, standoffs)`` without the frozen-init overhead."""
    position: Position = _NEW(Position)
    _SET_VARIANT(position, variant)
    _SET_PHASE(position, phase)
    _SET_UNITS(position, units)
    _SET_CENTERS(position, centers)
    _SET_DISLODGED(position, dislodged)
    _SET_STANDOFFS(position, standoffs)
    return position
