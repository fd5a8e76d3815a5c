"""An adjustment phase: builds, waives and removals, then civil-disorder removals.

Each power's orders are taken one by one in the order given, and the first
legal ones count (DATC 4.D.4-4.D.6 and test cases 6.I.1, 6.J.1): a build
beyond what is owed, a second build in one centre or a second removal of one
unit is refused. A power that owes removals and ordered too few loses units
by the game's ``civil_disorder_removals`` rule. Unused builds are lost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.core.adjudicator.board import Board
from judge.core.adjudicator.civil_disorder import removal_order
from judge.core.adjudicator.order_sets import named_unit
from judge.core.adjudicator.phases import neutral_rebuilds, settle, winner
from judge.core.adjudicator.results import (
    AdjudicationResult,
    OrderResult,
    Outcome,
    adjudication_result,
    order_result,
)
from judge.core.adjudicator.rules import Rules
from judge.core.adjudicator.validation import BUILD, REMOVE, WAIVE, interpret
from judge.core.errors import (
    BuildOccupiedError,
    NoSuchUnitError,
    OrderError,
    TooManyBuildsError,
    TooManyRemovalsError,
)
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.position import Position
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, province_of, unit_of

# Enum members read through the class cost ~0.2 us each on Python 3.11: bind them once.
_SUCCEEDS = Outcome.SUCCEEDS
_FAILS = Outcome.FAILS
_INVALID = Outcome.INVALID


def adjudicate_adjustments(
    position: Position, orders: Mapping[str, Sequence[Order]], rules: Rules, game_map: GameMap
) -> AdjudicationResult:
    board = Board(position, game_map)
    where = board.where
    results: list[OrderResult] = []
    removed: set[str] = set()
    """The provinces of the units removed (one unit a province)."""
    built: list[Unit] = []
    owing = sorted(p for p in {u.power for u in position.units} if p != NEUTRAL and board.owed(p) < 0)
    powers = list(orders) + [p for p in owing if p not in orders]
    for power in powers:
        owed = board.owed(power)
        builds_left = max(owed, 0)
        removals_left = max(-owed, 0)
        built_here: set[str] = set()
        for order in orders.get(power, ()):
            try:
                reading = interpret(board, power, order, rules)
                if reading.kind in (BUILD, WAIVE):
                    if builds_left == 0:
                        raise TooManyBuildsError(max(owed, 0))
                    if reading.kind == BUILD:
                        assert reading.target is not None and reading.build_type is not None
                        province = province_of(reading.target)
                        if province in built_here:
                            raise BuildOccupiedError(board.name(province))
                        built_here.add(province)
                        unit = unit_of(power, reading.build_type, reading.target)
                        built.append(unit)
                        results.append(order_result(power, unit, order, _SUCCEEDS, ""))
                    else:
                        results.append(order_result(power, None, order, _SUCCEEDS, "waived"))
                    builds_left -= 1
                elif reading.kind == REMOVE:
                    assert reading.unit is not None
                    province = where.get(reading.unit.location) or reading.unit.province
                    if province in removed:
                        raise NoSuchUnitError(
                            board.name(reading.unit.province),
                            f"The unit in {board.name(reading.unit.province)} is already removed.",
                        )
                    if removals_left == 0:
                        raise TooManyRemovalsError(max(-owed, 0))
                    removed.add(province)
                    removals_left -= 1
                    results.append(order_result(power, reading.unit, order, _SUCCEEDS, "removed"))
            except OrderError as error:
                results.append(order_result(power, named_unit(board, order), order, _INVALID, str(error)))
        if removals_left > 0:
            remaining = [
                u for u in position.units
                if u.power == power and (where.get(u.location) or u.province) not in removed
            ]  # fmt: skip
            owned = position.centers.get(power, frozenset())
            ranked = removal_order(remaining, power, owned, game_map, rules.civil_disorder_removals)
            for unit in ranked[:removals_left]:
                removed.add(where.get(unit.location) or unit.province)
                results.append(order_result(power, unit, None, _FAILS, "removed in civil disorder"))

    kept = (
        tuple(u for u in position.units if (where.get(u.location) or u.province) not in removed)
        if removed
        else position.units
    )
    # Neutral units raised again where they started (neutral_units with rebuild: Known World 901).
    for unit in neutral_rebuilds(position, game_map):
        built.append(unit)
        results.append(order_result(NEUTRAL, unit, None, _SUCCEEDS, "neutral unit raised again"))
    units = kept + tuple(built) if built else kept
    next_position = settle(position.phase, units, position.centers, position.variant, game_map)
    return adjudication_result(position.phase, next_position, tuple(results), (), {}, winner(next_position, game_map))
