"""Whole random games through the engine: whatever is ordered, the board stays a board.

Hypothesis drives a random player for every power (moves, supports, convoys,
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
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.core.units import Unit, UnitRef, UnitType, province_of
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


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.type, unit.location)


def _moves(game_map: GameMap, unit: Unit) -> list[str]:
    if unit.type is UnitType.ARMY:
        return sorted(game_map.army_moves(unit.province))
    return sorted(game_map.fleet_moves(unit.location))


def movement_orders(rng: random.Random, game_map: GameMap, position: Position) -> dict[str, list[Order]]:
    units = list(position.units)
    orders: dict[str, list[Order]] = {}
    for unit in units:
        roll = rng.random()
        order: Order
        if roll < 0.1:
            continue
        if roll < 0.5:
            order = Move(_ref(unit), rng.choice(_moves(game_map, unit)))
        elif roll < 0.6:
            order = Hold(_ref(unit))
        elif roll < 0.75:
            other = rng.choice(units)
            order = SupportHold(_ref(unit), _ref(other))
        elif roll < 0.9:
            other = rng.choice(units)
            order = SupportMove(_ref(unit), _ref(other), province_of(rng.choice(_moves(game_map, other))))
        elif roll < 0.95:
            army = rng.choice(units)
            order = Convoy(_ref(unit), _ref(army), rng.choice(sorted(game_map.provinces)))
        else:
            far = rng.choice(sorted(game_map.provinces))
            order = Move(_ref(unit), far, via_convoy=rng.random() < 0.5)
        orders.setdefault(rng.choice([unit.power] * 9 + ["ENGLAND"]), []).append(order)
    return orders


def retreat_orders(rng: random.Random, position: Position, options: dict[Unit, tuple[str, ...]]) -> dict[str, list[Order]]:
    orders: dict[str, list[Order]] = {}
    for dislodged in position.dislodged:
        unit = dislodged.unit
        choices = options.get(unit, ())
        roll = rng.random()
        if roll < 0.2:
            continue
        order: Order = (
            Disband(_ref(unit)) if roll < 0.35 or not choices else Retreat(_ref(unit), rng.choice(choices))
        )
        orders.setdefault(unit.power, []).append(order)
    return orders


def adjustment_orders(rng: random.Random, game_map: GameMap, position: Position) -> dict[str, list[Order]]:
    orders: dict[str, list[Order]] = {}
    for power in game_map.powers:
        mine = [u for u in position.units if u.power == power]
        owned = position.centers.get(power, frozenset())
        wanted: list[Order] = []
        for _ in range(rng.randint(0, 3)):
            roll = rng.random()
            if roll < 0.5:
                home = rng.choice(sorted(game_map.home_centers[power]))
                kind = rng.choice([UnitType.ARMY, UnitType.FLEET])
                wanted.append(Build(kind, home))
            elif roll < 0.6:
                wanted.append(Waive())
            elif mine:
                wanted.append(Remove(_ref(rng.choice(mine))))
        if wanted or len(owned) != len(mine):
            orders[power] = wanted
    return orders


def phase_orders(
    rng: random.Random, game_map: GameMap, position: Position, options: dict[Unit, tuple[str, ...]]
) -> dict[str, list[Order]]:
    """Random orders for the phase of ``position`` (``options``: the last phase's retreats)."""
    phase_type = position.phase.type
    if phase_type is PhaseType.MOVEMENT:
        return movement_orders(rng, game_map, position)
    if phase_type is PhaseType.RETREAT:
        return retreat_orders(rng, position, options)
    return adjustment_orders(rng, game_map, position)


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
    rng = random.Random(seed)
    game_map = load_map("standard")
    position = Position("standard", Phase.parse("S1901M"), game_map.starting_units, game_map.starting_centers)
    options: dict[Unit, tuple[str, ...]] = {}
    for _ in range(18):
        phase_type = position.phase.type
        orders = phase_orders(rng, game_map, position, options)
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

