"""The answer to an order mail: the power's orders as the judge now holds them.

After the lines of the mail that had problems (echoed by the reply itself),
the Judge listed every unit of the power with the order it has now (or "No
Order Processed"), said whether the orders are complete, whether WAIT is
set, and which orders wait for later phases (conventions §4):

    Movement orders for Spring of 1901.  (game.001)

    France: Army Paris -> Burgundy.
    France: Fleet Brest, No Order Processed.

So the player reads, in one place, exactly what will be adjudicated if
nothing else arrives; IF blocks are shown decided on the current board too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from judge.app.game_state.conditions import block_lines
from judge.app.game_state.order_sheets import Completeness, unit_key
from judge.app.mail_out.wording import (
    game_reference,
    order_phrase,
    phase_heading,
    power_label,
    unordered_phrase,
)
from judge.core.geography import GameMap
from judge.core.names import province_display_name
from judge.core.orders import Order
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.i18n import Gettext
from judge.lang.commands import Conditional


@dataclass(frozen=True, slots=True)
class Acknowledgement:
    """Everything the acknowledgement says about one power."""

    game: str
    turn: int
    power: str
    position: Position
    orders: Sequence[Order]
    """The orders that apply now (IF blocks decided on ``position``)."""
    blocks: Sequence[Conditional]
    completeness: Completeness
    error_flag: bool
    wait: bool
    pending: Sequence[tuple[Phase, Sequence[str]]]
    """Orders stored for later phases: (phase, lines)."""


def render_acknowledgement(ack: Acknowledgement, game_map: GameMap, language: str, _: Gettext) -> list[str]:
    position = ack.position
    label = power_label(ack.power, language)
    lines = [
        f"{phase_heading('orders', position.phase, _)}  {game_reference(ack.game, ack.turn)}",
        "",
    ]
    lines += [f"{label} {text}." for text in _unit_lines(ack, game_map, language, _)]
    if ack.blocks:
        lines += ["", _("Conditional orders in force, decided in this order on the board at the start of "
                        "the phase (for a unit, the order or block given last wins):")]
        for number, block in enumerate(ack.blocks, start=1):
            first, *rest = block_lines(block)
            lead = f"{number}. "
            lines += [lead + first, *(" " * len(lead) + line for line in rest)]
    lines.append("")
    lines += _status(ack, _)
    if ack.pending:
        lines += ["", _("----- Pending orders:")]
        for phase, orders in ack.pending:
            lines.append(phase_heading("orders", phase, _))
            lines += [f"  {line}" for order in orders for line in order.splitlines()]
    return lines


def _unit_lines(ack: Acknowledgement, game_map: GameMap, language: str, _: Gettext) -> list[str]:
    position = ack.position
    by_unit = {unit_key(order): order for order in ack.orders}
    phase_type = position.phase.type
    if phase_type is PhaseType.ADJUSTMENT:
        return [order_phrase(order, ack.power, position, language, game_map, _) for order in ack.orders]
    if phase_type is PhaseType.RETREAT:
        units = [d.unit for d in position.dislodged if d.unit.power == ack.power]
    else:
        units = [u for u in position.units if u.power == ack.power]
    units.sort(key=lambda u: province_display_name(u.location, "fr" if language == "fr" else "en", game_map))
    out = []
    for unit in units:
        order = by_unit.get(unit.province)
        if order is None:
            out.append(unordered_phrase(unit, position, language, game_map, _))
        else:
            out.append(order_phrase(order, ack.power, position, language, game_map, _))
    return out


def _status(ack: Acknowledgement, _: Gettext) -> list[str]:
    done = ack.completeness
    lines: list[str] = []
    if not done.owes:
        lines.append(_("You have no orders to give in this phase."))
    elif done.complete and ack.error_flag and ack.position.phase.type is PhaseType.ADJUSTMENT:
        lines.append(
            _("Every build or removal is given, but this mail had errors: the error flag is set and your "
              "orders do not count as complete until a mail without errors arrives.")
        )
    elif done.complete and ack.error_flag:
        lines.append(
            _("Every unit has an order, but this mail had errors: the error flag is set and your "
              "orders do not count as complete until a mail without errors arrives.")
        )
    elif done.complete:
        lines.append(_("Your orders are complete."))
    else:
        if done.unordered:
            lines.append(
                _("Your orders are not complete: {count} unit(s) without orders.").format(
                    count=len(done.unordered)
                )
            )
        if done.builds_left > 0:
            lines.append(
                _("Your orders are not complete: {count} more build(s) or WAIVE to give.").format(
                    count=done.builds_left
                )
            )
        if done.removals_left > 0:
            lines.append(
                _("Your orders are not complete: {count} more removal(s) to give.").format(
                    count=done.removals_left
                )
            )
    if ack.error_flag and not done.complete:
        lines.append(
            _("Error flag set: this mail had errors, so your orders do not count as complete "
              "until a mail without errors arrives.")
        )
    if ack.wait:
        lines.append(_("WAIT is set: the phase will not be processed before its deadline."))
    return lines
