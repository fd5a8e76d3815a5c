"""An order with one province read another way: the other readings of a shared name.

Some names mean two places (``MAR`` is Marseilles as a code and North Africa
in the French table; ``TYR`` Tyrolia and the French abbreviation of the
Tyrrhenian Sea). The reader takes one reading by language and keeps the
others (:class:`~judge.core.names.NameReading`); these helpers make the
order each other reading gives, so that the board can settle which one the
player meant (:mod:`judge.lang.board`) or a preference list can try them in
turn (:mod:`judge.lang.preferences`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, replace
from itertools import combinations, product

from judge.core.names import NameReading
from judge.core.orders import Build, Move, Order
from judge.core.units import UnitRef, province_of

__all__ = ["other_readings", "substituted"]


def _swap(location: str, old: str, new: str) -> str:
    """``location`` with province ``old`` made ``new`` (a coast of ``old`` is dropped)."""
    return new if province_of(location) == old else location


def substituted(order: Order, old: str, new: str) -> Order:
    """``order`` with every mention of province ``old`` made ``new``."""
    changes: dict[str, object] = {}
    for field in fields(order):
        value = getattr(order, field.name)
        if isinstance(value, UnitRef):
            if value.province == old:
                changes[field.name] = UnitRef(value.type, new)
        elif isinstance(value, str) and field.name in ("destination", "location"):
            swapped = _swap(value, old, new)
            if swapped != value:
                changes[field.name] = swapped
        elif isinstance(value, tuple) and isinstance(order, Move) and field.name == "route":
            route = tuple(_swap(hop, old, new) for hop in value)
            if route != value:
                changes[field.name] = route
    if not changes:
        return order
    if isinstance(order, Build):
        return Build(order.type, str(changes.get("location", order.location)))
    return replace(order, **changes)  # type: ignore[arg-type]


Changes = tuple[tuple[NameReading, str], ...]
"""The readings an order takes otherwise, each with the province it is read as."""


def other_readings(order: Order, readings: Sequence[NameReading]) -> list[tuple[Order, Changes]]:
    """Each order other readings of shared names give, with the readings changed.

    One name read otherwise first, then two ("A MAR - TYR" in French: Marseilles, and Tyrolia),
    each order once.
    """
    shared = [r for r in readings if r.alternatives][:_MAX_SHARED]
    out: list[tuple[Order, Changes]] = []
    for count in range(1, len(shared) + 1):
        for chosen in combinations(shared, count):
            for provinces in product(*(reading.alternatives for reading in chosen)):
                other = order
                for reading, province in zip(chosen, provinces, strict=True):
                    other = substituted(other, reading.province, province)
                if other != order and all(other != seen for seen, _ in out):
                    out.append((other, tuple(zip(chosen, provinces, strict=True))))
    return out


_MAX_SHARED = 4  # shared names tried together in one order (an order names at most a few places)
