"""Ruling on a position written as JSON: the order reader joined to the adjudicator.

This is the pure heart of ``judge adjudicate`` and of the judge's own phase
processing: a position in the ``judge adjudicate`` JSON format (with each
power's orders as text lines) goes in, the result in the same contract's
format comes out (:func:`rule_on`, :func:`rule`). The judge's processing
hands its stored sheets' orders over as typed values (:func:`rule_orders`),
read once when their mail came and never written out to be read again; both
roads meet in one adjudication and one way of making the entries, so the
application processes a game's phase with exactly the code a moderator can
run by hand on the stored position to check a ruling (a test compares them).

The contract (fixed; tests hold it): every failure becomes ``{"error": ...}``
rather than an exception; one result entry per order line given, in the order
given, then the engine's entries for units that got no order. Order lines are
read as English first; a line that does not read in English is read again
with the French names and keywords ("A Paris - Bourgogne").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judge.json_text import loads

if TYPE_CHECKING:
    from judge.core.adjudicator import AdjudicationResult, Rules
    from judge.core.geography import GameMap
    from judge.core.orders import Order
    from judge.core.phase import PhaseType
    from judge.core.position import Position
    from judge.core.units import Unit, UnitRef
    from judge.lang.orders import OrderSyntaxError, ReadOrder


def rule_on_text(text: str) -> dict[str, Any]:
    """The result (or ``{"error": ...}``) for one position written as JSON text."""
    try:
        data = loads(text)
    except json.JSONDecodeError as error:
        return {"error": f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"}
    return rule_on(data)


def rule_on(data: object) -> dict[str, Any]:
    """The result for one decoded position; every failure becomes ``{"error": ...}``."""
    from judge.core.errors import CoreError

    try:
        return _rule_on(data)
    except CoreError as error:
        return {"error": one_line(str(error))}
    except Exception as error:
        return {
            "error": one_line(
                f"internal error while adjudicating: {type(error).__name__}: {error}"
            )
        }


@dataclass(frozen=True, slots=True)
class Ruling:
    """A phase ruled on: the engine's result and one contract entry per order given.

    ``entries`` are the ``results`` of the JSON contract (see :func:`rule_on`): one per
    order or line given, in the order given, then the engine's entries for units that got
    no order. ``orders`` holds each entry's typed order, in step with ``entries`` (None for
    a line that could not be read, or a unit that got no order).
    """

    result: AdjudicationResult
    entries: tuple[dict[str, Any], ...]
    orders: tuple[Order | None, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``judge adjudicate`` output for this ruling."""
        from judge.core.serialization import result_to_json

        return result_to_json(self.result, list(self.entries))

    def to_stored_json(self) -> dict[str, Any]:
        """:meth:`to_json` with each entry's typed order beside its text (``"order_value"``, in
        the form of :mod:`judge.core.order_json`; null when there is none): what a processed
        phase keeps, so that its map is drawn from the orders themselves, never from their text."""
        from judge.core.order_json import ORDER_VALUE, order_to_json
        from judge.core.serialization import result_to_json

        entries = [
            {**entry, ORDER_VALUE: None if order is None else order_to_json(order)}
            for entry, order in zip(self.entries, self.orders, strict=True)
        ]
        return result_to_json(self.result, entries)


def rule(
    position: Position,
    orders: Mapping[str, Sequence[str]],
    rules: Rules,
    game_map: GameMap,
) -> Ruling:
    """Read each power's order lines and adjudicate the phase of ``position`` with them.

    Lines that cannot be read are left out of the adjudication (the unit
    holds, or is treated as unordered) and reported as ``invalid`` entries.
    Raises the core's errors (:class:`~judge.core.errors.CoreError`) only for
    a position or rules the engine cannot work with.
    """
    phase_type = position.phase.type
    lines = tuple(read_lines(orders, game_map, phase_type))
    # Shared names settled by the board, postal preference lists chosen on it (issue 18). Only an
    # order with a name read more than one way can change (settle_by_board returns the others as
    # they are), so only those are asked.
    if any(not isinstance(read, Exception) and read.readings for _, read in lines):
        from judge.lang.board import settle_by_board

        lines = tuple(
            (power, settle_by_board(read, position, power, game_map, rules)[0])
            if not isinstance(read, Exception) and read.readings
            else (power, read)
            for power, read in lines
        )
    lines = _preferences_chosen(lines, position, rules, game_map)
    return _ruled(
        position,
        tuple((power, read if isinstance(read, Exception) else read.order) for power, read in lines),
        rules,
        game_map,
    )


