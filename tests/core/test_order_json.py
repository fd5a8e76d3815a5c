"""Orders as JSON values (judge.core.order_json): the exact inverse both ways, and nothing else read."""

from __future__ import annotations

import json
import random

import pytest

from judge.core.errors import PositionError
from judge.core.order_json import order_from_json, order_to_json
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
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.units import UnitRef, UnitType
from judge.core.variants import load_map

A, F = UnitType.ARMY, UnitType.FLEET
EVERY_KIND: list[Order] = [
    Hold(UnitRef(A, "PAR")),
    Hold(UnitRef(None, "PAR")),
    Move(UnitRef(A, "LON"), "BEL", via_convoy=True, route=("NTH",)),
    Move(UnitRef(F, "STP/SC"), "BOT"),
    SupportHold(UnitRef(A, "MAR"), UnitRef(None, "PAR")),
    SupportMove(UnitRef(F, "TRI"), UnitRef(A, "BUD"), "SER"),
    Convoy(UnitRef(F, "NTH"), UnitRef(A, "LON"), "BEL"),
    Retreat(UnitRef(A, "VIE"), "BOH"),
    Disband(UnitRef(F, "ION")),
    Remove(UnitRef(None, "MUN")),
    Build(F, "STP/NC"),
    Waive(),
]


@pytest.mark.parametrize("order", EVERY_KIND, ids=str)
def test_every_kind_goes_there_and_back_through_json_text(order: Order) -> None:
    assert order_from_json(json.loads(json.dumps(order_to_json(order)))) == order


def test_generated_games_orders_go_there_and_back() -> None:
    game_map = load_map("standard")
    maker = RandomOrders(game_map, random.Random(4), mischief=0.3)
    orders = [o for these in maker.orders(opening_position(game_map), {}).values() for o in these]
    assert orders
    assert [order_from_json(order_to_json(o)) for o in orders] == orders


@pytest.mark.parametrize(
    "data",
    [
        None, [], "A PAR H", {"kind": ["hold"]}, {"kind": "teleport"}, {"kind": "hold"},
        {"kind": "hold", "unit": "A PAR"}, {"kind": "hold", "unit": {"type": "Z", "loc": "PAR"}},
        {"kind": "hold", "unit": {"type": "A", "loc": ""}}, {"kind": "move", "unit": {"type": "A", "loc": "PAR"}},
        {"kind": "move", "unit": {"type": "A", "loc": "PAR"}, "to": "BUR", "via_convoy": "yes"},
        {"kind": "move", "unit": {"type": "A", "loc": "PAR"}, "to": "BUR", "route": [1]},
        {"kind": "build", "type": None, "loc": "PAR"},
    ],
)
def test_anything_else_is_refused_with_the_cores_error(data: object) -> None:
    with pytest.raises(PositionError):
        order_from_json(data)


def test_a_stored_result_without_its_values_is_the_contracts() -> None:
    from judge.core.order_json import ORDER_VALUE, without_order_values

    stored = {"phase": "S1901M", "results": [{"order": "WAIVE", ORDER_VALUE: {"kind": "waive"}}, {"order": None}]}
    assert without_order_values(stored) == {"phase": "S1901M", "results": [{"order": "WAIVE"}, {"order": None}]}
    assert stored["results"][0][ORDER_VALUE] == {"kind": "waive"}  # the stored result is left as it is
    assert without_order_values({"error": "x"}) == {"error": "x"}
