"""The order model: one frozen dataclass per kind of order.

Orders are values read from a player's text before anything is checked against
the board; they name units by :class:`~judge.core.units.UnitRef` (type as
written, possibly missing). Orders are grouped by power outside these classes
(``Mapping[str, Sequence[Order]]``): the power is who sent the order, not part
of what was said. ``str(order)`` is the order in the judge's canonical
notation (``A LON - NTH - BEL``, ``F TRI S A BUD - SER``, ``BUILD F STP/NC``).
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.core.units import UnitRef, UnitType


@dataclass(frozen=True, slots=True)
class Hold:
    """The unit stays where it is."""

    unit: UnitRef

    def __str__(self) -> str:
        unit = self.unit
        return (unit.location if unit.type is None else unit.type._value_ + " " + unit.location) + " H"


@dataclass(frozen=True, slots=True)
class Move:
    """A move; ``destination`` may carry a coast (``SPA/NC``).

    ``via_convoy`` is the explicit 'VIA CONVOY'; ``route`` the sea provinces a
    player listed (``A LON - NTH - BEL`` has route ``("NTH",)``), which also
    asks for a convoy.
    """

    unit: UnitRef
    destination: str
    via_convoy: bool = False
    route: tuple[str, ...] = ()

    @property
    def wants_convoy(self) -> bool:
        return self.via_convoy or bool(self.route)

    def __str__(self) -> str:
        unit = self.unit
        text = unit.location if unit.type is None else unit.type._value_ + " " + unit.location
        if self.route:
            return " - ".join((text, *self.route, self.destination))
        text = text + " - " + self.destination
        return text + " VIA CONVOY" if self.via_convoy else text


@dataclass(frozen=True, slots=True)
class SupportHold:
    """Support of a unit that does not move (it holds, supports or convoys)."""

    unit: UnitRef
    supported: UnitRef

    def __str__(self) -> str:
        unit, other = self.unit, self.supported
        return (
            (unit.location if unit.type is None else unit.type._value_ + " " + unit.location)
            + " S "
            + (other.location if other.type is None else other.type._value_ + " " + other.location)
        )


@dataclass(frozen=True, slots=True)
class SupportMove:
    """Support of a move; ``destination`` is a province (a coast there is ignored)."""

    unit: UnitRef
    supported: UnitRef
    destination: str

    def __str__(self) -> str:
        unit, other = self.unit, self.supported
        return (
            (unit.location if unit.type is None else unit.type._value_ + " " + unit.location)
            + " S "
            + (other.location if other.type is None else other.type._value_ + " " + other.location)
            + " - "
            + self.destination
        )


@dataclass(frozen=True, slots=True)
class Convoy:
    """A fleet at sea carries an army on its way to ``destination``."""

    unit: UnitRef
    convoyed: UnitRef
    destination: str

    def __str__(self) -> str:
        return f"{self.unit} C {self.convoyed} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Retreat:
    """A dislodged unit retreats to ``destination``."""

    unit: UnitRef
    destination: str

    def __str__(self) -> str:
        return f"{self.unit} R {self.destination}"


@dataclass(frozen=True, slots=True)
class Disband:
    """A dislodged unit disbands instead of retreating."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Build:
    """Build a unit; ``type`` is required, ``location`` carries a coast for fleets on split coasts."""

    type: UnitType
    location: str

    def __str__(self) -> str:
        return f"BUILD {self.type.value} {self.location}"


@dataclass(frozen=True, slots=True)
class Remove:
    """A unit removed in an adjustment phase."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"REMOVE {self.unit}"


@dataclass(frozen=True, slots=True)
class Waive:
    """Decline one build."""

    def __str__(self) -> str:
        return "WAIVE"


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Remove | Waive
Order = MovementOrder | RetreatOrder | AdjustmentOrder
