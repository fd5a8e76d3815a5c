"""Which phase comes next, centre ownership after a Fall turn, and the winner.

A phase with nothing to do is skipped: no retreat phase without a unit that
can retreat, no adjustment phase when no power must remove a unit or can
build one. Supply centres change hands only when a Fall turn is complete
(after the Fall retreats, or after the Fall movement when no retreat phase
follows); a centre keeps its owner while empty.
"""

from __future__ import annotations

from collections.abc import Mapping

from judge.core.adjudicator.topology import topology
from judge.core.geography import GameMap
from judge.core.phase import Phase, PhaseType, Season
from judge.core.position import Position
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit


def settle(
    done: Phase,
    units: tuple[Unit, ...],
    centers: Mapping[str, frozenset[str]],
    variant: str,
    game_map: GameMap,
) -> Position:
    """The position after phase ``done`` when no retreat is pending."""
    if done.type is PhaseType.ADJUSTMENT:
        return Position(variant, Phase(done.year + 1, 0), units, centers)
    if done.season is Season.SPRING:
        return Position(variant, Phase.of(Season.FALL, done.year, PhaseType.MOVEMENT), units, centers)
    owned = update_centers(units, centers, game_map)
    winter = Position(variant, Phase.of(Season.WINTER, done.year, PhaseType.ADJUSTMENT), units, owned)
    if adjustments_needed(winter, game_map):
        return winter
    return Position(variant, Phase(done.year + 1, 0), units, owned)


def update_centers(
    units: tuple[Unit, ...], centers: Mapping[str, frozenset[str]], game_map: GameMap
) -> dict[str, frozenset[str]]:
    """Each supply centre goes to the power whose unit stands on it; empty centres keep their owner."""
    owner: dict[str, str] = {}
    for power, owned in centers.items():
        for center in owned:
            owner[center] = power
    changed = False
    supply_centers = game_map.supply_centers
    where = topology(game_map).province
    for unit in units:
        province = where.get(unit.location) or unit.province
        if province in supply_centers and owner.get(province) != unit.power:
            if not game_map.counts_as_centre(province, unit.power):
                # Neutral units own nothing. Under hong_kong, the power the centre is no
                # centre for takes it from its owner without owning it (special_rules).
                if unit.power != NEUTRAL and province in owner:
                    del owner[province]
                    changed = True
                continue
            owner[province] = unit.power
            changed = True
    if not changed:
        return dict(centers)
    result: dict[str, set[str]] = {}
    for center, power in owner.items():
        result.setdefault(power, set()).add(center)
    return {power: frozenset(owned) for power, owned in sorted(result.items())}


def adjustments_needed(position: Position, game_map: GameMap) -> bool:
    """Whether some power must remove a unit, or may build one in a free home centre it owns."""
    where = topology(game_map).province
    occupied: set[str] = set()
    count: dict[str, int] = {}
    for unit in position.units:
        occupied.add(where.get(unit.location) or unit.province)
        if unit.power != NEUTRAL:
            count[unit.power] = count.get(unit.power, 0) + 1
    for power in set(count) | set(position.centers):
        owned = position.centers.get(power, frozenset())
        owed = len(owned) - count.get(power, 0)
        if owed < 0:
            return True
        if owed > 0 and any(
            center not in occupied and game_map.can_build_in(center, power, owned) for center in owned
        ):
            return True
    return False


def winner(position: Position, game_map: GameMap) -> str | None:
    """The power owning at least the variant's winning number of centres (alone at the top), if any."""
    if not position.centers:
        return None
    counts = sorted(((len(c), p) for p, c in position.centers.items()), reverse=True)
    best, power = counts[0]
    if best < game_map.win_centers:
        return None
    if len(counts) > 1 and counts[1][0] == best:
        return None
    return power
