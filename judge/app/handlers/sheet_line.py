"""An order line of a variant whose orders are kept as sent (the Renaissance game's): the game's
hooks keep it (:meth:`judge.app.hooks.game_hooks.GameHooks.take_sheet_line`)."""

from __future__ import annotations

from judge.app.hooks.game_hooks import hooks_for
from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.lang.commands import SheetLineCommand


@handles(SheetLineCommand)
def handle(command: SheetLineCommand, session: MailSession) -> Next:
    hooks = hooks_for(session.game)
    hooks.check_order(session)
    hooks.take_sheet_line(session, command)
    return Next.CONTINUE
