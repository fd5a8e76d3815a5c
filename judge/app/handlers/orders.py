"""An order line: checked and merged into the power's orders (see :mod:`judge.app.order_mail`)."""

from __future__ import annotations

from judge.app import order_mail
from judge.app.registry import Next, handles
from judge.app.session import MailSession
from judge.lang.commands import OrderCommand


@handles(OrderCommand)
def handle(command: OrderCommand, session: MailSession) -> Next:
    order_mail.add_order(session, command)
    return Next.CONTINUE
