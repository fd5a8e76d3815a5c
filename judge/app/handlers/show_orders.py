"""ORDERS: a power's orders as the judge holds them, and those kept for later phases.

A player sees their own power's orders (the power they signed on as); a
master sees a power's after ``BECOME`` it, as for giving its orders. Nobody
else sees them: observers are refused, and a mail not signed on is asked to
sign on first. The listing is the acknowledgement a mail with orders gets
(each unit with its order, whether the orders are complete, the orders kept
for later phases), added at the end of the reply; nothing is stored and the
error flag is left as it was.
"""

from __future__ import annotations

from judge.app.orders import order_mail
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import ShowOrders


@handles(ShowOrders)
def handle(command: ShowOrders, session: MailSession) -> Next:
    _ = session.gettext
    if session.game is None or session.role is None:
        raise CommandRefused(_("ORDERS must follow a SIGNON as a power of the game."))
    if session.role is Role.OBSERVER:
        raise CommandRefused(_("ORDERS shows a power's orders to its player only (or to a master after BECOME)."))
    if session.role is Role.MASTER and session.acting_power is None:
        raise CommandRefused(_("A master must BECOME a power before ORDERS shows its orders."))
    order_mail.acting(session)  # the power's draft: its acknowledgement closes the reply
    session.reply.ok(command.line, _("The orders on file are listed at the end of this reply."))
    return Next.CONTINUE
