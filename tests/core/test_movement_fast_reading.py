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
from judge.core.units import Unit
from judge.core.variants import load_map
from tests.core.test_adjudicator_properties import RULES, phase_orders


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
    rng = random.Random(seed)
    game_map = load_map("standard")
    position = Position("standard", Phase.parse("S1901M"), game_map.starting_units, game_map.starting_centers)
    options: dict[Unit, tuple[str, ...]] = {}
    fast_path_used = 0
    for _ in range(15):
        phase_type = position.phase.type
        orders = phase_orders(rng, game_map, position, options)
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
