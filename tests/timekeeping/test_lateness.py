"""What falls due in a phase, run on a fake clock: early processing, waits, reminders,
late notices, abandonment, NMR/NoNMR at the end of grace, pauses, takeovers, restarts."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from judge.timekeeping.clock import FakeClock
from judge.timekeeping.deadlines import PhaseTimes
from judge.timekeeping.lateness import (
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
    player_returns,
    record,
    resume,
    set_wait,
    takeover,
    tick,
)
from judge.timekeeping.parameters import DEFAULT_MOVE

PARIS = ZoneInfo("Europe/Paris")
START = datetime(2026, 11, 16, 23, 30, tzinfo=PARIS)  # Monday: previous phase processed
TIMES = PhaseTimes(start=START + timedelta(hours=12),
                   deadline=datetime(2026, 11, 19, 23, 30, tzinfo=PARIS),  # Thursday
                   grace=datetime(2026, 11, 26, 22, 30, tzinfo=PARIS))  # 167 h later
H = timedelta(hours=1)
POWERS = "AEFGIRT"


def new_phase(*, nmr: bool = False, strict_wait: bool = False, owing: str = POWERS,
              cd: str = "", times: PhaseTimes = TIMES) -> PhaseClock:
    powers = [PowerStatus(p, owes_orders=p in owing, civil_disorder=p in cd) for p in POWERS]
    return begin_phase(times, powers, delay=timedelta(minutes=30), nmr=nmr, strict_wait=strict_wait)


def all_in(clock: PhaseClock, at: datetime, except_: str = "") -> PhaseClock:
    for status in clock.holders:
        if status.power not in except_:
            clock = orders_received(clock, status.power, complete=True, all_units_ordered=True, at=at)
    return clock


class Judge:
    """A tiny stand-in for the scheduler: wake at next_wakeup, do what is due, record it."""

    def __init__(self, clock: PhaseClock, now: datetime) -> None:
        self.state = clock
        self.clock = FakeClock(now)
        self.log: list[tuple[datetime, TimekeepingEvent]] = []

    def run_until(self, until: datetime) -> list[TimekeepingEvent]:
        done: list[TimekeepingEvent] = []
        while True:
            wake = next_wakeup(self.state, self.clock.now())
            if wake is None or wake > until:
                self.clock.set(max(until, self.clock.now()))
                return done
            self.clock.set(wake)
            events = due(self.state, wake)
            assert events, "next_wakeup promised something due"
            self.log.extend((wake, e) for e in events)
            done.extend(events)
            self.state = record(self.state, events, wake)


# -- early processing and WAIT ----------------------------------------------------------------------

def test_processing_delay_after_the_last_orders_when_all_are_complete() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    clock = all_in(new_phase(), t)
    assert due(clock, t + 29 * timedelta(minutes=1)) == ()
    assert next_wakeup(clock, t) == t + timedelta(minutes=30)
    assert due(clock, t + timedelta(minutes=30)) == (Process(ProcessReason.ALL_ORDERS_IN),)


def test_changed_orders_restart_the_delay() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    clock = all_in(new_phase(), t)
    clock = orders_received(clock, "F", complete=True, all_units_ordered=True, at=t + timedelta(minutes=20))
    assert due(clock, t + timedelta(minutes=30)) == ()
    assert next_wakeup(clock, t + timedelta(minutes=20)) == t + timedelta(minutes=50)


def test_incomplete_orders_hold_early_processing_to_the_deadline() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    clock = all_in(new_phase(), t, except_="R")
    clock = orders_received(clock, "R", complete=False, all_units_ordered=False, at=t)
    assert next_wakeup(clock, t) == TIMES.deadline - 8 * H  # only the reminder before then


def test_never_before_start() -> None:
    t = START + timedelta(hours=1)
    clock = all_in(new_phase(), t)
    assert next_wakeup(clock, t) == TIMES.start
    assert due(clock, TIMES.start) == (Process(ProcessReason.ALL_ORDERS_IN),)


def test_wait_holds_processing_to_the_deadline() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    clock = set_wait(all_in(new_phase(), t), "E", True)
    assert due(clock, t + H) == ()
    assert next_wakeup(clock, t) == TIMES.deadline
    assert due(clock, TIMES.deadline) == (Process(ProcessReason.DEADLINE),)
    assert due(set_wait(clock, "E", False), t + H) == (Process(ProcessReason.ALL_ORDERS_IN),)


def test_wait_of_a_power_without_orders_to_give_counts_unless_strict_wait() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    relaxed = set_wait(all_in(new_phase(owing="EF"), t), "G", True)
    assert due(relaxed, t + H) == ()
    strict = set_wait(all_in(new_phase(owing="EF", strict_wait=True), t), "G", True)
    assert due(strict, t + H) == (Process(ProcessReason.ALL_ORDERS_IN),)
    strict_owing = set_wait(strict, "E", True)
    assert due(strict_owing, t + H) == ()


def test_master_wait_counts_only_without_strict_wait() -> None:
    from dataclasses import replace

    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    assert due(replace(all_in(new_phase(), t), master_wait=True), t + H) == ()
    strict = replace(all_in(new_phase(strict_wait=True), t), master_wait=True)
    assert due(strict, t + H) == (Process(ProcessReason.ALL_ORDERS_IN),)


def test_wait_flags_are_cleared_each_phase() -> None:
    clock = set_wait(new_phase(), "E", True)
    fresh = begin_phase(TIMES, clock.powers, delay=clock.delay)
    assert not any(p.wait for p in fresh.powers)


def test_late_orders_completing_the_set_are_processed_at_once() -> None:
    t = TIMES.deadline + 5 * H
    clock = set_wait(all_in(new_phase(), t), "E", True)  # WAIT no longer matters
    assert due(clock, t) == (Process(ProcessReason.DEADLINE),)


def test_a_power_in_civil_disorder_does_not_hold_up_early_processing() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    clock = all_in(new_phase(cd="T"), t)
    assert due(clock, t + timedelta(minutes=30)) == (
        Process(ProcessReason.ALL_ORDERS_IN, civil_disorder=frozenset("T")),)


def test_every_power_in_civil_disorder_processes_at_start() -> None:
    clock = new_phase(cd=POWERS)
    assert next_wakeup(clock, START) == TIMES.start
    assert due(clock, TIMES.start)[0] == Process(ProcessReason.ALL_ORDERS_IN,
                                                 civil_disorder=frozenset(POWERS))


# -- reminders and late notices ---------------------------------------------------------------------

def test_reminder_once_eight_hours_before_to_those_still_owing() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    clock = all_in(new_phase(), t, except_="FR")
    judge = Judge(clock, t)
    events = judge.run_until(TIMES.deadline - timedelta(minutes=1))
    assert events == [Reminder(frozenset("FR"), TIMES.deadline)]
    assert judge.log[0][0] == TIMES.deadline - 8 * H


def test_late_notice_at_the_deadline_to_everyone_then_daily_to_the_late() -> None:
    clock = all_in(new_phase(), datetime(2026, 11, 18, 10, 0, tzinfo=PARIS), except_="R")
    judge = Judge(clock, datetime(2026, 11, 18, 10, 0, tzinfo=PARIS))
    judge.run_until(TIMES.deadline + 3 * 24 * H)
    notices = [(at, e) for at, e in judge.log if isinstance(e, LateNotice)]
    assert [at for at, _ in notices] == [TIMES.deadline + k * 24 * H for k in range(4)]
    first = notices[0][1]
    assert first == LateNotice(late=frozenset("R"), on_time=frozenset("AEFGIT"), number=1,
                               to_everyone=True, abandon_at=TIMES.grace)
    assert [n.to_everyone for _, n in notices] == [True, False, False, False]
    assert [n.number for _, n in notices] == [1, 2, 3, 4]


def test_after_an_outage_only_one_late_notice_is_sent() -> None:
    clock = all_in(new_phase(), datetime(2026, 11, 18, 10, 0, tzinfo=PARIS), except_="R")
    clock = record(clock, due(clock, TIMES.deadline), TIMES.deadline)
    back = TIMES.deadline + 3 * 24 * H + 5 * H  # judge was down for three days
    events = due(clock, back)
    assert [type(e) for e in events] == [LateNotice]
    clock = record(clock, events, back)
    assert due(clock, back + H) == ()
    assert next_wakeup(clock, back) == TIMES.deadline + 4 * 24 * H


# -- end of grace ------------------------------------------------------------------------------------

def test_nonmr_abandons_at_grace_and_waits_for_replacements() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    judge = Judge(all_in(new_phase(), t, except_="R"), t)
    judge.run_until(TIMES.grace + 5 * 24 * H)
    kinds = [(at, type(e)) for at, e in judge.log if not isinstance(e, LateNotice | Reminder)]
    assert kinds == [
        (TIMES.grace, Abandonment),
        (TIMES.grace + 48 * H, WaitingForReplacements),
        (TIMES.grace + 96 * H, WaitingForReplacements),
    ]
    abandonment = next(e for _, e in judge.log if isinstance(e, Abandonment))
    assert abandonment == Abandonment(frozenset("R"), civil_disorder_at=None)
    assert judge.state.power("R").abandoned
    assert not any(isinstance(e, Process) for _, e in judge.log)
    last_notice = max(at for at, e in judge.log if isinstance(e, LateNotice))
    assert last_notice < TIMES.grace


def test_nmr_abandons_a_day_before_grace_then_civil_disorder() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    clock = all_in(new_phase(nmr=True), t, except_="RT")
    clock = orders_received(clock, "T", complete=False, all_units_ordered=True, at=t)  # error flag
    judge = Judge(clock, t)
    judge.run_until(TIMES.grace + 24 * H)
    abandon = [(at, e) for at, e in judge.log if isinstance(e, Abandonment)]
    assert abandon == [(TIMES.grace - 24 * H, Abandonment(frozenset("RT"), TIMES.grace))]
    process = [(at, e) for at, e in judge.log if isinstance(e, Process)]
    assert process == [(TIMES.grace, Process(ProcessReason.GRACE_EXPIRED,
                                             civil_disorder=frozenset("R"),
                                             newly_in_civil_disorder=frozenset("R"),
                                             accepted_with_errors=frozenset("T")))]
    assert judge.state.power("R").civil_disorder and judge.state.processed_at == TIMES.grace
    assert due(judge.state, TIMES.grace + 24 * H) == ()


def test_nmr_with_zero_grace_notices_abandons_and_processes_at_the_deadline() -> None:
    times = PhaseTimes(START, TIMES.deadline, TIMES.deadline)
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    clock = all_in(new_phase(nmr=True, times=times), t, except_="R")
    just_before = TIMES.deadline - timedelta(minutes=1)
    assert next_wakeup(clock, just_before) == just_before  # the reminder is still owed
    clock = record(clock, due(clock, just_before), just_before)
    assert next_wakeup(clock, just_before) == TIMES.deadline
    events = due(clock, TIMES.deadline)
    assert events == (
        LateNotice(frozenset("R"), frozenset("AEFGIT"), 1, True, TIMES.deadline),
        Abandonment(frozenset("R"), TIMES.deadline),
        Process(ProcessReason.GRACE_EXPIRED, frozenset("R"), frozenset("R")),
    )


def test_grace_expiry_during_a_restart_does_everything_once() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    clock = all_in(new_phase(nmr=True), t, except_="R")
    back = TIMES.grace + 2 * H  # the judge was down from before the deadline until after grace
    events = due(clock, back)
    assert [type(e) for e in events] == [LateNotice, Abandonment, Process]
    assert record(clock, events, back).processed_at is not None
    assert due(record(clock, events, back), back) == ()


def test_returning_player_clears_abandonment_and_is_not_abandoned_twice() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    judge = Judge(all_in(new_phase(), t, except_="R"), t)
    judge.run_until(TIMES.grace)
    back = player_returns(judge.state, "R")
    assert not back.power("R").abandoned
    assert not any(isinstance(e, Abandonment) for e in due(back, TIMES.grace + H))
    done = orders_received(back, "R", complete=True, all_units_ordered=True, at=TIMES.grace + H)
    assert due(done, TIMES.grace + H) == (Process(ProcessReason.DEADLINE),)


def test_takeover_of_the_last_abandoned_power_restarts_the_clock() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    judge = Judge(all_in(new_phase(), t, except_="RT"), t)
    judge.run_until(TIMES.grace + H)
    first = takeover(judge.state, "R", now=TIMES.grace + H, schedule=DEFAULT_MOVE, zone=PARIS)
    assert not first.deadline_recomputed  # T is still abandoned
    assert first.clock.power("R").wait and not first.clock.power("R").abandoned
    now = TIMES.grace + 2 * H
    second = takeover(first.clock, "T", now=now, schedule=DEFAULT_MOVE, zone=PARIS)
    assert second.deadline_recomputed
    state = second.clock
    assert state.times.deadline > now and state.late_notices_sent == 0
    assert all(p.wait for p in state.powers)
    assert state.times.deadline.astimezone(PARIS).strftime("%H:%M") == "23:30"


# -- pause -------------------------------------------------------------------------------------------

def test_pause_stops_everything_but_a_reminder_every_three_days() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    judge = Judge(pause(all_in(new_phase(), t, except_="R"), t), t)
    judge.run_until(t + 7 * 24 * H)
    assert judge.log == [(t + 72 * H, PauseReminder(t)), (t + 144 * H, PauseReminder(t))]
    resumed = resume(judge.state, now=t + 7 * 24 * H, schedule=DEFAULT_MOVE, zone=PARIS)
    assert resumed.paused_since is None
    assert resumed.times.deadline > t + 7 * 24 * H


# -- a whole phase of an NMR game, as the end-to-end test will play it --------------------------------

def test_full_phase_with_a_silent_power() -> None:
    t = TIMES.start
    judge = Judge(all_in(new_phase(nmr=True), t, except_="I"), START)
    judge.run_until(TIMES.grace + 48 * H)
    kinds = [type(e).__name__ for _, e in judge.log]
    assert kinds == ["Reminder"] + ["LateNotice"] * 6 + ["Abandonment", "Process"]
    assert judge.state.power("I").civil_disorder


@pytest.mark.parametrize("nmr", [False, True])
def test_nothing_is_done_twice_when_due_is_asked_again(nmr: bool) -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    clock = all_in(new_phase(nmr=nmr), t, except_="R")
    now = t
    while now < TIMES.grace + 10 * 24 * H:
        events = due(clock, now)
        clock = record(clock, events, now)
        assert due(clock, now) == ()
        now += 7 * H


def test_tick_combines_due_record_and_next_wakeup() -> None:
    t = datetime(2026, 11, 18, 10, 0, tzinfo=PARIS)
    clock = all_in(new_phase(), t, except_="R")
    first = tick(clock, TIMES.deadline)
    assert [type(e) for e in first.events] == [LateNotice]
    assert first.before is clock and first.after.late_notices_sent == 1
    assert first.wake_at == TIMES.deadline + 24 * H
    quiet = tick(first.after, TIMES.deadline + H)
    assert quiet.events == () and quiet.after == first.after and quiet.wake_at == first.wake_at
