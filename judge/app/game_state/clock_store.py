"""A game's clock as the database keeps it: its schedule, its absences, its phase bookkeeping.

The pure rules (:mod:`judge.timekeeping`) decide; this module gives them
what the database knows and stores what they decided, so that the scheduler,
the processing and the SET/PAUSE/RESUME handlers read and write the clock in
one way.

Where the state lives (the choice: no new column, no migration):

* the times of the open phase: ``games.deadline_at``, ``grace_at``,
  ``earliest_at`` (and the phase record's ``deadline_at``), ``paused_at``;
* the one indexed column the scheduler reads: ``games.next_due_at``;
* what has already been done in the open phase (reminder sent, late notices
  sent and when, powers late or abandoned in it, the last "Waiting for
  Replacements" and pause reminders): the JSON "book" in
  ``game.extra_settings["phase_clock"]``, tagged with the phase record it
  belongs to and the deadline it was kept against. A book of another phase
  record (a new phase, a ROLLBACK) is ignored; a book kept against another
  deadline (SET DEADLINE, RESUME, a takeover) starts its notices afresh but
  remembers who was late or abandoned, so nobody is charged twice.

The database is the only memory, so a judge restarted at any moment (even
in the middle of a grace period) carries on where it stopped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import bindparam, select

from judge.app.game_state.boards import NoOpenPhase, current
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.core.phase import PhaseType
from judge.core.position import Position
from judge.db.database import UnitOfWork
from judge.db.enums import GameState
from judge.db.models import Absence as AbsenceRow
from judge.db.models import DeadlineSchedule, Game, GameMaster, Person, PhaseRecord
from judge.db.one_parameter_in import in_parameter
from judge.timekeeping.absences import MASTER, Absence, counting_absences
from judge.timekeeping.dates import DateRole, parse_judge_date
from judge.timekeeping.deadlines import PhaseTimes, next_phase_times
from judge.timekeeping.dedication import PlayerRecord
from judge.timekeeping.errors import DateInPastError, DateSyntaxError, DateTooFarError
from judge.timekeeping.lateness import PhaseClock
from judge.timekeeping.parameters import DEFAULT_SCHEDULE, PhaseSchedule, Schedule, WeekDays

BOOK = "phase_clock"
"""``game.extra_settings`` key of the open phase's time-keeping book."""
_BOOK_TIMES = ("last_late_notice_at", "last_replacement_notice_at", "last_pause_notice_at")
_BOOK_SETS = ("late_powers", "abandoned_this_phase")
_NOTICE_FIELDS = ("reminder_sent", "late_notices_sent", "last_late_notice_at", "last_replacement_notice_at")
_PHASE_TYPES = (PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT)


# ------------------------------------------------------------------ the schedule


def phase_schedule(game: Game, phase_type: PhaseType) -> PhaseSchedule:
    """The game's schedule for one kind of phase (its SET MOVE/RETREAT/ADJUST, else the Judge's)."""
    row: DeadlineSchedule | None = game.schedule(phase_type)
    if row is None:
        return DEFAULT_SCHEDULE.for_phase(phase_type)
    return PhaseSchedule(
        clock=row.clock_minutes, min_hours=row.min_hours, next_hours=row.next_hours,
        grace_hours=row.grace_hours, delay_hours=row.delay_hours, days=WeekDays(row.days),
    )  # fmt: skip


def game_schedule(game: Game) -> Schedule:
    """The game's three schedules (SET MOVE/RETREAT/ADJUST), the Judge's defaults where unset."""
    move, retreat, adjust = (phase_schedule(game, t) for t in _PHASE_TYPES)
    return Schedule(move=move, retreat=retreat, adjust=adjust)


