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
from judge.core.phase import Phase, PhaseType, Season, phase_of
from judge.core.position import Position, position_of
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
    index = done.index  # S M, S R, F M, F R, W A (phase._ORDER)
    if index == _WINTER_ADJUSTMENT:
        return position_of(variant, phase_of(done.year + 1, _SPRING_MOVEMENT), units, centers)
    if index < _FALL_MOVEMENT:  # a spring phase
        return position_of(variant, phase_of(done.year, _FALL_MOVEMENT), units, centers)
    owned = update_centers(units, centers, game_map)
    winter = position_of(variant, phase_of(done.year, _WINTER_ADJUSTMENT), units, owned)
    if adjustments_needed(winter, game_map):
        return winter
    return position_of(variant, phase_of(done.year + 1, _SPRING_MOVEMENT), units, owned)


_SPRING_MOVEMENT = Phase.of(Season.SPRING, 1901, PhaseType.MOVEMENT).index
_FALL_MOVEMENT = Phase.of(Season.FALL, 1901, PhaseType.MOVEMENT).index
_WINTER_ADJUSTMENT = Phase.of(Season.WINTER, 1901, PhaseType.ADJUSTMENT).index


def update_centers(
    units: tuple[Unit, ...], centers: Mapping[str, frozenset[str]], game_map: GameMap
) -> dict[str, frozenset[str]]:
    """Each supply centre goes to the power whose unit stands on it; empty centres keep their owner."""
    supply_centers = game_map.supply_centers
    where = topology(game_map).province
    # Most Fall turns take no centre: every unit on a centre stands on one of its own power's.
    for unit in units:
        province = where.get(unit.location) or unit.province
        if province in supply_centers:
            owned = centers.get(unit.power)
            if owned is None or province not in owned:
                break
    else:
        return dict(centers)
    owner: dict[str, str] = {}
    for power, owned in centers.items():
        for center in owned:
            owner[center] = power
    changed = False
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


def build_sites(position: Position, power: str, game_map: GameMap) -> frozenset[str]:
    """The centres where ``power`` may build now: owned, free, and allowed by the variant's build
    rule (:meth:`GameMap.can_build_in`: home centres, or any owned centre in Chaos and under SET ANY
    CENTRES). The one count of build sites: the judge's completeness of a power's orders and the
    adjudicator's need for an adjustment phase both ask it, so they never disagree."""
    owned = position.centers.get(power, frozenset())
    if not owned:
        return frozenset()
    return _free_build_sites(owned, _occupied(position, game_map), power, game_map)


def _occupied(position: Position, game_map: GameMap) -> set[str]:
    where = topology(game_map).province
    return {where.get(unit.location) or unit.province for unit in position.units}


def _free_build_sites(
    owned: frozenset[str], occupied: set[str], power: str, game_map: GameMap
) -> frozenset[str]:
    return frozenset(c for c in owned if c not in occupied and game_map.can_build_in(c, power, owned))


def neutral_rebuilds(position: Position, game_map: GameMap) -> tuple[Unit, ...]:
    """The neutral units an adjustment phase raises again (``neutral_units`` with ``rebuild``):
    each where it started, if that is a supply centre no power owns and no unit stands in."""
    special = game_map.special
    if not special.neutral_rebuild or not special.neutral_units:
        return ()
    owned = {centre for centres in position.centers.values() for centre in centres}
    occupied = _occupied(position, game_map)
    return tuple(
        unit
        for unit in special.neutral_units
        if unit.province in game_map.supply_centers and unit.province not in owned and unit.province not in occupied
    )


def adjustments_needed(position: Position, game_map: GameMap) -> bool:
    """Whether some power must remove a unit, or may build one where :func:`build_sites` allows,
    or a neutral unit is raised again (:func:`neutral_rebuilds`)."""
    if neutral_rebuilds(position, game_map):
        return True
    units = position.units
    centers = position.centers
    count: dict[str, int] = {}
    for unit in units:
        power = unit.power
        if power != NEUTRAL:
            count[power] = count.get(power, 0) + 1
    occupied: set[str] | None = None
    for power, owned in centers.items():
        owed = len(owned) - count.get(power, 0)
        if owed < 0:
            return True
        if owed > 0:
            if occupied is None:
                occupied = _occupied(position, game_map)
            if _free_build_sites(owned, occupied, power, game_map):
                return True
    # A power with units and no centres listed owes removals.
    return any(power not in centers for power in count)


def winner(position: Position, game_map: GameMap) -> str | None:
    """The power owning at least the variant's winning number of centres (alone at the top), if any."""
    best = -1
    leader: str | None = None
    shared = False
    for power, owned in position.centers.items():
        size = len(owned)
        if size > best:
            best, leader, shared = size, power, False
        elif size == best:
            shared = True
    if leader is None or best < game_map.win_centers or shared:
        return None
    return leader
