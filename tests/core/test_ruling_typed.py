"""Processing rules on typed orders (judge.ruling.rule_orders) exactly as on their text (rule).

The judge's processing hands the stored sheets' orders to the engine as values; before, it wrote
them out and read them back. These tests hold that nothing changed: on generated games of every
variant (the one generator, with illegal orders and orders sent by the wrong power), the ruling of
the typed orders is the ruling of their text, entry for entry, shared names (MAR, TYR) settled by
the board alike; and each entry's typed order is kept beside its text.
"""

from __future__ import annotations

import random

import pytest

from judge.core.adjudicator import DEFAULT_RULES, adjudicate
from judge.core.order_json import ORDER_VALUE, order_from_json
from judge.core.orders import Move, Order
from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.units import Unit, UnitRef, UnitType
from judge.core.variants import available_variants, load_map
from judge.lang.orders import OrderSyntaxError, read_order
from judge.ruling import rule, rule_orders


def _as_a_sheet_holds_them(orders: dict[str, list[Order]], position: Position, variant: str) -> dict[str, list[Order]]:
    """The orders a stored sheet can hold for this phase: those its reader makes of their text."""
    game_map = load_map(variant)
    kept: dict[str, list[Order]] = {}
    for power, these in orders.items():
        for order in these:
            try:
                read = read_order(str(order), game_map, phase_type=position.phase.type)
            except OrderSyntaxError:
                continue
            if read.order == order:
                kept.setdefault(power, []).append(order)
    return kept


@pytest.mark.parametrize("variant", available_variants())
def test_typed_orders_are_ruled_as_their_text(variant: str) -> None:
    game_map = load_map(variant)
    maker = RandomOrders(game_map, random.Random(11), mischief=0.3)
    position, retreats = opening_position(game_map), {}
    compared = 0
    for _ in range(30):
        orders = _as_a_sheet_holds_them(maker.orders(position, retreats), position, variant)
        typed = rule_orders(position, orders, DEFAULT_RULES, game_map)
        text = rule(position, {p: [str(o) for o in these] for p, these in orders.items()}, DEFAULT_RULES, game_map)
        assert typed.to_json() == text.to_json(), str(position.phase)
        assert typed.orders == text.orders
        compared += sum(len(these) for these in orders.values())
        position, retreats = typed.result.position, typed.result.retreats
    assert compared > 100


def test_a_shared_name_is_settled_by_the_board_on_typed_orders_too() -> None:
    # MAR is Marseilles as a code and North Africa (Maroc) in the French table: France has an army
    # in North Africa and none in Marseilles, so "A MAR - TUN" is the army of North Africa's move.
    game_map = load_map("standard")
    position = Position("standard", Phase.parse("S1901M"), (Unit("FRANCE", UnitType.ARMY, "NAF"),), {})
    order = Move(UnitRef(UnitType.ARMY, "MAR"), "TUN")
    typed = rule_orders(position, {"FRANCE": [order]}, DEFAULT_RULES, game_map)
    text = rule(position, {"FRANCE": [str(order)]}, DEFAULT_RULES, game_map)
    assert typed.to_json() == text.to_json()
    assert typed.entries[0]["order"] == "A NAF - TUN"
    assert {(u.power, u.location) for u in typed.result.position.units} == {("FRANCE", "TUN")}


def test_the_stored_ruling_keeps_each_entrys_typed_order_beside_its_text() -> None:
    game_map = load_map("standard")
    position = opening_position(game_map)
    orders = RandomOrders(game_map, random.Random(2)).orders(position, {})
    del orders["ITALY"]  # Italy's units get the engine's entries, with no order
    ruling = rule_orders(position, orders, DEFAULT_RULES, game_map)
    stored = ruling.to_stored_json()
    contract = ruling.to_json()
    assert [{k: v for k, v in e.items() if k != ORDER_VALUE} for e in stored["results"]] == contract["results"]
    assert {k: v for k, v in stored.items() if k != "results"} == {k: v for k, v in contract.items() if k != "results"}
    for entry in stored["results"]:
        value = entry[ORDER_VALUE]
        if entry["order"] is None:
            assert value is None
        else:
            assert str(order_from_json(value)) == entry["order"]
    assert any(entry[ORDER_VALUE] is None for entry in stored["results"])
    assert adjudicate(position, orders, DEFAULT_RULES, game_map).position == ruling.result.position
