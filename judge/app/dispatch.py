"""Running a parsed mail's commands through their handlers, in order.

Errors of reading (lines the parser could not read) and commands are merged
in line order, so the reply reads top to bottom like the mail.
"""

from __future__ import annotations

from judge.app.errors import CommandRefused
from judge.app.registry import Next, handler_for
from judge.app.session import MailSession
from judge.lang.commands import Command
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
        if not isinstance(item, Command):
            session.reply.error(item.line, item.message)  # type: ignore[attr-defined]
            continue
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
