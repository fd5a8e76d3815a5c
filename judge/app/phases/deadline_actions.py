"""Carrying out what the time-keeping rules say is due: reminders, late notices, abandonment, points.

:func:`judge.timekeeping.lateness.tick` decides; the scheduler calls
:func:`carry_out` for each event other than processing, and
:func:`apply_dedication` once per wake-up for them with the clock as it was
before the events, inside the transaction that records them; a processing
(the scheduler's or the master's PROCESS) is counted by
:func:`judge.app.phases.processing.process_phase` with :func:`count_processing`. Mail is queued (never
sent) in each reader's language.

Who gets what (the Judge's conventions, §4-§6):

* Reminder ("Reminder"): each player whose orders are not complete, some
  hours before the deadline, with the orders received so far;
* Late Notice ("Late Notice: FG"): the late players, with "[You are late!] "
  first in the subject; the first notice of a phase also goes to everyone
  else (players, masters, observers), naming who is late; later ones, daily,
  to the late players only. The late powers' late count goes up once per
  phase;
* abandonment ("Abandoned: F") to everyone, saying how to take the power
  over; "Waiting for Replacements: F" every two days in a NoNMR game past
  grace; "Game Paused" every three days while paused;
* Quiet games (SET QUIET): the notices that would tell players and
  observers who is late or abandoned go to the masters only; the late
  players still get their own.

Dedication (rated games only): the points of
:func:`judge.timekeeping.dedication.points_for_events`, a turn due (on time
or late) for each power that owed orders when a phase is processed, by the
clock or by the master, an abandonment, a civil disorder; each charged to the player of
record of the power (the one who let it go, for an abandoned power).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from judge.app.game_state import order_sheets as kept
from judge.app.game_state.boards import from_json
from judge.app.game_state.game_facts import audience, by_zone, power_letter, power_name
from judge.app.game_state.variant_rules import game_map_of
from judge.app.hooks.game_hooks import hooks_for
from judge.app.mail_out import outbox
from judge.app.session.services import Services
from judge.db.database import UnitOfWork
from judge.db.enums import SeatStatus
from judge.db.models import Game, Seat
from judge.i18n import Gettext, translation
from judge.mail.compose import game_subject
from judge.timekeeping.dates import tell_date
from judge.timekeeping.dedication import missed_unannounced, points_for_events, turns_of_phase
from judge.timekeeping.lateness import (
    Abandonment,
    LateNotice,
    PauseReminder,
    PhaseClock,
    Process,
    Reminder,
    TimekeepingEvent,
    WaitingForReplacements,
)

LATE_FLAG = "[You are late!] "
REMINDER_EVENT = "Reminder"
LATE_EVENT = "Late Notice"
ABANDONED_EVENT = "Abandoned"
REPLACEMENTS_EVENT = "Waiting for Replacements"
PAUSED_EVENT = "Game Paused"


def carry_out(
    uow: UnitOfWork, services: Services, game: Game, event: TimekeepingEvent, *, clock: PhaseClock, now: datetime
) -> None:
    """Do what ``event`` (anything but processing) asks: change seats, queue the notices."""
    mailer = _Mailer(uow, services, game, now)
    if isinstance(event, Reminder):
        _remind(mailer, event)
    elif isinstance(event, LateNotice):
        _late_notice(mailer, event, clock)
    elif isinstance(event, Abandonment):
        _abandon(mailer, event, clock)
    elif isinstance(event, WaitingForReplacements):
        _waiting(mailer, event)
    elif isinstance(event, PauseReminder):
        _paused(mailer, event)


# ------------------------------------------------------------------ mail


class _Mailer:
    """Queues one game's notices: subjects in the Judge's form, bodies per reader language and
    time zone (:meth:`date` tells a date to the readers of the mail being written)."""

    def __init__(self, uow: UnitOfWork, services: Services, game: Game, now: datetime) -> None:
        self.uow, self.services, self.game, self.now = uow, services, game, now
        self.zone: ZoneInfo = services.config.timezone
        self._readers: tuple[ZoneInfo, Gettext] = (self.zone, translation("en").gettext)

    def subject(self, event: str, *, late: bool = False) -> str:
        subject = game_subject(self.services.config.code, self.game.name, event, self.game.current_phase)
        return LATE_FLAG + subject if late else subject

    def date(self, when: datetime) -> str:
        zone, gettext = self._readers
        return tell_date(when, zone, gettext)

    def queue(self, to: Sequence[str], subject: str, body: str) -> None:
        outbox.queue(self.uow, self.services, list(to), subject, body.rstrip() + "\n", self.now, game_id=self.game.id)

    def to_groups(self, groups: dict[str, list[str]], subject: str, body: Callable[[Gettext, str], str]) -> None:
        for language, zone, addresses in by_zone(self.game, groups, self.zone):
            self._readers = (zone, translation(language).gettext)
            self.queue(addresses, subject, body(self._readers[1], language))

    def letters(self, powers: Iterable[str]) -> str:
        order = {power: index for index, power in enumerate(game_map_of(self.game).powers)}
        return "".join(power_letter(self.game, p) for p in sorted(powers, key=lambda p: order.get(p, 99)))

    def names(self, powers: Iterable[str], language: str) -> str:
        order = {power: index for index, power in enumerate(game_map_of(self.game).powers)}
        return ", ".join(power_name(p, language) for p in sorted(powers, key=lambda p: order.get(p, 99)))


def _seat(game: Game, power: str) -> Seat | None:
    return next((seat for seat in game.seats if seat.power == power), None)


# ------------------------------------------------------------------ the events


def _remind(mailer: _Mailer, event: Reminder) -> None:
    """Each player whose orders are not complete: the deadline, the hours left, the orders so far."""
    game = mailer.game
    if not event.powers or game.current_phase is None:
        return
    record = mailer.uow.phases.current(game)
    if record is None:
        return
    position = from_json(record.position_before)
    game_map = game_map_of(game)
    submissions = kept.current_submissions(mailer.uow, game, position.phase)
    # Whole minutes left, rounded up: a reminder sent late (a deadline set close by hand, a judge
    # that was down) says "in 20 minutes", never "in 0 hours" (issue 13).
    minutes = max(1, -(-int((event.deadline - mailer.now).total_seconds()) // 60))
    hours = round(minutes / 60)
    subject = mailer.subject(REMINDER_EVENT)
    as_sent = hooks_for(game).orders_kept_as_text  # the Renaissance game's sheet: its lines as sent
    for power in sorted(event.powers):
        groups = audience(game, powers=[power], masters=False, observers=False)
        submission = submissions.get(power)
        if as_sent:
            lines = list(submission.canonical) if submission is not None else []
        else:
            lines = kept.sheet_of(submission, game_map, position.phase).lines()

        def body(_: Gettext, language: str, power: str = power, lines: list[str] = lines) -> str:
            # hours >= 2 here; minutes may be 1. The catalogs have no plural forms (msgid_plural),
            # so the one singular case is a message of its own, right in English and French alike.
            if minutes >= 120:
                when = _("Reminder: the deadline for {phase} in game '{game}' is {deadline}, in {hours} hours.")
            elif minutes == 1:
                when = _("Reminder: the deadline for {phase} in game '{game}' is {deadline}, in 1 minute.")
            else:
                when = _("Reminder: the deadline for {phase} in game '{game}' is {deadline}, in {minutes} minutes.")
            text = [
                when.format(phase=game.current_phase, game=game.name, deadline=mailer.date(event.deadline),
                            hours=hours, minutes=minutes),
                _("The orders of {power} are not complete yet.").format(power=power_name(power, language)),
                "",
            ]
            if lines:
                text.append(_("Orders received so far:"))
                text += ["  " + line for line in "\n".join(lines).splitlines()]
            else:
                text.append(_("No orders have been received for {power}.").format(power=power_name(power, language)))
            return "\n".join(text)

        mailer.to_groups(groups, subject, body)


def _late_notice(mailer: _Mailer, event: LateNotice, clock: PhaseClock) -> None:
    """The late players, then (first notice) everyone else; the late count of the late powers."""
    game = mailer.game
    if not event.late:
        return
    letters = mailer.letters(event.late)
    if event.number == 1:
        for power in event.late:
            seat = _seat(game, power)
            if seat is not None:
                seat.late_count += 1
    late_addresses: list[str] = []
    for late_power in sorted(event.late):
        groups = audience(game, powers=[late_power], masters=False, observers=False)
        late_addresses += [a for addresses in groups.values() for a in addresses]

        def late_body(_: Gettext, language: str, power: str = late_power) -> str:
            lines = [
                _("Game '{game}': the deadline for {phase} was {deadline}, and the orders of {powers} are not complete.").format(
                    game=game.name, phase=game.current_phase, deadline=mailer.date(clock.times.deadline),
                    powers=power_name(power, language),
                ),
            ]
            lines.append(_late_steps(mailer, _, event.abandon_at, clock.times.grace, nmr=game.nmr))
            return "\n".join(lines)

        mailer.to_groups(groups, mailer.subject(f"{LATE_EVENT}: {letters}", late=True), late_body)
    if not event.to_everyone:
        return
    _tell_the_rest(
        mailer, late_addresses, f"{LATE_EVENT}: {letters}",
        lambda _, language: _("Game '{game}' is waiting for the orders of {powers} for {phase} (deadline {deadline}).").format(
            game=game.name, powers=mailer.names(event.late, language), phase=game.current_phase,
            deadline=mailer.date(clock.times.deadline),
        ),
        lambda _, language: _("Game '{game}' is waiting for late orders for {phase} (deadline {deadline}).").format(
            game=game.name, phase=game.current_phase, deadline=mailer.date(clock.times.deadline)
        ),
    )  # fmt: skip


def _late_steps(mailer: _Mailer, _: Gettext, abandon_at: datetime, grace: datetime, *, nmr: bool) -> str:
    """What happens next to a late power, in one sentence, each date once and in order.

    NoNMR: abandoned at the end of grace. NMR: abandoned a day before the end of grace (at once
    when grace is shorter: then only the end of grace is worth a date), then processed in civil
    disorder at it; the two steps were two sentences with two dates that read as contradictory.
    """
    if not nmr:
        return _("Please send them now. If they are not complete by {date}, the power will be abandoned.").format(
            date=mailer.date(abandon_at))
    if abandon_at <= mailer.now:
        return _("Please send them now: the power is open to takeover, and if its orders are not complete by "
                 "the end of the grace period, {grace}, the phase will be processed with it in civil disorder.").format(
            grace=mailer.date(grace))
    return _("Please send them now. If they are not complete by {date}, the power will be abandoned (open to "
             "takeover); if it still has no complete orders at the end of the grace period, {grace}, the phase "
             "will be processed with it in civil disorder.").format(date=mailer.date(abandon_at), grace=mailer.date(grace))


def _abandon(mailer: _Mailer, event: Abandonment, clock: PhaseClock) -> None:
    """The late powers' seats are left open for a takeover; everyone is told how to take one."""
    game = mailer.game
    for power in event.powers:
        seat = _seat(game, power)
        if seat is not None and seat.status is SeatStatus.PLAYING:
            mailer.uow.seats.leave(seat, mailer.now, SeatStatus.ABANDONED, phase=game.current_phase)
    letters = mailer.letters(event.powers)

    def body(_: Gettext, language: str) -> str:
        lines = [
            _("Abandoned in game '{game}': {powers}. The orders for {phase} did not arrive in time.").format(
                powers=mailer.names(event.powers, language), game=game.name, phase=game.current_phase
            ),
        ]
        if len(event.powers) == 1:
            lines.append(
                _("Anyone registered who does not play in this game may take it over with SIGNON {letter}{game} and any password.").format(
                    letter=letters, game=game.name
                )
            )
        else:
            lines.append(_("Anyone registered who does not play in this game may take a power over with SIGNON and any password."))
        if event.civil_disorder_at is not None:
            lines.append(
                _("If nobody takes it over by {date}, the phase will be processed with the power in civil disorder.").format(
                    date=mailer.date(event.civil_disorder_at)
                )
            )
        else:
            lines.append(_("The game will wait for a new player before this phase is processed."))
        return "\n".join(lines)

    _tell_everyone(mailer, f"{ABANDONED_EVENT}: {letters}", body)


