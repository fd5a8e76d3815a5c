"""ADJUST, RECORD, FIXID, NOCONTROL: the Judge keeper's tools, refused by mail with the reason.

The Judge obeyed these from its keeper's mail address. A mail address proves
nobody's identity, so this judge never takes them by mail, from anyone: the
operator changes records with the ``judge`` command line on the server
(docs/unsupported.md). Anyone may send them; the reply reveals nothing but
that refusal, and nothing is changed.
"""

from __future__ import annotations

from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import Admin


@handles(Admin)
def handle(command: Admin, session: MailSession) -> Next:
    _ = session.gettext
    raise CommandRefused(
        _(
            "{command} is a tool of the judge's keeper, and this judge never takes it by mail: a mail "
            "address proves nobody's identity. The keeper changes records with the judge command line "
            "on the server."
        ).format(command=(command.name or "ADJUST").upper())
    )
