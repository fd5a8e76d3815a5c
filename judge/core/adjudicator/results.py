"""What an adjudication returns: one result per order and the position that follows.

Results are plain frozen values so the mail layer can print them, the
database can store them and tests can compare them, without any of them
reaching back into the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from judge.core.orders import Order
from judge.core.phase import Phase
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit


class Outcome(StrEnum):
    """How one order ended: carried out, tried and failed, or never legal."""

    SUCCEEDS = "succeeds"
    FAILS = "fails"
    INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class OrderResult:
    """The fate of one order (or of one unit left without an order).

    ``unit`` is the unit the order concerns as it stood before the phase;
    for a successful build, the unit built; ``None`` for an order naming no
    unit (WAIVE, an order to an empty province, an illegal build).
    ``order`` is ``None`` for a unit that got no usable order (it held, was
    disbanded, or was removed in civil disorder).
    ``reason`` is short and readable by a player: "bounce", "cut",
    "dislodged", "no convoy", "void", "no order: holds", ...
    """

    power: str
    unit: Unit | None
    order: Order | None
    outcome: Outcome
    reason: str = ""


@dataclass(frozen=True, slots=True)
class AdjudicationResult:
    """Everything one adjudicated phase produced.

    ``position`` is the board at the start of ``next_phase`` (phases with
    nothing to do are skipped). ``dislodged`` lists every unit dislodged in a
    movement phase, including those that will be destroyed for lack of a
    retreat; ``retreats`` gives each of them its legal retreat locations
    (fleets on split coasts listed per coast, an empty tuple meaning the unit
    is destroyed). ``winner`` is the power that holds at least the variant's
    winning number of centres in ``position``, if any.
    """

    phase: Phase
    next_phase: Phase
    position: Position
    results: tuple[OrderResult, ...]
    dislodged: tuple[DislodgedUnit, ...] = ()
    retreats: Mapping[Unit, tuple[str, ...]] = field(default_factory=dict)
    winner: str | None = None


# A frozen dataclass's __init__ sets each field through object.__setattr__, which
# costs more than the rest of adjudicating an order; the engine creates one result
# per order, so it fills the slots directly. Same object, same invariants: the
# fields are set exactly once, before the result is visible to anyone.
_NEW = object.__new__
_SETTERS: tuple[Any, ...] = tuple(
    OrderResult.__dict__[name].__set__ for name in ("power", "unit", "order", "outcome", "reason")
)


ORDER_RESULT_SETTERS = _SETTERS
"""The setters of OrderResult's fields, in order (power, unit, order, outcome, reason), for a loop
that makes many results and cannot afford a call of :func:`order_result` for each (its use must
set every field once, as :func:`order_result` does)."""


def order_result(power: str, unit: Unit | None, order: Order | None, outcome: Outcome, reason: str) -> OrderResult:
    """``OrderResult(power, unit, order, outcome, reason)``, built without the frozen-init overhead."""
    result = _NEW(OrderResult)
    set_power, set_unit, set_order, set_outcome, set_reason = _SETTERS
    set_power(result, power)
    set_unit(result, unit)
    set_order(result, order)
    set_outcome(result, outcome)
    set_reason(result, reason)
    return result


_ADJUDICATION_SETTERS: tuple[Any, ...] = tuple(
    AdjudicationResult.__dict__[name].__set__
    for name in ("phase", "next_phase", "position", "results", "dislodged", "retreats", "winner")
)


def adjudication_result(
    phase: Phase,
    position: Position,
    results: tuple[OrderResult, ...],
    dislodged: tuple[DislodgedUnit, ...],
    retreats: Mapping[Unit, tuple[str, ...]],
    winner: str | None,
) -> AdjudicationResult:
    """``AdjudicationResult(phase, position.phase, position, ...)``, built without the frozen-init overhead."""
    result = _NEW(AdjudicationResult)
    set_phase, set_next, set_position, set_results, set_dislodged, set_retreats, set_winner = _ADJUDICATION_SETTERS
    set_phase(result, phase)
    set_next(result, position.phase)
    set_position(result, position)
    set_results(result, results)
    set_dislodged(result, dislodged)
    set_retreats(result, retreats)
    set_winner(result, winner)
    return result
