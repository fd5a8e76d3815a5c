"""The adjudicator: order validation and the resolution of every kind of phase.

Pure functions of a position, the orders, the game's rule options and the
map: no I/O, no clock, no state kept between calls. ``adjudicate`` is the
single entry point for a phase; ``validate`` tells whether one order is
legal (for acknowledging orders as they arrive).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from judge.core.adjudicator.adjustments import adjudicate_adjustments
from judge.core.adjudicator.movement_phase import adjudicate_movement
from judge.core.adjudicator.results import AdjudicationResult, OrderResult, Outcome
from judge.core.adjudicator.retreats import adjudicate_retreats
from judge.core.adjudicator.rules import DEFAULT_RULES, Rules
from judge.core.adjudicator.validation import validate
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.phase import PhaseType
from judge.core.position import Position

__all__ = [
    "DEFAULT_RULES",
    "AdjudicationResult",
    "OrderResult",
    "Outcome",
    "Rules",
    "adjudicate",
    "validate",
]


def adjudicate(
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    rules: Rules,
    game_map: GameMap,
    *,
    strengths: Mapping[str, int] | None = None,
    partial_cuts: bool = False,
    closed_steps: Mapping[str, Collection[frozenset[str]]] | None = None,
) -> AdjudicationResult:
    """Resolve the phase of ``position`` with ``orders`` (power -> orders in the order given);
    in a movement phase, the units located in ``strengths`` count for that many (else one),
    with ``partial_cuts`` a lone attack of strength one cuts one point of such a unit's support,
    and no convoy carries the army located at a key of ``closed_steps`` between the two provinces
    of one of its pairs."""
    phase_type = position.phase.type
    if phase_type is PhaseType.MOVEMENT:
        return adjudicate_movement(position, orders, rules, game_map, strengths, partial_cuts, closed_steps)
    if phase_type is PhaseType.RETREAT:
        return adjudicate_retreats(position, orders, rules, game_map)
    return adjudicate_adjustments(position, orders, rules, game_map)
