"""What a power is told when its orders for a phase of the Renaissance game arrive.

Each line of the sheet comes back as the judge read it (in the Judge's notation) or with why it
was refused, in the reader's language (:func:`judge.app.session.error_text.error_text`, the one
place an error meets a reader). The receipt goes to the power that sent the orders (and its
masters) only: money orders are as secret as the books
(:mod:`judge.app.audience.machiavelli_books`).
"""

from __future__ import annotations

from judge.app.machiavelli.season_report import order_text
from judge.app.session.error_text import error_text
from judge.core.geography import GameMap
from judge.i18n import translation
from judge.lang.machiavelli_sheet import MachiavelliSheet


def receipt(power: str, sheet: MachiavelliSheet, game_map: GameMap, language: str) -> str:
    """The acknowledgement of ``power``'s ``sheet``, in ``language``."""
    _ = translation(language).gettext
    lines = [
        _("Orders kept for {power}:").format(power=game_map.power_display_name(power, language))
    ]
    for line in sheet.lines:
        if line.order is not None:
            lines.append(f"  {order_text(line.order)}")
        else:
            why = (
                error_text(line.fault, language, game_map) if line.fault is not None else line.error
            )
            lines.append(_("  {line}: refused ({why})").format(line=line.text, why=why))
    if not sheet.lines:
        lines.append(_("  (no orders)"))
    return "\n".join(lines) + "\n"
