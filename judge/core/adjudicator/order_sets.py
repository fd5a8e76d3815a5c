"""From the orders each power sent to one order per unit.

Illegal orders are dropped first (DATC 4.D.3: an illegal order is no order),
then two different legal orders to one unit are settled by the game's
``duplicate_orders`` rule. What is dropped is kept, in the order it was
given, so every line a player wrote gets a result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from judge.core.adjudicator.board import Board
from judge.core.adjudicator.convoys import route_exists
from judge.core.adjudicator.rules import Rules
from judge.core.adjudicator.validation import (
    CONVOY,
    MOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    Interpreted,
    interpret,
    interpreter,
)
from judge.core.errors import AmbiguousCoastError, OrderError
from judge.core.geography import Terrain
from judge.core.orders import Convoy, Hold, Move, Order, SupportMove
from judge.core.phase import PhaseType
from judge.core.units import Unit, UnitRef, UnitType, province_of

SUPERSEDED_LATER = "superseded by a later order"
SUPERSEDED_EARLIER = "superseded by an earlier order"
CONFLICTING = "two different orders to one unit: it holds"
REPEATED = "same order given twice"
COMPLETED = "completed"
"""The reason word of an order completed from its power's support or convoy (rule complete_from_support)."""


@dataclass(slots=True)
class Entry:
    """One order as given, with its reading or the reason it is not used."""

    power: str
    order: Order
    interpreted: Interpreted | None = None
    unit: Unit | None = None
    dropped: str | None = None
    incomplete: bool = False
    completed: bool = False


@dataclass(slots=True)
class OrderSet:
    """Every entry in the order given, and the order each unit will execute, by the unit's province."""

    entries: list[Entry] = field(default_factory=list)
    by_province: dict[str, Interpreted] = field(default_factory=dict)


def collect(board: Board, orders: Mapping[str, Sequence[Order]], rules: Rules) -> OrderSet:
    """Interpret every order and keep one legal order per unit (movement and retreat phases)."""
    result = OrderSet()
    entries_out = result.entries
    by_province = result.by_province
    per_unit: dict[str, list[Entry]] = {}
    where = board.where
    read = interpreter(board.phase_type)  # interpret(), its phase chosen once
    for power, power_orders in orders.items():
        for order in power_orders:
            try:
                interpreted = read(board, power, order, rules)
            except OrderError as error:
                entries_out.append(
                    Entry(power, order, None, named_unit(board, order), str(error), isinstance(error, AmbiguousCoastError))
                )
                continue
            unit = interpreted.unit
            entry = Entry(power, order, interpreted, unit)
            entries_out.append(entry)
            if unit is not None:
                province = where[unit.location]
                if province in per_unit:
                    per_unit[province].append(entry)
                else:
                    per_unit[province] = [entry]
    for province, entries in per_unit.items():
        if len(entries) == 1:  # the usual case: one order for the unit
            by_province[province] = entries[0].interpreted  # type: ignore[assignment]
            continue
        chosen = _choose(entries, rules)
        if chosen is not None:
            assert chosen.interpreted is not None
            by_province[province] = chosen.interpreted
    if rules.complete_from_support and board.phase_type is PhaseType.MOVEMENT:
        _complete_from_own_orders(board, result, rules, per_unit)
    return result


# -- seed 002: incomplete orders completed from the same power's supports and convoys -----------


def _complete_from_own_orders(
    board: Board, result: OrderSet, rules: Rules, per_unit: Mapping[str, list[Entry]]
) -> None:
    """Give units without a legal order the order their own power's supports and convoys spell out.

    Seed 002, "Ordre manquant ou incomplet": "a missing or incomplete order
    for a unit is legal if the order for that unit is complete in the support
    or convoy order written for another unit of the same nationality (unless
    the incomplete order is also a legal order with another meaning, and
    unless there is another complete legal order for that unit)". A legal
    order of the unit is chosen before this runs, so only units with no
    order, or whose orders all lack a coast, are completed, and only when
    every hint agrees. Then fleets with no order are made to convoy when
    they are the only way to make a convoyed move of their power possible.
    """
    hints: dict[str, set[Order]] = {}
    for reading in list(result.by_province.values()):
        if reading.kind not in (SUPPORT_MOVE, SUPPORT_HOLD, CONVOY) or reading.other is None:
            continue
        other = reading.other
        if other.power != reading.power:
            continue
        ref = UnitRef(other.type, other.location)
        hint: Order
        if reading.kind == SUPPORT_HOLD:
            hint = Hold(ref)
        elif isinstance(reading.order, SupportMove):
            hint = Move(ref, reading.order.destination)
        elif isinstance(reading.order, Convoy):
            hint = Move(ref, reading.order.destination, via_convoy=True)
        else:
            continue
        hints.setdefault(board.province(other.location), set()).add(hint)
    for province, orders in hints.items():
        if province in result.by_province or len(orders) != 1:
            continue
        (order,) = orders
        if not isinstance(order, Move) or not _consistent(board, order, per_unit.get(province, ())):
            continue
        unit = board.unit_at.get(province)
        if unit is None or any(e.unit == unit and e.power == unit.power and not e.incomplete for e in result.entries):
            continue
        _adopt(board, result, rules, unit.power, order, unit)
    _complete_convoys(board, result, rules)


