"""Running a parsed mail's commands through their handlers, in order.

Errors of reading (lines the parser could not read) and commands are merged
in line order, so the reply reads top to bottom like the mail.
"""

from __future__ import annotations

from judge.app.error_text import error_text
from judge.app.errors import CommandRefused
from judge.app.registry import Next, handler_for
from judge.app.session import MailSession
from judge.core.errors import CoreError
from judge.core.geography import GameMap
from judge.core.variants import load_map
from judge.lang.commands import Command
from judge.lang.errors import MailError
from judge.lang.mail import ParseResult


def run_commands(session: MailSession, parsed: ParseResult) -> None:
    _ = session.gettext
    items: list[tuple[int, int, object]] = [
        (command.line, 1, command) for command in parsed.commands
    ]
    items += [(error.line, 0, error) for error in parsed.errors]
    items.sort(key=lambda item: (item[0], item[1]))
    for _line, _order, item in items:
        if session.stop:
            break
        if isinstance(item, MailError):
            session.reply.error(item.line, error_text(item, session.language, _game_map(session)))
            continue
        assert isinstance(item, Command)
        handler = handler_for(item)
        if handler is None:
            session.reply.error(
                item.line, _("This judge reads this command but does not carry it out yet.")
            )
            continue
        try:
            with session.uow.session.begin_nested():
                outcome = handler(item, session)
        except CommandRefused as refusal:
            session.reply.error(item.line, refusal.message)
            if refusal.stop:
                session.stop = True
            continue
        if outcome is Next.STOP:
            session.stop = True
    for finish in session.finishers:
        finish()


def _game_map(session: MailSession) -> GameMap | None:
    """The map of the game signed on to (its province names), or None for the Standard map."""
    if session.game is None:
        return None
    try:
        return load_map(session.game.variant)
    except CoreError:
        return None
