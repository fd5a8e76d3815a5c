"""The ``normal`` bot: a power that plays to win.

Each place a unit could end the phase in is scored by what it is worth
(:meth:`View.worth <judge.core.bots.board_view.View.worth>`: the centres it
is near, weighted by what the power wants of each) plus what standing there
at the end of the phase gives: a centre not its own taken (most in the fall,
when centres change hands), a threatened centre of its own kept. Units then
claim their best places, the best claims first; no two of the power's units
are sent to one province, nor one into a province another of its units
stands in. A province another power holds is attacked when a second unit
of the power can support the attack (and now and then, by the seed, when
none can: the defender may move away). A place beside a held centre that
another unit of the power also reaches is worth more, so units gather in
pairs that can take it. Units left holding then step into the places the
power's moving units leave, when that is better (a column advances). Units
still holding support the
power's moves that meet resistance (attacks first, then moves a foreign unit
could bounce), or the holds of threatened units of the power. An army that
holds for want of anything better by land is carried by a fleet of the power
beside it to a better coast (one-fleet convoys). A small seeded noise breaks
ties, so two bots of the same power on the same board play the same orders
for the same seed and differ across seeds.

Retreats go where they are worth most; builds go on the sites worth most
(the type worth more there, but an army where it can stand once the power
has more than twice as many fleets as armies), removals take the units
worth least. A centre of its own that it may build in is left free in the
fall when the power may have builds coming.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from judge.core.adjudicator.phases import build_sites
from judge.core.adjudicator.retreat_options import retreat_options
from judge.core.bots.board_view import View
from judge.core.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
)
from judge.core.phase import Season
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitRef, UnitType, province_of

_ARMY = UnitType.ARMY

_PAIRING = 0.8
"""What a place next to a held centre another unit of the power also reaches is worth besides."""

_GAMBLE = 0.25
"""How often an attack no unit of the power can support is made all the same (the defender may move
away; without it a lone unit would never leave a board where every neighbour is held)."""


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.type, unit.location)


def _gain(view: View, unit_type: UnitType, province: str, fall: bool, *, staying: bool = False) -> float:
    """What ending the phase in ``province`` gives, its worth included (``staying``: the unit is
    there already)."""
    gain = 0.0
    if view.is_centre(province):
        if not view.owns(province):
            gain += 3.0 if fall else 1.0
        elif view.threat.get(province, 0) > 0:
            gain += (1.6 if fall else 0.25) * min(view.threat[province], 2)
        elif staying and fall and view.building and view.game_map.can_build_in(province, view.power):
            gain -= 0.8  # a build site of its own, safe, is wanted free for the winter's builds
    return gain + view.worth(unit_type, province)


@dataclass(slots=True)
class _Plan:
    orders: dict[Unit, Order]
    claimed: set[str]


def movement(view: View, rng: random.Random) -> list[Order]:
    fall = view.position.phase.season is Season.FALL
    mine = view.mine
    own_at = {u.province: u for u in mine}
    choices: list[tuple[float, str, Unit, str]] = []
    hold_score: dict[Unit, float] = {}
    for unit in mine:
        here = _gain(view, unit.type, unit.province, fall, staying=True)
        hold_score[unit] = here
        choices.append((here + rng.random() * 0.05, unit.location, unit, unit.location))
        reached = {province_of(loc) for loc in view.reach(unit)}
        for location in view.reach(unit):
            province = province_of(location)
            score = _gain(view, unit.type, province, fall)
            # Beside a held centre another unit of the power reaches too: the two can take it.
            if any(
                view.wanted_and_held(t) and view.reaching.get(t, 0) - (t in reached) >= 1
                for t in view.next_to(unit.type, province)
            ):
                score += _PAIRING
            if view.foreign_at(province) is not None:
                score -= 0.4  # an attack costs a support and may still bounce
            choices.append((score + rng.random() * 0.05, unit.location, unit, location))
    choices.sort(key=lambda c: (-c[0], c[1], c[3]))

    plan = _Plan({}, set())
    for _score, _where, unit, location in choices:
        if unit in plan.orders:
            continue
        province = province_of(location)
        if province in plan.claimed:
            continue
        if location == unit.location:
            plan.orders[unit] = Hold(_ref(unit))
            plan.claimed.add(province)
            continue
        if province in own_at:
            continue  # never into a province one of its own units stands in
        move = Move(_ref(unit), location)
        if not view.legal(move):
            continue
        defender = view.foreign_at(province)
        if defender is not None:
            helper = _helper(view, plan, unit, province, hold_score)
            if helper is not None:
                plan.orders[helper] = SupportMove(_ref(helper), _ref(unit), province)
                plan.claimed.add(helper.province)
            elif defender.power == NEUTRAL or rng.random() >= _GAMBLE:
                continue
        plan.orders[unit] = move
        plan.claimed.add(province)

    _follow(view, plan, hold_score, fall)
    _convoys(view, plan, hold_score, fall)
    _supports(view, plan)
    out: list[Order] = []
    for unit in mine:
        order = plan.orders.get(unit) or Hold(_ref(unit))
        out.append(order if view.legal(order) else Hold(_ref(unit)))
    return out


def _follow(view: View, plan: _Plan, hold_score: dict[Unit, float], fall: bool) -> None:
    """Units left holding step into the places the power's moving units leave, when that is better.

    Never into the place of the unit that would swap with it (a swap without a convoy bounces),
    never into a place another unit of the power claimed; a unit that moves away frees its own.
    """
    for _round in range(3):
        leaving = {
            u.province: province_of(o.destination) for u, o in plan.orders.items() if isinstance(o, Move)
        }
        changed = False
        for unit in view.mine:
            if not isinstance(plan.orders.get(unit), Hold):
                continue
            best: tuple[float, str] | None = None
            for location in view.reach(unit):
                province = province_of(location)
                if province in plan.claimed or province not in leaving or leaving[province] == unit.province:
                    continue
                score = _gain(view, unit.type, province, fall)
                if score > hold_score[unit] + 0.1 and (best is None or (-score, location) < best):
                    best = (-score, location)
            if best is None:
                continue
            move = Move(_ref(unit), best[1])
            if view.legal(move):
                plan.orders[unit] = move
                plan.claimed.discard(unit.province)
                plan.claimed.add(province_of(best[1]))
                changed = True
        if not changed:
            return


def _helper(view: View, plan: _Plan, mover: Unit, province: str, hold_score: dict[Unit, float]) -> Unit | None:
    """An unplaced unit of the power that can support ``mover`` into ``province`` (the least needed)."""
    best: Unit | None = None
    for unit in view.mine:
        if unit is mover or unit in plan.orders or unit.province in plan.claimed:
            continue
        if not view.reaches_province(unit, province):
            continue
        if not view.legal(SupportMove(_ref(unit), _ref(mover), province)):
            continue
        if best is None or (hold_score[unit], unit.location) < (hold_score[best], best.location):
            best = unit
    return best


def _convoys(view: View, plan: _Plan, hold_score: dict[Unit, float], fall: bool) -> None:
    """Armies left holding carried by a fleet of the power to a better coast."""
    game_map = view.game_map
    for army in view.mine:
        if army.type is not _ARMY or not isinstance(plan.orders.get(army), Hold):
            continue
        if not game_map.is_coastal(army.province):
            continue
        best: tuple[float, str] | None = None
        chosen: tuple[Unit, str] | None = None
        for fleet in view.mine:
            if fleet.type is _ARMY or not game_map.is_water(fleet.province):
                continue
            if not isinstance(plan.orders.get(fleet), Hold) or not view.reaches_province(fleet, army.province):
                continue
            for location in view.reach(fleet):
                landing = province_of(location)
                if landing == army.province or not game_map.is_land(landing):
                    continue
                if landing in plan.claimed or landing in view.occupant:
                    continue
                score = _gain(view, _ARMY, landing, fall)
                key = (-score, fleet.location + landing)
                if score > hold_score[army] + 0.3 and (best is None or key < best):
                    best, chosen = key, (fleet, landing)
        if chosen is None:
            continue
        fleet, landing = chosen
        move = Move(_ref(army), landing, via_convoy=True)
        convoy = Convoy(_ref(fleet), _ref(army), landing)
        if view.legal(move) and view.legal(convoy):
            plan.orders[army] = move
            plan.orders[fleet] = convoy
            plan.claimed.add(landing)


def _supports(view: View, plan: _Plan) -> None:
    """Units left holding support a move of the power that meets resistance, or a threatened hold."""
    moves = {u: o for u, o in plan.orders.items() if isinstance(o, Move) and not o.via_convoy}
    backed: dict[str, int] = {}
    for given in plan.orders.values():
        if isinstance(given, SupportMove):
            backed[given.destination] = backed.get(given.destination, 0) + 1
    for unit in view.mine:
        if not isinstance(plan.orders.get(unit), Hold):
            continue
        best: tuple[float, str] | None = None
        chosen: Order | None = None
        for mover, move in moves.items():
            target = province_of(move.destination)
            if target == unit.province or not view.reaches_province(unit, target):
                continue
            resistance = view.threat.get(target, 0) + (2 if view.foreign_at(target) is not None else 0)
            if resistance == 0:
                continue
            score = resistance - backed.get(target, 0) + (1.0 if view.is_centre(target) else 0.0)
            support = SupportMove(_ref(unit), _ref(mover), target)
            key = (-score, mover.location)
            if (best is None or key < best) and view.legal(support):
                best, chosen = key, support
        for other in view.mine:
            if other is unit or isinstance(plan.orders.get(other), Move | Convoy):
                continue
            danger = view.threat.get(other.province, 0)
            if danger == 0 or not view.reaches_province(unit, other.province):
                continue
            score = danger * (1.0 if view.owns(other.province) and view.is_centre(other.province) else 0.4)
            hold = SupportHold(_ref(unit), _ref(other))
            key = (-score, other.location)
            if (best is None or key < best) and view.legal(hold):
                best, chosen = key, hold
        if chosen is not None:
            plan.orders[unit] = chosen
            if isinstance(chosen, SupportMove):
                backed[chosen.destination] = backed.get(chosen.destination, 0) + 1


def retreats(view: View, rng: random.Random) -> list[Order]:
    out: list[Order] = []
    taken: set[str] = set()
    for dislodged in sorted(view.position.dislodged, key=lambda d: d.unit.location):
        unit = dislodged.unit
        if unit.power != view.power:
            continue
        options = [o for o in retreat_options(view.board, dislodged, view.rules) if province_of(o) not in taken]
        if not options:
            out.append(Disband(_ref(unit)))
            continue
        choice = max(options, key=lambda o: (_gain(view, unit.type, province_of(o), True), o))
        taken.add(province_of(choice))
        out.append(Retreat(_ref(unit), choice))
    return out


def adjustments(view: View, rng: random.Random) -> list[Order]:
    owed = view.board.owed(view.power)
    if owed > 0:
        armies = sum(u.type is _ARMY for u in view.mine)
        fleets = len(view.mine) - armies
        builds: list[tuple[float, str, Build]] = []
        for site in build_sites(view.position, view.power, view.game_map):
            best = max(
                (view.worth(t, province_of(loc)) + 0.01 * len(view.reach(Unit(view.power, t, loc))), t.value + loc)
                for t, loc in view.build_locations(site)
            )
            unit_type = UnitType(best[1][0])
            if unit_type is not _ARMY and fleets > 2 * armies + 1 and view.game_map.is_land(site):
                unit_type, best = _ARMY, (best[0], "A" + site)  # enough fleets: armies take the land
            builds.append((best[0] + view.threat.get(site, 0) * 0.3, site, Build(unit_type, best[1][1:])))
        builds.sort(key=lambda b: (-b[0], b[1]))
        return [b[2] for b in builds[:owed]]
    if owed < 0:
        ranked = sorted(
            view.mine,
            key=lambda u: (_gain(view, u.type, u.province, True), u.location),
        )
        return [Remove(_ref(u)) for u in ranked[: -owed]]
    return []
