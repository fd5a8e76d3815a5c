"""What the board says about an order as read: shared names settled, nationalities checked.

The reader knows words, not the board. Two things need the board, and both
the mail path (:mod:`judge.app.orders.order_mail`) and ``judge adjudicate``
(:mod:`judge.ruling`) ask them here, so that both read alike:

* a name two readings share (``MAR``: Marseilles as a code, North Africa in
  the French table; ``TYR``: Tyrolia, and the Tyrrhenian Sea in French) is
  settled by the board first: when the reading the language chose makes the
  order illegal (no unit of the player there, a place the unit cannot reach)
  and another reading makes it legal, the other reading is taken; only when
  the board cannot tell does the language decide (issue 18, seed 002);
* the nationality a player wrote before another unit ("A BOU S ALLEMAGNE A
  RUH - BEL") is information: the order stays valid whatever it says (seed
  002's ruling), and :func:`wrong_nationalities` lists where it is wrong so
  that the player can be told.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from judge.core.adjudicator import DEFAULT_RULES, Rules, validate
from judge.core.errors import CoreError
from judge.core.geography import GameMap
from judge.core.names import NameReading
from judge.core.orders import Move, Order
from judge.core.position import Position
from judge.lang.order_tokens import name_reading
from judge.lang.orders import ReadOrder
from judge.lang.substitution import other_readings

__all__ = ["Settled", "WrongNationality", "settle_by_board", "settle_order", "wrong_nationalities"]


@dataclass(frozen=True, slots=True)
class Settled:
    """A name the board settled: ``written`` read as ``province`` rather than ``instead``."""

    written: str
    province: str
    instead: str


@dataclass(frozen=True, slots=True)
class WrongNationality:
    """A nationality that does not match the board: the unit in ``location`` is ``actual``'s (None: no unit)."""

    location: str
    written: str
    actual: str | None


def _legal(position: Position, power: str, order: Order, game_map: GameMap, rules: Rules) -> bool:
    try:
        return validate(position, power, order, game_map, rules) is None
    except CoreError:
        return False


def settle_by_board(
    read: ReadOrder, position: Position, power: str, game_map: GameMap, rules: Rules = DEFAULT_RULES
) -> tuple[ReadOrder, tuple[Settled, ...]]:
    """``read`` with its shared names settled by the board (see the module); and what was settled.

    A preference list is left as it is: it holds every reading already, and
    the board of the phase it is for settles it (:mod:`judge.lang.preferences`).
    """
    if read.preferences or not any(r.alternatives for r in read.readings):
        return read, ()
    if _legal(position, power, read.order, game_map, rules):
        return read, ()
    for other, changes in other_readings(read.order, read.readings):
        if _legal(position, power, other, game_map, rules):
            changed = [reading for reading, _ in changes]
            kept = tuple(r for r in read.readings if all(r is not c for c in changed))
            chosen = tuple(NameReading(r.text, province, None, "code", (r.province,)) for r, province in changes)
            settled = tuple(Settled(r.text, province, r.province) for r, province in changes)
            return replace(read, order=other, readings=(*kept, *chosen)), settled
    return read, ()


def settle_order(
    order: Order, position: Position, power: str, game_map: GameMap, rules: Rules = DEFAULT_RULES
) -> Order:
    """A typed order's shared names settled by the board, as :func:`settle_by_board` settles
    the order read from its canonical text (``str(order)``), without reading that text.

    The names an order in the judge's notation shares are the codes that another table reads
    otherwise (``MAR``, ``TYR``: :func:`shared_readings`); the board settles them the same way:
    a legal order stays, an illegal one takes the first other reading that makes it legal.
    """
    readings = shared_readings(order, game_map)
    if not readings or _legal(position, power, order, game_map, rules):
        return order
    for other, _changes in other_readings(order, readings):
        if _legal(position, power, other, game_map, rules):
            return other
    return order


def shared_readings(order: Order, game_map: GameMap) -> tuple[NameReading, ...]:
    """The reading of each place ``str(order)`` names that has other readings, in the order written.

    The order reader reads a code in the judge's notation with the English table, which gives a
    code another table shares its alternatives (``MAR``: North Africa in the French table).
    """
    out: list[NameReading] = []
    for location in _locations_written(order):
        try:
            reading = name_reading(game_map, location.split("/")[0], False)  # as the reader reads it
        except CoreError:
            continue
        if reading is not None and reading.alternatives:
            out.append(reading)
    return tuple(out)


def _locations_written(order: Order) -> list[str]:
    """The locations of ``str(order)``, left to right."""
    if isinstance(order, Move):
        return [order.unit.location, *order.route, order.destination]
    found: list[str] = []
    for name in ("unit", "supported", "convoyed"):
        ref = getattr(order, name, None)
        if ref is not None:
            found.append(ref.location)
    for name in ("destination", "location"):
        value = getattr(order, name, None)
        if isinstance(value, str):
            found.append(value)
    return found


def wrong_nationalities(read: ReadOrder, position: Position) -> tuple[WrongNationality, ...]:
    """The nationalities written in ``read`` that the board contradicts."""
    wrong: list[WrongNationality] = []
    for location, written in read.nationalities:
        province = location.split("/")[0]
        unit = next((u for u in position.units if u.province == province), None)
        actual = unit.power if unit is not None else None
        if actual != written:
            wrong.append(WrongNationality(location, written, actual))
    return tuple(wrong)
