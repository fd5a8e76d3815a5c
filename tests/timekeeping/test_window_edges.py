"""Every time window of a phase pinned at its edge with fixed examples (issue 34): one second
before the edge nothing happens, at the edge it does. (A property test drawing new times each run
caught a deadline or a grace a minute early only by chance.)

Windows: early processing after the last orders (delay), the reminder lead, the deadline (late
notice; processing of a waiting game), the daily late notices, the NMR abandonment a day before
grace, the end of grace (NMR processing; NoNMR replacement notices), the pause reminder. The flood
window and the sign-on lockout are pinned beside their own code (tests/mail, tests/app).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from judge.timekeeping.deadlines import PhaseTimes
from judge.timekeeping.lateness import (
    LATE_NOTICE_INTERVAL,
    NMR_ABANDON_BEFORE_GRACE,
    PAUSE_NOTICE_INTERVAL,
    REMINDER_LEAD,
    REPLACEMENT_NOTICE_INTERVAL,
    Abandonment,
    LateNotice,
    PauseReminder,
    PhaseClock,
    PowerStatus,
    Process,
    ProcessReason,
    Reminder,
    TimekeepingEvent,
    WaitingForReplacements,
    begin_phase,
    due,
    next_wakeup,
    orders_received,
    pause,
    record,
    set_wait,
)

S = timedelta(seconds=1)
START = datetime(2026, 11, 17, 11, 30, tzinfo=UTC)
DEADLINE = datetime(2026, 11, 19, 22, 30, tzinfo=UTC)
GRACE = datetime(2026, 11, 26, 21, 30, tzinfo=UTC)
TIMES = PhaseTimes(start=START, deadline=DEADLINE, grace=GRACE)
DELAY = timedelta(minutes=30)


def phase(*, nmr: bool = False) -> PhaseClock:
    return begin_phase(TIMES, [PowerStatus("F", owes_orders=True), PowerStatus("G", owes_orders=True)],
                       delay=DELAY, nmr=nmr)  # fmt: skip


def kinds(events: tuple[TimekeepingEvent, ...]) -> list[type]:
    return [type(event) for event in events]


def edge(clock: PhaseClock, at: datetime) -> tuple[tuple[TimekeepingEvent, ...], tuple[TimekeepingEvent, ...]]:
    """What is due one second before ``at``, and at ``at``; ``next_wakeup`` names ``at`` exactly."""
    assert next_wakeup(clock, at - S) == at
    return due(clock, at - S), due(clock, at)


def test_early_processing_waits_the_delay_after_the_last_orders_to_the_second() -> None:
    last = START + timedelta(hours=3)
    clock = orders_received(phase(), "F", complete=True, all_units_ordered=True, at=START)
    clock = orders_received(clock, "G", complete=True, all_units_ordered=True, at=last)
    before, at = edge(clock, last + DELAY)
    assert before == () and at == (Process(ProcessReason.ALL_ORDERS_IN, civil_disorder=frozenset()),)


def test_early_processing_never_before_the_start() -> None:
    early = START - timedelta(hours=5)
    clock = orders_received(phase(), "F", complete=True, all_units_ordered=True, at=early)
    clock = orders_received(clock, "G", complete=True, all_units_ordered=True, at=early)
    before, at = edge(clock, START)
    assert before == () and kinds(at) == [Process]


def test_the_reminder_falls_due_exactly_its_lead_before_the_deadline() -> None:
    clock = orders_received(phase(), "F", complete=True, all_units_ordered=True, at=START)
    before, at = edge(clock, DEADLINE - REMINDER_LEAD)
    assert before == () and at == (Reminder(frozenset({"G"}), DEADLINE),)


def test_the_deadline_late_notice_and_a_waiting_game_processed_at_the_deadline() -> None:
    late = record(phase(), due(phase(), DEADLINE - REMINDER_LEAD), DEADLINE - REMINDER_LEAD)
    before, at = edge(late, DEADLINE)
    assert before == () and kinds(at) == [LateNotice]
    waiting = set_wait(orders_received(phase(), "F", complete=True, all_units_ordered=True, at=START), "F", True)
    waiting = orders_received(waiting, "G", complete=True, all_units_ordered=True, at=START)
    before, at = edge(waiting, DEADLINE)
    assert before == () and at == (Process(ProcessReason.DEADLINE, civil_disorder=frozenset()),)


def test_late_notices_come_every_day_after_the_deadline_to_the_second() -> None:
    clock = record(phase(), due(phase(), DEADLINE), DEADLINE)
    before, at = edge(clock, DEADLINE + LATE_NOTICE_INTERVAL)
    assert before == () and kinds(at) == [LateNotice]


def test_nmr_abandons_a_day_before_grace_and_processes_at_grace_to_the_second() -> None:
    nmr = phase(nmr=True)
    clock = record(nmr, due(nmr, DEADLINE), DEADLINE)
    day = DEADLINE + LATE_NOTICE_INTERVAL
    while day < GRACE - NMR_ABANDON_BEFORE_GRACE:
        clock = record(clock, due(clock, day), day)
        day += LATE_NOTICE_INTERVAL
    before, at = edge(clock, GRACE - NMR_ABANDON_BEFORE_GRACE)
    assert Abandonment not in kinds(before) and Abandonment in kinds(at)
    clock = record(clock, at, GRACE - NMR_ABANDON_BEFORE_GRACE)
    before, at = edge(clock, GRACE)
    assert Process not in kinds(before)
    assert [e for e in at if isinstance(e, Process)] == [Process(
        ProcessReason.GRACE_EXPIRED, civil_disorder=frozenset("FG"), newly_in_civil_disorder=frozenset("FG"),
    )]  # fmt: skip


def test_nonmr_abandons_at_grace_and_then_asks_for_replacements_every_two_days() -> None:
    clock = phase()
    day = DEADLINE
    while day < GRACE:
        clock = record(clock, due(clock, day), day)
        day += LATE_NOTICE_INTERVAL
    before, at = edge(clock, GRACE)
    assert Abandonment not in kinds(before) and Abandonment in kinds(at) and Process not in kinds(at)
    clock = record(clock, at, GRACE)
    before, at = edge(clock, GRACE + REPLACEMENT_NOTICE_INTERVAL)
    assert before == () and kinds(at) == [WaitingForReplacements]


def test_a_paused_game_is_reminded_every_three_days_to_the_second() -> None:
    paused_at = START + timedelta(hours=1)
    clock = pause(phase(), paused_at)
    before, at = edge(clock, paused_at + PAUSE_NOTICE_INTERVAL)
    assert before == () and at == (PauseReminder(paused_at),)
