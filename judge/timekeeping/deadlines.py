"""Computing a phase's start, deadline and grace, and the master's SET DEADLINE/GRACE/START.

The rule (njudge, judge-conventions §5), applied after processing, on
RESUME, after a takeover, and at the start of a game:

1. t = max(now + next, previous deadline, now + min). A deadline never comes
   earlier than the last one (early processing does not shorten the
   calendar), nor before the phase may start.
2. clock: t goes to the clock time that day, or the next day if past it.
3. days: a ``-`` day pushes t to the next midnight; a lower-case day before
   noon pushes it to 12:00.
4. an absence that counts and covers t pushes t to its end.
   Steps 2-4 repeat until nothing moves.
5. grace = deadline + grace, then slid over ``-`` and lower-case mornings
   like step 3 unless STRICT GRACE; never earlier than the previous grace.
   start = now + min.

Hours are added as elapsed time in UTC; clock and days are judged on the
wall clock of the judge's zone. Across daylight-saving changes:

* a clock time that does not exist that day (spring forward) means the
  first instant after the gap (02:30 in Paris on the last Sunday of March
  is 03:30 CEST), the usual reading of "at 02:30";
* a clock time that happens twice (fall back) means the first of the two,
  so a deadline is never later than the wall clock said.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from judge.timekeeping.absences import Absence
from judge.timekeeping.clock import require_aware
from judge.timekeeping.errors import PhaseTimesError
from judge.timekeeping.parameters import DayRule, PhaseSchedule, WeekDays

_NOON = time(12, 0)
_MAX_STEPS = 1_000


@dataclass(frozen=True, slots=True)
class PhaseTimes:
    """When the current phase may be processed (start), is due (deadline) and runs out (grace).

    All three are aware datetimes in UTC and always ``start <= deadline <= grace``.
    """

    start: datetime
    deadline: datetime
    grace: datetime

    def __post_init__(self) -> None:
        # Normalised to UTC so that adding hours is elapsed time, whatever zone the caller used.
        for name in ("start", "deadline", "grace"):
            object.__setattr__(self, name, require_aware(getattr(self, name), name).astimezone(UTC))
        if not self.start <= self.deadline <= self.grace:
            raise PhaseTimesError(
                f"start ({self.start}), deadline ({self.deadline}) and grace ({self.grace}) "
                "must come in that order"
            )


def _local(when: datetime, zone: ZoneInfo) -> datetime:
    return when.astimezone(zone)


def _at_wall_time(day: datetime, wall: time, zone: ZoneInfo) -> datetime:
    """``wall`` on the local date of ``day``, resolved as documented above (gap: after; overlap: first)."""
    local = datetime.combine(day.astimezone(zone).date(), wall, tzinfo=zone)
    return local.astimezone(UTC)


def _next_midnight(when: datetime, zone: ZoneInfo) -> datetime:
    tomorrow = when.astimezone(zone).date() + timedelta(days=1)
    return datetime.combine(tomorrow, time(0, 0), tzinfo=zone).astimezone(UTC)


def snap_to_clock(when: datetime, clock: int, zone: ZoneInfo) -> datetime:
    """The first instant at or after ``when`` that is ``clock`` minutes after midnight locally."""
    wall = time(clock // 60, clock % 60)
    candidate = _at_wall_time(when, wall, zone)
    day = when
    while candidate < when:
        day = _next_midnight(day, zone)
        candidate = _at_wall_time(day, wall, zone)
    return candidate


def snap_to_days(when: datetime, days: WeekDays, zone: ZoneInfo) -> datetime:
    """The first instant at or after ``when`` that the ``days`` rule allows."""
    for _ in range(8 * 2):
        rule = days.rule(_local(when, zone).weekday())
        if rule is DayRule.NEVER:
            when = _next_midnight(when, zone)
            continue
        if rule is DayRule.AFTERNOON and _local(when, zone).time() < _NOON:
            noon = _at_wall_time(when, _NOON, zone)
            if noon > when:
                return noon
        return when
    raise AssertionError(f"no allowed day in {days}")  # WeekDays guarantees one


def _out_of_absences(when: datetime, absences: tuple[Absence, ...]) -> datetime:
    moved = True
    while moved:
        moved = False
        for absence in absences:
            if absence.covers(when):
                when = absence.end
                moved = True
    return when


def snap_deadline(when: datetime, schedule: PhaseSchedule, zone: ZoneInfo,
                  absences: Iterable[Absence] = ()) -> datetime:
    """Steps 2-4: the first acceptable deadline at or after ``when``."""
    spans = tuple(absences)
    when = when.astimezone(UTC)
    for _ in range(_MAX_STEPS):
        before = when
        if schedule.clock is not None:
            when = snap_to_clock(when, schedule.clock, zone)
        when = snap_to_days(when, schedule.days, zone)
        when = _out_of_absences(when, spans)
        if when == before:
            return when
    raise AssertionError("deadline computation did not settle")  # pragma: no cover


def grace_end(deadline: datetime, schedule: PhaseSchedule, zone: ZoneInfo, *,
              strict_grace: bool) -> datetime:
    """Step 5: the end of grace for ``deadline`` (without the never-earlier bound)."""
    end = deadline + schedule.grace
    if strict_grace:
        return end
    return snap_to_days(end, schedule.days, zone)


def next_phase_times(
    now: datetime,
    schedule: PhaseSchedule,
    zone: ZoneInfo,
    *,
    previous: PhaseTimes | None = None,
    absences: Iterable[Absence] = (),
    strict_grace: bool = False,
    game_start: bool = False,
    same_phase: bool = False,
) -> PhaseTimes:
    """Start, deadline and grace of a phase beginning at ``now``.

    ``previous`` is the times of the phase just processed (or of the current
    phase, on RESUME or after a takeover, with ``same_phase``): the deadline
    will not be earlier than its, so early processing does not shorten the
    calendar. The grace is the new phase's own (a retreat's 71 hours after a
    movement's week, issue 13); only when the same phase gets new times
    (``same_phase``) is it never earlier than the grace it had. ``absences``
    are those that count (see absences.counting_absences). ``game_start``
    doubles ``next``, as the Judge does for the first deadline of a press
    game, to leave time to talk.
    """
    require_aware(now, "now")
    now = now.astimezone(UTC)
    start = now + schedule.minimum
    step = schedule.next * (2 if game_start else 1)
    earliest = max(now + step, start)
    if previous is not None:
        earliest = max(earliest, previous.deadline)
    deadline = snap_deadline(earliest, schedule, zone, absences)
    grace = grace_end(deadline, schedule, zone, strict_grace=strict_grace)
    if previous is not None and same_phase:
        grace = max(grace, previous.grace)
    return PhaseTimes(start=start, deadline=deadline, grace=grace)


def set_deadline(times: PhaseTimes, when: datetime, schedule: PhaseSchedule, zone: ZoneInfo, *,
                 strict_grace: bool = False) -> PhaseTimes:
    """SET DEADLINE: the master's date is taken as given (no snapping), earlier or later.

    A later deadline also pushes grace to at least deadline + grace (so a
    postponement does not eat into the grace period); an earlier one leaves
    grace alone. A deadline before the start brings the start with it.
    """
    when = require_aware(when, "deadline").astimezone(UTC)
    grace = times.grace
    if when > times.deadline:
        grace = max(grace, grace_end(when, schedule, zone, strict_grace=strict_grace))
    return PhaseTimes(start=min(times.start, when), deadline=when, grace=max(grace, when))


def set_grace(times: PhaseTimes, when: datetime) -> PhaseTimes:
    """SET GRACE: must not end before the deadline."""
    when = require_aware(when, "grace").astimezone(UTC)
    if when < times.deadline:
        raise PhaseTimesError(
            "The grace period cannot end before the deadline; set a later deadline first."
        )
    return PhaseTimes(start=times.start, deadline=times.deadline, grace=when)


def set_start(times: PhaseTimes, when: datetime, schedule: PhaseSchedule, zone: ZoneInfo, *,
              strict_grace: bool = False) -> PhaseTimes:
    """SET START: the earliest processing time; past the deadline it moves the deadline too."""
    when = require_aware(when, "start").astimezone(UTC)
    if when > times.deadline:
        moved = set_deadline(times, when, schedule, zone, strict_grace=strict_grace)
        return PhaseTimes(start=when, deadline=moved.deadline, grace=moved.grace)
    return PhaseTimes(start=when, deadline=times.deadline, grace=times.grace)