def store_schedule(uow: UnitOfWork, game: Game, phase_type: PhaseType, schedule: PhaseSchedule) -> None:
    """Keep ``schedule`` as the game's schedule for ``phase_type`` (one row per kind of phase)."""
    uow.games.set_schedule(
        game, phase_type, clock_minutes=schedule.clock, min_hours=schedule.min_hours,
        next_hours=schedule.next_hours, grace_hours=schedule.grace_hours,
        delay_hours=schedule.delay_hours, days=str(schedule.days),
    )  # fmt: skip


# ------------------------------------------------------------------ absences


def game_absences(
    uow: UnitOfWork, game: Game, now: datetime, rows: Sequence[AbsenceRow] | None = None
) -> list[tuple[Absence, AbsenceRow]]:
    """Every absence still to come of the game's players and masters, with its database row.

    The owner of a player's absence is the power's name; a master's is
    :data:`judge.timekeeping.absences.MASTER`. Absences a person declared for
    all their games count here too. One query, whatever the number of people
    (this runs at every processing); none when ``rows`` are the game's absences as read
    ahead in this transaction (:func:`read_absences`).
    """
    owners = _owners(game)
    if rows is None:
        rows = list(uow.session.scalars(_GAME_ABSENCES, {"people": list(owners), "game_id": game.id, "now": now}))
    return [
        (Absence(owners.get(row.person_id, MASTER), row.starts_at, row.ends_at, set_by_master=row.set_by_master), row)
        for row in rows
    ]


def _owners(game: Game) -> dict[int, str]:
    """{person id: the owner of the person's absences in the game} for its players."""
    owners: dict[int, str] = {}
    for seat in game.seats:
        if seat.person_id is not None:
            owners.setdefault(seat.person_id, seat.power or f"#{seat.person_id}")
    return owners


def read_absences(
    uow: UnitOfWork, masters: Mapping[Game, Iterable[int]], now: datetime
) -> dict[int, list[AbsenceRow]]:
    """:func:`game_absences`' rows for several games in one query (the scheduler's batch of due
    games, whose masters the caller knows: ``masters``, {game: its masters' person ids}):
    {game id: its rows, in the order :func:`game_absences` reads them}."""
    people = {game.id: {*_owners(game), *these} for game, these in masters.items()}
    found: dict[int, list[AbsenceRow]] = {game_id: [] for game_id in people}
    everyone = sorted({person for these in people.values() for person in these})
    if not everyone:
        return found
    for row in uow.session.scalars(_ABSENCES_OF, {"people": everyone, "game_ids": sorted(people), "now": now}):
        for game_id, these in people.items():
            if row.person_id in these and row.game_id in (None, game_id):
                found[game_id].append(row)
    return found


# Built once (this runs at every processing): the masters by a subquery, not by loading
# game.masters, so one statement either way.
_GAME_ABSENCES = (
    select(AbsenceRow)
    .where(
        AbsenceRow.person_id.in_(bindparam("people", expanding=True))
        | AbsenceRow.person_id.in_(select(GameMaster.person_id).where(GameMaster.game_id == bindparam("game_id"))),
        AbsenceRow.ends_at > bindparam("now"),
        (AbsenceRow.game_id == bindparam("game_id")) | AbsenceRow.game_id.is_(None),
    )
    .order_by(AbsenceRow.starts_at, AbsenceRow.id)
)
_ABSENCES_OF = (  # a batch's people: some 150 ids, one array on PostgreSQL (judge.db.one_parameter_in)
    select(AbsenceRow)
    .where(
        in_parameter(AbsenceRow.person_id, "people"),
        AbsenceRow.ends_at > bindparam("now"),
        in_parameter(AbsenceRow.game_id, "game_ids") | AbsenceRow.game_id.is_(None),
    )
    .order_by(AbsenceRow.starts_at, AbsenceRow.id)
)


def person_owner(person: Person) -> str:
    """The owner key of a player who has no power yet (a forming game): the person's number."""
    return f"#{person.id}"  # as game_absences names them


