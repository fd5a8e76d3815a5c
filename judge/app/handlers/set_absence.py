"""SET ABSENCE start [TO end] (HOLIDAY, VACATION): a span during which no new deadline may fall.

Who: a player for their power, a master for himself, or for the power he
BECAME. The dates are read as the Judge reads them: a start without a time
is 00:00 of that day, an end without a time the end of that day; no end at
all means that one day (or 24 hours from a start given with its time).

An absence only moves the *next* deadline computed while it runs (never
the current one, which players have already planned around), and only if
it counts (judge.timekeeping.absences.counting_absences). At most three
per player, no overlaps; a player's absence longer than the game's MAX
ABSENCE days is not recorded: the masters get an "Oversized Absence
Request" with the ready-made lines that grant it (a master's absence, or
one a master sets, has no maximum). Recorded absences are told to the
masters ("Absence Notice"), as the Judge tells them and nobody else.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo

from judge.app.game_state.clock_store import AbsenceOwner, absence_owner, game_absences, read_date
from judge.app.game_state.game_facts import audience, power_letter, power_name
from judge.app.session.mail_session import MailSession, Outgoing
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import GameState
from judge.db.models import Game
from judge.i18n import Gettext, translation
from judge.lang.commands import SetAbsence
from judge.mail.compose import game_subject, judge_date
from judge.timekeeping.absences import (
    DEFAULT_ABSENCE_LENGTH,
    Absence,
    AbsenceOutcome,
    request_absence,
)
from judge.timekeeping.dates import DateRole
from judge.timekeeping.errors import (
    AbsenceError,
    AbsenceInPastError,
    OverlappingAbsenceError,
    TooManyAbsencesError,
)


@handles(SetAbsence)
def handle(command: SetAbsence, session: MailSession) -> Next:
    _ = session.gettext
    who = absence_owner(session, "SET ABSENCE")
    game = session.game
    assert game is not None
    if game.state in (GameState.FINISHED, GameState.TERMINATED):
        raise CommandRefused(_("Game '{game}' is over: absences no longer matter in it.").format(game=game.name))
    if command.start is None:
        raise CommandRefused(_("Give the dates of the absence, e.g. SET ABSENCE 5 Jan TO 12 Jan."))
    start = read_date(session, command.start.text, DateRole.ABSENCE_START)
    if command.end is not None:
        end = read_date(session, command.end.text, DateRole.ABSENCE_END)
    elif command.start.hour is not None:
        end = start + DEFAULT_ABSENCE_LENGTH
    else:
        end = read_date(session, command.start.text, DateRole.ABSENCE_END)
    zone = session.services.config.timezone
    try:
        requested = Absence(who.owner, start, end, set_by_master=who.set_by_master)
        decision = request_absence(
            (absence for absence, _row in game_absences(session.uow, game, session.now)),
            requested, now=session.now, zone=zone, max_days=game.max_absence_days,
        )  # fmt: skip
    except AbsenceError as error:
        raise CommandRefused(_absence_refusal(session, error, start, end)) from error
    days = requested.calendar_days(zone)
    if decision.outcome is AbsenceOutcome.OVERSIZED:
        asked = _ask_masters(session, game, who, requested, days)
        messages = [
            _("That absence covers {days} days, more than this game's maximum of {maximum}: it was not recorded.").format(
                days=days, maximum=game.max_absence_days
            ),
            _("The master has been asked to decide.") if asked else _("The game has no master to ask."),
        ]
        session.reply.ok(command.line, *messages)
        return Next.CONTINUE
    session.uow.people.add_absence(who.person, start, end, session.now, game=game, set_by_master=who.set_by_master)
    session.reply.ok(
        command.line,
        _("Absence recorded from {start} to {end}.").format(start=session.tell_date(start), end=session.tell_date(end)),
        _("A deadline computed during it will be moved to its end; the current deadline does not change."),
    )
    tell_masters(session, game, "Absence Notice", lambda _, language: _(
        "{who} will be absent from {start} to {end} in game '{game}'."
    ).format(who=_owner_name(who, language, _), start=judge_date(start, zone), end=judge_date(end, zone), game=game.name))
    return Next.CONTINUE


def tell_masters(session: MailSession, game: Game, event: str, body: Callable[[Gettext, str], str]) -> bool:
    """Queue ``event`` to the game's masters (not the sender), each in their language; False if none."""
    groups = audience(game, powers=(), observers=False, exclude=[session.sender])
    subject = game_subject(session.services.config.code, game.name, event, game.current_phase)
    for language, to in groups.items():
        text = body(translation(language).gettext, language)
        session.send(Outgoing(tuple(to), subject, text.rstrip() + "\n", game_id=game.id))
    return bool(groups)


def _owner_name(who: AbsenceOwner, language: str, _: Gettext) -> str:
    if who.power is not None:
        return power_name(who.power, language)
    if who.owner.startswith("#"):
        return who.person.name
    return _("The master")


def _ask_masters(session: MailSession, game: Game, who: AbsenceOwner, requested: Absence, days: int) -> bool:
    """The Judge's "Oversized Absence Request": the lines a master sends to grant it."""
    zone = session.services.config.timezone
    lines = [f"SIGNON M{game.name} <password>"]
    if who.power is not None:
        lines.append(f"BECOME {power_letter(game, who.power)}")
    lines += [f"SET ABSENCE {_iso(requested.start, zone)} TO {_iso(requested.end, zone)}", "SIGNOFF"]

    def body(_: Gettext, language: str) -> str:
        head = _("{who} asks to be absent in game '{game}' from {start} to {end}: {days} days, more than the maximum of {maximum}.").format(
            who=_owner_name(who, language, _), game=game.name, start=judge_date(requested.start, zone),
            end=judge_date(requested.end, zone), days=days, maximum=game.max_absence_days,
        )  # fmt: skip
        return "\n".join([head, _("To grant it, send these lines to the judge:"), "", *lines])

    return tell_masters(session, game, "Oversized Absence Request", body)


def _iso(when: datetime, zone: ZoneInfo) -> str:
    return when.astimezone(zone).isoformat(timespec="seconds")


def _absence_refusal(session: MailSession, error: AbsenceError, start: datetime, end: datetime) -> str:
    _ = session.gettext
    zone = session.services.config.timezone
    if isinstance(error, TooManyAbsencesError):
        return _("You already have {limit} absences to come; cancel one with SET NO ABSENCE first.").format(
            limit=error.limit
        )
    if isinstance(error, OverlappingAbsenceError):
        return _("That absence overlaps one you already have; cancel it with SET NO ABSENCE first.")
    if isinstance(error, AbsenceInPastError):
        return _("That absence is already over.")
    return _("An absence must end after it starts ({start} to {end}).").format(
        start=judge_date(start, zone), end=judge_date(end, zone)
    )
