"""What is due in a phase, and when: early processing, reminders, late notices, abandonment, CD.

Everything here is a pure function of a PhaseClock (what the database knows
about the current phase) and ``now``. ``due`` says what must happen now, as
typed events; the caller carries them out (mail, adjudication) and stores
``record(...)``; ``next_wakeup`` says when to look again — the one indexed
column the scheduler needs. Because the decision depends only on stored
state, a judge restarted after any outage does each thing exactly once and
catches up (one late notice, not one per missed day).

The rules (njudge, judge-conventions §5):

* Early processing: when every power that owes orders and is not in civil
  disorder has complete orders, the phase is processed ``delay`` after the
  last orders (never before ``start``; never after the deadline). A WAIT —
  from any player, or with STRICT WAIT only from a power that owes orders —
  holds processing to the deadline. WAIT has no effect once the deadline has
  passed. A power in civil disorder does not hold anything up; if every
  power is in CD the phase runs at ``start`` (what ``min`` is for).
* Reminder: once per phase, from ``reminder_lead`` (8 h) before the
  deadline, to the powers whose orders are not complete.
* Late notice at the deadline (to everyone), then every 24 h to the late
  powers, until abandonment. After an outage only one is sent.
* Abandonment: NoNMR games at the end of grace; NMR games 24 h before it
  (not before the deadline). A power is abandoned at most once per phase
  (a player who signs on again and is still late is not charged twice).
* End of grace: NMR games are processed with the late powers in civil
  disorder — except powers whose orders cover every unit but carry the
  error flag, whose orders are then accepted. NoNMR games wait; a
  "Waiting for Replacements" notice goes out every 48 h.
* PAUSE stops all of it; a reminder that the game is paused every 3 days.

Choices where the sources are silent: the reminder goes only to powers
whose orders are incomplete (the others have nothing to do); late orders
that complete the set after the deadline are processed at once (the delay
exists to let players change their minds before the deadline, and the game
is already late); a daily late notice falling due together with the
abandonment is left out, since the abandonment notice goes to everyone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from enum import Enum
from zoneinfo import ZoneInfo

from judge.timekeeping.absences import Absence
from judge.timekeeping.clock import require_aware
from judge.timekeeping.deadlines import PhaseTimes, next_phase_times
from judge.timekeeping.parameters import PhaseSchedule

REMINDER_LEAD = timedelta(hours=8)
LATE_NOTICE_INTERVAL = timedelta(hours=24)
NMR_ABANDON_BEFORE_GRACE = timedelta(hours=24)
REPLACEMENT_NOTICE_INTERVAL = timedelta(hours=48)
PAUSE_NOTICE_INTERVAL = timedelta(days=3)
DEFAULT_DELAY = timedelta(minutes=30)


@dataclass(frozen=True, slots=True)
class PowerStatus:
    """One power in the current phase, as far as time-keeping cares.

    ``all_units_ordered``: every unit has an order even though the error flag
    keeps the orders from being ``complete``; such orders are accepted at the
    end of grace instead of civil disorder. ``civil_disorder``: in CD since an
    earlier phase (not waited for). ``abandoned``: no player at present.
    """

    power: str
    owes_orders: bool
    complete: bool = False
    all_units_ordered: bool = False
    wait: bool = False
    civil_disorder: bool = False
    abandoned: bool = False


class ProcessReason(Enum):
    ALL_ORDERS_IN = "all orders in"  # early processing, before the deadline
    DEADLINE = "deadline"  # everything in by (or after) the deadline
    GRACE_EXPIRED = "grace expired"  # NMR game: late powers go into civil disorder
    MASTER = "master"  # the master's PROCESS, whatever orders are missing


@dataclass(frozen=True, slots=True)
class Reminder:
    """Mail each of ``powers`` their current orders and the time left."""

    powers: frozenset[str]
    deadline: datetime


@dataclass(frozen=True, slots=True)
class LateNotice:
    """``late`` missed the deadline. ``number`` counts notices this phase; the first goes to everyone."""

    late: frozenset[str]
    on_time: frozenset[str]
    number: int
    to_everyone: bool
    abandon_at: datetime


@dataclass(frozen=True, slots=True)
class Abandonment:
    """``powers`` are abandoned (open to takeover). ``civil_disorder_at``: NMR games only."""

    powers: frozenset[str]
    civil_disorder_at: datetime | None


@dataclass(frozen=True, slots=True)
class WaitingForReplacements:
    """NoNMR game past grace: nothing is processed until ``powers`` are taken over or return."""

    powers: frozenset[str]


@dataclass(frozen=True, slots=True)
class Process:
    """Adjudicate the phase now. Units of ``civil_disorder`` powers hold / disband / are not built."""

    reason: ProcessReason
    civil_disorder: frozenset[str] = frozenset()
    newly_in_civil_disorder: frozenset[str] = frozenset()
    accepted_with_errors: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class PauseReminder:
    """The game has been paused since ``since``."""

    since: datetime


TimekeepingEvent = Reminder | LateNotice | Abandonment | WaitingForReplacements | Process | PauseReminder


@dataclass(frozen=True, slots=True)
class PhaseClock:
    """Everything the time-keeping rules need to know about the current phase.

    The first group is the game's state; the second is the bookkeeping of
    what has already been done (kept up to date by ``record``).
    """

    times: PhaseTimes
    powers: tuple[PowerStatus, ...]
    delay: timedelta = DEFAULT_DELAY
    nmr: bool = False
    strict_wait: bool = False
    master_wait: bool = False
    paused_since: datetime | None = None
    last_orders_at: datetime | None = None
    reminder_lead: timedelta = REMINDER_LEAD

    reminder_sent: bool = False
    late_notices_sent: int = 0
    last_late_notice_at: datetime | None = None
    late_powers: frozenset[str] = frozenset()
    abandoned_this_phase: frozenset[str] = frozenset()
    last_replacement_notice_at: datetime | None = None
    last_pause_notice_at: datetime | None = None
    processed_at: datetime | None = None
    _index: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Optional instants normalised to UTC: "+ 24 h" must be elapsed time across DST changes.
        for name in ("paused_since", "last_orders_at", "last_late_notice_at",
                     "last_replacement_notice_at", "last_pause_notice_at", "processed_at"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, require_aware(value, name).astimezone(UTC))
        letters = [p.power for p in self.powers]
        if len(set(letters)) != len(letters):
            raise ValueError(f"each power may appear once, got {letters}")
        self._index.update({letter: i for i, letter in enumerate(letters)})

    def power(self, letter: str) -> PowerStatus:
        try:
            return self.powers[self._index[letter]]
        except KeyError:
            raise KeyError(f"no power {letter!r} in this phase") from None

    def with_power(self, status: PowerStatus) -> PhaseClock:
        index = self._index[status.power]
        powers = (*self.powers[:index], status, *self.powers[index + 1:])
        return replace(self, powers=powers)

    # -- derived views -------------------------------------------------------------------------
    @property
    def holders(self) -> tuple[PowerStatus, ...]:
        """Powers whose orders are waited for: they owe orders and are not in civil disorder."""
        return tuple(p for p in self.powers if p.owes_orders and not p.civil_disorder)

    @property
    def incomplete(self) -> frozenset[str]:
        return frozenset(p.power for p in self.holders if not p.complete)

    @property
    def in_civil_disorder(self) -> frozenset[str]:
        return frozenset(p.power for p in self.powers if p.owes_orders and p.civil_disorder)

    @property
    def abandon_at(self) -> datetime:
        if self.nmr:
            return max(self.times.deadline, self.times.grace - NMR_ABANDON_BEFORE_GRACE)
        return self.times.grace

    def waiting(self) -> bool:
        """Is a WAIT in force (before the deadline)?"""
        if self.master_wait and not self.strict_wait:
            return True
        return any(p.wait and not p.civil_disorder and (p.owes_orders or not self.strict_wait)
                   for p in self.powers)

    def processing_time(self) -> datetime | None:
        """When the phase will be processed if nothing changes, or None while orders are missing."""
        if self.incomplete:
            return None
        if self.waiting():
            return max(self.times.start, self.times.deadline)
        if self.last_orders_at is None:  # nobody had to send anything: everyone is in CD
            return self.times.start
        return max(self.times.start, min(self.times.deadline, self.last_orders_at + self.delay))

    def next_late_notice_at(self) -> datetime:
        if self.last_late_notice_at is None:
            return self.times.deadline
        elapsed = self.last_late_notice_at - self.times.deadline
        slots = elapsed // LATE_NOTICE_INTERVAL + 1 if elapsed >= timedelta() else 0
        return self.times.deadline + slots * LATE_NOTICE_INTERVAL


def due(clock: PhaseClock, now: datetime) -> tuple[TimekeepingEvent, ...]:
    """What must happen at ``now``, in the order it should be done."""
    now = require_aware(now, "now").astimezone(UTC)
    if clock.processed_at is not None:
        return ()
    if clock.paused_since is not None:
        since = clock.last_pause_notice_at or clock.paused_since
        if now >= since + PAUSE_NOTICE_INTERVAL:
            return (PauseReminder(clock.paused_since),)
        return ()

    at = clock.processing_time()
    if at is not None:
        if now < at:
            return ()
        reason = ProcessReason.ALL_ORDERS_IN if at < clock.times.deadline else ProcessReason.DEADLINE
        return (Process(reason, civil_disorder=clock.in_civil_disorder),)

    incomplete = clock.incomplete
    deadline = clock.times.deadline
    if now < deadline:
        if not clock.reminder_sent and now >= deadline - clock.reminder_lead:
            return (Reminder(incomplete, deadline),)
        return ()

    events: list[TimekeepingEvent] = []
    abandon_at = clock.abandon_at
    first = clock.late_notices_sent == 0
    if now >= clock.next_late_notice_at() and (first or now < abandon_at):
        on_time = frozenset(p.power for p in clock.holders if p.complete)
        events.append(LateNotice(incomplete, on_time, clock.late_notices_sent + 1, first, abandon_at))

    to_abandon = frozenset(
        p.power for p in clock.holders
        if p.power in incomplete and not p.abandoned and p.power not in clock.abandoned_this_phase
    )
    if now >= abandon_at and to_abandon:
        events.append(Abandonment(to_abandon, clock.times.grace if clock.nmr else None))

    if now >= clock.times.grace:
        if clock.nmr:
            flagged = frozenset(p.power for p in clock.holders
                                if p.power in incomplete and p.all_units_ordered)
            new_cd = incomplete - flagged
            events.append(Process(ProcessReason.GRACE_EXPIRED,
                                  civil_disorder=new_cd | clock.in_civil_disorder,
                                  newly_in_civil_disorder=new_cd,
                                  accepted_with_errors=flagged))
        else:
            since = clock.last_replacement_notice_at or clock.times.grace
            if now >= since + REPLACEMENT_NOTICE_INTERVAL:
                events.append(WaitingForReplacements(incomplete))
    return tuple(events)


def record(clock: PhaseClock, events: Iterable[TimekeepingEvent], now: datetime) -> PhaseClock:
    """The bookkeeping after ``events`` (from ``due(clock, now)``) have been carried out at ``now``."""
    require_aware(now, "now")
    for event in events:
        if isinstance(event, Reminder):
            clock = replace(clock, reminder_sent=True)
        elif isinstance(event, LateNotice):
            clock = replace(clock, late_notices_sent=clock.late_notices_sent + 1,
                            last_late_notice_at=now, late_powers=clock.late_powers | event.late)
        elif isinstance(event, Abandonment):
            for letter in event.powers:
                clock = clock.with_power(replace(clock.power(letter), abandoned=True))
            clock = replace(clock, abandoned_this_phase=clock.abandoned_this_phase | event.powers)
        elif isinstance(event, WaitingForReplacements):
            clock = replace(clock, last_replacement_notice_at=now)
        elif isinstance(event, PauseReminder):
            clock = replace(clock, last_pause_notice_at=now)
        elif isinstance(event, Process):
            for letter in event.newly_in_civil_disorder:
                clock = clock.with_power(replace(clock.power(letter), civil_disorder=True))
            clock = replace(clock, processed_at=now)
    return clock


def _thresholds(clock: PhaseClock) -> list[datetime]:
    """Every instant at which ``due`` may change its answer for this (unchanged) clock."""
    times = clock.times
    if clock.processed_at is not None:
        return []
    if clock.paused_since is not None:
        return [(clock.last_pause_notice_at or clock.paused_since) + PAUSE_NOTICE_INTERVAL]
    at = clock.processing_time()
    if at is not None:
        return [at]
    candidates = [times.deadline - clock.reminder_lead, times.deadline, clock.next_late_notice_at(),
                  clock.abandon_at, times.grace]
    if not clock.nmr:
        candidates.append((clock.last_replacement_notice_at or times.grace)
                          + REPLACEMENT_NOTICE_INTERVAL)
    return candidates


def next_wakeup(clock: PhaseClock, now: datetime) -> datetime | None:
    """The earliest instant at or after ``now`` at which ``due`` has something, or None.

    Returns ``now`` itself when something is already due. Store it (after
    ``record``) as the game's due time; a restart needs nothing else.
    """
    now = require_aware(now, "now").astimezone(UTC)
    for moment in sorted({now, *(t for t in _thresholds(clock) if t > now)}):
        if due(clock, moment):
            return moment
    return None


@dataclass(frozen=True, slots=True)
class Tick:
    """One wake-up of the scheduler: what to do, the bookkeeping afterwards, when to wake next.

    ``before`` is kept for dedication.points_for_events, which judges
    punctuality on the state the events were decided from.
    """

    before: PhaseClock
    events: tuple[TimekeepingEvent, ...]
    after: PhaseClock
    wake_at: datetime | None


def tick(clock: PhaseClock, now: datetime) -> Tick:
    """``due`` + ``record`` + ``next_wakeup`` in one call, for a scheduler that carries out
    the events and then stores ``after`` and ``wake_at`` in one transaction."""
    now = require_aware(now, "now").astimezone(UTC)
    events = due(clock, now)
    after = record(clock, events, now)
    return Tick(before=clock, events=events, after=after, wake_at=next_wakeup(after, now))


# -- state changes caused by players and masters ---------------------------------------------------

def begin_phase(times: PhaseTimes, powers: Iterable[PowerStatus], *, delay: timedelta,
                nmr: bool = False, strict_wait: bool = False) -> PhaseClock:
    """A fresh phase: WAIT flags and orders cleared (the Judge clears WAIT at processing)."""
    fresh = tuple(replace(p, complete=False, all_units_ordered=False, wait=False) for p in powers)
    return PhaseClock(times=times, powers=fresh, delay=delay, nmr=nmr, strict_wait=strict_wait)


def orders_received(clock: PhaseClock, power: str, *, complete: bool, all_units_ordered: bool,
                    at: datetime) -> PhaseClock:
    """A power's orders (re)stated at ``at``; the delay runs from the last orders of anyone."""
    require_aware(at, "at")
    status = replace(clock.power(power), complete=complete,
                     all_units_ordered=all_units_ordered or complete)
    last = at if clock.last_orders_at is None else max(at, clock.last_orders_at)
    return replace(clock.with_power(status), last_orders_at=last)