def deadline_absences(
    uow: UnitOfWork, game: Game, now: datetime, owing: Iterable[str], rows: Sequence[AbsenceRow] | None = None
) -> tuple[Absence, ...]:
    """The absences that may move the next deadline (njudge's rule, judge.timekeeping.absences);
    ``rows``: the game's as read ahead (:func:`game_absences`)."""
    return counting_absences(
        (absence for absence, _row in game_absences(uow, game, now, rows)),
        owing_orders=frozenset(owing),
        strict_wait=game.strict_wait,
        press_allowed=game.press_mode != "none",
        quiet=game.quiet,
    )


def fresh_times(
    uow: UnitOfWork,
    game: Game,
    now: datetime,
    phase_type: PhaseType,
    zone: ZoneInfo,
    *,
    previous: PhaseTimes | None,
    owing: Iterable[str],
    same_phase: bool = False,
    absences: Sequence[AbsenceRow] | None = None,
) -> PhaseTimes:
    """Start, deadline and grace of a phase (re)starting at ``now``, out of the absences that count.

    ``same_phase``: the open phase gets new times (RESUME), so its grace is never shortened.
    ``absences``: the game's as read ahead in this transaction (:func:`read_absences`).
    """
    return next_phase_times(
        now, game_schedule(game).for_phase(phase_type), zone, previous=previous,
        absences=deadline_absences(uow, game, now, owing, absences), strict_grace=game.strict_grace,
        same_phase=same_phase,
    )  # fmt: skip


def stored_times(game: Game) -> PhaseTimes | None:
    """The open phase's times as the game row holds them (None without a deadline)."""
    if game.deadline_at is None:
        return None
    deadline = game.deadline_at
    start = min(game.earliest_at or deadline, deadline)
    return PhaseTimes(start=start, deadline=deadline, grace=max(game.grace_at or deadline, deadline))


def set_times(uow: UnitOfWork, game: Game, times: PhaseTimes) -> None:
    """Store ``times`` as the open phase's (the game row and the phase record)."""
    game.earliest_at, game.deadline_at, game.grace_at = times.start, times.deadline, times.grace
    record = uow.phases.current(game)
    if record is not None:
        record.deadline_at = times.deadline
    uow.flush()


# ------------------------------------------------------------------ the book


def with_book(clock: PhaseClock, game: Game, record: PhaseRecord) -> PhaseClock:
    """``clock`` (built from the game's state) with what the book says was done in this phase."""
    book = game.extra_settings.get(BOOK)
    if not isinstance(book, dict) or book.get("phase") != game.current_phase:
        return clock
    if book.get("record") not in (None, record.id):
        return clock
    values: dict[str, Any] = {
        "reminder_sent": bool(book.get("reminder_sent", False)),
        "late_notices_sent": int(book.get("late_notices_sent", 0)),
    }
    for name in _BOOK_TIMES:
        text = book.get(name)
        values[name] = datetime.fromisoformat(text) if isinstance(text, str) else None
    for name in _BOOK_SETS:
        values[name] = frozenset(book.get(name, ()))
    kept_against = book.get("deadline")
    if isinstance(kept_against, str) and datetime.fromisoformat(kept_against) != clock.times.deadline:
        # The deadline moved since: its notices start afresh; who was late or abandoned stays.
        for name in _NOTICE_FIELDS:
            values.pop(name, None)
    return replace(clock, **values)


def save_book(game: Game, clock: PhaseClock, record: PhaseRecord | None) -> None:
    """Keep ``clock``'s bookkeeping on the game (same transaction as what it records)."""
    book: dict[str, Any] = {
        "phase": game.current_phase,
        "record": record.id if record is not None else None,
        "deadline": clock.times.deadline.astimezone(UTC).isoformat(),
        "reminder_sent": clock.reminder_sent,
        "late_notices_sent": clock.late_notices_sent,
    }
    for name in _BOOK_TIMES:
        value = getattr(clock, name)
        book[name] = value.astimezone(UTC).isoformat() if value is not None else None
    for name in _BOOK_SETS:
        book[name] = sorted(getattr(clock, name))
    game.extra_settings = {**game.extra_settings, BOOK: book}