def _consistent(board: Board, order: Move, own: Sequence[Entry]) -> bool:
    """Whether the unit's own (coastless) orders say the same as the completion, or it has none."""
    wanted = board.province(province_of(order.destination).upper())
    for entry in own:
        if isinstance(entry.order, Move) and board.province(province_of(entry.order.destination).upper()) != wanted:
            return False
    return True


def _adopt(board: Board, result: OrderSet, rules: Rules, power: str, order: Order, unit: Unit) -> bool:
    try:
        reading = interpret(board, power, order, rules)
    except OrderError:
        return False
    result.entries.append(Entry(power, order, reading, unit, completed=True))
    result.by_province[board.province(unit.location)] = reading
    return True


def _complete_convoys(board: Board, result: OrderSet, rules: Rules) -> None:
    """Seed 002: "a missing or incomplete convoy order is legal if it is the only one possible to make
    possible a convoyed attack ordered by another unit of the same nationality"."""
    game_map = board.game_map
    terrain = board.topo.terrain
    for reading in list(result.by_province.values()):
        if reading.kind != MOVE or not reading.via_convoy or reading.unit is None or reading.target is None:
            continue
        army, power = reading.unit, reading.power
        source, destination = board.province(army.location), board.province(reading.target)
        ordered = {
            board.province(r.unit.location)
            for r in result.by_province.values()
            if r.kind == CONVOY and r.unit is not None and r.other == army and r.target == destination
        }
        if route_exists(game_map, source, destination, ordered):
            continue
        idle = {
            board.province(u.location): u
            for u in board.position.units
            if u.power == power
            and u.type is UnitType.FLEET
            and terrain[board.province(u.location)] is Terrain.WATER
            and board.province(u.location) not in result.by_province
            and not any(e.unit == u and e.power == power and not e.incomplete for e in result.entries)
        }
        everything = ordered | set(idle)
        if not route_exists(game_map, source, destination, everything):
            continue
        needed = [p for p in idle if not route_exists(game_map, source, destination, everything - {p})]
        if not needed or not route_exists(game_map, source, destination, ordered | set(needed)):
            continue
        for province in needed:
            fleet = idle[province]
            convoy = Convoy(UnitRef(fleet.type, fleet.location), UnitRef(army.type, army.location), destination)
            _adopt(board, result, rules, power, convoy, fleet)


def _same(a: Entry, b: Entry) -> bool:
    ia, ib = a.interpreted, b.interpreted
    assert ia is not None and ib is not None
    return (ia.kind, ia.target, ia.other, ia.via_convoy) == (ib.kind, ib.target, ib.other, ib.via_convoy)


def _choose(entries: list[Entry], rules: Rules) -> Entry | None:
    if len(entries) == 1:
        return entries[0]
    # Under "last" the latest of identical orders is the one kept, so scan backwards.
    scan = list(reversed(entries)) if rules.duplicate_orders == "last" else entries
    distinct: list[Entry] = []
    for entry in scan:
        if any(_same(entry, kept) for kept in distinct):
            entry.dropped = REPEATED
        else:
            distinct.append(entry)
    if len(distinct) == 1:
        return distinct[0]
    if rules.duplicate_orders == "hold":
        for entry in distinct:
            entry.dropped = CONFLICTING
        return None
    reason = SUPERSEDED_LATER if rules.duplicate_orders == "last" else SUPERSEDED_EARLIER
    for entry in distinct[1:]:
        entry.dropped = reason
    return distinct[0]


def named_unit(board: Board, order: Order) -> Unit | None:
    """The unit standing where an illegal order points, if any: what the order was about."""
    ref = getattr(order, "unit", None)
    if not isinstance(ref, UnitRef):
        return None
    province = board.province(ref.location)
    if board.dislodged_at:
        dislodged = board.dislodged_at.get(province)
        if dislodged is not None:
            return dislodged.unit
    return board.unit_at.get(province)
