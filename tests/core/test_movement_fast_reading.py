"""The movement phase's fast reading of orders against the general one, on random games.

``movement_phase._read_orders`` recognises the usual orders with table
lookups and leaves the rest to the validator; ``_collect_orders`` reads every
order through :func:`~judge.core.adjudicator.order_sets.collect`. Whatever is
ordered (illegal orders included), both must give the very same adjudication:
results, next position, dislodged units and their retreats.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.core.adjudicator import Rules, adjudicate, movement_phase
from judge.core.adjudicator.results import AdjudicationResult
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.units import Unit
from judge.core.variants import load_map
from tests.core.test_adjudicator_properties import MISCHIEF, RULES


def _same(a: AdjudicationResult, b: AdjudicationResult) -> None:
    assert a.results == b.results
    assert a.position == b.position
    assert a.dislodged == b.dislodged
    assert dict(a.retreats) == dict(b.retreats)
    assert a.next_phase == b.next_phase
    assert a.winner == b.winner


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=RULES)
def test_fast_reading_adjudicates_as_the_general_one(seed: int, rules: Rules) -> None:
    game_map = load_map("standard")
    maker = RandomOrders(game_map, random.Random(seed), mischief=MISCHIEF)
    position = opening_position(game_map)
    options: dict[Unit, tuple[str, ...]] = {}
    fast_path_used = 0
    for _ in range(15):
        phase_type = position.phase.type
        orders = maker.orders(position, options)
        result = adjudicate(position, orders, rules, game_map)
        if phase_type is PhaseType.MOVEMENT:
            with pytest.MonkeyPatch.context() as patch:
                # No fast reading: every order through collect(), as with two orders for one unit.
                patch.setattr(movement_phase, "_read_orders", lambda *args: None)
                general = adjudicate(position, orders, rules, game_map)
            _same(result, general)
            fast_path_used += 1
        options = dict(result.retreats)
        position = result.position
    assert fast_path_used


@pytest.mark.parametrize(
    "orders",
    [
        ["A VIE H", "A BUD H", "F TRI H"],
        ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
        ["A VIE S A BUD - GAL", "A BUD - GAL", "F TRI H"],
        ["A BUD S A VIE - GAL", "A VIE - GAL", "F TRI H"],
        ["A VIE S F TRI", "A BUD S F TRI", "F TRI H"],
    ],
    ids=["holds", "moves", "vie-supports", "bud-supports", "tri-supported"],
)
def test_the_usual_orders_never_reach_the_validator(orders: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Holds, moves by land and supports a unit could give alone are read by the table lookups, whichever
    unit of the position (the first one too) gives or gets them: the validator is the long way, for the
    rest. (A slower reading gives the same results; this pins what _read_orders promises.)"""
    from judge.core.adjudicator.validation import interpret
    from tests.core.datc_orders import parse_orders

    game_map = load_map("standard")
    position = Position("standard", Phase.parse("S1901M"), game_map.starting_units, game_map.starting_centers)
    readings: list[object] = []

    def counted(*args: object) -> object:
        readings.append(args[2])  # the order
        return interpret(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(movement_phase, "interpret", counted)
    result = adjudicate(position, parse_orders({"AUSTRIA": orders}, position.phase), Rules(), game_map)
    assert readings == []
    assert all(r.outcome is not None for r in result.results if r.power == "AUSTRIA")
