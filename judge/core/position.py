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
