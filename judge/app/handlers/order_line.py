"""An order line: checked and merged into the power's orders (see :mod:`judge.app.orders.order_mail`)."""

from __future__ import annotations

from judge.app.hooks.game_hooks import hooks_for
from judge.app.orders import order_mail, postal_orders
from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.lang.commands import OrderCommand


@handles(OrderCommand)
def handle(command: OrderCommand, session: MailSession) -> Next:
    hooks_for(session.game).check_order(session)  # councils: the General alone (no query in other games)
    prepared = postal_orders.prepare_for(session, command)  # postal habits first (issue 18)
    if prepared is not None:
        order_mail.add_order(session, *prepared)
    return Next.CONTINUE
