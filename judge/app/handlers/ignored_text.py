"""Prose after the last command ("Thanks for the game"): said to be not read, with no error.

The reader (:mod:`judge.lang.signatures`) keeps apart the lines of prose
that come after a mail's last command; they are no orders, so they neither
set the error flag nor make complete orders incomplete. The reply echoes
each one to its sender with a note, so nothing the player wrote goes
unanswered; it reveals nothing to anyone else.
"""

from __future__ import annotations

from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.lang.commands import IgnoredText


@handles(IgnoredText)
def handle(command: IgnoredText, session: MailSession) -> Next:
    _ = session.gettext
    session.reply.ok(command.line, _("Not read: text after your orders, not an order (no error)."))
    return Next.CONTINUE
