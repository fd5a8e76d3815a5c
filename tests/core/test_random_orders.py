"""The one random-order generator (judge.core.random_orders): seeded, legal unless told otherwise.

The property tests (tests/core/test_adjudicator_properties.py, test_variant_format_properties.py,
test_variant_data.py) and the benchmarks (benchmarks/bench_adjudicator.py) all draw their games
from it; these tests hold what they rely on.
"""

from __future__ import annotations

import random

import pytest

from judge.core.adjudicator import DEFAULT_RULES, adjudicate, validate
from judge.core.orders import Order
from judge.core.position import Position
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.variants import available_variants, load_map


def _game(variant: str, seed: int, phases: int, mischief: float = 0.0) -> list[tuple[Position, dict[str, list[Order]]]]:
    game_map = load_map(variant)
    maker = RandomOrders(game_map, random.Random(seed), mischief=mischief)
    position, retreats = opening_position(game_map), {}
    played = []
    for _ in range(phases):
        orders = maker.orders(position, retreats)
        played.append((position, orders))
        result = adjudicate(position, orders, DEFAULT_RULES, game_map)
        position, retreats = result.position, result.retreats
    return played


def test_the_same_seed_draws_the_same_games() -> None:
    assert _game("standard", 7, 12, 0.3) == _game("standard", 7, 12, 0.3)
    assert _game("standard", 7, 12) != _game("standard", 8, 12)


@pytest.mark.parametrize("variant", available_variants())
def test_without_mischief_every_order_is_legal_on_its_board(variant: str) -> None:
    game_map = load_map(variant)
    illegal = [
        (str(position.phase), power, str(order), reason)
        for position, orders in _game(variant, 3, 24)
        for power, these in orders.items()
        for order in these
        if (reason := validate(position, power, order, game_map, DEFAULT_RULES)) is not None
    ]
    assert illegal == []


def test_mischief_gives_illegal_orders_and_orders_sent_by_the_wrong_power() -> None:
    game_map = load_map("standard")
    illegal = wrong_power = 0
    for position, orders in _game("standard", 5, 12, 0.3):
        owners = {unit.province: unit.power for unit in (*position.units, *(d.unit for d in position.dislodged))}
        for power, these in orders.items():
            for order in these:
                illegal += validate(position, power, order, game_map, DEFAULT_RULES) is not None
                unit = getattr(order, "unit", None)
                wrong_power += unit is not None and owners.get(unit.province) not in (None, power)
    assert illegal > 10
    assert wrong_power > 0


def test_the_opening_is_the_variants_first_phase() -> None:
    game_map = load_map("chaos")
    position = opening_position(game_map)
    assert position.phase == game_map.first_phase
    assert position.units == game_map.opening_units
    assert position.centers == {p: frozenset(c) for p, c in game_map.starting_centers.items()}
