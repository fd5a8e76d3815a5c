"""Pictures from the `judge adjudicate` contract: a position JSON and, optionally, its result JSON.

A result the judge stored when it processed a phase keeps each entry's order
as a value beside its text (``"order_value"``, :mod:`judge.core.order_json`):
the picture is drawn from that, and no order text is read. A result that has
only text (``judge adjudicate``'s own output given to ``judge map``, or a
phase processed before the values were kept) names orders as text
(``"A PAR - BUR"``), read with the judge's order reader so the picture is
drawn from exactly what the ruling said. Entries that cannot be read (an
unreadable line) are left off the picture; the position itself is checked as
``judge adjudicate`` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.core.adjudicator.results import OrderResult, Outcome
from judge.core.errors import PositionError
from judge.core.geography import GameMap
from judge.core.order_json import ORDER_VALUE, order_from_json
from judge.core.orders import Order
from judge.core.position import DislodgedUnit, Position
from judge.core.serialization import position_from_json
from judge.core.units import Unit, UnitType
from judge.maps.render import OrdersDrawn, render_svg

_UNIT_TYPES = {kind.value: kind for kind in UnitType}
_OUTCOMES = {outcome.value: outcome for outcome in Outcome}
"""The enums by value, looked up in a dict: calling the enum costs ten times as much, and a
Standard picture reads a hundred of them."""


def _unit(text: object, power: str) -> Unit | None:
    if not isinstance(text, str) or " " not in text:
        return None
    kind, _, location = text.strip().partition(" ")
    if kind not in ("A", "F"):
        return None
    return Unit(power, _UNIT_TYPES[kind], location.strip().upper())


def _order(entry: Mapping[str, Any], game_map: GameMap, position: Position) -> Order | None:
    """The entry's order: its stored value when it has one, else its text read."""
    if ORDER_VALUE in entry:
        value = entry[ORDER_VALUE]
        if value is None:
            return None
        try:
            return order_from_json(value)
        except PositionError:
            return None
    return _order_from_text(entry.get("order"), game_map, position)


def _order_from_text(text: object, game_map: GameMap, position: Position) -> Order | None:
    from judge.lang.orders import OrderSyntaxError, read_order_line

    if not isinstance(text, str):
        return None
    read = read_order_line(text, game_map, phase_type=position.phase.type)
    if len(read) != 1 or isinstance(read[0], OrderSyntaxError):
        return None
    return read[0].order


def orders_from_result(result: Mapping[str, Any], position: Position, game_map: GameMap) -> OrdersDrawn:
    """The drawing of a result in the contract's format, over the position it was ruled on."""
    if not isinstance(result, Mapping):
        raise PositionError("the result must be a JSON object")
    if "error" in result:
        raise PositionError(f"the result is an error: {result['error']}")
    entries: list[OrderResult] = []
    for entry in result.get("results") or []:
        if not isinstance(entry, Mapping):
            continue
        power = str(entry.get("power") or "")
        outcome = _OUTCOMES.get(str(entry.get("outcome")))
        if outcome is None:
            continue
        entries.append(
            OrderResult(power, _unit(entry.get("unit"), power), _order(entry, game_map, position), outcome, str(entry.get("reason") or ""))
        )
    dislodged: list[DislodgedUnit] = []
    retreats: dict[Unit, tuple[str, ...]] = {}
    for entry in result.get("dislodged") or []:
        if not isinstance(entry, Mapping):
            continue
        unit = _unit(f"{entry.get('type')} {entry.get('loc')}", str(entry.get("power") or ""))
        if unit is None:
            continue
        dislodged.append(DislodgedUnit(unit, str(entry.get("attacker_from") or ""), bool(entry.get("attacker_via_convoy"))))
        retreats[unit] = tuple(str(r) for r in entry.get("retreats") or ())
    return OrdersDrawn(tuple(entries), tuple(dislodged), retreats, _centers(result.get("centers"), game_map))


def _centers(value: object, game_map: GameMap) -> dict[str, frozenset[str]] | None:
    """The result's centres after the phase (power -> its centres), the map's powers and centres only."""
    if not isinstance(value, Mapping):
        return None
    return {
        str(power): frozenset(str(c).upper() for c in owned if str(c).upper() in game_map.supply_centers)
        for power, owned in value.items()
        if str(power) in game_map.powers and isinstance(owned, (list, tuple))
    }


def svg_from_contract(
    position_data: object, result_data: object | None = None, *, title: str | None = None, language: str = "en"
) -> str:
    """The SVG of a position in the contract's format (with its result drawn over it, if given)."""
    given = position_from_json(position_data)
    drawn = None
    if result_data is not None:
        if not isinstance(result_data, Mapping):
            raise PositionError("the result must be a JSON object")
        drawn = orders_from_result(result_data, given.position, given.game_map)
    return render_svg(given.game_map, given.position, drawn, title=title, language=language)
