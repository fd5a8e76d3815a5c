"""Flat lookup tables derived once from a map, for the hot paths of validation and resolution.

The GameMap API normalises and checks its arguments on every call, which is
right for callers at large but costs more than the adjudication itself when
called thousands of times per phase. These tables answer the same questions
with a single dict lookup. Built once per map (maps are cached singletons).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from judge.core.geography import GameMap, Terrain
from judge.core.units import province_of


@dataclass(frozen=True, slots=True, eq=False)
class Topology:
    """``province[loc]`` for every location; ``terrain``, ``coasts`` per province;
    ``army[prov]`` provinces an army reaches; ``fleet[loc]`` locations a fleet reaches and
    ``fleet_reach[loc]`` the provinces among them; ``seas[sea]`` the provinces a convoy steps to
    from a fleet in ``sea`` (with the special rule ``coastal_convoys``, a coastal province with
    one coast is such a "sea" too).
    """

    province: Mapping[str, str]
    terrain: Mapping[str, Terrain]
    coasts: Mapping[str, tuple[str, ...]]
    army: Mapping[str, frozenset[str]]
    fleet: Mapping[str, frozenset[str]]
    fleet_reach: Mapping[str, frozenset[str]]
    seas: Mapping[str, frozenset[str]]
    names: Mapping[str, str]


_NOWHERE: frozenset[str] = frozenset()


@functools.cache
def topology(game_map: GameMap) -> Topology:
    province: dict[str, str] = {}
    terrain: dict[str, Terrain] = {}
    coasts: dict[str, tuple[str, ...]] = {}
    army: dict[str, frozenset[str]] = {}
    fleet: dict[str, frozenset[str]] = {}
    names: dict[str, str] = {}
    for code, p in game_map.provinces.items():
        province[code] = code
        terrain[code] = p.terrain
        coasts[code] = p.coasts
        names[code] = p.name
        army[code] = game_map.army_moves(code) if p.terrain is not Terrain.WATER else _NOWHERE
        for loc in p.fleet_locations:
            province[loc] = code
            fleet[loc] = game_map.fleet_moves(loc)
    fleet_reach = {loc: frozenset(province_of(d) for d in dsts) for loc, dsts in fleet.items()}
    seas = {code: fleet_reach[code] for code, t in terrain.items() if t is Terrain.WATER}
    if game_map.special.coastal_convoys:
        seas.update(
            (code, fleet_reach[code]) for code, t in terrain.items() if t is Terrain.COAST and not coasts[code]
        )
    return Topology(province, terrain, coasts, army, fleet, fleet_reach, seas, names)
