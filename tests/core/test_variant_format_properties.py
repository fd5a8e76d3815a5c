"""Random games under the special rules: whatever is ordered, the rules' promises hold.

Seeded random players (the judge's one generator,
:class:`judge.core.random_orders.RandomOrders`: moves, railway rides,
supports, builds on every build site and anywhere, removals, some illegal on
purpose) play Tinyland with every special rule at
once and the shipped Colonial map, hundreds of phases each; after every
phase: one unit per province, every unit where its type may stand, neutral
units never move and own nothing, Hong Kong never belongs to the power it is
no centre for, a unit that moved beyond its neighbours rode the railway of
its power, and a power never has more units than centres after an
adjustment phase.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from judge.core.adjudicator import DEFAULT_RULES, adjudicate
from judge.core.geography import GameMap
from judge.core.orders import Convoy, Order
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitType, province_of
from judge.core.variants import load_map
from tests.core.tiny_variant import tiny_map

ALL_RULES = [
    "build_any_owned_centre",
    {"name": "hong_kong", "province": "HHH", "not_for": "FROZEN-ANTARCTICA"},
    {"name": "railway", "power": "NORTH", "provinces": ["AAA", "BBB", "CCC", "DDD", "EEE", "FFF"]},
    {"name": "suez_canal", "province": "KKK", "seas": ["WWW"]},
    {"name": "neutral_units", "units": ["A HHH"]},
]


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


def rode_or_walked(game_map: GameMap, before: Position, after: Position, orders: Mapping[str, Sequence[Order]]) -> int:
    """A unit that ends a movement phase beyond its neighbours rode its power's railway (or was
    convoyed there: a fleet was ordered to); how many rode."""
    convoyed = {province_of(o.destination) for these in orders.values() for o in these if isinstance(o, Convoy)}
    rode = 0
    railway = game_map.special.railway
    starts: dict[tuple[str, UnitType], set[str]] = {}
    for unit in before.units:
        starts.setdefault((unit.power, unit.type), set())
        starts[(unit.power, unit.type)].add(unit.province)
    for unit in after.units:
        origins = starts.get((unit.power, unit.type), set())
        if unit.province in origins or unit.type is UnitType.FLEET or unit.province in convoyed:
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
    maker = RandomOrders(game_map, random.Random(seed), mischief=0.3)
    position = opening_position(game_map)
    options: dict[Unit, tuple[str, ...]] = {}
    phases = rides = 0
    while phases < 120:
        phase_type = position.phase.type
        orders = maker.orders(position, options)
        result = adjudicate(position, orders, DEFAULT_RULES, game_map)
        assert result.next_phase > position.phase
        check(game_map, position, result.position)
        if phase_type is PhaseType.MOVEMENT:
            rides += rode_or_walked(game_map, position, result.position, orders)
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
