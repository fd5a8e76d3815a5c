"""SIGNOFF (or a ``-- `` signature line): the rest of the mail is not read."""

from __future__ import annotations

from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.lang.commands import Signoff


@handles(Signoff)
def handle(command: Signoff, session: MailSession) -> Next:
    del command, session
    return Next.STOP
