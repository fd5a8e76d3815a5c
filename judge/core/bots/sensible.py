"""The ``sensible`` bot: a power in civil disorder that keeps what it has and takes nothing.

Movement: a unit on a centre of its power that a foreign unit could enter
holds, and the power's units next to it support it (the most threatened
centre first); an empty centre of its own that is threatened is filled by a
unit standing nowhere threatened; every other unit supports a threatened
neighbour of its power or holds. It never moves into a province it does not
own or that a foreign unit stands in. Retreats: to a centre of its own first
(the most threatened), then to a centre, then as near its centres as it can;
never two units to one province. Adjustments: builds on the free sites most
threatened (each unit of the type that reaches more of what is around),
removes the units farthest from its centres.
"""

from __future__ import annotations

import random

from judge.core.adjudicator.phases import build_sites
from judge.core.adjudicator.retreat_options import retreat_options
from judge.core.bots.board_view import View
from judge.core.orders import Build, Disband, Hold, Move, Order, Remove, Retreat, SupportHold
from judge.core.units import Unit, UnitRef, UnitType, province_of


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.type, unit.location)


def movement(view: View, rng: random.Random) -> list[Order]:
    orders: dict[Unit, Order] = {}
    mine = view.mine
    # The power's centres a foreign unit could enter, most threatened first.
    threatened = sorted(
        (c for c in view.position.centers.get(view.power, frozenset()) if view.threat.get(c, 0) > 0),
        key=lambda c: (-view.threat[c], c),
    )
    keepers: set[Unit] = set()
    for centre in threatened:
        unit = view.occupant.get(centre)
        if unit is not None and unit.power == view.power:
            orders[unit] = Hold(_ref(unit))
            keepers.add(unit)
    # Fill an empty threatened centre with a unit that guards nothing threatened itself.
    for centre in threatened:
        if centre in view.occupant:
            continue
        for unit in mine:
            if unit in orders or (view.threat.get(unit.province, 0) > 0 and view.owns(unit.province)):
                continue
            targets = [loc for loc in view.reach(unit) if province_of(loc) == centre]
            if targets:
                order = Move(_ref(unit), targets[0])
                if view.legal(order):
                    orders[unit] = order
                    keepers.add(unit)
                    break
    # Everyone else supports the most threatened neighbour of its power that stays, or holds.
    staying = [u for u in mine if not isinstance(orders.get(u), Move)]
    for unit in mine:
        if unit in orders:
            continue  # it keeps a threatened centre of its own: it holds, or fills it
        best: tuple[float, str] | None = None
        chosen: Unit | None = None
        for other in staying:
            if other is unit or not view.reaches_province(unit, other.province):
                continue
            danger = view.threat.get(other.province, 0)
            if danger == 0:
                continue
            score = danger * (2.0 if view.owns(other.province) and view.is_centre(other.province) else 1.0)
            key = (-score, other.location)
            if best is None or key < best:
                best, chosen = key, other
        if chosen is not None:
            support = SupportHold(_ref(unit), _ref(chosen))
            orders[unit] = support if view.legal(support) else Hold(_ref(unit))
        else:
            orders[unit] = Hold(_ref(unit))
    return [orders[u] for u in mine]


def retreats(view: View, rng: random.Random) -> list[Order]:
    out: list[Order] = []
    taken: set[str] = set()
    near = view.distance_to_owned()
    for dislodged in sorted(view.position.dislodged, key=lambda d: d.unit.location):
        unit = dislodged.unit
        if unit.power != view.power:
            continue
        options = [o for o in retreat_options(view.board, dislodged, view.rules) if province_of(o) not in taken]

        def rank(location: str) -> tuple[int, int, int, str]:
            province = province_of(location)
            own_centre = view.owns(province)
            centre = view.is_centre(province)
            return (
                0 if own_centre else 1 if centre else 2,
                -view.threat.get(province, 0),
                near.get(province, 99),
                location,
            )

        if options:
            choice = min(options, key=rank)
            taken.add(province_of(choice))
            out.append(Retreat(_ref(unit), choice))
        else:
            out.append(Disband(_ref(unit)))
    return out


def adjustments(view: View, rng: random.Random) -> list[Order]:
    owed = view.board.owed(view.power)
    if owed > 0:
        sites = sorted(
            build_sites(view.position, view.power, view.game_map),
            key=lambda s: (-view.threat.get(s, 0), s),
        )
        return [_build(view, site) for site in sites[:owed]]
    if owed < 0:
        near = view.distance_to_owned()
        ranked = sorted(view.mine, key=lambda u: (-near.get(u.province, 99), u.type is UnitType.ARMY, u.location))
        return [Remove(_ref(u)) for u in ranked[: -owed]]
    return []


def _build(view: View, site: str) -> Build:
    """The unit for ``site`` whose reach covers more of the threatened and wanted places around."""
    best: tuple[float, str] | None = None
    chosen = Build(UnitType.ARMY, site)
    for unit_type, location in view.build_locations(site):
        reach = view.reach(Unit(view.power, unit_type, location))
        score = sum(1.0 + view.threat.get(province_of(loc), 0) for loc in reach)
        key = (-score, unit_type.value + location)
        if best is None or key < best:
            best, chosen = key, Build(unit_type, location)
    return chosen
