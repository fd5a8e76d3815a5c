"""A movement phase from orders to results: collect, resolve, report, build the next position."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from judge.core.adjudicator.board import Board
from judge.core.adjudicator.movement import (
    K_CONVOY,
    K_HOLD,
    K_MOVE,
    K_SUPPORT_HOLD,
    K_SUPPORT_MOVE,
    MovementResolver,
)
from judge.core.adjudicator.order_sets import COMPLETED, OrderSet, collect, named_unit
from judge.core.adjudicator.phases import settle, winner
from judge.core.adjudicator.results import (
    ORDER_RESULT_SETTERS,
    AdjudicationResult,
    OrderResult,
    Outcome,
    adjudication_result,
    order_result,
)
from judge.core.adjudicator.retreat_options import retreat_options
from judge.core.adjudicator.rules import Rules
from judge.core.adjudicator.topology import topology
from judge.core.adjudicator.validation import interpret
from judge.core.errors import OrderError
from judge.core.geography import GameMap
from judge.core.orders import Hold, Move, Order, SupportHold, SupportMove
from judge.core.position import DislodgedUnit, Position, position_of
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitRef, UnitType, province_of, unit_of

# Enum members read through the class cost ~0.2 us each on Python 3.11: bind them once.
_SUCCEEDS = Outcome.SUCCEEDS
_FAILS = Outcome.FAILS
_INVALID = Outcome.INVALID
_ARMY = UnitType.ARMY
_NEW = object.__new__


def adjudicate_movement(
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    rules: Rules,
    game_map: GameMap,
    strengths: Mapping[str, int] | None = None,
    partial_cuts: bool = False,
    closed_steps: Mapping[str, Collection[frozenset[str]]] | None = None,
) -> AdjudicationResult:
    """``strengths``: the units, by location, that count for more than one (the Renaissance
    game's elite units); every other unit counts for one. ``partial_cuts``: a lone attack of
    strength one cuts one point of such a unit's support (:meth:`MovementResolver.set_strengths`).
    ``closed_steps``: by an army's location, the steps no convoy may carry it across (the
    Renaissance game's straits, :meth:`MovementResolver.set_closed_steps`)."""
    units = position.units
    n = len(units)
    topo = topology(game_map)
    where = topo.province
    provinces = [where[unit.location] for unit in units]
    index_of = {province: i for i, province in enumerate(provinces)}
    resolver = MovementResolver(topo, units, rules, provinces, index_of)
    read: _Read | None = None
    if game_map.special.railway is None and not rules.complete_from_support:
        read = _read_orders(resolver, position, orders, rules, game_map, closed_steps)
        if read is None:  # two orders for one unit: the duplicate_orders rule, the general way
            resolver = MovementResolver(topo, units, rules, provinces, index_of)
    if read is None:
        read = _collect_orders(resolver, position, orders, rules, game_map, closed_steps)
    powers, given, executed, refused, ordered, completed = read
    if strengths:
        resolver.set_strengths(strengths, partial_cuts)
    if closed_steps:
        resolver.set_closed_steps(closed_steps)
    resolver.prepare()
    resolver.resolve_all()

    kind, res, matched = resolver.kind, resolver.res, resolver.matched
    # Who dislodged each unit (-1: nobody), as resolver.dislodged_by says, for every unit at once.
    attacker = [-1] * n
    any_dislodged = False
    for province, movers in resolver.moves_to.items():
        i = index_of.get(province, -1)
        if i >= 0 and not (kind[i] == K_MOVE and res[i]):
            for m in movers:
                if res[m]:
                    attacker[i] = m
                    any_dislodged = True
                    break
    results: list[OrderResult] = []
    append = results.append
    new = _NEW
    set_power, set_unit, set_order, set_outcome, set_reason = ORDER_RESULT_SETTERS
    refusals = iter(refused)
    for power, order, i in zip(powers, given, executed):  # noqa: B905 (filled together: one length)
        # OrderResult(power, unit, order, outcome, reason), as results.order_result makes it.
        result = new(OrderResult)
        set_power(result, power)
        set_order(result, order)
        if i < 0:
            unit, reason = next(refusals)
            set_unit(result, unit)
            set_outcome(result, _INVALID)
            set_reason(result, reason)
            append(result)
            continue
        set_unit(result, units[i])
        k = kind[i]
        if attacker[i] < 0 and (k == K_HOLD or (res[i] and (k == K_MOVE or (k != K_CONVOY and matched[i])))):
            # A hold or a move that went through, a support given (as _judge says).
            set_outcome(result, _SUCCEEDS)
            set_reason(result, "")
        else:
            outcome, reason = _judge(resolver, i, attacker[i] >= 0)
            set_outcome(result, outcome)
            set_reason(result, reason)
        append(result)
    if completed:  # seed 002: orders completed from their power's support or convoy say so
        for at in completed:
            was = results[at]
            reason = f"{COMPLETED}, {was.reason}" if was.reason else COMPLETED
            results[at] = order_result(was.power, was.unit, was.order, was.outcome, reason)
    tried: set[tuple[str, str]] | None = None
    for i, unit in enumerate(units):
        if not ordered[i]:
            if tried is None:
                tried = _named_by_orders(where, powers, given)
            first = "no order: holds (invalid order)" if (unit.power, provinces[i]) in tried else "no order: holds"
            hit = attacker[i] >= 0
            outcome = _FAILS if hit else _SUCCEEDS
            append(order_result(unit.power, unit, None, outcome, f"{first}, dislodged" if hit else first))

    dislodged: list[DislodgedUnit] = []
    dest_loc = resolver.dest_loc
    staying = list(units)
    for i in resolver.movers:
        if res[i]:
            unit = units[i]
            staying[i] = unit_of(unit.power, unit.type, dest_loc[i])
    if any_dislodged:
        convoyed = resolver.convoyed
        for i, k in enumerate(attacker):
            if k >= 0:
                dislodged.append(DislodgedUnit(units[i], provinces[k], convoyed[k]))
        staying = [unit for i, unit in enumerate(staying) if attacker[i] < 0]
    new_units = tuple(staying)
    retreats: dict[Unit, tuple[str, ...]] = {}
    can_retreat: tuple[DislodgedUnit, ...] = ()
    standoffs: frozenset[str] = frozenset()
    if dislodged:
        occupied = {where[unit.location] for unit in staying}
        standoffs = frozenset(
            province
            for province, movers in resolver.moves_to.items()
            if province not in occupied
            and not any(res[k] for k in movers)
            and any(_bounced(resolver, k) for k in movers)
        )
        after = position_of(position.variant, position.phase, new_units, position.centers, (), standoffs)
        after_board = Board(after, game_map)
        # A dislodged neutral unit is destroyed: it has nowhere to go (special rule neutral_units).
        retreats = {
            d.unit: retreat_options(after_board, d, rules) if d.unit.power != NEUTRAL else () for d in dislodged
        }
        can_retreat = tuple(d for d in dislodged if retreats[d.unit])
    if can_retreat:
        next_position = position_of(
            position.variant, position.phase.following(), new_units, position.centers, can_retreat, standoffs
        )
    else:
        next_position = settle(position.phase, new_units, position.centers, position.variant, game_map)
    return adjudication_result(
        position.phase,
        next_position,
        tuple(results),
        tuple(dislodged),
        retreats,
        winner(next_position, game_map),
    )


_Read = tuple[list[str], list[Order], list[int], list[tuple["Unit | None", str]], list[bool], list[int]]
"""The orders of a phase as read for the resolver:

* every order as given, in three lists: its power, the order, and the index of the unit that
  executes it (-1 when it is not used);
* for each order not used, in the same order: (the unit it named, if any; why it is not used);
* for each unit: whether it executes an order;
* the places in the first list of the orders completed from their power's support or convoy.
"""


def _read_orders(
    resolver: MovementResolver,
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    rules: Rules,
    game_map: GameMap,
    closed_steps: Mapping[str, Collection[frozenset[str]]] | None = None,
) -> _Read | None:
    """Every order given, read straight into the resolver's lists; None if a unit got two orders.

    The usual orders (a hold, a move by land or to a plain coast, a support a
    unit could give by itself) are recognised here with table lookups: when
    they are legal, :func:`~judge.core.adjudicator.validation.interpret`
    would read them just so. Anything else (a convoy, a move by convoy or to
    a split coast, an order that may be illegal) is interpreted in full, so
    errors and unusual readings come from the one place that knows them. Two
    orders to one unit are left to :func:`_collect_orders` and the
    ``duplicate_orders`` rule.
    """
    units = resolver.units
    topo = topology(game_map)
    where, army, fleet, fleet_reach, coasts = topo.province, topo.army, topo.fleet, topo.fleet_reach, topo.coasts
    index_of, prov, power_of = resolver.unit_at, resolver.prov, resolver.power
    kind, dest, dest_loc, target = resolver.kind, resolver.dest, resolver.dest_loc, resolver.target
    movers, helpers = resolver.movers, resolver.helpers
    ordered = [False] * len(units)
    # Every order as given: its power, the order, the index of the unit that executes it (-1: none).
    powers: list[str] = []
    given: list[Order] = []
    executed: list[int] = []
    refused: list[tuple[Unit | None, str]] = []
    add_power, add_order, append = powers.append, given.append, executed.append
    board: Board | None = None
    army_type = _ARMY
    for power, power_orders in orders.items():
        for order in power_orders:
            cls = type(order)
            if cls is Move:
                i = index_of.get(where.get(order.unit.location), -1)  # type: ignore[union-attr, arg-type]
                if i >= 0 and power_of[i] == power and not order.via_convoy and not order.route:  # type: ignore[union-attr]
                    d = where.get(order.destination)  # type: ignore[union-attr]
                    if d is not None and d != prov[i]:
                        unit = units[i]
                        if d in army[prov[i]] if unit.type is army_type else (not coasts[d] and d in fleet[unit.location]):
                            if ordered[i]:
                                return None
                            ordered[i] = True
                            kind[i] = K_MOVE
                            dest[i] = dest_loc[i] = d
                            movers.append(i)
                            add_power(power)
                            add_order(order)
                            append(i)
                            continue
            elif cls is Hold:
                i = index_of.get(where.get(order.unit.location), -1)  # type: ignore[union-attr, arg-type]
                if i >= 0 and power_of[i] == power:
                    if ordered[i]:
                        return None
                    ordered[i] = True
                    add_power(power)
                    add_order(order)
                    append(i)
                    continue
            elif cls is SupportHold or cls is SupportMove:
                i = index_of.get(where.get(order.unit.location), -1)  # type: ignore[union-attr, arg-type]
                j = index_of.get(where.get(order.supported.location), -1)  # type: ignore[union-attr, arg-type]
                if i >= 0 and j >= 0 and i != j and power_of[i] == power:
                    unit = units[i]
                    reach = army if unit.type is army_type else fleet_reach
                    if cls is SupportHold:
                        support = K_SUPPORT_HOLD
                        d = prov[j]
                        plain = d in reach.get(unit.location, ())
                    else:
                        support = K_SUPPORT_MOVE
                        d = where.get(order.destination)  # type: ignore[union-attr]
                        other = units[j]
                        plain = (
                            d is not None
                            and d != prov[j]
                            and d in reach.get(unit.location, ())
                            and (
                                d in army.get(other.location, ())
                                if other.type is army_type
                                else d in fleet_reach.get(other.location, ()) and not coasts[d]
                            )
                        )
                    if plain and d is not None:
                        if ordered[i]:
                            return None
                        ordered[i] = True
                        kind[i] = support
                        dest[i] = dest_loc[i] = d
                        target[i] = j
                        helpers.append(i)
                        add_power(power)
                        add_order(order)
                        append(i)
                        continue
            # The long way: the validator reads it, or says why it is illegal.
            if board is None:
                board = Board(position, game_map, closed_steps)
            try:
                reading = interpret(board, power, order, rules)
            except OrderError as error:
                add_power(power)
                add_order(order)
                append(-1)
                refused.append((named_unit(board, order), str(error)))
                continue
            assert reading.unit is not None
            i = index_of[where[reading.unit.location]]
            if ordered[i]:
                return None
            ordered[i] = True
            resolver.set_order(i, reading)
            add_power(power)
            add_order(order)
            append(i)
    return powers, given, executed, refused, ordered, []


def _collect_orders(
    resolver: MovementResolver,
    position: Position,
    orders: Mapping[str, Sequence[Order]],
    rules: Rules,
    game_map: GameMap,
    closed_steps: Mapping[str, Collection[frozenset[str]]] | None = None,
) -> _Read:
    """Every order given, through :func:`collect` (one order kept per unit by the game's rules,
    orders completed under complete_from_support, one train a turn under railway)."""
    board = Board(position, game_map, closed_steps)
    order_set = collect(board, orders, rules)
    if game_map.special.railway is not None:
        _one_train(board, order_set)
    index_of, where = resolver.unit_at, board.where
    ordered = [False] * len(position.units)
    for province, reading in order_set.by_province.items():
        ordered[index_of[province]] = True
        resolver.set_order(index_of[province], reading)
    powers: list[str] = []
    given: list[Order] = []
    executed: list[int] = []
    refused: list[tuple[Unit | None, str]] = []
    completed: list[int] = []
    for entry in order_set.entries:
        if entry.completed:
            completed.append(len(executed))
        powers.append(entry.power)
        given.append(entry.order)
        if entry.dropped is not None or entry.interpreted is None or entry.unit is None:
            executed.append(-1)
            refused.append((entry.unit, entry.dropped or ""))
        else:
            executed.append(index_of[where[entry.unit.location]])
    return powers, given, executed, refused, ordered, completed


def _one_train(board: Board, order_set: OrderSet) -> None:
    """Special rule railway: one army a turn takes the railway; the first such order given is used.

    The others are not used: their units hold, and the results mark them invalid.
    """
    taken = False
    for entry in order_set.entries:
        chosen = entry.interpreted
        if entry.dropped is not None or chosen is None or not chosen.via_rail or entry.unit is None:
            continue
        province = board.province(entry.unit.location)
        if order_set.by_province.get(province) is not chosen:
            continue
        if taken:
            entry.dropped = "only one army may take the railway each turn"
            del order_set.by_province[province]
        taken = True


def _named_by_orders(where: Mapping[str, str], powers: Sequence[str], given: Sequence[Order]) -> set[tuple[str, str]]:
    """(power, province) of every unit some order of that power tried to command."""
    return {
        (power, where.get(ref.location) or province_of(ref.location))
        for power, order in zip(powers, given, strict=True)
        if isinstance(ref := getattr(order, "unit", None), UnitRef)
    }


def _bounced(resolver: MovementResolver, k: int) -> bool:
    """Whether failed move ``k`` contested its destination (had a prevent strength, DATC 5.B.6).

    A move without a convoy, or one that lost a head-to-head battle, leaves no
    standoff behind: a dislodged unit has no effect on its attacker's province.
    """
    if resolver.convoyed[k] and not resolver.path(k):
        return False
    opponent = resolver.h2h[k]
    return not (opponent >= 0 and resolver.res[opponent])


def _judge(resolver: MovementResolver, i: int, dislodged: bool) -> tuple[Outcome, str]:
    """Outcome and reason of unit ``i``'s executed order, in the Judge's vocabulary."""
    kind = resolver.kind[i]
    if kind == K_MOVE:
        if resolver.res[i]:
            return _SUCCEEDS, ""
        if resolver.convoyed[i] and not resolver.path(i):
            reason = "disrupted" if resolver.had_route(i) else "no convoy"
        else:
            reason = "bounce"
    elif kind == K_HOLD:
        reason = ""
    elif kind == K_CONVOY:
        reason = "" if resolver.matched[i] else "void"
        if not resolver.matched[i]:
            return _FAILS, _with_dislodged(reason, dislodged)
        return (_FAILS, "dislodged") if dislodged else (_SUCCEEDS, "")
    else:
        if not resolver.matched[i]:
            reason = "void"
        elif not resolver.res[i]:
            reason = "cut"
        else:
            reason = ""
    if reason == "" and not dislodged:
        return _SUCCEEDS, ""
    return _FAILS, _with_dislodged(reason, dislodged)


def _with_dislodged(reason: str, dislodged: bool) -> str:
    if not dislodged:
        return reason
    return f"{reason}, dislodged" if reason else "dislodged"
