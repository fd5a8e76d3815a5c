"""SET PASSWORD: a new password for the power, the master or the observer signed on as.

Only the hash is stored. The change is not announced (the Judge's rule).
"""

from __future__ import annotations

from judge.app.people.password_rules import check_new_password
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import SetPassword


@handles(SetPassword)
def handle(command: SetPassword, session: MailSession) -> Next:
    _ = session.gettext
    if not command.password:
        raise CommandRefused(_("SET PASSWORD needs the new password."))
    if session.role is not Role.OBSERVER:
        check_new_password(session, command.password)
    uow = session.uow
    member = session.council_member  # councils: each member's own password (no query)
    if session.role is Role.POWER and member is not None:
        uow.councils.set_password(member, command.password)
    elif session.role is Role.POWER and session.seat is not None:
        uow.seats.set_password(session.seat, command.password)
    elif session.role is Role.MASTER and session.master is not None:
        session.master.password_hash = uow.games.passwords.hash(command.password)
    elif session.role is Role.OBSERVER and session.observer is not None:
        session.observer.password_hash = uow.games.passwords.hash(command.password)
    else:
        raise CommandRefused(_("SET PASSWORD needs a SIGNON first: whose password is it?"))
    uow.flush()
    session.reply.ok(command.line, _("Password changed."))
    return Next.CONTINUE
