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

import math
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


_MAX_SUBSET_STATES = 200_000
"""Above this many (placed players, powers taken) states the subset search gives way to the Hungarian method."""


def _optimal(
    players: list[Player], powers: list[str], costs: Mapping[Player, Mapping[str, float]]
) -> dict[Player, str]:
    """Exact minimum-cost assignment of ``players`` to distinct ``powers``.

    For the usual seven-odd players, a search over the sets of powers taken
    (a bit mask), whose tie-breaking the games already started relied on; for
    a variant with many powers and players (Chaos: 34), where the sets would
    number billions, the Hungarian method (polynomial) finds a minimum too.
    """
    states = sum(math.comb(len(powers), k) for k in range(len(players) + 1))
    if states > _MAX_SUBSET_STATES:
        return _hungarian(players, powers, costs)
    return _subsets(players, powers, costs)


def _subsets(
    players: list[Player], powers: list[str], costs: Mapping[Player, Mapping[str, float]]
) -> dict[Player, str]:
    """Minimum-cost assignment by dynamic programming over the sets of powers taken."""
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


def _hungarian(
    players: list[Player], powers: list[str], costs: Mapping[Player, Mapping[str, float]]
) -> dict[Player, str]:
    """Minimum-cost assignment of ``players`` (rows) to ``powers`` (columns, at least as many).

    The Hungarian method with row and column potentials, O(rows² × columns):
    each player in turn is added along a shortest augmenting path.
    """
    rows, cols = len(players), len(powers)
    inf = float("inf")
    u = [0.0] * (rows + 1)
    v = [0.0] * (cols + 1)
    owner = [0] * (cols + 1)  # owner[j]: the row (1-based) holding column j; 0 = free
    way = [0] * (cols + 1)
    for i in range(1, rows + 1):
        owner[0] = i
        j0 = 0
        minv = [inf] * (cols + 1)
        used = [False] * (cols + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            delta = inf
            j1 = 0
            row_costs = costs[players[i0 - 1]]
            for j in range(1, cols + 1):
                if not used[j]:
                    current = row_costs[powers[j - 1]] - u[i0] - v[j]
                    if current < minv[j]:
                        minv[j] = current
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(cols + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return {players[owner[j] - 1]: powers[j - 1] for j in range(1, cols + 1) if owner[j]}
