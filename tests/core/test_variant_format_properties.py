"""Random games under the special rules: whatever is ordered, the rules' promises hold.

Seeded random players (moves, railway rides, supports, builds anywhere,
removals, some illegal on purpose) play Tinyland with every special rule at
once and the shipped Colonial map, hundreds of phases each; after every
phase: one unit per province, every unit where its type may stand, neutral
units never move and own nothing, Hong Kong never belongs to the power it is
no centre for, a unit that moved beyond its neighbours rode the railway of
its power, and a power never has more units than centres after an
adjustment phase.
"""

from __future__ import annotations

import random

import pytest

from judge.core.adjudicator import DEFAULT_RULES, adjudicate
from judge.core.geography import GameMap
from judge.core.orders import (
    Build,
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
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitRef, UnitType, province_of
from judge.core.variants import load_map
from tests.core.tiny_variant import tiny_map

ALL_RULES = [
    "build_any_owned_centre",
    {"name": "hong_kong", "province": "HHH", "not_for": "FROZEN-ANTARCTICA"},
    {"name": "railway", "power": "NORTH", "provinces": ["AAA", "BBB", "CCC", "DDD", "EEE", "FFF"]},
    {"name": "suez_canal", "province": "KKK", "seas": ["WWW"]},
    {"name": "neutral_units", "units": ["A HHH"]},
]


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.type, unit.location)


def _moves(game_map: GameMap, unit: Unit) -> list[str]:
    if unit.type is UnitType.ARMY:
        return sorted(game_map.army_moves(unit.province))
    return sorted(game_map.fleet_moves(unit.location))


def movement_orders(rng: random.Random, game_map: GameMap, position: Position) -> dict[str, list[Order]]:
    units = [u for u in position.units if u.power != NEUTRAL]
    railway = game_map.special.railway
    orders: dict[str, list[Order]] = {}
    for unit in units:
        roll = rng.random()
        order: Order
        if roll < 0.1:
            continue
        if railway is not None and unit.power == railway.power and unit.province in railway.provinces and roll < 0.4:
            order = Move(_ref(unit), rng.choice(railway.provinces))
        elif roll < 0.6 and _moves(game_map, unit):  # an army on an island has no land move
            order = Move(_ref(unit), rng.choice(_moves(game_map, unit)))
        elif roll < 0.7:
            order = Hold(_ref(unit))
        elif roll < 0.8:
            order = SupportHold(_ref(unit), _ref(rng.choice(position.units)))
        else:
            other = rng.choice(position.units)
            order = SupportMove(_ref(unit), _ref(other), province_of(rng.choice(_moves(game_map, other) or ["AAA"])))
        orders.setdefault(unit.power, []).append(order)
    return orders


def adjustment_orders(rng: random.Random, game_map: GameMap, position: Position) -> dict[str, list[Order]]:
    orders: dict[str, list[Order]] = {}
    for power in game_map.powers:
        mine = [u for u in position.units if u.power == power]
        owned = sorted(position.centers.get(power, frozenset()))
        wanted: list[Order] = []
        for _ in range(rng.randint(0, 3)):
            roll = rng.random()
            if roll < 0.6 and owned:
                wanted.append(Build(rng.choice([UnitType.ARMY, UnitType.FLEET]), rng.choice(owned)))
            elif roll < 0.7:
                wanted.append(Waive())
            elif mine:
                wanted.append(Remove(_ref(rng.choice(mine))))
        if wanted:
            orders[power] = wanted
    return orders


def check(game_map: GameMap, before: Position, after: Position) -> None:
    provinces = [u.province for u in after.units]
    assert len(provinces) == len(set(provinces)), after.units
    for unit in after.units:
        assert game_map.can_hold(unit.type, unit.location), unit
    assert NEUTRAL not in after.centers
    neutrals_before = {u for u in before.units if u.power == NEUTRAL}
    assert {u for u in after.units if u.power == NEUTRAL} <= neutrals_before
    hk = game_map.special.hong_kong
    if hk is not None:
        assert hk.province not in after.centers.get(hk.not_for, frozenset())
    owners = [c for centres in after.centers.values() for c in centres]
    assert len(owners) == len(set(owners))


def rode_or_walked(game_map: GameMap, before: Position, after: Position) -> int:
    """A unit that ends a movement phase beyond its neighbours rode its power's railway; how many rode."""
    rode = 0
    railway = game_map.special.railway
    starts: dict[tuple[str, UnitType], set[str]] = {}
    for unit in before.units:
        starts.setdefault((unit.power, unit.type), set())
        starts[(unit.power, unit.type)].add(unit.province)
    for unit in after.units:
        origins = starts.get((unit.power, unit.type), set())
        if unit.province in origins or unit.type is UnitType.FLEET:
            continue
        neighbours = {p for o in origins for p in game_map.province_neighbours(o)}
        if unit.province not in neighbours:
            assert railway is not None and unit.power == railway.power and unit.province in railway.provinces, unit
            rode += 1
    return rode


@pytest.mark.parametrize(("variant", "seed"), [("tinyland", s) for s in range(8)] + [("colonial", s) for s in range(3)])
def test_random_games_keep_the_special_rules(variant: str, seed: int) -> None:
    play_random_game(variant, seed)


def test_the_random_players_do_ride_the_railway() -> None:
    assert sum(play_random_game("tinyland", seed) for seed in range(8)) > 0  # the railway check was exercised


def play_random_game(variant: str, seed: int) -> int:
    """Play up to 120 phases with random orders, checking every phase; the number of railway rides."""
    game_map = tiny_map(special_rules=ALL_RULES) if variant == "tinyland" else load_map(variant)
    rng = random.Random(seed)
    position = Position(variant, game_map.first_phase, game_map.opening_units, dict(game_map.starting_centers))
    options: dict[Unit, tuple[str, ...]] = {}
    phases = rides = 0
    while phases < 120:
        phase_type = position.phase.type
        if phase_type is PhaseType.MOVEMENT:
            orders = movement_orders(rng, game_map, position)
        elif phase_type is PhaseType.RETREAT:
            orders = {}
            for dislodged in position.dislodged:
                choices = options.get(dislodged.unit, ())
                if choices and rng.random() < 0.7:
                    orders.setdefault(dislodged.unit.power, []).append(
                        Retreat(_ref(dislodged.unit), rng.choice(choices))
                    )
        else:
            orders = adjustment_orders(rng, game_map, position)
        result = adjudicate(position, orders, DEFAULT_RULES, game_map)
        assert result.next_phase > position.phase
        check(game_map, position, result.position)
        if phase_type is PhaseType.MOVEMENT:
            rides += rode_or_walked(game_map, position, result.position)
            assert not any(d.unit.power == NEUTRAL for d in result.position.dislodged)
        if phase_type is PhaseType.ADJUSTMENT:
            for power in game_map.powers:
                centres = len(position.centers.get(power, ()))
                before = sum(1 for u in position.units if u.power == power)
                after = sum(1 for u in result.position.units if u.power == power)
                assert after == centres if before > centres else before <= after <= centres
        options = dict(result.retreats)
        position = result.position
        phases += 1
        if result.winner is not None:
            break
    assert phases > 10
    assert position.phase > Phase(game_map.first_phase.year, 0)
    return rides
