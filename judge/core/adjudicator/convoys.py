"""Convoy geometry: which chains of fleets at sea could carry an army.

Only the map and the places of the fleets matter here, never the orders:
these functions decide whether a convoyed move or a convoy order is *legal*
(could be valid once orders are known, DATC 4.E.1). Whether a convoy actually
carries its army is the resolver's business (judge.core.adjudicator.movement).

Fleets convoy from sea provinces only (seed 000, 2.14.5: fleets in coastal
provinces, Kiel and Constantinople included, never convoy), unless the map's
special rule ``coastal_convoys`` makes the coastal provinces with one coast
convoy too (the Renaissance game): :func:`sea_neighbours` lists them then.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from judge.core.adjudicator.topology import topology
from judge.core.geography import GameMap, Terrain

# Enum members read through the class cost ~0.2 us each on Python 3.11: bind them once.
_COAST = Terrain.COAST


def sea_neighbours(game_map: GameMap) -> Mapping[str, frozenset[str]]:
    """For each province whose fleet may convoy (the seas, and under ``coastal_convoys`` the
    coasts with one coast), every province a convoy can step to from it."""
    return topology(game_map).seas


def fleet_reach(game_map: GameMap) -> Mapping[str, frozenset[str]]:
    """For each fleet location, the provinces (coasts dropped) it can move to: what a support needs."""
    return topology(game_map).fleet_reach


def can_be_convoyed_between(game_map: GameMap, source: str, destination: str) -> bool:
    """Both ends are coastal provinces, the only places a convoy starts from or lands on."""
    terrain = topology(game_map).terrain
    return (
        source != destination
        and terrain.get(source) is _COAST
        and terrain.get(destination) is _COAST
    )


def route_exists(
    game_map: GameMap,
    source: str,
    destination: str,
    fleet_provinces: Collection[str],
    closed: Collection[frozenset[str]] = (),
) -> bool:
    """Whether a chain of the given fleet-occupied sea provinces links ``source`` to ``destination``,
    never stepping between the two provinces of a pair in ``closed`` (a passage closed to this army)."""
    if not can_be_convoyed_between(game_map, source, destination):
        return False
    seas = sea_neighbours(game_map)
    frontier = [w for w in fleet_provinces if w in seas and source in seas[w] and not step_closed(closed, source, w)]
    seen = set(frontier)
    while frontier:
        current = frontier.pop()
        neighbours = seas[current]
        if destination in neighbours and not step_closed(closed, current, destination):
            return True
        for nxt in neighbours:
            if nxt not in seen and nxt in seas and nxt in fleet_provinces and not step_closed(closed, current, nxt):
                seen.add(nxt)
                frontier.append(nxt)
    return False


def step_closed(closed: Collection[frozenset[str]], here: str, there: str) -> bool:
    """Whether the step from ``here`` to ``there`` is one of the ``closed`` passages."""
    return bool(closed) and frozenset((here, there)) in closed


def fleets_on_minimal_routes(
    game_map: GameMap,
    source: str,
    destination: str,
    fleet_provinces: Collection[str],
    closed: Collection[frozenset[str]] = (),
) -> frozenset[str]:
    """The fleet provinces that belong to at least one route with no shortcut.

    A route is minimal when no fleet of it could be skipped: only its first
    fleet touches ``source``, only its last touches ``destination``, and no two
    fleets that are not consecutive touch. A convoy order by a fleet on no
    such route can never be needed, so it is illegal (DATC 6.G.19). A step
    between the two provinces of a pair in ``closed`` (a passage closed to this
    army) is neither taken nor a shortcut.
    """
    if not can_be_convoyed_between(game_map, source, destination):
        return frozenset()
    seas = sea_neighbours(game_map)
    fleets = [w for w in fleet_provinces if w in seas]
    useful: set[str] = set()
    path: list[str] = []

    def touches(here: str, there: str) -> bool:
        return there in seas[here] and not step_closed(closed, here, there)

    def extend(current: str) -> None:
        if touches(current, destination):
            useful.update(path)
            return
        for nxt in seas[current]:
            if nxt not in seas or nxt not in fleet_provinces or nxt in path or step_closed(closed, current, nxt):
                continue
            if touches(nxt, source):
                continue  # it could have been the first fleet: shortcut
            if any(touches(nxt, earlier) for earlier in path[:-1]):
                continue  # touches an earlier fleet than the last one: shortcut
            path.append(nxt)
            extend(nxt)
            path.pop()

    for first in fleets:
        if touches(first, source):
            path.append(first)
            extend(first)
            path.pop()
    return frozenset(useful)
