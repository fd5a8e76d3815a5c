"""GET / SEND [ME] file...: help files, appended to the reply in the reader's language.

Names are looked up among the files the judge ships (:mod:`judge.app.game_state.helpfiles`);
an unknown name is answered with the list of those that exist, and the other
files of the same line are still sent. Two names are not files, as in the
Judge: ``PACKAGE`` (the files a new player should read) and ``DEDICATION``
(the sender's own dedication record).
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.app.game_state import helpfiles
from judge.app.game_state.variant_info import variant_info
from judge.app.hooks.game_hooks import opening_phase
from judge.app.reports.person import dedication_lines
from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.lang.commands import Get

PACKAGE_NAME = "package"
DEDICATION_NAME = "dedication"
FLIST_NAME = "flist"
WHOIS_NAME = "whois"


def send_files(session: MailSession, line: int, names: Sequence[str]) -> None:
    """Append each named file to the reply under ``line``; errors for unknown names."""
    _ = session.gettext
    for requested in names:
        key = requested.strip().lower()
        if key == PACKAGE_NAME:
            send_files(session, line, helpfiles.PACKAGE)
            continue
        if key == DEDICATION_NAME:
            _send_dedication(session, line)
            continue
        if key == FLIST_NAME:
            # The Judge's "flist": the list of every file GET can send.
            files = [*helpfiles.available(), PACKAGE_NAME, DEDICATION_NAME, FLIST_NAME]
            session.reply.ok(line, _("The files GET sends: {files}.").format(files=", ".join(files)))
            continue
        if key == WHOIS_NAME:
            session.reply.error(
                line,
                _(
                    "GET WHOIS is not sent: the Judge mailed its whole register of players to anyone; "
                    "this judge does not mail the whole player base. WHOIS with the start of an address "
                    "answers for the registrations whose address starts with it (at most 20 each)."
                ),
            )
            continue
        described = variant_info(requested, session.language, opening_phase)
        if described is not None:  # GET info.colonial: a variant's description
            session.reply.ok(line, f"----- {key} -----\n{described}\n----- {key} -----")
            continue
        try:
            found = helpfiles.find(requested, session.language)
        except helpfiles.UnknownHelpFile as unknown:
            session.reply.error(
                line,
                _("There is no help file called '{name}'. The files are: {files}.").format(
                    name=requested,
                    files=", ".join([*unknown.available, PACKAGE_NAME, DEDICATION_NAME, FLIST_NAME]),
                ),
            )
            continue
        session.reply.ok(line, f"----- {found.name} -----\n{found.text.rstrip()}\n----- {found.name} -----")


def _send_dedication(session: MailSession, line: int) -> None:
    _ = session.gettext
    if session.person is None:
        session.reply.error(line, _("You are not registered, so you have no dedication record yet."))
        return
    session.reply.ok(line, "\n".join(dedication_lines(session.person, _)))


@handles(Get)
def handle(command: Get, session: MailSession) -> Next:
    send_files(session, command.line, command.files)
    return Next.CONTINUE
