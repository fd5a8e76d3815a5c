"""Whole random games through the engine: whatever is ordered, the board stays a board.

Hypothesis drives a random player for every power (the judge's one generator,
:class:`judge.core.random_orders.RandomOrders`: moves, supports, convoys,
retreats, builds, removals, some of them illegal on purpose) over several
years from the standard opening, and after each phase checks what must hold
whatever the orders: one unit per province, every unit where its type may
stand, units conserved in movement, one result per order and per unordered
unit, time moving forward, centres changing only after a Fall.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.core.adjudicator import Rules, adjudicate
from judge.core.geography import GameMap
from judge.core.phase import PhaseType
from judge.core.position import Position
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.units import Unit
from judge.core.variants import load_map

RULES = st.builds(
    Rules,
    paradox=st.sampled_from(["szykman", "descartes"]),
    civil_disorder_removals=st.sampled_from(["distance_to_owned", "distance_to_home", "seed000"]),
    missing_retreats=st.sampled_from(["disband", "seed000"]),
    missing_coast=st.sampled_from(["fail", "first"]),
    duplicate_orders=st.sampled_from(["last", "first", "hold"]),
    adjacent_convoy=st.sampled_from(["intent", "explicit"]),
    retreat_to_convoy_origin=st.booleans(),
)

MISCHIEF = 0.3
"""The share of units and powers given something illegal on purpose besides their orders."""


def check_board(game_map: GameMap, position: Position) -> None:
    provinces = [u.province for u in position.units]
    assert len(provinces) == len(set(provinces)), position.units
    for unit in position.units:
        assert game_map.can_hold(unit.type, unit.location), unit
    owners = [c for centers in position.centers.values() for c in centers]
    assert len(owners) == len(set(owners))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=RULES)
def test_random_games_keep_the_board_consistent(seed: int, rules: Rules) -> None:
    game_map = load_map("standard")
    maker = RandomOrders(game_map, random.Random(seed), mischief=MISCHIEF)
    position = opening_position(game_map)
    options: dict[Unit, tuple[str, ...]] = {}
    for _ in range(18):
        phase_type = position.phase.type
        orders = maker.orders(position, options)
        result = adjudicate(position, orders, rules, game_map)
        given_count = sum(len(v) for v in orders.values())
        assert result.next_phase > position.phase
        assert result.position.phase == result.next_phase
        check_board(game_map, result.position)
        if phase_type is PhaseType.MOVEMENT:
            assert len(result.results) >= given_count
            assert len(position.units) == len(result.position.units) + len(result.dislodged)
            assert {d.unit for d in result.position.dislodged} <= {d.unit for d in result.dislodged}
            for dislodged in result.position.dislodged:
                assert result.retreats[dislodged.unit]
            if position.phase.season.value == "S" or result.position.phase.type is PhaseType.RETREAT:
                assert result.position.centers == position.centers
        elif phase_type is PhaseType.RETREAT:
            assert len(result.results) >= given_count
            assert len(result.position.units) <= len(position.units) + len(position.dislodged)
        else:
            assert len(result.results) >= given_count
            for power in game_map.powers:
                centres = len(position.centers.get(power, ()))
                before = sum(1 for u in position.units if u.power == power)
                after = sum(1 for u in result.position.units if u.power == power)
                if before > centres:
                    assert after == centres  # removals ordered or made in civil disorder
                else:
                    assert before <= after <= centres
        options = dict(result.retreats)
        position = result.position
        if result.winner is not None:
            break