def _waiting(mailer: _Mailer, event: WaitingForReplacements) -> None:
    game = mailer.game
    if not event.powers:
        return
    letters = mailer.letters(event.powers)

    def body(_: Gettext, language: str) -> str:
        return "\n".join([
            _("Game '{game}' is waiting for new players to take over {powers} before {phase} can be processed.").format(
                game=game.name, powers=mailer.names(event.powers, language), phase=game.current_phase
            ),
            _("Anyone registered who does not play in this game may take a power over with SIGNON and any password."),
        ])  # fmt: skip

    _tell_everyone(mailer, f"{REPLACEMENTS_EVENT}: {letters}", body)


def _paused(mailer: _Mailer, event: PauseReminder) -> None:
    game = mailer.game

    def body(_: Gettext, language: str) -> str:
        return _("Game '{game}' has been paused since {date}. Nothing will be processed until it is resumed (RESUME).").format(
            game=game.name, date=mailer.date(event.since)
        )

    mailer.to_groups(audience(game), mailer.subject(PAUSED_EVENT), body)


def _tell_everyone(mailer: _Mailer, event: str, body: Callable[[Gettext, str], str]) -> None:
    """Everyone in the game; in a Quiet game only the masters."""
    game = mailer.game
    groups = audience(game, powers=() if game.quiet else None, observers=not game.quiet)
    mailer.to_groups(groups, mailer.subject(event), body)


