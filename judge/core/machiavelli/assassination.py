"""What an assassination does to its victim's power (the bank's on a defaulter, or a power's).

The rules' effects, played on the position as the campaign's money is done and before its
moves (:func:`assassinate`), and on the victim's orders
(:func:`~judge.core.machiavelli.campaign.orders_of_the_assassinated`, which
:func:`~judge.core.machiavelli.campaign.adjudicate_campaign` applies to the powers it is told
were assassinated):

* every order of the victim becomes a hold (its units may still be supported by others); such a
  hold puts down no rebellion, and every siege the victim was laying is broken;
* each of the victim's garrisons already under siege (the siege begun in the campaign before)
  is eliminated, unless the besieger's power is assassinated too;
* some provinces the victim controls rebel, on one die each: a home province with one of its
  units on a 1, a home province without on 1 or 2, a conquered province with a unit on 1 to 3,
  without on 1 to 5 (a rebellion as one paid for: not in a garrisoned city, never in Venice while
  a unit is there);
* the victim stays in the game: his successor rules on.

The dice come from the seed, the phase and the victim only, so a game is replayed exactly.
The assassination expense itself (chits, 12 to 36 ducats, its own die) is a money step
(:mod:`.money`), which calls :func:`assassinate` once for all the campaign's victims.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from judge.core.machiavelli.board import MachiavelliBoard
from judge.core.machiavelli.campaign import MachiavelliPosition, countries_held, update_control
from judge.core.machiavelli.options import FIRST_EDITION, MachiavelliOptions
from judge.core.machiavelli.treasury import Rebellion, Unrest

REBEL_ON = MappingProxyType(
    {(True, True): 1, (True, False): 2, (False, True): 3, (False, False): 5}
)
"""The highest roll that raises a province against the victim, by (home province, unit there)."""


@dataclass(frozen=True, slots=True)
class RebellionRoll:
    """The die thrown for one of the victim's provinces, and whether it rose."""

    power: str
    province: str
    roll: int
    rose: bool


@dataclass(frozen=True, slots=True)
class AssassinationResult:
    position: MachiavelliPosition
    garrisons_lost: tuple[str, ...]
    rolls: tuple[RebellionRoll, ...]


def assassinate(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    victims: Sequence[str],
    seed: int | str,
    options: MachiavelliOptions = FIRST_EDITION,
) -> AssassinationResult:
    """The effects on the board of the assassination of ``victims`` (see the module's docstring)."""
    if not victims:
        return AssassinationResult(position, (), ())
    gone = set(victims)
    garrisons = dict(position.garrisons)
    lost = sorted(
        city
        for city, besieger in position.sieges.items()
        if garrisons.get(city) in gone and besieger.power not in gone
    )
    for city in lost:
        del garrisons[city]
    sieges = {
        city: besieger
        for city, besieger in position.sieges.items()
        if city not in lost and besieger.power not in gone
    }
    rebellions = dict(position.unrest.rebellions)
    rolls: list[RebellionRoll] = []
    held = countries_held(board, position)
    for victim in sorted(gone):
        rng = random.Random(f"{seed}/{position.phase}/assassination/{victim}")
        present = {u.province for u in position.units if u.power == victim}
        present |= {city for city, owner in garrisons.items() if owner == victim}
        for province, owner in sorted(position.control.provinces.items()):
            if owner != victim or province in rebellions:
                continue
            country = board.home_country_of(province)
            home = country is not None and held.get(country) == victim
            roll = rng.randint(1, 6)
            occupied = province in garrisons or any(u.province == province for u in position.units)
            rose = roll <= REBEL_ON[(home, province in present)] and not (
                province in board.single_space and occupied
            )
            rolls.append(RebellionRoll(victim, province, roll, rose))
            if rose:
                walled = board.may_garrison(province, fortresses=options.fortresses)
                rebellions[province] = Rebellion(victim, walled and province not in garrisons)
    units = position.units
    after = replace(
        position,
        garrisons=MappingProxyType(garrisons),
        sieges=MappingProxyType(sieges),
        control=position.control
        if options.mach2
        else update_control(board, position.control, units, garrisons),
        unrest=Unrest(MappingProxyType(rebellions), position.unrest.famine),
    )
    return AssassinationResult(after, tuple(lost), tuple(rolls))
