"""CLEAR: drop the orders kept for later phases; the current phase's orders stay (the Judge's rule)."""

from __future__ import annotations

from judge.app import order_mail
from judge.app import orders as kept
from judge.app.councils.permissions import check_order
from judge.app.registry import Next, handles
from judge.app.session import MailSession
from judge.lang.commands import Clear


@handles(Clear)
def handle(command: Clear, session: MailSession) -> Next:
    check_order(session)  # councils: the General alone (no query in other games)
    _ = session.gettext
    state, draft = order_mail.acting(session)
    dropped = kept.clear_pending(session.uow, state.game, draft.seat, state.phase, session.now)
    dropped += len(draft.futures)
    draft.futures.clear()
    draft.changed_futures.clear()
    if dropped:
        session.reply.ok(command.line, _("Orders for later phases cleared."))
    else:
        session.reply.ok(command.line, _("There were no orders for later phases to clear."))
    return Next.CONTINUE