def _tell_the_rest(
    mailer: _Mailer, exclude: list[str], event: str,
    named: Callable[[Gettext, str], str], anonymous: Callable[[Gettext, str], str],
) -> None:  # fmt: skip
    """Everyone but ``exclude``; in a Quiet game players and observers are not told who."""
    game = mailer.game
    if not game.quiet:
        mailer.to_groups(audience(game, exclude=exclude), mailer.subject(event), named)
        return
    masters = audience(game, powers=(), observers=False, exclude=exclude)
    mailer.to_groups(masters, mailer.subject(event), named)
    told = exclude + [a for addresses in masters.values() for a in addresses]
    rest = audience(game, masters=False, exclude=told)
    mailer.to_groups(rest, mailer.subject(event.split(":")[0] + ": ?"), anonymous)


# ------------------------------------------------------------------ dedication


def count_processing(uow: UnitOfWork, game: Game, clock: PhaseClock, process: Process, now: datetime) -> None:
    """A phase is processed, by whoever: the turns and points of :func:`apply_dedication`, and the
    powers that missed it without a late notice naming them marked late in the game (their late
    count goes up once, as the first late notice does). ``clock``: the phase before processing,
    the notices sent so far recorded in it."""
    for power in missed_unannounced(clock):
        seat = _seat(game, power)
        if seat is not None:
            seat.late_count += 1
    apply_dedication(uow, game, clock, (process,), now)