def set_wait(clock: PhaseClock, power: str, wait: bool) -> PhaseClock:
    """SET WAIT / SET NOWAIT by the player of ``power``."""
    return clock.with_power(replace(clock.power(power), wait=wait))


def player_returns(clock: PhaseClock, power: str) -> PhaseClock:
    """Any SIGNON of a power clears its civil-disorder and abandoned state."""
    return clock.with_power(replace(clock.power(power), civil_disorder=False, abandoned=False))


@dataclass(frozen=True, slots=True)
class TakeoverResult:
    clock: PhaseClock
    deadline_recomputed: bool


def takeover(clock: PhaseClock, power: str, *, now: datetime, schedule: PhaseSchedule,
             zone: ZoneInfo, strict_grace: bool = False,
             absences: Iterable[Absence] = ()) -> TakeoverResult:
    """A new player takes over ``power``.

    The taker gets WAIT set (time to read the position). If no other power is
    still abandoned, the deadline and grace are computed afresh from ``now``
    and WAIT is set for every active power, so nobody is rushed by the
    sudden restart (the Judge announces the new deadline).
    """
    require_aware(now, "now")
    clock = player_returns(clock, power)
    clock = set_wait(clock, power, True)
    if any(p.abandoned for p in clock.powers):
        return TakeoverResult(clock, deadline_recomputed=False)
    times = next_phase_times(now, schedule, zone, previous=clock.times, absences=absences,
                             strict_grace=strict_grace, same_phase=True)
    powers = tuple(replace(p, wait=True) if not p.civil_disorder else p for p in clock.powers)
    fresh = replace(clock, times=times, powers=powers, reminder_sent=False, late_notices_sent=0,
                    last_late_notice_at=None, abandoned_this_phase=frozenset(),
                    last_replacement_notice_at=None)
    return TakeoverResult(fresh, deadline_recomputed=True)


def pause(clock: PhaseClock, now: datetime) -> PhaseClock:
    """PAUSE: nothing falls due until RESUME, except a reminder every 3 days."""
    require_aware(now, "now")
    if clock.paused_since is not None:
        return clock
    return replace(clock, paused_since=now, last_pause_notice_at=None)


def resume(clock: PhaseClock, *, now: datetime, schedule: PhaseSchedule, zone: ZoneInfo,
           strict_grace: bool = False, absences: Iterable[Absence] = ()) -> PhaseClock:
    """RESUME: a fresh deadline from now (never earlier than the one before the pause)."""
    require_aware(now, "now")
    times = next_phase_times(now, schedule, zone, previous=clock.times, absences=absences,
                             strict_grace=strict_grace, same_phase=True)
    return replace(clock, times=times, paused_since=None, last_pause_notice_at=None,
                   reminder_sent=False, late_notices_sent=0, last_late_notice_at=None,
                   abandoned_this_phase=frozenset(), last_replacement_notice_at=None)
