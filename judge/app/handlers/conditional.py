"""IF ... ELSE IF ... ELSE ... ENDIF: a block kept as written and decided on the phase's board."""

from __future__ import annotations

from judge.app.hooks.game_hooks import hooks_for
from judge.app.orders import order_mail
from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.lang.commands import Conditional


@handles(Conditional)
def handle(command: Conditional, session: MailSession) -> Next:
    hooks = hooks_for(session.game)
    hooks.check_order(session)  # councils: the General alone (no query in other games)
    if hooks.take_block(session, command):  # the Renaissance game refuses IF blocks
        return Next.CONTINUE
    order_mail.add_block(session, command)
    return Next.CONTINUE
