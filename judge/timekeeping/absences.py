"""Absences: SET ABSENCE start [TO end], SET NO ABSENCE, SET MAX ABSENCE.

An absence only ever moves the *next* computed deadline out of its span
(see deadlines.next_phase_times); it never touches the current one, because
players have already planned around a deadline that has been announced.

Choices where the Judge is silent or odd:

* Spans are half-open, ``[start, end)``. The Judge stores an end-of-day end
  as 23:59 inclusive; here a date-only end means the next 00:00 exclusive
  (dates.parse_judge_date with role ABSENCE_END does that). Same days, no
  lost minute.
* Overlapping absences of one player are refused (what njudge's code does;
  its docs say they count separately, which only confuses the slot count).
* At most three absences pending per player (njudge's three slots). A
  player's absence longer than MAX ABSENCE days (default 15, settable 0-31)
  is not recorded: the result says it is oversized so the caller can mail
  the master ready-made lines. Masters are exempt from the maximum.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum
from zoneinfo import ZoneInfo

from judge.timekeeping.clock import require_aware
from judge.timekeeping.errors import (
    AbsenceInPastError,
    AbsenceOrderError,
    MaxAbsenceError,
    NoSuchAbsenceError,
    OverlappingAbsenceError,
    TooManyAbsencesError,
)

MAX_PENDING_ABSENCES = 3
DEFAULT_MAX_ABSENCE_DAYS = 15
MAX_ABSENCE_LIMIT = 31
DEFAULT_ABSENCE_LENGTH = timedelta(hours=24)
MASTER = "master"


@dataclass(frozen=True, slots=True)
class Absence:
    """One absence of ``owner`` (a power letter, or MASTER) over ``[start, end)``."""

    owner: str
    start: datetime
    end: datetime
    set_by_master: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "start", require_aware(self.start, "absence start").astimezone(UTC))
        object.__setattr__(self, "end", require_aware(self.end, "absence end").astimezone(UTC))
        if self.end <= self.start:
            raise AbsenceOrderError(
                f"An absence must end after it starts ({self.start:%b %d %H:%M} to {self.end:%b %d %H:%M})."
            )

    def covers(self, when: datetime) -> bool:
        return self.start <= when < self.end

    def overlaps(self, other: Absence) -> bool:
        return self.start < other.end and other.start < self.end

    def calendar_days(self, zone: ZoneInfo) -> int:
        """How many calendar days (judge zone) the absence touches: Nov 20 00:00 to Nov 21 00:00 is 1."""
        first = self.start.astimezone(zone).date()
        last = (self.end - timedelta(microseconds=1)).astimezone(zone).date()
        return (last - first).days + 1


class AbsenceOutcome(Enum):
    RECORDED = "recorded"
    OVERSIZED = "oversized"  # longer than MAX ABSENCE: not recorded, the master decides


@dataclass(frozen=True, slots=True)
class AbsenceDecision:
    """What SET ABSENCE did: the game's absences afterwards, and whether the master must act."""

    outcome: AbsenceOutcome
    absences: tuple[Absence, ...]
    requested: Absence


def validate_max_absence(days: int) -> int:
    """SET MAX ABSENCE n: 0 to 31 days (0 = every player absence needs the master)."""
    if not 0 <= days <= MAX_ABSENCE_LIMIT:
        raise MaxAbsenceError(f"MAX ABSENCE must be between 0 and {MAX_ABSENCE_LIMIT} days, not {days}.")
    return days


def purge_past(absences: Iterable[Absence], now: datetime) -> tuple[Absence, ...]:
    """Drop absences that are over: they can no longer move a deadline."""
    return tuple(a for a in absences if a.end > now)


def request_absence(
    existing: Iterable[Absence],
    requested: Absence,
    *,
    now: datetime,
    zone: ZoneInfo,
    max_days: int = DEFAULT_MAX_ABSENCE_DAYS,
) -> AbsenceDecision:
    """Record ``requested`` among ``existing`` (the whole game's absences) if the rules allow.

    Raises AbsenceInPastError, OverlappingAbsenceError or TooManyAbsencesError;
    returns OVERSIZED (and the absences unchanged) when a non-master asks for
    more than ``max_days`` days.
    """
    require_aware(now, "now")
    pending = purge_past(existing, now)
    if requested.end <= now:
        raise AbsenceInPastError(
            f"That absence ended on {requested.end.astimezone(zone):%a %b %d %Y %H:%M}; "
            "absences must still be running or in the future."
        )
    own = [a for a in pending if a.owner == requested.owner]
    for other in own:
        if other.overlaps(requested):
            raise OverlappingAbsenceError(
                "That absence overlaps the one you already have from "
                f"{other.start.astimezone(zone):%a %b %d %H:%M} to {other.end.astimezone(zone):%a %b %d %H:%M}."
            )
    if len(own) >= MAX_PENDING_ABSENCES:
        raise TooManyAbsencesError(requested.owner, MAX_PENDING_ABSENCES)
    exempt = requested.owner == MASTER or requested.set_by_master
    if not exempt and requested.calendar_days(zone) > max_days:
        return AbsenceDecision(AbsenceOutcome.OVERSIZED, pending, requested)
    ordered = tuple(sorted((*pending, requested), key=lambda a: (a.start, a.owner)))
    return AbsenceDecision(AbsenceOutcome.RECORDED, ordered, requested)


def cancel_absence(existing: Iterable[Absence], owner: str, day: datetime) -> tuple[Absence, ...]:
    """SET NO ABSENCE d: remove ``owner``'s absence that covers ``day`` or starts on it."""
    kept: list[Absence] = []
    removed = False
    for absence in existing:
        if not removed and absence.owner == owner and (absence.covers(day) or absence.start == day):
            removed = True
            continue
        kept.append(absence)
    if not removed:
        raise NoSuchAbsenceError("None of your absences covers that date.")
    return tuple(kept)


def counting_absences(
    absences: Iterable[Absence],
    *,
    owing_orders: frozenset[str],
    strict_wait: bool,
    press_allowed: bool,
    quiet: bool,
) -> tuple[Absence, ...]:
    """The absences that may move the next deadline, by njudge's rule.

    An absence counts if a master set it (or it is the master's); or the game
    is Quiet; or the game has press and is not StrictWait (anyone absent might
    be holding talks up); otherwise only if its power owes orders in the
    phase whose deadline is being computed.
    """
    if quiet or (press_allowed and not strict_wait):
        return tuple(absences)
    return tuple(a for a in absences
                 if a.set_by_master or a.owner == MASTER or a.owner in owing_orders)
