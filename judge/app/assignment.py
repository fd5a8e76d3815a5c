"""Dealing powers to the players of a starting game from their preference lists.

The Judge averages ranks, maximises everyone's satisfaction together and breaks
ties at random. We do the same: each player's list becomes a cost per power
(its rank; powers in one bracket share the average of their ranks; powers left
off the list share the average of the remaining ranks; ``*`` makes every power
equal), and we pick the assignment with the least total cost, exactly, by
dynamic programming over subsets of powers. Ties are broken by the seeded
random generator (players and powers are shuffled before the search), so a
recorded seed reproduces the deal.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

Player = TypeVar("Player", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Preference:
    """A player's wishes: groups of powers, best first; powers in one group are equal.

    ``random_order`` is the ``*`` preference: no wish at all. An empty
    preference (no groups) also means no wish, but such players are dealt
    after the others have been satisfied, as leftovers.
    """

    groups: tuple[frozenset[str], ...] = ()
    random_order: bool = False


class AssignmentError(ValueError):
    """More players than powers, or a preference naming an unknown power."""


def rank_costs(preference: Preference, powers: Sequence[str]) -> dict[str, float]:
    """The cost (averaged rank, 1 = first choice) of each power for one player."""
    unknown = {p for group in preference.groups for p in group} - set(powers)
    if unknown:
        raise AssignmentError(f"unknown power(s) in preference list: {', '.join(sorted(unknown))}")
    if preference.random_order or not preference.groups:
        middle = (len(powers) + 1) / 2
        return dict.fromkeys(powers, middle)
    costs: dict[str, float] = {}
    next_rank = 1
    for group in preference.groups:
        fresh = [p for p in group if p not in costs]
        if not fresh:
            continue
        average = next_rank + (len(fresh) - 1) / 2
        for power in fresh:
            costs[power] = average
        next_rank += len(fresh)
    rest = [p for p in powers if p not in costs]
    if rest:
        average = next_rank + (len(rest) - 1) / 2
        for power in rest:
            costs[power] = average
    return costs


def assign_powers(
    preferences: Mapping[Player, Preference],
    powers: Sequence[str],
    rng: random.Random,
) -> dict[Player, str]:
    """Give each player one power, minimising the total averaged rank.

    Players whose preference is empty (not ``*``) are dealt last, from the
    powers the others did not get, so that a player who said nothing cannot
    take a power someone else asked for.
    """
    players = list(preferences)
    if len(players) > len(powers):
        raise AssignmentError(f"{len(players)} players for {len(powers)} powers")
    costs = {player: rank_costs(preferences[player], powers) for player in players}
    keen = [p for p in players if preferences[p].groups or preferences[p].random_order]
    leftovers = [p for p in players if p not in keen]
    rng.shuffle(keen)
    rng.shuffle(leftovers)
    shuffled_powers = list(powers)
    rng.shuffle(shuffled_powers)
    deal = _optimal(keen, shuffled_powers, costs)
    remaining = [p for p in shuffled_powers if p not in deal.values()]
    deal.update(zip(leftovers, remaining, strict=False))
    return deal


def _optimal(
    players: list[Player], powers: list[str], costs: Mapping[Player, Mapping[str, float]]
) -> dict[Player, str]:
    """Exact minimum-cost assignment of ``players`` to distinct ``powers``.

    State: how many players are placed and which powers are taken (a bit
    mask). Variants have at most a few dozen powers and seven-odd players, so
    the reachable states stay small.
    """
    best: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
    for player in players:
        following: dict[int, tuple[float, tuple[int, ...]]] = {}
        for mask, (total, picks) in best.items():
            for index, power in enumerate(powers):
                bit = 1 << index
                if mask & bit:
                    continue
                candidate = (total + costs[player][power], (*picks, index))
                known = following.get(mask | bit)
                if known is None or candidate[0] < known[0]:
                    following[mask | bit] = candidate
        best = following
    _, picks = min(best.values(), key=lambda entry: entry[0])
    return {player: powers[index] for player, index in zip(players, picks, strict=True)}