def rule_orders(
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    rules: Rules,
    game_map: GameMap,
) -> Ruling:
    """Adjudicate the phase of ``position`` with typed orders: nothing is read.

    The judge's own processing: a stored sheet's orders are values already
    (read once, when their mail came), so they go to the engine as they are,
    their shared names (``MAR``, ``TYR``) settled by the board as :func:`rule`
    settles them (:func:`judge.lang.board.settle_order`). The ruling is the one
    :func:`rule` gives for the orders' text (powers in alphabetical order, each
    power's orders in the order given): ``tests/core/test_ruling_typed.py``
    compares the two on generated games.
    """
    from judge.lang.board import settle_order

    lines = tuple(
        (power, settle_order(order, position, power, game_map, rules))
        for power in sorted(orders)
        for order in orders[power]
    )
    return _ruled(position, lines, rules, game_map)


def _ruled(
    position: Position,
    lines: tuple[tuple[str, Order | OrderSyntaxError], ...],
    rules: Rules,
    game_map: GameMap,
) -> Ruling:
    """Adjudicate the orders of ``lines`` (each power's, in the order given; an error stands
    for a line that could not be read) and make one entry per line, then the engine's others."""
    from judge.core.adjudicator import adjudicate
    from judge.core.serialization import order_result_to_json

    typed: dict[str, list[Order]] = {}
    for power, order in lines:
        if not isinstance(order, Exception):
            if power in typed:
                typed[power].append(order)
            else:
                typed[power] = [order]
    result = adjudicate(position, typed, rules, game_map)
    units = position.units + tuple(d.unit for d in position.dislodged) if position.dislodged else position.units

    # One entry per line given, in the order given, then the engine's entries
    # for units that got no order (and anything else it has to report).
    # Each line takes the first result not yet taken with its power and order. The engine reports
    # the orders it was given in the order given, the very order objects, so the next result is
    # nearly always that one (checked by identity, no hashing of orders); from the first line for
    # which it is not, an index of the results by (power, order) finds it (not a scan of the results
    # for every line: that was quadratic in the number of orders).
    pending = result.results
    count = len(pending)
    slots: dict[tuple[str, Any], list[int]] | None = None
    taken: set[int] = set()
    nxt = 0  # the lockstep: every result before it is taken
    entries: list[dict[str, Any]] = []
    values: list[Order | None] = []
    for power, order in lines:
        if isinstance(order, Exception):
            entries.append(_unreadable(power, order, units))
            values.append(None)
            continue
        match: int | None
        if slots is None and nxt < count and pending[nxt].order is order and pending[nxt].power == power:
            match = nxt
            nxt += 1
        else:
            if slots is None:
                slots = {}
                for k in range(nxt, count):
                    r = pending[k]
                    slots.setdefault((r.power, r.order), []).append(k)
            match = next((k for k in slots.get((power, order), ()) if k not in taken), None)
        if match is None:
            entries.append(
                {"power": power, "unit": None, "order": str(order), "outcome": "invalid",
                 "reason": "the adjudicator gave no result for this order"}
            )  # fmt: skip
            values.append(order)
        else:
            taken.add(match)
            entries.append(_named_unit(order_result_to_json(pending[match]), order, units))
            values.append(pending[match].order)
    for k in range(nxt, count):
        if k not in taken:
            entries.append(order_result_to_json(pending[k]))
            values.append(pending[k].order)
    return Ruling(result, tuple(entries), tuple(values))