def clear_pause_notices(game: Game) -> None:
    """RESUME: the pause reminders of the last pause are no longer the book's business."""
    book = game.extra_settings.get(BOOK)
    if isinstance(book, dict) and book.get("last_pause_notice_at") is not None:
        game.extra_settings = {**game.extra_settings, BOOK: {**book, "last_pause_notice_at": None}}


# ------------------------------------------------------------------ dedication


def player_record(person: Person) -> PlayerRecord:
    """A person's counters as the dedication rules read them (and WHOIS/LIST show them)."""
    return PlayerRecord(
        dedication=person.dedication, turns_due=person.turns_due, turns_on_time=person.turns_on_time,
        games_started=person.games_started, takeovers=person.takeovers,
        civil_disorders=person.civil_disorders, abandonments=person.abandonments,
    )  # fmt: skip


# ------------------------------------------------------------------ for the handlers


def read_date(session: MailSession, text: str, role: DateRole, *, clock: int | None = None) -> datetime:
    """``text`` read as the Judge reads dates (judge zone, ISO 8601 too), or a refusal that says why."""
    _ = session.gettext
    zone = session.services.config.timezone
    try:
        return parse_judge_date(text, now=session.now, zone=zone, role=role, clock=clock)
    except DateInPastError as error:
        raise CommandRefused(
            _("The date '{text}' ({date}) is in the past.").format(text=text, date=session.tell_date(error.when))
        ) from error
    except DateTooFarError as error:
        raise CommandRefused(
            _("The date '{text}' would be {date}, more than {days} days ahead: give the year, the month and the day if that is what you mean.").format(
                text=text, date=session.tell_date(error.when), days=error.limit_days
            )
        ) from error
    except DateSyntaxError as error:
        raise CommandRefused(
            _("Cannot read the date '{text}'. Write it as Fri 23:30, Dec 4 2026 23:30 or 2026-12-04T23:30:00+01:00.").format(
                text=text
            )
        ) from error


def open_phase(uow: UnitOfWork, game: Game) -> tuple[PhaseRecord, Position] | None:
    """The open phase's record and position (None when the game is not being played)."""
    if game.state is not GameState.ACTIVE or game.current_phase is None:
        return None
    try:
        return current(uow, game)
    except NoOpenPhase:
        return None


@dataclass(frozen=True)
class AbsenceOwner:
    """Whose absence a SET ABSENCE declares: a power (its player's), or the master's own."""

    owner: str
    """The power, :data:`MASTER`, or a forming game's ``#<person id>``."""
    person: Person
    set_by_master: bool
    power: str | None


def absence_owner(session: MailSession, command: str) -> AbsenceOwner:
    """The absence's owner for the sender: their power, the power a master BECAME, or the master."""
    _ = session.gettext
    game = session.game
    if game is None or session.role is None:
        raise CommandRefused(_("{command} needs a SIGNON to a game first.").format(command=command))
    if session.role is Role.MASTER:
        if session.acting_power is not None:
            seat = session.uow.seats.by_power(game, session.acting_power)
            if seat is None or seat.person is None:
                raise CommandRefused(
                    _("Nobody plays {power} now: there is no player whose absence to record.").format(
                        power=session.acting_power.title()
                    )
                )
            return AbsenceOwner(seat.power or "", seat.person, True, seat.power)
        if session.person is None:
            raise CommandRefused(_("Only a registered master may declare an absence."))
        return AbsenceOwner(MASTER, session.person, True, None)
    player = session.seat.person if session.seat is not None else None
    if session.role is Role.POWER and session.seat is not None and player is not None:
        return AbsenceOwner(session.seat.power or person_owner(player), player, False, session.seat.power)
    raise CommandRefused(_("Only the players and the masters of a game may declare an absence in it."))
