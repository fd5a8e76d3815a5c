"""Deadline computation with a fake clock, in the judge's zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from judge.timekeeping.absences import Absence
from judge.timekeeping.clock import FakeClock
from judge.timekeeping.deadlines import (
    PhaseTimes,
    grace_end,
    next_phase_times,
    set_deadline,
    set_grace,
    set_start,
    snap_deadline,
)
from judge.timekeeping.errors import PhaseTimesError
from judge.timekeeping.parameters import DEFAULT_MOVE, DEFAULT_RETREAT, PhaseSchedule, WeekDays

PARIS = ZoneInfo("Europe/Paris")
NEW_YORK = ZoneInfo("America/New_York")
EVERY_DAY = WeekDays("SMTWTFS")


def paris(year: int, month: int, day: int, hour: int, minute: int) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=PARIS)


def local(when: datetime, zone: ZoneInfo = PARIS) -> str:
    return when.astimezone(zone).strftime("%a %Y-%m-%d %H:%M %z")


def schedule(**changes: object) -> PhaseSchedule:
    values: dict[str, object] = {"clock": None, "min_hours": 0, "next_hours": 24, "grace_hours": 48,
                                 "delay_hours": 0.5, "days": EVERY_DAY}
    values.update(changes)
    return PhaseSchedule(**values)  # type: ignore[arg-type]


# -- clock snapping, next, min ---------------------------------------------------------------------

def test_next_71_with_clock_2330_gives_the_same_clock_three_days_on() -> None:
    clock = FakeClock(paris(2026, 11, 16, 23, 30))  # processed at Monday's deadline
    times = next_phase_times(clock.now(), DEFAULT_MOVE, PARIS)
    assert local(times.deadline) == "Thu 2026-11-19 23:30 +0100"
    assert times.start == clock.now() + timedelta(hours=12)
    assert local(times.grace) == "Thu 2026-11-26 22:30 +0100"  # 167 h later, a Thursday


def test_clock_snaps_forward_to_the_same_day_when_not_yet_past() -> None:
    times = next_phase_times(paris(2026, 11, 16, 10, 0), DEFAULT_MOVE, PARIS)
    assert local(times.deadline) == "Thu 2026-11-19 23:30 +0100"  # 71 h -> Thu 09:00 -> 23:30


def test_clock_past_goes_to_the_next_day() -> None:
    rule = schedule(clock=9 * 60, next_hours=1)
    times = next_phase_times(paris(2026, 11, 17, 10, 0), rule, PARIS)
    assert local(times.deadline) == "Wed 2026-11-18 09:00 +0100"


def test_weekend_is_skipped_to_monday_with_the_default_days() -> None:
    times = next_phase_times(paris(2026, 11, 18, 23, 30), DEFAULT_MOVE, PARIS)  # Wednesday
    assert local(times.deadline) == "Mon 2026-11-23 23:30 +0100"


def test_older_help_files_days_skip_to_tuesday() -> None:
    rule = DEFAULT_MOVE.with_settings("DAYS --TWTF-")
    times = next_phase_times(paris(2026, 11, 18, 23, 30), rule, PARIS)
    assert local(times.deadline) == "Tue 2026-11-24 23:30 +0100"


def test_lower_case_day_means_only_after_noon() -> None:
    # Saturday 10:00 + 23 h = Sunday 09:00 -> Sunday is '-' -> Monday 00:00 -> 'm' -> 12:00
    times = next_phase_times(paris(2026, 11, 21, 10, 0), DEFAULT_RETREAT, PARIS)
    assert local(times.deadline) == "Mon 2026-11-23 12:00 +0100"


def test_lower_case_day_afternoon_is_kept() -> None:
    times = next_phase_times(paris(2026, 11, 22, 14, 0), DEFAULT_RETREAT, PARIS)
    assert local(times.deadline) == "Mon 2026-11-23 13:00 +0100"


def test_lower_case_day_with_a_morning_clock_is_never_used() -> None:
    rule = schedule(clock=10 * 60, next_hours=0, days=WeekDays("smtwtfS"))
    times = next_phase_times(paris(2026, 11, 16, 8, 0), rule, PARIS)  # Monday morning
    assert local(times.deadline) == "Sat 2026-11-21 10:00 +0100"


def test_min_sets_the_start_and_the_deadline_is_never_before_it() -> None:
    rule = schedule(min_hours=12, next_hours=1)
    now = paris(2026, 11, 16, 10, 0)
    times = next_phase_times(now, rule, PARIS)
    assert times.start == times.deadline == now + timedelta(hours=12)


def test_game_start_doubles_next() -> None:
    rule = schedule(next_hours=24)
    now = paris(2026, 11, 16, 10, 0)
    assert next_phase_times(now, rule, PARIS, game_start=True).deadline == now + timedelta(hours=48)


def test_never_earlier_than_the_previous_deadline() -> None:
    previous = PhaseTimes(paris(2026, 11, 16, 12, 0), paris(2026, 11, 19, 23, 30),
                          paris(2026, 11, 26, 22, 30))
    # Early processing on Monday: retreats would be due Tuesday, but the calendar is not shortened.
    times = next_phase_times(paris(2026, 11, 16, 22, 0), DEFAULT_RETREAT, PARIS, previous=previous)
    assert times.deadline == previous.deadline
    # The new phase's own grace (issue 13): the retreat's 71 hours from that deadline (a Sunday,
    # slid to Monday noon, "m" in -mTWTF-), not the week of the phase before.
    assert times.grace == paris(2026, 11, 23, 12, 0)
    # The same phase given new times (RESUME, a takeover) never has its grace shortened.
    again = next_phase_times(paris(2026, 11, 16, 22, 0), DEFAULT_RETREAT, PARIS, previous=previous, same_phase=True)
    assert again.grace == previous.grace


# -- grace ------------------------------------------------------------------------------------------

def test_grace_slides_over_forbidden_days_unless_strict() -> None:
    rule = DEFAULT_MOVE.with_settings("GRACE 24")
    deadline = paris(2026, 11, 20, 23, 30)  # Friday
    assert local(grace_end(deadline, rule, PARIS, strict_grace=False)) == "Mon 2026-11-23 00:00 +0100"
    assert local(grace_end(deadline, rule, PARIS, strict_grace=True)) == "Sat 2026-11-21 23:30 +0100"


def test_grace_slides_to_noon_on_a_lower_case_day() -> None:
    rule = DEFAULT_RETREAT.with_settings("GRACE 48")
    deadline = paris(2026, 11, 21, 9, 0)  # Saturday -> Monday 09:00 -> 'm' -> noon
    assert local(grace_end(deadline, rule, PARIS, strict_grace=False)) == "Mon 2026-11-23 12:00 +0100"


def test_strict_grace_is_an_absolute_interval_in_next_phase_times() -> None:
    rule = DEFAULT_MOVE.with_settings("GRACE 24")
    now = paris(2026, 11, 17, 23, 30)  # Tuesday -> Friday 23:30 deadline
    relaxed = next_phase_times(now, rule, PARIS)
    strict = next_phase_times(now, rule, PARIS, strict_grace=True)
    assert relaxed.deadline == strict.deadline
    assert strict.grace - strict.deadline == timedelta(hours=24)
    assert local(relaxed.grace) == "Mon 2026-11-23 00:00 +0100"


# -- absences ---------------------------------------------------------------------------------------

def test_absence_moves_the_next_deadline_out() -> None:
    away = Absence("F", paris(2026, 11, 19, 0, 0), paris(2026, 11, 21, 0, 0))  # Thu + Fri
    times = next_phase_times(paris(2026, 11, 16, 23, 30), DEFAULT_MOVE, PARIS, absences=[away])
    # Thursday 23:30 is covered -> end (Sat 00:00) -> weekend -> Monday 23:30
    assert local(times.deadline) == "Mon 2026-11-23 23:30 +0100"


def test_absences_chain_and_repeat_until_stable() -> None:
    first = Absence("F", paris(2026, 11, 19, 0, 0), paris(2026, 11, 20, 0, 0))
    second = Absence("G", paris(2026, 11, 20, 0, 0), paris(2026, 11, 24, 0, 0))
    times = next_phase_times(paris(2026, 11, 16, 23, 30), DEFAULT_MOVE, PARIS,
                             absences=[second, first])
    assert local(times.deadline) == "Tue 2026-11-24 23:30 +0100"


def test_absence_not_covering_the_computed_deadline_changes_nothing() -> None:
    # An absence running now, in the current phase, ends before the new deadline: no effect.
    now = paris(2026, 11, 16, 23, 30)
    away_now = Absence("F", paris(2026, 11, 16, 0, 0), paris(2026, 11, 18, 0, 0))
    later = Absence("E", paris(2026, 11, 20, 0, 0), paris(2026, 11, 21, 0, 0))
    plain = next_phase_times(now, DEFAULT_MOVE, PARIS)
    assert next_phase_times(now, DEFAULT_MOVE, PARIS, absences=[away_now, later]) == plain


def test_snap_deadline_without_clock_lands_at_absence_end() -> None:
    away = Absence("F", paris(2026, 11, 17, 0, 0), paris(2026, 11, 18, 15, 0))
    assert snap_deadline(paris(2026, 11, 17, 9, 0), schedule(), PARIS, [away]) == paris(2026, 11, 18, 15, 0)


# -- daylight-saving changes -------------------------------------------------------------------------

def test_paris_autumn_change_keeps_the_wall_clock() -> None:
    times = next_phase_times(paris(2026, 10, 22, 23, 30), DEFAULT_MOVE, PARIS)  # CEST Thursday
    assert local(times.deadline) == "Mon 2026-10-26 23:30 +0100"  # CET after Sunday's change
    assert times.deadline == datetime(2026, 10, 26, 22, 30, tzinfo=UTC)


def test_paris_spring_change_keeps_the_wall_clock() -> None:
    times = next_phase_times(paris(2026, 3, 26, 23, 30), DEFAULT_MOVE, PARIS)  # CET Thursday
    assert local(times.deadline) == "Mon 2026-03-30 23:30 +0200"
    assert times.deadline == datetime(2026, 3, 30, 21, 30, tzinfo=UTC)


def test_clock_in_the_spring_gap_means_just_after_it() -> None:
    rule = schedule(clock=2 * 60 + 30, next_hours=12)
    times = next_phase_times(paris(2026, 3, 28, 10, 0), rule, PARIS)
    assert local(times.deadline) == "Sun 2026-03-29 03:30 +0200"
    assert times.deadline == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)


def test_clock_in_the_autumn_overlap_means_the_first_occurrence() -> None:
    rule = schedule(clock=2 * 60 + 30, next_hours=12)
    times = next_phase_times(paris(2026, 10, 24, 10, 0), rule, PARIS)
    assert times.deadline == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 02:30 CEST
    assert local(times.deadline) == "Sun 2026-10-25 02:30 +0200"


def test_hours_are_elapsed_time_across_new_york_spring_change() -> None:
    now = datetime(2026, 3, 7, 12, 0, tzinfo=NEW_YORK)  # Saturday, EST
    times = next_phase_times(now, schedule(next_hours=23), NEW_YORK)
    assert times.deadline - now == timedelta(hours=23)
    assert local(times.deadline, NEW_YORK) == "Sun 2026-03-08 12:00 -0400"


def test_new_york_autumn_change_with_clock() -> None:
    now = datetime(2026, 10, 29, 23, 30, tzinfo=NEW_YORK)  # Thursday, EDT
    times = next_phase_times(now, DEFAULT_MOVE, NEW_YORK)
    assert local(times.deadline, NEW_YORK) == "Mon 2026-11-02 23:30 -0500"


def test_a_week_of_phases_in_paris_across_the_change() -> None:
    clock = FakeClock(paris(2026, 10, 19, 23, 30))
    previous: PhaseTimes | None = None
    seen = []
    for _ in range(4):
        times = next_phase_times(clock.now(), DEFAULT_MOVE, PARIS, previous=previous)
        seen.append(local(times.deadline))
        clock.set(times.deadline)
        previous = times
    assert seen == ["Thu 2026-10-22 23:30 +0200", "Mon 2026-10-26 23:30 +0100",
                    "Thu 2026-10-29 23:30 +0100", "Mon 2026-11-02 23:30 +0100"]


# -- SET DEADLINE / GRACE / START --------------------------------------------------------------------

def _current() -> PhaseTimes:
    return PhaseTimes(paris(2026, 11, 16, 12, 0), paris(2026, 11, 19, 23, 30),
                      paris(2026, 11, 26, 22, 30))


def test_later_set_deadline_pushes_grace() -> None:
    moved = set_deadline(_current(), paris(2026, 11, 24, 23, 30), DEFAULT_MOVE, PARIS)
    assert moved.deadline == paris(2026, 11, 24, 23, 30)
    assert local(moved.grace) == "Tue 2026-12-01 22:30 +0100"


def test_earlier_set_deadline_leaves_grace() -> None:
    moved = set_deadline(_current(), paris(2026, 11, 18, 12, 0), DEFAULT_MOVE, PARIS)
    assert moved.deadline == paris(2026, 11, 18, 12, 0)
    assert moved.grace == _current().grace


def test_set_deadline_is_taken_as_given_without_snapping() -> None:
    sunday = paris(2026, 11, 22, 10, 15)
    assert set_deadline(_current(), sunday, DEFAULT_MOVE, PARIS).deadline == sunday


def test_set_deadline_before_start_brings_start_along() -> None:
    early = paris(2026, 11, 16, 11, 0)
    moved = set_deadline(_current(), early, DEFAULT_MOVE, PARIS)
    assert moved.start == early == moved.deadline


def test_set_grace_must_not_end_before_the_deadline() -> None:
    assert set_grace(_current(), paris(2026, 11, 20, 9, 0)).grace == paris(2026, 11, 20, 9, 0)
    with pytest.raises(PhaseTimesError, match="before the deadline"):
        set_grace(_current(), paris(2026, 11, 19, 9, 0))


def test_set_start_past_the_deadline_moves_the_deadline() -> None:
    moved = set_start(_current(), paris(2026, 11, 21, 9, 0), DEFAULT_MOVE, PARIS)
    assert moved.start == moved.deadline == paris(2026, 11, 21, 9, 0)
    assert moved.grace >= moved.deadline + timedelta(hours=167)
    kept = set_start(_current(), paris(2026, 11, 17, 9, 0), DEFAULT_MOVE, PARIS)
    assert kept.deadline == _current().deadline and kept.start == paris(2026, 11, 17, 9, 0)


def test_phase_times_must_be_in_order_and_aware() -> None:
    with pytest.raises(PhaseTimesError):
        PhaseTimes(paris(2026, 11, 20, 0, 0), paris(2026, 11, 19, 0, 0), paris(2026, 11, 21, 0, 0))
    with pytest.raises(ValueError, match="aware"):
        PhaseTimes(datetime(2026, 1, 1), datetime(2026, 1, 2), datetime(2026, 1, 3))
