"""HISTORY [game] [FROM d] [TO d] [LINES n] / HISTORY [game] EXCLSTART p [EXCLEND p] [BROAD].

Anyone may ask, before or after a sign-on (conventions §2): the history is
what an observer received, which anyone may become. The report itself is
:mod:`judge.app.reports.history_text`; this handler turns the command's dates
into instants and its limits into a request, and refuses what cannot be
answered.
"""

from __future__ import annotations

from datetime import timedelta

from judge.app.audience.blind_view import session_view
from judge.app.handlers.summary import requested_game
from judge.app.reports.history_text import (
    DEFAULT_DAYS,
    DEFAULT_LINES,
    HistoryDateError,
    HistoryRequest,
    history_lines,
    past_instant,
)
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import History


def _request(command: History, session: MailSession) -> HistoryRequest:
    _ = session.gettext
    max_lines = DEFAULT_LINES if command.lines is None else command.lines
    if max_lines < 1:
        raise CommandRefused(_("LINES must be at least 1."))
    if command.exclude_start is not None:
        if command.exclude_end is not None and command.exclude_end < command.exclude_start:
            raise CommandRefused(
                _("EXCLEND {last} comes before EXCLSTART {first}: nothing to show.").format(
                    last=command.exclude_end, first=command.exclude_start
                )
            )
        return HistoryRequest(
            max_lines=max_lines,
            first_phase=command.exclude_start,
            last_phase=command.exclude_end,
            broad=command.broad,
        )
    zone = session.services.config.timezone
    try:
        since = (
            past_instant(command.from_, session.now, zone)
            if command.from_ is not None
            else session.now - timedelta(days=DEFAULT_DAYS)
        )
        until = past_instant(command.to, session.now, zone) if command.to is not None else session.now
    except HistoryDateError as error:
        raise CommandRefused(_("There is no such date: {date}.").format(date=error.text)) from None
    if until < since:
        raise CommandRefused(_("The TO date comes before the FROM date: nothing to show."))
    return HistoryRequest(since=since, until=until, max_lines=max_lines)


@handles(History)
def handle(command: History, session: MailSession) -> Next:
    game = requested_game(session, command.game, "HISTORY")
    request = _request(command, session)
    lines = history_lines(
        session.uow,
        game,
        request,
        code=session.services.config.code,
        language=session.language,
        zone=session.services.config.timezone,
        _=session.gettext,
        view=session_view(session, game),  # Fog of War: the results as the asker was told them
    )
    session.reply.ok(command.line, *lines)
    return Next.CONTINUE
