"""Fog of War (the Judge's Blind modifier): what one power sees of the board, pure.

The rule (docs/variants.md, "Fog of War (Blind)"): a power sees

* every province where one of its units stands (a unit waiting to retreat too),
* every province bordering one of those, for any unit type (an army's or a fleet's border),
* every supply centre it owns.

It sees a unit, and a centre's owner, in a province it sees; its own units and centres always.
This is DPjudge's ``BLIND`` game (``Power.visible``: a unit sees every place it "abuts", coasts
ignored) with the owned centres as sighting points (DPjudge's ``OWN_SCS_SEE``), except that a
centre lets its owner see the centre itself, not its neighbours: the rule issue 32 states.

An order's result is seen when its unit's province was seen before the phase, or the province
the unit ended in is seen after it (DPjudge's bits 1 and 8: a unit seen leaving, or arriving).
Everything here is a function of the map and the positions; who reads what is decided by
:mod:`judge.app.audience.blind_view`, the one place that applies these to a reader.
"""

from __future__ import annotations

from dataclasses import replace

from judge.core.adjudicator.results import AdjudicationResult, OrderResult, Outcome
from judge.core.geography import GameMap
from judge.core.orders import Build, Move, Retreat
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, province_of


def seen_provinces(game_map: GameMap, position: Position, power: str) -> frozenset[str]:
    """The provinces ``power`` sees in ``position``: its units' provinces and their neighbours,
    and its own supply centres."""
    seen: set[str] = set()
    units = [u for u in position.units if u.power == power]
    units += [d.unit for d in position.dislodged if d.unit.power == power]
    for unit in units:
        seen.add(unit.province)
        seen |= game_map.province_neighbours(unit.province)
    seen |= position.centers.get(power, frozenset())
    return frozenset(seen)


def _sees_unit(unit: Unit, power: str, seen: frozenset[str]) -> bool:
    return unit.power == power or unit.province in seen


def _sees_dislodged(dislodged: DislodgedUnit, power: str, seen: frozenset[str]) -> bool:
    return _sees_unit(dislodged.unit, power, seen)


def position_seen(position: Position, power: str, seen: frozenset[str]) -> Position:
    """``position`` as ``power`` sees it: the units it sees, its own centres and the ownership
    of the centres it sees (another power's centres out of sight are left out, as are the
    standoffs it does not see)."""
    centers = {
        owner: owned if owner == power else frozenset(c for c in owned if c in seen)
        for owner, owned in position.centers.items()
    }
    return replace(
        position,
        units=tuple(u for u in position.units if _sees_unit(u, power, seen)),
        centers={owner: owned for owner, owned in centers.items() if owned or owner == power},
        dislodged=tuple(d for d in position.dislodged if _sees_dislodged(d, power, seen)),
        standoffs=frozenset(s for s in position.standoffs if s in seen),
    )


def end_province(entry: OrderResult) -> str | None:
    """The province the entry's unit stands in after the phase (None: no unit)."""
    order = entry.order
    if isinstance(order, Build):
        return province_of(order.location)
    if entry.unit is None:
        return None
    if isinstance(order, Move | Retreat) and entry.outcome is Outcome.SUCCEEDS:
        return province_of(order.destination)
    return entry.unit.province


def entry_seen(
    entry: OrderResult, power: str, seen_before: frozenset[str], seen_after: frozenset[str]
) -> bool:
    """Whether ``power`` is told this order's result: its own always; another power's when its
    unit was seen before the phase or where it ends is seen after (a WAIVE, an order naming no
    unit: its own power only)."""
    if entry.power == power:
        return True
    if entry.unit is not None and entry.unit.province in seen_before and not isinstance(entry.order, Build):
        return True
    end = end_province(entry)
    return end is not None and end in seen_after


def result_seen(
    game_map: GameMap, before: Position, result: AdjudicationResult, power: str
) -> tuple[Position, AdjudicationResult]:
    """The board before a phase and the phase's result as ``power`` is told them: the orders and
    results of the units it sees (before or after), its own in full; the dislodged units and the
    board after the phase that it sees."""
    seen_before = seen_provinces(game_map, before, power)
    seen_after = seen_provinces(game_map, result.position, power)
    dislodged = tuple(d for d in result.dislodged if _sees_dislodged(d, power, seen_after | seen_before))
    kept = {d.unit for d in dislodged}
    shown = replace(
        result,
        results=tuple(e for e in result.results if entry_seen(e, power, seen_before, seen_after)),
        dislodged=dislodged,
        retreats={unit: options for unit, options in result.retreats.items() if unit in kept},
        position=position_seen(result.position, power, seen_after),
    )
    return position_seen(before, power, seen_before), shown
