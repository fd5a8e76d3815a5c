"""Seeded random games for benchmarks: legal-ish orders for every unit, every phase.

The orders come from the judge's one random-order generator,
:class:`judge.core.random_orders.RandomOrders` (the property tests draw theirs
from it too), with no illegal orders: same seed, same games. This module adds
what only the benchmarks need: the same orders in the syntax of the PyPI
``diplomacy`` package, for the comparison.
"""

from __future__ import annotations

from judge.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
)
from judge.core.units import province_of


def to_diplomacy_package(order: Order) -> str:
    """The same order in the syntax of the PyPI ``diplomacy`` package (``A LON B``, ``A IRO R MAO``)."""
    if isinstance(order, Hold):
        return f"{order.unit} H"
    if isinstance(order, Move):
        via = " VIA" if order.wants_convoy else ""
        return f"{order.unit} - {order.destination}{via}"
    if isinstance(order, SupportHold):
        return f"{order.unit} S {order.supported}"
    if isinstance(order, SupportMove):
        return f"{order.unit} S {order.supported} - {province_of(order.destination)}"
    if isinstance(order, Convoy):
        return f"{order.unit} C {order.convoyed} - {province_of(order.destination)}"
    if isinstance(order, Retreat):
        return f"{order.unit} R {order.destination}"
    if isinstance(order, (Disband, Remove)):
        return f"{order.unit} D"
    if isinstance(order, Build):
        return f"{order.type.value} {order.location} B"
    return "WAIVE"
