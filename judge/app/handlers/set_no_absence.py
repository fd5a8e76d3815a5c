"""SET NO ABSENCE date: cancel one's absence that covers that day (or starts on it).

The same owners as SET ABSENCE (a player for their power, a master for
himself or the power he BECAME). The masters are told ("Absence Notice").
"""

from __future__ import annotations

from judge.app.game_state.clock_store import absence_owner, game_absences, read_date
from judge.app.handlers.set_absence import tell_masters
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.i18n import Gettext
from judge.lang.commands import SetNoAbsence
from judge.timekeeping.absences import cancel_absence
from judge.timekeeping.dates import DateRole
from judge.timekeeping.errors import NoSuchAbsenceError


@handles(SetNoAbsence)
def handle(command: SetNoAbsence, session: MailSession) -> Next:
    _ = session.gettext
    who = absence_owner(session, "SET NO ABSENCE")
    game = session.game
    assert game is not None
    if command.date is None:
        raise CommandRefused(_("Give the date of the absence to cancel, e.g. SET NO ABSENCE 5 Jan."))
    day = read_date(session, command.date.text, DateRole.ABSENCE_START)
    found = [(absence, row) for absence, row in game_absences(session.uow, game, session.now) if absence.owner == who.owner]
    try:
        left = cancel_absence([absence for absence, _row in found], who.owner, day)
    except NoSuchAbsenceError as error:
        raise CommandRefused(_("None of your absences covers {date}.").format(
            date=session.tell_date(day)
        )) from error
    for absence, row in found:
        if absence not in left:
            session.uow.people.remove_absence(row)
            start, end = session.tell_date(absence.start), session.tell_date(absence.end)
            session.reply.ok(
                command.line, _("Absence from {start} to {end} cancelled.").format(start=start, end=end)
            )

            def body(_: Gettext, language: str, start: str = start, end: str = end) -> str:
                return _("An absence in game '{game}' from {start} to {end} has been cancelled.").format(
                    game=game.name, start=start, end=end
                )

            tell_masters(session, game, "Absence Notice", body)
            break
    return Next.CONTINUE
