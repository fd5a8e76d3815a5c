"""Properties that must hold for every schedule, zone, moment and phase state."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.timekeeping.absences import Absence
from judge.timekeeping.dates import format_judge_date, parse_judge_date
from judge.timekeeping.deadlines import PhaseTimes, next_phase_times, snap_deadline
from judge.timekeeping.lateness import (
    PhaseClock,
    PowerStatus,
    Process,
    begin_phase,
    due,
    next_wakeup,
    orders_received,
    record,
)
from judge.timekeeping.parameters import DayRule, PhaseSchedule, WeekDays

ZONES = [ZoneInfo(name) for name in ("Europe/Paris", "America/New_York", "UTC",
                                     "Australia/Sydney", "America/Santiago", "Asia/Kolkata")]
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)

instants = st.integers(min_value=0, max_value=2 * 365 * 24 * 60).map(
    lambda minutes: EPOCH + timedelta(minutes=minutes))
zones = st.sampled_from(ZONES)


@st.composite
def week_days(draw: st.DrawFn) -> WeekDays:
    chars = [draw(st.sampled_from(["-", letter, letter.lower()])) for letter in "SMTWTFS"]
    if set(chars) == {"-"}:
        chars[0] = "S"
    return WeekDays("".join(chars))


@st.composite
def schedules(draw: st.DrawFn) -> PhaseSchedule:
    days = draw(week_days())
    morning_ok = any(char.isupper() for char in days.pattern)
    return PhaseSchedule(
        clock=draw(st.one_of(st.none(), st.integers(0 if morning_ok else 720, 1439))),
        min_hours=draw(st.sampled_from([0, 0.5, 12, 30])),
        next_hours=draw(st.sampled_from([0, 1, 23, 24, 47.5, 71, 200])),
        grace_hours=draw(st.sampled_from([0, 1, 24, 71, 167])),
        delay_hours=draw(st.sampled_from([0, 0.5, 2])),
        days=days,
    )


@st.composite
def absences(draw: st.DrawFn) -> list[Absence]:
    spans = []
    for _ in range(draw(st.integers(0, 3))):
        start = draw(instants)
        length = timedelta(hours=draw(st.integers(1, 24 * 10)))
        spans.append(Absence(draw(st.sampled_from("EFG")), start, start + length))
    return spans


def allowed(when: datetime, days: WeekDays, zone: ZoneInfo) -> bool:
    local = when.astimezone(zone)
    rule = days.rule(local.weekday())
    return rule is DayRule.ALL_DAY or (rule is DayRule.AFTERNOON and local.hour >= 12)


@settings(max_examples=300, deadline=None)
@given(now=instants, schedule=schedules(), zone=zones, spans=absences(), strict=st.booleans(),
       previous_offset=st.one_of(st.none(), st.integers(-200, 400)), same_phase=st.booleans())
def test_next_deadline_rules_hold(now: datetime, schedule: PhaseSchedule, zone: ZoneInfo,
                                  spans: list[Absence], strict: bool,
                                  previous_offset: int | None, same_phase: bool) -> None:
    previous = None
    if previous_offset is not None:
        deadline = now + timedelta(hours=previous_offset)
        previous = PhaseTimes(deadline, deadline, deadline + timedelta(hours=50))
    times = next_phase_times(now, schedule, zone, previous=previous, absences=spans,
                             strict_grace=strict, same_phase=same_phase)
    # never earlier than the previous deadline (nor its grace, for the same phase), nor than now + next / min
    assert times.deadline >= now + schedule.next
    assert times.deadline >= times.start == now + schedule.minimum
    if previous is not None:
        assert times.deadline >= previous.deadline
        if same_phase:
            assert times.grace >= previous.grace
    assert times.grace >= times.deadline + (schedule.grace if previous is None or not same_phase else timedelta())
    # always on an allowed day, after noon on a lower-case day
    assert allowed(times.deadline, schedule.days, zone)
    # never inside an absence that counts
    assert not any(a.covers(times.deadline) for a in spans)
    # on the clock (allowing for the instant after a spring-forward gap)
    if schedule.clock is not None:
        local = times.deadline.astimezone(zone)
        minutes = local.hour * 60 + local.minute
        assert minutes == schedule.clock or _in_gap(times.deadline, schedule.clock, zone)
    # stable: snapping again changes nothing
    assert snap_deadline(times.deadline, schedule, zone, spans) == times.deadline
    if not strict:
        assert allowed(times.grace, schedule.days, zone) or times.grace == (
            previous.grace if previous is not None else None)


def _in_gap(when: datetime, clock: int, zone: ZoneInfo) -> bool:
    """True when the wall time ``clock`` did not exist on that day (so ``when`` is just after it)."""
    local = when.astimezone(zone)
    naive = local.replace(hour=clock // 60, minute=clock % 60, tzinfo=None)
    round_trip = naive.replace(tzinfo=zone).astimezone(UTC).astimezone(zone).replace(tzinfo=None)
    return round_trip != naive


@settings(max_examples=200, deadline=None)
@given(now=instants, schedule=schedules(), zone=zones, steps=st.lists(
    st.integers(0, 24 * 30), min_size=1, max_size=6))
def test_a_chain_of_phases_never_goes_back(now: datetime, schedule: PhaseSchedule,
                                          zone: ZoneInfo, steps: list[int]) -> None:
    previous: PhaseTimes | None = None
    for hours in steps:
        times = next_phase_times(now, schedule, zone, previous=previous)
        if previous is not None:
            assert times.deadline >= previous.deadline and times.grace >= previous.grace
        previous = times
        now = max(now + timedelta(hours=hours), times.start)


@settings(max_examples=200, deadline=None)
@given(moment=instants, zone=zones, seconds=st.integers(0, 59))
def test_judge_format_round_trips(moment: datetime, zone: ZoneInfo, seconds: int) -> None:
    when = moment.replace(second=seconds) + timedelta(days=1)
    text = format_judge_date(when, zone)
    assert parse_judge_date(text, now=moment, zone=zone) == when
    assert parse_judge_date(when.isoformat(), now=moment, zone=zone) == when


@st.composite
def phase_clocks(draw: st.DrawFn) -> PhaseClock:
    start = draw(instants)
    deadline = start + timedelta(hours=draw(st.integers(0, 100)))
    grace = deadline + timedelta(hours=draw(st.sampled_from([0, 1, 23, 24, 25, 71, 167])))
    powers = []
    for letter in "AEFGIRT":
        owes = draw(st.booleans())
        powers.append(PowerStatus(letter, owes_orders=owes, civil_disorder=draw(st.booleans()) and owes,
                                  wait=draw(st.booleans())))
    clock = begin_phase(PhaseTimes(start, deadline, grace), powers,
                        delay=timedelta(minutes=draw(st.sampled_from([0, 30, 120]))),
                        nmr=draw(st.booleans()), strict_wait=draw(st.booleans()))
    for status in clock.holders:
        if draw(st.booleans()):
            at = start + timedelta(minutes=draw(st.integers(0, 200 * 60)))
            full = draw(st.booleans())
            clock = orders_received(clock, status.power, complete=full,
                                    all_units_ordered=full or draw(st.booleans()), at=at)
    for status in clock.powers:
        if draw(st.booleans()) and status.owes_orders:
            from judge.timekeeping.lateness import set_wait

            clock = set_wait(clock, status.power, True)
    return clock


@settings(max_examples=300, deadline=None)
@given(clock=phase_clocks(), offset=st.integers(-100, 400))
def test_the_scheduler_loop_is_exact_and_idempotent(clock: PhaseClock, offset: int) -> None:
    now = clock.times.start + timedelta(hours=offset)
    for _ in range(60):
        wake = next_wakeup(clock, now)
        if wake is None:
            break
        assert wake >= now
        # nothing is due strictly between now and the announced wake-up
        if wake > now:
            assert due(clock, now) == ()
            assert due(clock, now + (wake - now) / 2) == ()
            assert due(clock, wake - timedelta(microseconds=1)) == ()
        events = due(clock, wake)
        assert events
        clock = record(clock, events, wake)
        assert due(clock, wake) == ()  # done means done
        now = wake
        if any(isinstance(e, Process) for e in events):
            assert next_wakeup(clock, now) is None
            break
    # Processing, when it happens, never comes before start, nor (without grace expiry) after
    # the deadline unless orders were missing at the deadline.
    if clock.processed_at is not None:
        assert clock.processed_at >= clock.times.start