def apply_dedication(
    uow: UnitOfWork, game: Game, clock: PhaseClock, events: Sequence[TimekeepingEvent], now: datetime
) -> dict[str, dict[str, int]]:
    """Charge and credit the players of record for ``events`` (decided on ``clock``); rated games only.

    Returns what was added, per power (for logs and tests).
    """
    if not game.rated or not events:
        return {}
    changes: dict[str, Counter[str]] = {}

    def add(power: str, counter: str, amount: int) -> None:
        if amount:
            changes.setdefault(power, Counter())[counter] += amount

    for power, points in points_for_events(clock, events, now, rated=True).items():
        add(power, "dedication", points)
    for event in events:
        if isinstance(event, Abandonment):
            for power in event.powers:
                add(power, "abandonments", 1)
        elif isinstance(event, Process):
            for power in event.newly_in_civil_disorder:
                add(power, "civil_disorders", 1)
            for power, on_time in turns_of_phase(clock, event).items():
                add(power, "turns_due", 1)
                add(power, "turns_on_time" if on_time else "turns_late", 1)
    applied: dict[str, dict[str, int]] = {}
    groups: dict[tuple[tuple[str, int], ...], list[int]] = {}
    for power, counters in sorted(changes.items()):
        seat = _seat(game, power)
        if seat is None or seat.person_id is None:
            continue
        key = tuple(sorted(counters.items()))
        groups.setdefault(key, []).append(seat.person_id)
        applied[power] = dict(counters)
    for key, person_ids in groups.items():
        uow.people.credit(person_ids, dict(key))
    return applied
