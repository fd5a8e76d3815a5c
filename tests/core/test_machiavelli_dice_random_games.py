"""Seeded random games of the Renaissance game with every die on: money, loans, famine, plague,
storms and the assassination expense, played to their end by the one step the judge calls
(:func:`judge.core.machiavelli.season.play_phase`) without an illegal state.

The orders are those of :mod:`tests.core.test_machiavelli_money_random_games` (bank, gifts,
expenses and bribes, random moves, random maintenance and builds), with assassination attempts
and chits given. After every phase: the board is legal (the same checks, the JSON round trip
with the chits), famine markers stand only between the fall and the spring's end, every die is
a number from 1 to 6, and playing the phase again from its kept JSON throws the same dice to the
same position. Over the games, each disaster strikes and an assassination succeeds, or the test
says the games were too quiet to test anything.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from types import MappingProxyType

import pytest

from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.campaign import opening_position
from judge.core.machiavelli.money import chits_held
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.machiavelli.orders import Assassinate, Expense, GiveChit
from judge.core.machiavelli.season import SeasonOrder, play_phase
from judge.core.machiavelli.serialization import position_from_json, position_to_json
from judge.core.machiavelli.treasury import Finances
from judge.core.orders import Retreat
from judge.core.phase import PhaseType, Season
from judge.core.units import UnitRef
from tests.core.test_machiavelli_money_random_games import _money_orders, _winter_orders
from tests.core.test_machiavelli_random_games import _check, _orders

YEARS = 5
EVERY_DIE = MachiavelliOptions(famine=True, plague=True, storms=True, assassinations=True)


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (21, EVERY_DIE),
        (22, replace(EVERY_DIE, mach2=True, adjacency=False)),
        (23, replace(EVERY_DIE, fortresses=True, disband=True)),
    ],
)
def test_seeded_random_games_with_every_die_end_without_an_illegal_state(
    seed: int, options: MachiavelliOptions
) -> None:
    rng = random.Random(seed)
    board = load_board()
    powers = board.game_map.powers
    opening = opening_position(board, options)
    treasuries = {power: rng.randint(30, 80) for power in powers}
    position = replace(opening, phase=board.first_phase, money=Finances(MappingProxyType(treasuries)))
    seen: Counter[str] = Counter()
    while position.phase.year < board.first_phase.year + 1 + YEARS:
        _check(board, position, options)
        orders: dict[str, list[SeasonOrder]] = {}
        if position.phase.type is PhaseType.ADJUSTMENT:
            for power, kept in _winter_orders(rng, board, position).items():
                orders[power] = list(kept)
        elif position.phase.type is PhaseType.RETREAT:
            for unit, places in position.retreats.items():
                orders.setdefault(unit.power, []).append(
                    Retreat(UnitRef(unit.type, unit.location), rng.choice(places))
                )
        else:
            for power, paid in _money_orders(rng, board, position).items():
                orders[power] = list(paid)
            assert position.money is not None
            held = chits_held(board, position.money)
            for power, moves in _orders(rng, board, position).items():
                orders.setdefault(power, []).extend(moves)
            for power in powers:
                if held[power] and rng.random() < 0.25:
                    victim = rng.choice(held[power])
                    orders[power].append(Expense(4, rng.choice((6, 12, 24, 36, 48)), Assassinate(victim)))
                if held[power] and rng.random() < 0.1:
                    orders[power].append(GiveChit(rng.choice(held[power]), rng.choice(powers)))
        kept = json.loads(json.dumps(position_to_json(position)))
        result = play_phase(board, position, orders, options, seed=seed)
        replayed = play_phase(board, position_from_json(board, kept), orders, options, seed=seed)
        assert replayed.rolls == result.rolls, "the same phase threw other dice"
        assert position_to_json(replayed.position) == position_to_json(result.position)
        assert all(1 <= die <= 6 for roll in result.rolls for die in roll.dice)
        after = result.position
        if after.unrest.famine:
            assert after.phase.type is PhaseType.ADJUSTMENT or after.phase.season is Season.SPRING, (
                f"famine markers stand in {after.phase}"
            )
        if position.phase.season is Season.SPRING and after.phase.type is not PhaseType.RETREAT:
            assert not after.unrest.famine, "the spring's end left famine markers"
            assert not any(u.province in position.unrest.famine for u in after.units) or any(
                e.disaster == "famine" for e in result.disasters
            )
        for event in result.disasters:
            seen[f"{event.disaster} struck"] += bool(event.places)
            seen[f"{event.disaster} killed"] += len(event.lost) + len(event.garrisons_lost)
        if result.money is not None:
            seen["assassinated"] += len(result.money.assassinated)
            seen["attempt"] += len(result.money.attempts)
        position = after
    assert seen["famine struck"] and seen["plague struck"] and seen["attempt"], f"too quiet: {seen}"
    assert seen["assassinated"] and seen["famine killed"] + seen["plague killed"], f"too quiet: {seen}"
