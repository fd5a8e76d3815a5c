"""A power's order sheet in the Renaissance game: its lines read for the phase they are for.

A campaign's lines are moves, garrison and siege orders and money orders
(:func:`~judge.lang.machiavelli_orders.read_campaign_order`); a retreat phase's are the
dislodged units' retreats and disbands (read as moves: ``A SIE - PIS`` retreats, ``A SIE
DISBAND`` disbands); the adjustments' are builds, upkeep and removals
(:func:`~judge.lang.machiavelli_orders.read_adjustment_order`). The sheet is kept as its text
and read again at the deadline by this one function, so what the player was told on receipt
and what the judge plays are the same reading.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from judge.core.errors import N_, CoreError, Message, render
from judge.core.geography import GameMap
from judge.core.machiavelli.season import SeasonOrder
from judge.core.orders import Disband, Move, Retreat
from judge.core.phase import PhaseType
from judge.lang.machiavelli_orders import (
    read_adjustment_order,
    read_campaign_order,
    read_machiavelli_order,
)
from judge.lang.order_values import OrderSyntaxError


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One line of a sheet: its text, and either the order read or why it could not be."""

    text: str
    order: SeasonOrder | None
    error: str = ""
    """Why the line was refused, in English (``fault`` keeps it for the reader's language)."""
    fault: CoreError | None = None


@dataclass(frozen=True, slots=True)
class MachiavelliSheet:
    lines: tuple[SheetLine, ...]

    @property
    def orders(self) -> tuple[SeasonOrder, ...]:
        return tuple(line.order for line in self.lines if line.order is not None)

    @property
    def errors(self) -> tuple[SheetLine, ...]:
        return tuple(line for line in self.lines if line.order is None)


def read_sheet(
    lines: Iterable[str], game_map: GameMap, phase: PhaseType, *, french: bool = False
) -> MachiavelliSheet:
    """Each non-blank line of ``lines`` read as an order of a ``phase`` phase (each refusal kept)."""
    read: list[SheetLine] = []
    for text in lines:
        text = text.strip()
        if not text:
            continue
        try:
            read.append(SheetLine(text, read_line(text, game_map, phase, french=french)))
        except CoreError as error:
            english = render(error.translatable) if error.translatable else str(error)
            read.append(SheetLine(text, None, english, error))
    return MachiavelliSheet(tuple(read))


def read_line(
    text: str, game_map: GameMap, phase: PhaseType, *, french: bool = False
) -> SeasonOrder:
    """One order of a ``phase`` phase; raises the reader's :class:`~judge.core.errors.CoreError`."""
    if phase is PhaseType.ADJUSTMENT:
        return read_adjustment_order(text, game_map, french=french)
    if phase is PhaseType.RETREAT:
        order = read_machiavelli_order(text, game_map, french=french)
        if isinstance(order, Move):
            return Retreat(order.unit, order.destination)
        if isinstance(order, Disband | Retreat):
            return order
        raise CoreError(Message(N_("Not a retreat or a disband -> {text}"), text=text))
    return read_campaign_order(text, game_map, french=french)


@dataclass(frozen=True, slots=True)
class SheetLineReader:
    """The mail reader's test for a Renaissance order line (``SignonReading.line_reader``): None
    when the line reads as an order of the phase, else why not. Hashable, so the mail reader's
    cache keeps working."""

    game_map: GameMap
    phase: PhaseType
    french: bool = False

    def __call__(self, text: str) -> OrderSyntaxError | None:
        try:
            read_line(text, self.game_map, self.phase, french=self.french)
        except CoreError as fault:
            return OrderSyntaxError(fault.translatable or str(fault), 1, text)
        return None
