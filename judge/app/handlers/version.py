"""VERSION: which judge this is.

The Judge's help files describe VERSION with no argument. A word after it
(``VERSION 2``, a "level") is read but means nothing here: the reply gives
the version and says the word was not used (docs/unsupported.md).
"""

from __future__ import annotations

from judge import __version__
from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.lang.commands import Version


@handles(Version)
def handle(command: Version, session: MailSession) -> Next:
    _ = session.gettext
    session.reply.ok(
        command.line,
        _("Diplomacy email judge, version {version}.").format(version=__version__),
    )
    if command.level:
        session.reply.ok(
            command.line,
            _(
                "VERSION takes no level on this judge: '{level}' was not used. The Judge's help files "
                "describe VERSION alone, and there is one version to tell."
            ).format(level=command.level),
        )
    return Next.CONTINUE
