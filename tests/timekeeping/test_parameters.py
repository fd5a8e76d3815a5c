from __future__ import annotations

import pytest

from judge.core.phase import PhaseType
from judge.timekeeping.errors import ScheduleError
from judge.timekeeping.parameters import (
    DEFAULT_ADJUST,
    DEFAULT_MOVE,
    DEFAULT_RETREAT,
    DEFAULT_SCHEDULE,
    DayRule,
    PhaseSchedule,
    ScheduleKind,
    WeekDays,
    parse_clock,
    parse_hours,
)


def test_judge_defaults() -> None:
    assert (DEFAULT_MOVE.clock, DEFAULT_MOVE.min_hours, DEFAULT_MOVE.next_hours,
            DEFAULT_MOVE.grace_hours, DEFAULT_MOVE.delay_hours, str(DEFAULT_MOVE.days)) == (
        1410, 12, 71, 167, 0.5, "-MTWTF-")
    for schedule in (DEFAULT_RETREAT, DEFAULT_ADJUST):
        assert (schedule.clock, schedule.min_hours, schedule.next_hours, schedule.grace_hours,
                schedule.delay_hours, str(schedule.days)) == (None, 0, 23, 71, 0.5, "-mTWTF-")


def test_format_is_the_judges_listing() -> None:
    assert DEFAULT_SCHEDULE.format().splitlines() == [
        "Move    clock 1410 min 12.00 next 71.00 grace 167.00 delay 0.50 days -MTWTF-",
        "Retreat clock   -1 min  0.00 next 23.00 grace  71.00 delay 0.50 days -mTWTF-",
        "Adjust  clock   -1 min  0.00 next 23.00 grace  71.00 delay 0.50 days -mTWTF-",
    ]


def test_for_phase_picks_the_schedule_of_the_phase_type() -> None:
    assert DEFAULT_SCHEDULE.for_phase(PhaseType.MOVEMENT) is DEFAULT_MOVE
    assert DEFAULT_SCHEDULE.for_phase(PhaseType.RETREAT) is DEFAULT_RETREAT
    assert DEFAULT_SCHEDULE.for_phase(PhaseType.ADJUSTMENT) is DEFAULT_ADJUST


def test_set_moves_next_and_delay_as_in_the_help_file() -> None:
    schedule = DEFAULT_SCHEDULE.apply_set("MOVES NEXT 48.0 DELAY 1.0")
    assert schedule.move.next_hours == 48 and schedule.move.delay_hours == 1.0
    assert schedule.move.clock == 1410 and schedule.retreat == DEFAULT_RETREAT
    builds = DEFAULT_SCHEDULE.apply_set("builds delay 1.0")
    assert builds.adjust.delay_hours == 1.0 and builds.move == DEFAULT_MOVE


def test_every_parameter_can_be_set_and_the_last_value_wins() -> None:
    changed = DEFAULT_RETREAT.with_settings(
        "clock 600 min 1 next 47.5 grace 24 delay 0 days SMTWTFS clock 23:45")
    assert changed == PhaseSchedule(clock=23 * 60 + 45, min_hours=1, next_hours=47.5,
                                    grace_hours=24, delay_hours=0, days=WeekDays("SMTWTFS"))
    assert DEFAULT_MOVE.with_settings("CLOCK -1").clock is None


@pytest.mark.parametrize("text, parameter", [
    ("CLOCK 1440", "CLOCK"), ("CLOCK 25:00", "CLOCK"), ("CLOCK noon", "CLOCK"),
    ("NEXT -1", "NEXT"), ("GRACE lots", "GRACE"), ("DELAY nan", "DELAY"), ("MIN 99999", "MIN"),
    ("DAYS MTWTF", "DAYS"), ("DAYS -------", "DAYS"), ("DAYS MMTWTF-", "DAYS"),
    ("SPEED 3", "SET"), ("NEXT", "NEXT"), ("", "SET"),
])
def test_bad_values_are_refused_precisely(text: str, parameter: str) -> None:
    with pytest.raises(ScheduleError) as caught:
        DEFAULT_MOVE.with_settings(text)
    assert caught.value.parameter == parameter
    assert parameter in str(caught.value) or parameter == "SET"


def test_days_error_names_the_day() -> None:
    with pytest.raises(ScheduleError, match="Monday"):
        WeekDays("-XTWTF-")


def test_schedule_kind_words() -> None:
    assert ScheduleKind.parse("Movement") is ScheduleKind.MOVE
    assert ScheduleKind.parse("RETREATS") is ScheduleKind.RETREAT
    assert ScheduleKind.parse("build") is ScheduleKind.ADJUST
    assert ScheduleKind.of(PhaseType.ADJUSTMENT) is ScheduleKind.ADJUST
    with pytest.raises(ScheduleError):
        ScheduleKind.parse("winter")
    with pytest.raises(ScheduleError):
        DEFAULT_SCHEDULE.apply_set("   ")


def test_week_day_rules_follow_case() -> None:
    days = WeekDays("-mTWTF-")
    # Python: Monday = 0 ... Sunday = 6
    assert days.rule(6) is DayRule.NEVER
    assert days.rule(0) is DayRule.AFTERNOON
    assert days.rule(1) is DayRule.ALL_DAY
    assert days.rule(5) is DayRule.NEVER


def test_clock_and_hours_parsers() -> None:
    assert parse_clock("1410") == 1410
    assert parse_clock("0:05") == 5
    assert parse_clock("-5") is None
    assert parse_hours("NEXT", "0.5") == 0.5


def test_nmr_grace_warning_for_short_grace() -> None:
    assert DEFAULT_SCHEDULE.nmr_grace_warning() == ()
    short = DEFAULT_SCHEDULE.apply_set("RETREAT GRACE 24")
    assert short.nmr_grace_warning() == (ScheduleKind.RETREAT,)


def test_a_morning_clock_needs_a_day_in_capitals() -> None:
    with pytest.raises(ScheduleError, match="can never hold a deadline"):
        DEFAULT_RETREAT.with_settings("CLOCK 600 DAYS -mtwtf-")
    assert DEFAULT_RETREAT.with_settings("CLOCK 1300 DAYS -mtwtf-").clock == 1300
