"""What reading an order gives: the order read (:class:`ReadOrder`), or the error saying why not.

The values every part of the order reader (:mod:`judge.lang.orders`) makes and
raises, apart from the parts, so that each part can use them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from judge.core.errors import (
    OrderError,
)
from judge.core.names import NameReading
from judge.core.orders import (
    Order,
)
from judge.core.units import UnitRef
from judge.lang.errors import Wording, english


class OrderSyntaxError(OrderError):
    """An order that cannot be read.

    ``message`` is what the Judge would answer ("Unrecognized source province
    -> Xyz (did you mean ...?)"), ``column`` the 1-based column in the text
    given (the line, for :func:`read_order_line`), ``text`` the fragment at
    fault. ``unit`` is the unit the order names when that part could be read,
    so a caller can still say which unit got no order.
    """

    def __init__(
        self, message: Wording, column: int, text: str, *, unit: UnitRef | None = None
    ) -> None:
        super().__init__(message)
        self.message = english(message)
        self.column = column
        self.text = text
        self.unit = unit

    def shifted(self, offset: int) -> OrderSyntaxError:
        """The same error with its column moved right by ``offset`` (an order inside a line)."""
        return OrderSyntaxError(self.translatable or self.message, self.column + offset, self.text, unit=self.unit)


@dataclass(frozen=True, slots=True)
class ReadOrder:
    """One order read from text.

    ``readings`` are the name readings that a rule had to settle (a name with
    more than one possible meaning), so that a reply can say which was taken.
    """

    order: Order
    text: str
    readings: tuple[NameReading, ...] = ()
    column: int = 1  # where ``text`` starts (1-based) in the text or line given
    nationalities: tuple[tuple[str, str], ...] = ()
    """(location, power) for each unit whose nationality was written ("S ALLEMAGNE A RUH")."""
    origins: tuple[str, ...] = ()
    """Locations written in brackets after a unit type ("retirer F(HOL)"): where the unit comes from."""
    preferences: tuple[Order, ...] = ()
    """A postal preference list ("A VIE R BUD, TRI, GAL"; "BUILD F BRE, A PAR"): every
    choice in the order written, ``order`` being the first; empty for a plain order."""


# A frozen dataclass's __init__ sets each field through object.__setattr__, which costs more than
# the rest of reading a plain order; the fast path makes its readings with the slots filled
# directly. Same object, same invariants: every field set once, before anyone sees the reading.
_NEW: Final = object.__new__
_READ_ORDER_SETTERS: Final[tuple[Any, ...]] = tuple(
    ReadOrder.__dict__[name].__set__
    for name in ("order", "text", "readings", "column", "nationalities", "origins", "preferences")
)


def plain_reading(order: Order, text: str, readings: tuple[NameReading, ...], column: int) -> ReadOrder:
    """``ReadOrder(order, text, readings, column)``, without the frozen-init overhead."""
    read: ReadOrder = _NEW(ReadOrder)
    set_order, set_text, set_readings, set_column, set_nationalities, set_origins, set_preferences = (
        _READ_ORDER_SETTERS
    )
    set_order(read, order)
    set_text(read, text)
    set_readings(read, readings)
    set_column(read, column)
    set_nationalities(read, ())
    set_origins(read, ())
    set_preferences(read, ())
    return read
