"""Orders as JSON values: how the judge keeps a typed order, so nothing reads order text back.

The results of a processed phase keep each entry's order in this form beside
its text (``"order_value"``, see :mod:`judge.ruling`), and the map draws from
it: the text is for people, this is for the program. One object per order,
its kind and its fields, units as ``{"type": "A", "loc": "PAR"}`` (``type``
null when the order named none)::

    {"kind": "move", "unit": {"type": "A", "loc": "LON"}, "to": "BEL", "via_convoy": true, "route": ["NTH"]}
    {"kind": "support_move", "unit": {...}, "supported": {...}, "to": "MUN"}
    {"kind": "build", "type": "F", "loc": "STP/NC"}
    {"kind": "waive"}

:func:`order_from_json` is the exact inverse of :func:`order_to_json` (a test
holds it on every kind of order); anything else it is given raises
:class:`~judge.core.errors.PositionError`, never ``KeyError`` or ``TypeError``.
Pure: values in, values out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from judge.core.errors import PositionError
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
    Waive,
)
from judge.core.units import UnitRef, UnitType

__all__ = ["ORDER_VALUE", "order_from_json", "order_to_json", "without_order_values"]

ORDER_VALUE = "order_value"
"""The key of a stored result entry's typed order, beside its text ``"order"``
(:meth:`judge.ruling.Ruling.to_stored_json`); null for an entry with no order."""


def _unit_json(unit: UnitRef) -> dict[str, Any]:
    return {"type": None if unit.type is None else unit.type.value, "loc": unit.location}


def order_to_json(order: Order) -> dict[str, Any]:
    """The JSON object of ``order`` (see the module's docstring)."""
    if isinstance(order, Hold):
        return {"kind": "hold", "unit": _unit_json(order.unit)}
    if isinstance(order, Move):
        return {
            "kind": "move", "unit": _unit_json(order.unit), "to": order.destination,
            "via_convoy": order.via_convoy, "route": list(order.route),
        }  # fmt: skip
    if isinstance(order, SupportHold):
        return {"kind": "support_hold", "unit": _unit_json(order.unit), "supported": _unit_json(order.supported)}
    if isinstance(order, SupportMove):
        return {
            "kind": "support_move", "unit": _unit_json(order.unit), "supported": _unit_json(order.supported),
            "to": order.destination,
        }  # fmt: skip
    if isinstance(order, Convoy):
        return {
            "kind": "convoy", "unit": _unit_json(order.unit), "convoyed": _unit_json(order.convoyed),
            "to": order.destination,
        }  # fmt: skip
    if isinstance(order, Retreat):
        return {"kind": "retreat", "unit": _unit_json(order.unit), "to": order.destination}
    if isinstance(order, Disband):
        return {"kind": "disband", "unit": _unit_json(order.unit)}
    if isinstance(order, Remove):
        return {"kind": "remove", "unit": _unit_json(order.unit)}
    if isinstance(order, Build):
        return {"kind": "build", "type": order.type.value, "loc": order.location}
    if isinstance(order, Waive):
        return {"kind": "waive"}
    raise TypeError(f"not an order: {order!r}")  # pragma: no cover - Order is a closed union


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise PositionError(f"order: {key!r} must be a non-empty string")
    return value


def _unit_type(value: object) -> UnitType:
    if value not in ("A", "F"):
        raise PositionError(f"order: unknown unit type {value!r}")
    return UnitType(value)


def _unit(data: Mapping[str, Any], key: str) -> UnitRef:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise PositionError(f"order: {key!r} must be a unit object")
    kind = value.get("type")
    return UnitRef(None if kind is None else _unit_type(kind), _text(value, "loc"))


def _move(data: Mapping[str, Any]) -> Move:
    via, route = data.get("via_convoy", False), data.get("route", [])
    if not isinstance(via, bool) or not isinstance(route, list) or not all(
        isinstance(hop, str) and hop for hop in route
    ):
        raise PositionError("order: a move's 'via_convoy' must be a boolean and its 'route' a list of provinces")
    return Move(_unit(data, "unit"), _text(data, "to"), via_convoy=via, route=tuple(route))


_READERS: dict[str, Callable[[Mapping[str, Any]], Order]] = {
    "hold": lambda d: Hold(_unit(d, "unit")),
    "move": _move,
    "support_hold": lambda d: SupportHold(_unit(d, "unit"), _unit(d, "supported")),
    "support_move": lambda d: SupportMove(_unit(d, "unit"), _unit(d, "supported"), _text(d, "to")),
    "convoy": lambda d: Convoy(_unit(d, "unit"), _unit(d, "convoyed"), _text(d, "to")),
    "retreat": lambda d: Retreat(_unit(d, "unit"), _text(d, "to")),
    "disband": lambda d: Disband(_unit(d, "unit")),
    "remove": lambda d: Remove(_unit(d, "unit")),
    "build": lambda d: Build(_unit_type(d.get("type")), _text(d, "loc")),
    "waive": lambda d: Waive(),
}


def order_from_json(data: object) -> Order:
    """The order :func:`order_to_json` wrote; raises :class:`PositionError` for anything else."""
    if not isinstance(data, Mapping):
        raise PositionError("order: must be a JSON object")
    kind = data.get("kind")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise PositionError(f"order: unknown kind {data.get('kind')!r}")
    return reader(data)


def without_order_values(result: Mapping[str, Any]) -> dict[str, Any]:
    """A stored result as the ``judge adjudicate`` contract writes it: its entries without
    :data:`ORDER_VALUE` (what the judge keeps for itself, the map's reading of the orders)."""
    entries = result.get("results")
    if not isinstance(entries, list):
        return dict(result)
    return {
        **result,
        "results": [
            {k: v for k, v in entry.items() if k != ORDER_VALUE} if isinstance(entry, Mapping) else entry
            for entry in entries
        ],
    }
