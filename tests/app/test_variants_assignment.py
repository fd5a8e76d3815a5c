"""Power assignment for any number of powers: Chaos's 34 players are dealt by preference, exactly and fast."""

from __future__ import annotations

import random

from judge.app.game_state.assignment import Preference, _hungarian, _subsets, assign_powers
from judge.core.variants import load_map


def test_the_hungarian_method_finds_the_same_minimum_as_the_subset_search() -> None:
    rng = random.Random(15)
    for _ in range(200):
        powers = [f"P{n}" for n in range(rng.randint(1, 8))]
        players = list(range(rng.randint(1, len(powers))))
        costs = {p: {power: float(rng.randint(0, 5)) for power in powers} for p in players}
        fast = _hungarian(players, powers, costs)
        exact = _subsets(players, powers, costs)
        assert len(set(fast.values())) == len(players)
        assert sum(costs[p][fast[p]] for p in players) == sum(costs[p][exact[p]] for p in players)


def test_thirty_four_chaos_players_each_get_their_first_choice_when_all_differ() -> None:
    powers = load_map("chaos").powers
    assert len(powers) == 34
    wishes = list(reversed(powers))
    preferences = {n: Preference(groups=(frozenset({wishes[n]}),)) for n in range(34)}
    deal = assign_powers(preferences, powers, random.Random(1))
    assert deal == {n: wishes[n] for n in range(34)}


def test_thirty_four_players_sharing_one_wish_split_the_rest_fairly() -> None:
    powers = load_map("chaos").powers
    preferences = {n: Preference(groups=(frozenset({powers[0]}), frozenset({powers[1 + n % 33]}))) for n in range(34)}
    deal = assign_powers(preferences, powers, random.Random(2))
    assert sorted(deal.values()) == sorted(powers)
    assert list(deal.values()).count(powers[0]) == 1
