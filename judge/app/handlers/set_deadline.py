"""SET DEADLINE / SET GRACE / SET START date: move one time of the current phase by hand.

Who: the Judge's "mod" — the master of a moderated game, any player of an
unmoderated one. The date is read as the Judge reads dates (a week day, a
day and month, a time, a year, in any order, in the judge's time zone; also
ISO 8601 with seconds and an offset). A date without a time takes the
phase's clock (23:30 without one).

The rules (judge.timekeeping.deadlines): a deadline set by hand is taken as
given, earlier or later; a later one pushes the end of grace to at least
deadline + grace; a start past the deadline moves the deadline with it; the
grace may not end before the deadline. The game is told ("Deadline
Adjustment", "Grace Adjustment") and the scheduler re-plans at once: a
phase whose orders are all in may now be processed earlier or later.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from judge.app.game_state.clock_store import (
    game_schedule,
    open_phase,
    read_date,
    set_times,
    stored_times,
)
from judge.app.games.masters import announce_dated_to_game, require_moderator, setter_name
from judge.app.phases.planning import plan
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.core.phase import Phase
from judge.db.models import Game
from judge.lang.commands import DeadlineKind, SetDeadline
from judge.timekeeping.dates import DateRole, names_a_day
from judge.timekeeping.deadlines import PhaseTimes, set_deadline, set_grace, set_start
from judge.timekeeping.errors import PhaseTimesError

_WORDS = {DeadlineKind.DEADLINE: "SET DEADLINE", DeadlineKind.GRACE: "SET GRACE", DeadlineKind.START: "SET START"}


@handles(SetDeadline)
def handle(command: SetDeadline, session: MailSession) -> Next:
    _ = session.gettext
    game = require_moderator(session, _WORDS[command.which])
    times = stored_times(game)
    if open_phase(session.uow, game) is None or times is None or game.current_phase is None:
        raise CommandRefused(
            _("Game '{game}' has no phase being played: there is no deadline to move.").format(game=game.name)
        )
    if command.date is None:
        raise CommandRefused(_("Give the date, e.g. SET DEADLINE Fri 23:30."))
    zone = session.services.config.timezone
    schedule = game_schedule(game).for_phase(Phase.parse(game.current_phase).type)
    when = read_date(session, command.date.text, DateRole.DEADLINE, clock=schedule.clock)
    notes: list[str] = []
    if not names_a_day(command.date.text) and when.astimezone(zone).date() != session.now.astimezone(zone).date():
        # "SET START 13:51" sent at 13:51:50: today's 13:51 is over, so tomorrow's was taken; say so.
        notes.append(
            _("'{text}' has already passed today: the same time tomorrow, {date}, was taken.").format(
                text=command.date.text.strip(), date=session.tell_date(when)
            )
        )
    try:
        if command.which is DeadlineKind.DEADLINE:
            new = set_deadline(times, when, schedule, zone, strict_grace=game.strict_grace)
        elif command.which is DeadlineKind.GRACE:
            new = set_grace(times, when)
        else:
            new = set_start(times, when, schedule, zone, strict_grace=game.strict_grace)
    except PhaseTimesError as error:
        raise CommandRefused(
            _("The grace period cannot end before the deadline ({deadline}): set a later deadline first.").format(
                deadline=session.tell_date(times.deadline)
            )
        ) from error
    _record(session, game, times, new)
    set_times(session.uow, game, new)
    plan(session.uow, session.services, game, session.now)
    session.reply.ok(command.line, *notes, *_lines(new, _, session.tell_date))
    event = "Grace Adjustment" if command.which is DeadlineKind.GRACE else "Deadline Adjustment"

    def body(_: Callable[[str], str], language: str, tell: Callable[[datetime], str]) -> str:
        who = setter_name(session, game, language)
        if who is None:
            head = _("The times of {phase} in game '{game}' have been changed:").format(
                phase=game.current_phase, game=game.name
            )
        else:
            head = _("{who} has changed the times of {phase} in game '{game}':").format(
                who=who, phase=game.current_phase, game=game.name
            )
            head = head[:1].upper() + head[1:]
        return "\n".join([head, "", *_lines(new, _, tell)])

    announce_dated_to_game(session, game, event, body, exclude=[session.sender])
    return Next.CONTINUE


def _record(session: MailSession, game: Game, old: PhaseTimes, new: PhaseTimes) -> None:
    """The change in the game's audit trail (who moved which time from what to what)."""
    for column, before, after in (
        ("deadline_at", old.deadline, new.deadline), ("grace_at", old.grace, new.grace),
        ("earliest_at", old.start, new.start),
    ):  # fmt: skip
        if before != after:
            session.uow.games.change_setting(
                game, column, after, session.now, actor=session.sender, person=session.person
            )


def _lines(times: PhaseTimes, _: Callable[[str], str], tell: Callable[[datetime], str]) -> list[str]:
    """The three times as a reader is told them (the reply and the announcement)."""
    return [
        _("Deadline: {date}").format(date=tell(times.deadline)),
        _("End of the grace period: {date}").format(date=tell(times.grace)),
        _("Earliest processing: {date}").format(date=tell(times.start)),
    ]