def _preferences_chosen(
    lines: tuple[tuple[str, ReadOrder | OrderSyntaxError], ...],
    position: Position,
    rules: Rules,
    game_map: GameMap,
) -> tuple[tuple[str, ReadOrder | OrderSyntaxError], ...]:
    """Each preference list replaced by the orders it comes to on ``position`` (one line per order).

    A list with no legal choice keeps its first choice, which the engine then
    reports as illegal.
    """
    if not any(not isinstance(read, Exception) and read.preferences for _, read in lines):
        return lines
    from dataclasses import replace

    from judge.lang.preferences import choose
    out: list[tuple[str, ReadOrder | OrderSyntaxError]] = []
    for power, read in lines:
        if isinstance(read, Exception) or not read.preferences:
            out.append((power, read))
            continue
        others = [
            other.order for who, other in lines
            if who == power and not isinstance(other, Exception) and not other.preferences
        ]  # fmt: skip
        taken = choose(position, power, read.preferences, game_map, rules, others=others).taken
        for order in taken or read.preferences[:1]:
            out.append((power, replace(read, order=order, preferences=())))
    return tuple(out)


def _rule_on(data: object) -> dict[str, Any]:
    from judge.core.adjudicator.rules import DEFAULT_RULES, Rules
    from judge.core.serialization import position_from_json

    given = position_from_json(data)
    rules = Rules.from_mapping(given.rules) if given.rules else DEFAULT_RULES  # the same value, made once
    return rule(given.position, given.orders, rules, given.game_map).to_json()


def _named_unit(entry: dict[str, Any], order: Order, units: Sequence[Unit]) -> dict[str, Any]:
    """Fill ``unit`` for an order the engine tied to no unit (one that is not there, say).

    The contract leaves ``unit`` null only when the line names no unit: the
    unit on the board when there is one in that province, else as written.
    """
    ref = getattr(order, "unit", None)
    if entry["unit"] is None and ref is not None:
        entry["unit"] = _unit_text(entry["power"], ref, units)
    return entry


def _unit_text(power: str, ref: UnitRef, units: Iterable[Unit]) -> str:
    on_board = next((u for u in units if u.power == power and u.province == ref.province), None)
    return str(on_board) if on_board is not None else str(ref)


def read_lines(
    orders: Mapping[str, Sequence[str]], game_map: GameMap, phase_type: PhaseType
) -> Iterable[tuple[str, ReadOrder | OrderSyntaxError]]:
    """Every order of every power, read; a line in French is read again as French."""
    from judge.lang.orders import OrderSyntaxError, read_order, read_order_line

    for power in sorted(orders):
        for line in orders[power]:
            if "," not in line and ";" not in line and line and not line.isspace():
                # One order (read_order_line's own first case): the same line again in a batch of
                # phases is a lookup in the reader's memo.
                try:
                    yield power, read_order(line, game_map, phase_type=phase_type)
                    continue
                except OrderSyntaxError:
                    pass
            read = read_order_line(line, game_map, phase_type=phase_type)
            if any(isinstance(r, OrderSyntaxError) for r in read):
                french = read_order_line(line, game_map, phase_type=phase_type, french=True)
                if sum(isinstance(r, OrderSyntaxError) for r in french) < sum(
                    isinstance(r, OrderSyntaxError) for r in read
                ):
                    read = french
            if not read:
                read = [OrderSyntaxError("Empty order", 1, line)]
            for item in read:
                yield power, item


def _unreadable(power: str, error: OrderSyntaxError, units: Iterable[Unit]) -> dict[str, Any]:
    """The result entry of a line that could not be read; names the unit when that much was read."""
    unit_text = _unit_text(power, error.unit, units) if error.unit is not None else None
    return {
        "power": power,
        "unit": unit_text,
        "order": None,
        "outcome": "invalid",
        "reason": one_line(str(error)),
    }


def one_line(text: str) -> str:
    """``text`` with every run of white space (new lines too) made one space."""
    return " ".join(text.split())
