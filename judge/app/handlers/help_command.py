"""HELP [topic]: the introduction to this judge (the ``info`` file), or the file on a topic.

The Judge sent ``info`` and ignored the rest of a mail when HELP came before
SIGNON, so that a newcomer's stray lines produced no storm of errors. We
send ``info`` and go on reading the mail (our choice): every command in a
mail is answered, and the parser already says which lines it could not read.
``HELP register`` is ``GET register``.
"""

from __future__ import annotations

from judge.app.handlers.get import send_files
from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.lang.commands import Help

INTRODUCTION = "info"


@handles(Help)
def handle(command: Help, session: MailSession) -> Next:
    send_files(session, command.line, [command.topic or INTRODUCTION])
    return Next.CONTINUE
