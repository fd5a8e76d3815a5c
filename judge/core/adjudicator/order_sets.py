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
from judge.core.adjudicator.rules import Rules
from judge.core.adjudicator.validation import Interpreted, interpret
from judge.core.errors import OrderError
from judge.core.orders import Order
from judge.core.units import Unit, UnitRef

SUPERSEDED_LATER = "superseded by a later order"
SUPERSEDED_EARLIER = "superseded by an earlier order"
CONFLICTING = "two different orders to one unit: it holds"
REPEATED = "same order given twice"


@dataclass(slots=True)
class Entry:
    """One order as given, with its reading or the reason it is not used."""

    power: str
    order: Order
    interpreted: Interpreted | None = None
    unit: Unit | None = None
    dropped: str | None = None


@dataclass(slots=True)
class OrderSet:
    """Every entry in the order given, and the order each unit will execute, by the unit's province."""

    entries: list[Entry] = field(default_factory=list)
    by_province: dict[str, Interpreted] = field(default_factory=dict)


def collect(board: Board, orders: Mapping[str, Sequence[Order]], rules: Rules) -> OrderSet:
    """Interpret every order and keep one legal order per unit (movement and retreat phases)."""
    result = OrderSet()
    per_unit: dict[str, list[Entry]] = {}
    for power, power_orders in orders.items():
        for order in power_orders:
            entry = Entry(power, order)
            result.entries.append(entry)
            try:
                entry.interpreted = interpret(board, power, order, rules)
            except OrderError as error:
                entry.dropped = str(error)
                entry.unit = named_unit(board, order)
                continue
            unit = entry.unit = entry.interpreted.unit
            if unit is not None:
                province = board.topo.province[unit.location]
                if province in per_unit:
                    per_unit[province].append(entry)
                else:
                    per_unit[province] = [entry]
    for province, entries in per_unit.items():
        chosen = _choose(entries, rules)
        if chosen is not None:
            assert chosen.interpreted is not None
            result.by_province[province] = chosen.interpreted
    return result


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
