"""A retreat phase: each dislodged unit retreats, disbands, or is destroyed.

Two or more units retreating to one province are all destroyed (every
rulebook); a unit without an order disbands, or under the ``seed000`` rule
is retreated by the game master as seed 000 section 3.5.3 describes. Those
default retreats then follow the same rule as ordered ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.core.adjudicator.board import Board
from judge.core.adjudicator.civil_disorder import default_retreat
from judge.core.adjudicator.order_sets import collect
from judge.core.adjudicator.phases import settle, winner
from judge.core.adjudicator.results import AdjudicationResult, OrderResult, Outcome
from judge.core.adjudicator.retreat_options import retreat_options
from judge.core.adjudicator.rules import Rules
from judge.core.adjudicator.validation import RETREAT
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.position import Position
from judge.core.units import Unit, province_of


def adjudicate_retreats(
    position: Position, orders: Mapping[str, Sequence[Order]], rules: Rules, game_map: GameMap
) -> AdjudicationResult:
    board = Board(position, game_map)
    order_set = collect(board, orders, rules)

    destination: dict[Unit, str] = {}
    defaulted: set[Unit] = set()
    for dislodged in position.dislodged:
        unit = dislodged.unit
        chosen = order_set.by_province.get(province_of(unit.location))
        if chosen is not None:
            if chosen.kind == RETREAT and chosen.target is not None:
                destination[unit] = chosen.target
        elif rules.missing_retreats == "seed000":
            target = default_retreat(retreat_options(board, dislodged, rules), unit.power, game_map)
            if target is not None:
                destination[unit] = target
                defaulted.add(unit)

    arrivals: dict[str, int] = {}
    for target in destination.values():
        arrivals[province_of(target)] = arrivals.get(province_of(target), 0) + 1
    retreated = {
        unit: target for unit, target in destination.items() if arrivals[province_of(target)] == 1
    }

    results: list[OrderResult] = []
    for entry in order_set.entries:
        if entry.dropped is not None or entry.interpreted is None:
            results.append(OrderResult(entry.power, entry.unit, entry.order, Outcome.INVALID, entry.dropped or ""))
        elif entry.interpreted.kind == RETREAT:
            if entry.unit in retreated:
                results.append(OrderResult(entry.power, entry.unit, entry.order, Outcome.SUCCEEDS, ""))
            else:
                results.append(
                    OrderResult(entry.power, entry.unit, entry.order, Outcome.FAILS, "bounce, destroyed")
                )
        else:
            results.append(OrderResult(entry.power, entry.unit, entry.order, Outcome.SUCCEEDS, "disbanded"))
    for dislodged in position.dislodged:
        unit = dislodged.unit
        if province_of(unit.location) in order_set.by_province:
            continue
        if unit in retreated:
            reason = f"no order: retreated to {board.name(retreated[unit])} by the game master"
            results.append(OrderResult(unit.power, unit, None, Outcome.SUCCEEDS, reason))
        elif unit in defaulted:
            results.append(OrderResult(unit.power, unit, None, Outcome.FAILS, "no order: bounce, destroyed"))
        else:
            results.append(OrderResult(unit.power, unit, None, Outcome.FAILS, "no order: disbanded"))

    units = position.units + tuple(Unit(u.power, u.type, loc) for u, loc in retreated.items())
    next_position = settle(position.phase, units, position.centers, position.variant, game_map)
    return AdjudicationResult(
        phase=position.phase,
        next_phase=next_position.phase,
        position=next_position,
        results=tuple(results),
        winner=winner(next_position, game_map),
    )
