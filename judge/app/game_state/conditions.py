"""Conditional orders against a board: which branch of an IF block applies, and its text.

A condition (:mod:`judge.lang.conditions`) is true when the named units stand
where it says at the *start* of the phase, so a block for the current phase
can be decided as soon as it arrives (the acknowledgement shows the orders
that will apply), and a block for a later phase is decided when that phase
opens. Units waiting to retreat still stand in their province at the start of
a retreat phase, so they count too.

Blocks are stored as text and read again at processing; :func:`block_lines`
writes a block in the judge's canonical notation, which the mail reader reads
back to the same block.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from judge.core.position import Position
from judge.core.units import Unit
from judge.lang.commands import Conditional, OrderCommand
from judge.lang.conditions import holds
from judge.lang.preferences import Preference

Body = Sequence[OrderCommand | Conditional]


def units_at_start(position: Position) -> tuple[Unit, ...]:
    """The units a condition looks at: those on the board and those waiting to retreat."""
    return position.units + tuple(d.unit for d in position.dislodged)


def chosen_body(block: Conditional, position: Position) -> Body:
    """The body of the first branch whose condition holds, else the ELSE body (maybe empty)."""
    units = units_at_start(position)
    for branch in block.branches:
        if holds(branch.condition, units):
            return branch.body
    return block.otherwise


def applied_orders(block: Conditional, position: Position) -> Iterator[OrderCommand]:
    """The orders the block gives on this board, nested blocks decided too, in written order."""
    for item in chosen_body(block, position):
        if isinstance(item, Conditional):
            yield from applied_orders(item, position)
        else:
            yield item


def block_lines(block: Conditional, indent: int = 0) -> list[str]:
    """The block in canonical notation, one line per order, nested blocks indented."""
    pad = "  " * indent
    lines: list[str] = []
    for number, branch in enumerate(block.branches):
        lines.append(f"{pad}{'IF' if number == 0 else 'ELSE IF'} {branch.condition}")
        lines.extend(_body_lines(branch.body, indent + 1))
    if block.otherwise:
        lines.append(f"{pad}ELSE")
        lines.extend(_body_lines(block.otherwise, indent + 1))
    lines.append(f"{pad}ENDIF")
    return lines


def _body_lines(body: Body, indent: int) -> list[str]:
    lines: list[str] = []
    for item in body:
        if isinstance(item, Conditional):
            lines.extend(block_lines(item, indent))
        elif item.read is not None and item.read.preferences:  # a postal list (issue 18), read back whole
            lines.append(f"{'  ' * indent}{Preference(item.read.preferences)}")
        elif item.read is not None:
            lines.append(f"{'  ' * indent}{item.read.order}")
    return lines


def block_orders(block: Conditional) -> Iterator[OrderCommand]:
    """Every order anywhere in the block, whatever the conditions (for checking them)."""
    for body in (*(branch.body for branch in block.branches), block.otherwise):
        for item in body:
            if isinstance(item, Conditional):
                yield from block_orders(item)
            else:
                yield item
