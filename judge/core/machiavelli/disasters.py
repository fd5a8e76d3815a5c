"""Famine, plague and storms: the disasters thrown on the scenario's tables (issue 33).

Each is thrown the same way (:func:`strike`): two dice give the year's severity, 2 or 3 none,
4 or 7 a row only, 5 or 6 a column only, 8 to 12 a row and a column (the rules' reading; under
SET MACH2 one die: 1 none, 2-3 a row, 4-5 a column, 6 both); each row or column is then two
dice more, 2 to 12, and every province in it on the table is struck. The tables are the
scenario's data (:attr:`~.board.MachiavelliBoard.famine_table` and the others).

When, and what they do (played by :mod:`.season` at the end of the campaign named):

* after the fall (once its retreats are done), **storms** first: every fleet in a struck sea is
  lost; then the **famine**: a marker on each struck province. A starving province yields no
  income and takes no new unit (:mod:`.money`); a city garrisoned still yields; control is
  untouched. Famine relief (an expense) lifts a marker during the spring;
* after the spring (once its retreats are done): every unit still in a starving province, its
  garrison too, is lost and every marker is lifted; then, in a game with a summer, the
  **plague**: every unit in a struck province or its city is lost there and then.

A unit lost ends the sieges it laid or suffered. Every die is kept as a
:class:`~.dice.Roll`; each is thrown from the game's seed, the phase and the disaster only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from types import MappingProxyType

from judge.core.machiavelli.board import DisasterTable, MachiavelliBoard
from judge.core.machiavelli.campaign import MachiavelliPosition, live_sieges, update_control
from judge.core.machiavelli.dice import Roll, dice_for, throw
from judge.core.machiavelli.options import MachiavelliOptions
from judge.core.machiavelli.treasury import Unrest
from judge.core.phase import PhaseType
from judge.core.units import Unit, UnitType

Dice = Callable[[int], tuple[int, ...]]
"""Throws ``n`` dice: seeded from the game, or pinned by a test."""

ROW, COLUMN, BOTH, NONE = "row only", "column only", "row and column", "no disaster"
SEVERITY = {2: NONE, 3: NONE, 4: ROW, 7: ROW, 5: COLUMN, 6: COLUMN}
"""A severity throw of two dice (8 to 12: a row and a column)."""
MACH2_SEVERITY = {1: NONE, 2: ROW, 3: ROW, 4: COLUMN, 5: COLUMN, 6: BOTH}
"""The second edition's severity: one die."""


@dataclass(frozen=True, slots=True)
class Stricken:
    """What a disaster struck: the places (``places``), the units lost (``lost``: armies and
    fleets; ``garrisons_lost``: the cities whose garrison fell) and the dice thrown."""

    disaster: str
    places: frozenset[str] = frozenset()
    lost: tuple[Unit, ...] = ()
    garrisons_lost: tuple[tuple[str, str], ...] = ()
    rolls: tuple[Roll, ...] = ()


@dataclass(frozen=True, slots=True)
class DisasterResult:
    position: MachiavelliPosition
    events: tuple[Stricken, ...]

    @property
    def rolls(self) -> tuple[Roll, ...]:
        return tuple(roll for event in self.events for roll in event.rolls)


def seeded_dice(seed: int | str, phase: object, disaster: str) -> Dice:
    rng: random.Random = dice_for(seed, phase, disaster)
    return lambda count: throw(rng, count)


def strike(table: DisasterTable, disaster: str, dice: Dice, *, mach2: bool = False) -> Stricken:
    """The places ``table`` strikes this year, with the dice thrown (see the module's docstring)."""
    if mach2:
        severity_dice = dice(1)
        severity = MACH2_SEVERITY[severity_dice[0]]
    else:
        severity_dice = dice(2)
        severity = SEVERITY.get(sum(severity_dice), BOTH)
    rolls = [Roll(disaster, "severity", severity_dice, severity)]
    places: set[str] = set()
    for line, wanted in (("row", (ROW, BOTH)), ("column", (COLUMN, BOTH))):
        if severity not in wanted:
            continue
        thrown = dice(2)
        index = sum(thrown) - 2
        cells = table[index] if line == "row" and table else [row[index] for row in table]
        found = {cell for cell in cells if cell is not None}
        rolls.append(Roll(disaster, line, thrown, ", ".join(sorted(found)) or "none"))
        places |= found
    return Stricken(disaster, frozenset(places), rolls=tuple(rolls))


def after_spring(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    options: MachiavelliOptions,
    *,
    seed: int | str,
    plague_dice: Dice | None = None,
) -> DisasterResult:
    """The famine's toll and the plague, once the spring campaign of ``position`` is over
    (``position`` is the summer's, or the fall's without a summer)."""
    events: list[Stricken] = []
    famine = position.unrest.famine
    if famine:
        position, starved = _lose_units(board, position, famine, "famine", options)
        position = replace(position, unrest=Unrest(position.unrest.rebellions, frozenset()))
        events.append(starved)
    if options.plays_plague:
        dice = plague_dice or seeded_dice(seed, position.phase, "plague")
        struck = strike(board.plague_table, "plague", dice, mach2=options.mach2)
        position, lost = _lose_units(board, position, struck.places, "plague", options)
        events.append(replace(lost, places=struck.places, rolls=struck.rolls))
    return DisasterResult(position, tuple(events))


def after_fall(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    options: MachiavelliOptions,
    *,
    seed: int | str,
    storm_dice: Dice | None = None,
    famine_dice: Dice | None = None,
) -> DisasterResult:
    """Storms, then the famine's markers, once the fall campaign is over (``position`` is the
    adjustments')."""
    events: list[Stricken] = []
    if options.plays_storms:
        dice = storm_dice or seeded_dice(seed, position.phase, "storm")
        struck = strike(board.storm_table, "storm", dice, mach2=options.mach2)
        position, lost = _lose_units(board, position, struck.places, "storm", options)
        events.append(replace(lost, places=struck.places, rolls=struck.rolls))
    if options.plays_famine:
        dice = famine_dice or seeded_dice(seed, position.phase, "famine")
        struck = strike(board.famine_table, "famine", dice, mach2=options.mach2)
        unrest = position.unrest
        position = replace(
            position, unrest=Unrest(unrest.rebellions, unrest.famine | struck.places)
        )
        events.append(struck)
    return DisasterResult(position, tuple(events))


def _lose_units(
    board: MachiavelliBoard,
    position: MachiavelliPosition,
    places: frozenset[str],
    disaster: str,
    options: MachiavelliOptions,
) -> tuple[MachiavelliPosition, Stricken]:
    """Every unit in ``places`` lost: armies and garrisons on land, fleets at sea and on coasts."""
    if not places:
        return position, Stricken(disaster)
    lost = tuple(
        unit
        for unit in position.units
        if unit.province in places and (disaster != "storm" or unit.type is UnitType.FLEET)
    )
    fallen = tuple(
        (city, owner) for city, owner in sorted(position.garrisons.items()) if city in places
    )
    units = tuple(unit for unit in position.units if unit not in lost)
    garrisons = {city: owner for city, owner in position.garrisons.items() if city not in places}
    rebellions = position.unrest.rebellions
    recount = not options.mach2 or position.phase.type is PhaseType.ADJUSTMENT
    after = replace(
        position,
        units=units,
        garrisons=MappingProxyType(garrisons),
        sieges=MappingProxyType(live_sieges(position.sieges, units, garrisons, rebellions)),
        control=update_control(board, position.control, units, garrisons)
        if recount
        else position.control,
    )
    return after, Stricken(disaster, places, lost, fallen)
