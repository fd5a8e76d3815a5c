"""VERSION: which judge this is."""

from __future__ import annotations

from judge import __version__
from judge.app.registry import Next, handles
from judge.app.session import MailSession
from judge.lang.commands import Version


@handles(Version)
def handle(command: Version, session: MailSession) -> Next:
    _ = session.gettext
    session.reply.ok(
        command.line,
        _("Diplomacy email judge, version {version}.").format(version=__version__),
    )
    return Next.CONTINUE
