"""The secret draw of spies at the start (seed 003, rule 2).

"Dans chaque Conseil évolue un espion qui agit secrètement pour le compte
d'une autre puissance ... Les espions, leur nation d'affiliation et celle
qu'ils infiltrent sont déterminés aléatoirement en début de partie."

Each council gets one spy, who really plays for another power. The true
powers are a random derangement of the powers (no power spies on itself),
so every power has exactly one spy working for it, inside another council;
the spy is drawn at random among the council's members. The draw is a
function of the seed alone, so a recorded seed replays it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MIN_COUNCIL_FOR_SPY = 2
"""A spy needs at least one loyal member beside him on his council."""


@dataclass(frozen=True, slots=True)
class Spy:
    """A member (by the caller's key) sitting on ``infiltrated``'s council, working for ``true_power``."""

    member: int
    infiltrated: str
    true_power: str


def derangement(powers: Sequence[str], rng: random.Random) -> dict[str, str]:
    """A random map from each power to another one, a permutation with no fixed point.

    Drawn uniformly by rejection: shuffle until no power maps to itself (on
    average about e ≈ 2.7 shuffles). Needs at least two powers.
    """
    if len(powers) < 2:
        raise ValueError("spies need at least two powers")
    targets = list(powers)
    while True:
        rng.shuffle(targets)
        if all(a != b for a, b in zip(powers, targets, strict=True)):
            return dict(zip(powers, targets, strict=True))


def draw_spies(councils: Mapping[str, Sequence[int]], seed: int) -> tuple[Spy, ...]:
    """One spy per council, each working for another power; reproducible from ``seed``.

    ``councils`` maps each power to its members' keys (ids), in a stable
    order; powers are taken in sorted order so the result depends on the
    seed and the councils only. A council of fewer than two members (a
    game begun short of players) hosts no spy, lest a power be played by
    its spy alone, and has none working for it.
    """
    rng = random.Random(seed)
    powers = sorted(
        power for power, members in councils.items() if len(members) >= MIN_COUNCIL_FOR_SPY
    )
    if len(powers) < 2:
        return ()
    works_for = derangement(powers, rng)
    spies = []
    for power in powers:
        member = rng.choice(list(councils[power]))
        spies.append(Spy(member=member, infiltrated=power, true_power=works_for[power]))
    return tuple(spies)
