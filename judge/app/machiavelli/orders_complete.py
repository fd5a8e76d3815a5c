"""When a power's kept sheet for the open phase of the Renaissance game is complete: its hooks'
``orders_completeness``, which the phase's clock asks (early processing when every power that
owes orders has complete ones, reminders, lateness) and the processing (who owes orders).

The sheet is read by the reader that played it (:func:`judge.lang.machiavelli_sheet.read_sheet`)
and measured by the core's rule (:func:`judge.core.machiavelli.completeness.orders_owed`). A
sheet is kept as sent, without its language: it is read in English and in French, and the
reading that understood more lines counts (a line is English or French, never both).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.app.game_state.order_sheets import Completeness
from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.campaign import city_space
from judge.core.machiavelli.completeness import orders_owed
from judge.core.machiavelli.options import FIRST_EDITION, MachiavelliOptions
from judge.core.machiavelli.serialization import position_from_json
from judge.core.units import Unit, UnitType
from judge.lang.machiavelli_sheet import read_sheet


def sheet_completeness(
    variant: str, kept: Mapping[str, Any], power: str, lines: Sequence[str] | None,
    options: MachiavelliOptions = FIRST_EDITION,
) -> Completeness:
    """What ``power`` still owes for the phase of ``kept`` with its sheet ``lines`` (None: none),
    under the game's ``options`` (without money, the adjustments owe no MAINTAIN)."""
    board = load_board(variant)
    position = position_from_json(board, kept)
    orders: tuple[object, ...] = ()
    if lines:
        readings = [
            read_sheet(lines, board.game_map, position.phase.type, french=french)
            for french in (False, True)
        ]
        orders = min(readings, key=lambda sheet: len(sheet.errors)).orders
    owed = orders_owed(board, position, power, orders, options)
    garrisons = tuple(Unit(power, UnitType.ARMY, city_space(city)) for city in owed.garrisons)
    return Completeness(
        owed.owes,
        unordered=(*owed.units, *garrisons),
        builds_left=owed.builds_left,
        removals_left=owed.removals_left,
    )
