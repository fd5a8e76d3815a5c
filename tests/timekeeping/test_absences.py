"""SET ABSENCE / NO ABSENCE / MAX ABSENCE, and which absences move a deadline."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from judge.timekeeping.absences import (
    MASTER,
    Absence,
    AbsenceOutcome,
    cancel_absence,
    counting_absences,
    purge_past,
    request_absence,
    validate_max_absence,
)
from judge.timekeeping.clock import FakeClock
from judge.timekeeping.dates import DateRole, parse_judge_date
from judge.timekeeping.deadlines import next_phase_times
from judge.timekeeping.errors import (
    AbsenceInPastError,
    AbsenceOrderError,
    MaxAbsenceError,
    NoSuchAbsenceError,
    OverlappingAbsenceError,
    TooManyAbsencesError,
)
from judge.timekeeping.parameters import DEFAULT_MOVE

PARIS = ZoneInfo("Europe/Paris")
NOW = datetime(2026, 11, 16, 9, 0, tzinfo=PARIS)  # Monday


def days(owner: str, first: int, last: int, month: int = 11, *, by_master: bool = False) -> Absence:
    """An absence from day ``first`` 00:00 to the end of day ``last``, as SET ABSENCE gives it."""
    start = parse_judge_date(f"{first} {month_name(month)} 2026", now=NOW, zone=PARIS,
                             role=DateRole.ABSENCE_START)
    end = parse_judge_date(f"{last} {month_name(month)} 2026", now=NOW, zone=PARIS,
                           role=DateRole.ABSENCE_END)
    return Absence(owner, start, end, set_by_master=by_master)


def month_name(month: int) -> str:
    return ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][month - 1]


def test_an_absence_is_recorded() -> None:
    decision = request_absence((), days("F", 20, 22), now=NOW, zone=PARIS)
    assert decision.outcome is AbsenceOutcome.RECORDED
    assert decision.absences == (days("F", 20, 22),)
    assert days("F", 20, 22).calendar_days(PARIS) == 3


def test_absence_must_end_after_it_starts() -> None:
    with pytest.raises(AbsenceOrderError):
        Absence("F", datetime(2026, 11, 20, tzinfo=UTC), datetime(2026, 11, 19, tzinfo=UTC))


def test_absence_already_over_is_refused() -> None:
    with pytest.raises(AbsenceInPastError):
        request_absence((), Absence("F", datetime(2026, 11, 1, tzinfo=UTC),
                                    datetime(2026, 11, 2, tzinfo=UTC)), now=NOW, zone=PARIS)


def test_overlapping_absences_of_one_player_are_refused_but_not_of_two() -> None:
    existing = (days("F", 20, 22),)
    with pytest.raises(OverlappingAbsenceError, match="overlaps"):
        request_absence(existing, days("F", 22, 24), now=NOW, zone=PARIS)
    assert request_absence(existing, days("G", 22, 24), now=NOW, zone=PARIS).outcome is AbsenceOutcome.RECORDED
    # Adjacent, not overlapping: half-open spans.
    assert request_absence(existing, days("F", 23, 24), now=NOW, zone=PARIS).outcome is AbsenceOutcome.RECORDED


def test_at_most_three_pending_absences_per_player() -> None:
    existing = (days("F", 18, 18), days("F", 20, 20), days("F", 22, 22))
    with pytest.raises(TooManyAbsencesError) as caught:
        request_absence(existing, days("F", 25, 25), now=NOW, zone=PARIS)
    assert caught.value.limit == 3
    # Past absences do not take a slot.
    later = FakeClock(NOW)
    later.set(datetime(2026, 11, 19, 9, 0, tzinfo=PARIS))
    decision = request_absence(existing, days("F", 25, 25), now=later.now(), zone=PARIS)
    assert [a.start.astimezone(PARIS).day for a in decision.absences] == [20, 22, 25]


def test_maximum_length_per_game_goes_to_the_master() -> None:
    long = days("F", 17, 30)  # 14 days
    assert request_absence((), long, now=NOW, zone=PARIS, max_days=14).outcome is AbsenceOutcome.RECORDED
    decision = request_absence((), long, now=NOW, zone=PARIS, max_days=13)
    assert decision.outcome is AbsenceOutcome.OVERSIZED
    assert decision.absences == ()
    assert decision.requested == long


def test_masters_are_exempt_from_the_maximum() -> None:
    for absence in (days(MASTER, 17, 30), days("F", 17, 30, by_master=True)):
        decision = request_absence((), absence, now=NOW, zone=PARIS, max_days=0)
        assert decision.outcome is AbsenceOutcome.RECORDED


def test_default_maximum_is_fifteen_days() -> None:
    assert request_absence((), days("F", 16, 30), now=NOW, zone=PARIS).outcome is AbsenceOutcome.RECORDED
    sixteen = Absence("F", days("F", 16, 16).start, days("F", 1, 1, month=12).end)
    assert request_absence((), sixteen, now=NOW, zone=PARIS).outcome is AbsenceOutcome.OVERSIZED


def test_max_absence_bounds() -> None:
    assert validate_max_absence(0) == 0 and validate_max_absence(31) == 31
    with pytest.raises(MaxAbsenceError):
        validate_max_absence(32)
    with pytest.raises(MaxAbsenceError):
        validate_max_absence(-1)


def test_cancel_and_purge() -> None:
    existing = (days("F", 20, 22), days("G", 20, 22))
    assert cancel_absence(existing, "F", days("F", 21, 21).start) == (days("G", 20, 22),)
    with pytest.raises(NoSuchAbsenceError):
        cancel_absence(existing, "F", days("F", 25, 25).start)
    assert purge_past(existing, datetime(2026, 11, 23, 0, 0, tzinfo=PARIS)) == ()


def test_which_absences_count() -> None:
    absences = (days("F", 20, 22), days("G", 20, 22), days("E", 20, 22, by_master=True),
                days(MASTER, 20, 22))
    owing = frozenset({"F"})
    everyone = counting_absences(absences, owing_orders=owing, strict_wait=False,
                                 press_allowed=True, quiet=False)
    assert everyone == absences
    strict = counting_absences(absences, owing_orders=owing, strict_wait=True,
                               press_allowed=True, quiet=False)
    assert [a.owner for a in strict] == ["F", "E", MASTER]
    no_press = counting_absences(absences, owing_orders=owing, strict_wait=False,
                                 press_allowed=False, quiet=False)
    assert [a.owner for a in no_press] == ["F", "E", MASTER]
    quiet = counting_absences(absences, owing_orders=owing, strict_wait=True,
                              press_allowed=False, quiet=True)
    assert quiet == absences


def test_absence_moves_the_next_deadline_never_the_current_one() -> None:
    clock = FakeClock(NOW)
    current = next_phase_times(clock.now(), DEFAULT_MOVE, PARIS)  # Thu Nov 19 23:30
    decision = request_absence((), days("F", 19, 19), now=clock.now(), zone=PARIS)
    # Recording the absence has not touched the phase's times; the caller keeps `current`.
    assert current.deadline.astimezone(PARIS).day == 19
    clock.set(current.deadline)
    following = next_phase_times(clock.now(), DEFAULT_MOVE, PARIS, previous=current,
                                 absences=decision.absences)
    # Thursday + 71 h = Sunday evening -> Monday 23:30; the absence (Thursday) is over by then.
    assert following.deadline.astimezone(PARIS).strftime("%a %d %H:%M") == "Mon 23 23:30"
    absent_monday = request_absence(decision.absences, days("F", 23, 23), now=clock.now(), zone=PARIS)
    moved = next_phase_times(clock.now(), DEFAULT_MOVE, PARIS, previous=current,
                             absences=absent_monday.absences)
    assert moved.deadline.astimezone(PARIS).strftime("%a %d %H:%M") == "Tue 24 23:30"
