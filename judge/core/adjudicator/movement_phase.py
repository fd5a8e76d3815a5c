"""A movement phase from orders to results: collect, resolve, report, build the next position."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.core.adjudicator.board import Board
from judge.core.adjudicator.movement import (
    K_CONVOY,
    K_HOLD,
    K_MOVE,
    MovementResolver,
)
from judge.core.adjudicator.order_sets import COMPLETED, Entry, OrderSet, collect
from judge.core.adjudicator.phases import settle, winner
from judge.core.adjudicator.results import AdjudicationResult, OrderResult, Outcome, order_result
from judge.core.adjudicator.retreat_options import retreat_options
from judge.core.adjudicator.rules import Rules
from judge.core.adjudicator.validation import Interpreted
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.position import DislodgedUnit, Position
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitRef, unit_of

# Enum members read through the class cost ~0.2 us each on Python 3.11: bind them once.
_SUCCEEDS = Outcome.SUCCEEDS
_FAILS = Outcome.FAILS
_INVALID = Outcome.INVALID


def adjudicate_movement(
    position: Position, orders: Mapping[str, Sequence[Order]], rules: Rules, game_map: GameMap
) -> AdjudicationResult:
    board = Board(position, game_map)
    order_set = collect(board, orders, rules)
    if game_map.special.railway is not None:
        _one_train(board, order_set)
    units = position.units
    where = board.where
    by_province = order_set.by_province
    chosen: list[Interpreted | None] = [by_province.get(where[unit.location]) for unit in units]
    resolver = MovementResolver(game_map, units, chosen, rules)
    resolver.resolve_all()

    provinces = resolver.prov
    index_of = resolver.unit_at
    kind, res, moves_to, matched = resolver.kind, resolver.res, resolver.moves_to, resolver.matched
    # Who dislodged each unit (-1: nobody), as resolver.dislodged_by says, for every unit at once.
    attacker: list[int] = []
    for i, province in enumerate(provinces):
        k = -1
        if not (kind[i] == K_MOVE and res[i]):
            for m in moves_to.get(province, ()):
                if res[m]:
                    k = m
                    break
        attacker.append(k)
    results: list[OrderResult] = []
    tried: set[tuple[str, str]] | None = None
    for entry in order_set.entries:
        if entry.dropped is not None or entry.interpreted is None or entry.unit is None:
            results.append(order_result(entry.power, entry.unit, entry.order, _INVALID, entry.dropped or ""))
            continue
        i = index_of[where[entry.unit.location]]
        k = kind[i]
        if res[i] and attacker[i] < 0 and (k == K_MOVE or (k != K_CONVOY and matched[i])):
            outcome, reason = _SUCCEEDS, ""  # a move that went through, a support given (as _judge says)
        else:
            outcome, reason = _judge(resolver, i, attacker[i] >= 0)
        if entry.completed:  # seed 002: the order was completed from its power's support or convoy
            reason = f"{COMPLETED}, {reason}" if reason else COMPLETED
        results.append(order_result(entry.power, entry.unit, entry.order, outcome, reason))
    for i, unit in enumerate(units):
        if chosen[i] is None:
            if tried is None:
                tried = _named_by_orders(board, order_set.entries)
            first = "no order: holds (invalid order)" if (unit.power, provinces[i]) in tried else "no order: holds"
            hit = attacker[i] >= 0
            outcome = _FAILS if hit else _SUCCEEDS
            results.append(order_result(unit.power, unit, None, outcome, f"{first}, dislodged" if hit else first))

    staying: list[Unit] = []
    dislodged: list[DislodgedUnit] = []
    dest_loc = resolver.dest_loc
    for i, unit in enumerate(units):
        k = attacker[i]
        if k >= 0:
            dislodged.append(DislodgedUnit(unit, provinces[k], resolver.convoyed[k]))
        elif kind[i] == K_MOVE and res[i]:
            staying.append(unit_of(unit.power, unit.type, dest_loc[i]))
        else:
            staying.append(unit)
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
        after = Position(position.variant, position.phase, new_units, position.centers, (), standoffs)
        after_board = Board(after, game_map)
        # A dislodged neutral unit is destroyed: it has nowhere to go (special rule neutral_units).
        retreats = {
            d.unit: retreat_options(after_board, d, rules) if d.unit.power != NEUTRAL else () for d in dislodged
        }
        can_retreat = tuple(d for d in dislodged if retreats[d.unit])
    if can_retreat:
        next_position = Position(
            position.variant, position.phase.following(), new_units, position.centers, can_retreat, standoffs
        )
    else:
        next_position = settle(position.phase, new_units, position.centers, position.variant, game_map)
    return AdjudicationResult(
        phase=position.phase,
        next_phase=next_position.phase,
        position=next_position,
        results=tuple(results),
        dislodged=tuple(dislodged),
        retreats=retreats,
        winner=winner(next_position, game_map),
    )


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


def _named_by_orders(board: Board, entries: Sequence[Entry]) -> set[tuple[str, str]]:
    """(power, province) of every unit some order of that power tried to command."""
    return {
        (entry.power, board.province(ref.location))
        for entry in entries
        if isinstance(ref := getattr(entry.order, "unit", None), UnitRef)
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
