"""The judge's time-keeping rules: deadlines, dates, lateness, absences, dedication.

Pure functions with the time passed in (``now``) and the judge's zone passed
in (a ZoneInfo): no I/O, no global clock. The scheduler, the database and
the mail layers call these rules and carry out what they decide.

Modules: clock (Clock, SystemClock, FakeClock), parameters (the per-phase
schedule and its SET syntax), deadlines (computing start/deadline/grace),
dates (the Judge's date forms), absences, lateness (what is due and when),
dedication (points, ratios, sign-on gates), errors. The names most callers
need are re-exported here.
"""

from __future__ import annotations

from judge.timekeeping.absences import (
    Absence,
    AbsenceDecision,
    AbsenceOutcome,
    cancel_absence,
    counting_absences,
    purge_past,
    request_absence,
)
from judge.timekeeping.clock import Clock, FakeClock, SystemClock
from judge.timekeeping.dates import DateRole, format_judge_date, parse_judge_date
from judge.timekeeping.deadlines import (
    PhaseTimes,
    next_phase_times,
    set_deadline,
    set_grace,
    set_start,
)
from judge.timekeeping.dedication import (
    DedicationPoints,
    PlayerRecord,
    SignOnThresholds,
    check_sign_on,
    missed_unannounced,
    points_for_events,
    turns_of_phase,
)
from judge.timekeeping.errors import TimekeepingError
from judge.timekeeping.lateness import (
    Abandonment,
    LateNotice,
    PauseReminder,
    PhaseClock,
    PowerStatus,
    Process,
    ProcessReason,
    Reminder,
    Tick,
    TimekeepingEvent,
    WaitingForReplacements,
    begin_phase,
    due,
    next_wakeup,
    orders_received,
    record,
    tick,
)
from judge.timekeeping.parameters import DEFAULT_SCHEDULE, PhaseSchedule, Schedule, ScheduleKind

__all__ = [
    "DEFAULT_SCHEDULE",
    "Abandonment",
    "Absence",
    "AbsenceDecision",
    "AbsenceOutcome",
    "Clock",
    "DateRole",
    "DedicationPoints",
    "FakeClock",
    "LateNotice",
    "PauseReminder",
    "PhaseClock",
    "PhaseSchedule",
    "PhaseTimes",
    "PlayerRecord",
    "PowerStatus",
    "Process",
    "ProcessReason",
    "Reminder",
    "Schedule",
    "ScheduleKind",
    "SignOnThresholds",
    "SystemClock",
    "Tick",
    "TimekeepingError",
    "TimekeepingEvent",
    "WaitingForReplacements",
    "begin_phase",
    "cancel_absence",
    "check_sign_on",
    "counting_absences",
    "due",
    "format_judge_date",
    "missed_unannounced",
    "next_phase_times",
    "next_wakeup",
    "orders_received",
    "parse_judge_date",
    "points_for_events",
    "purge_past",
    "record",
    "request_absence",
    "set_deadline",
    "set_grace",
    "set_start",
    "tick",
    "turns_of_phase",
]
