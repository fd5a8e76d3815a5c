"""The scheduler: process each game when it is due, and know when that is.

The database is the single source of truth: ``games.next_due_at`` (one
indexed column) says when a game must next be looked at. :func:`plan` sets
it from the time-keeping rules (:mod:`judge.timekeeping.lateness`) whenever
something changes (orders arrive, a phase opens); :func:`process_due` claims
due games one per transaction (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so
several judge processes share the work and never do one thing twice), does
what is due and stores the next due time in the same transaction. A restart
needs nothing but the database.

The phase's clock and :func:`plan` live in :mod:`judge.app.phases.planning` (re-exported
here). What is carried out here: processing — early, once every power that owes
orders has complete orders (no error flag) and nobody has WAIT, ``delay``
after the last orders and never before the phase's start; at the deadline
when everything is in; at the end of grace in NMR games with the late powers
in civil disorder. Everything else that falls due (reminders, late notices,
abandonment — NoNMR games then wait for a takeover —, "Waiting for
Replacements", pause reminders) is carried out by
:func:`judge.app.phases.deadline_actions.carry_out`, and the players' dedication records
are charged and credited by :func:`judge.app.phases.deadline_actions.apply_dedication`, in
the same transaction that records it in the game's book
(:mod:`judge.app.game_state.clock_store`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from judge.app.game_state.clock_store import save_book
from judge.app.phases.deadline_actions import apply_dedication, carry_out
from judge.app.phases.planning import phase_clock, plan, read_open_phase
from judge.app.phases.processing import NotProcessable, process_phase
from judge.app.session.services import Services
from judge.db.database import UnitOfWork
from judge.db.errors import StaleStateError
from judge.db.models import Game
from judge.db.repositories.councils import councils_enabled
from judge.timekeeping.lateness import Process, tick
from judge.timekeeping.lateness import record as record_events
from judge.waiting import first_of

__all__ = ["earliest_due", "handle_due", "phase_clock", "plan", "process_due", "run_scheduler"]

log = logging.getLogger(__name__)

ALARM = "next-due"
"""The APScheduler job that wakes the scheduler at the earliest due time."""
MAX_STEPS_PER_CALL = 10_000
RETRY_AFTER = timedelta(minutes=5)
MAX_RETRY = timedelta(hours=6)


# ------------------------------------------------------------------ doing what is due


def process_due(services: Services) -> int:
    """Do what is due in every due game, one game per transaction; returns how many were handled."""
    handled = 0
    while handled < MAX_STEPS_PER_CALL:
        now = services.clock.now()
        game_id: int | None = None
        try:
            with services.db.unit_of_work() as uow:
                game = uow.games.claim_due(now)
                if game is None:
                    return handled
                game_id = game.id
                handle_due(uow, services, game, now)
        except StaleStateError:
            log.info("game %s was handled by another process", game_id)
        except Exception:
            if game_id is None:
                raise
            log.exception("scheduler failed on game %s", game_id)
            _postpone(services, game_id, now)
        handled += 1
    return handled


def handle_due(uow: UnitOfWork, services: Services, game: Game, now: datetime) -> None:
    """Carry out what the time-keeping rules say is due in ``game`` at ``now``; store the next due time."""
    if councils_enabled(game):  # the game's settings: no SQL for other games
        from judge.app.councils.elections import close_due
        from judge.app.councils.releases import end_of_grace

        close_due(uow, services, game, now)
        end_of_grace(uow, game, now)  # before the orders are read: unreleased drafts set aside
    opened = read_open_phase(uow, game)  # the open phase and its orders, read once
    clock = None if opened is None else phase_clock(uow, game, opened)
    if clock is None or opened is None:
        uow.games.set_next_due(game, None)
        return
    step = tick(clock, now)
    record = opened.record
    processed = False
    # Processing is counted where it happens (process_phase), so a held one counts nothing and a
    # master's PROCESS counts as the clock's does; it sees the notices of this wake-up recorded.
    others = tuple(e for e in step.events if not isinstance(e, Process))
    apply_dedication(uow, game, step.before, others, now)
    for event in step.events:
        if isinstance(event, Process):
            if game.manual_process:
                continue
            if councils_enabled(game) and _council_holds(uow, services, game, now):
                continue  # seed 003: a General's orders are drafts until released (grace, early election)
            save_book(game, step.after, record)
            try:
                process_phase(uow, services, game, now, event=event, clock=record_events(step.before, others, now),
                              opened=opened)
            except NotProcessable:
                uow.games.set_next_due(game, None)
            processed = True
        else:
            carry_out(uow, services, game, event, clock=step.before, now=now)
    if processed:
        return
    save_book(game, step.after, record)
    wake_at = step.wake_at
    if wake_at is not None and wake_at <= now:
        wake_at = None  # only MANUAL PROCESS processing is left: the master's to do
    if councils_enabled(game):
        from judge.app.councils.elections import wake_at as election_wake

        wake_at = election_wake(uow, game, wake_at)
    uow.games.set_next_due(game, wake_at)


def _council_holds(uow: UnitOfWork, services: Services, game: Game, now: datetime) -> bool:
    from judge.app.councils.releases import hold_processing

    return hold_processing(uow, services, game, now)


def _postpone(services: Services, game_id: int, now: datetime) -> None:
    """After an unexpected failure: try again later, backing off, so one broken game stalls nothing."""
    with services.db.unit_of_work() as uow:
        game = uow.games.get(game_id)
        game.failed_attempts += 1
        uow.games.set_next_due(game, now + retry_delay(game.failed_attempts))


def retry_delay(failed_attempts: int) -> timedelta:
    """How long a game that failed ``failed_attempts`` times in a row waits: doubling, capped."""
    delay: timedelta = RETRY_AFTER * 2 ** min(failed_attempts - 1, 10)
    return min(delay, MAX_RETRY)


# ------------------------------------------------------------------ running


def earliest_due(services: Services) -> datetime | None:
    with services.db.unit_of_work(readonly=True) as uow:
        return uow.games.earliest_due()


def run_round(services: Services) -> datetime | None:
    """One round of the scheduler: do what is due, then say when the next game falls due."""
    process_due(services)
    return earliest_due(services)


async def run_scheduler(
    services: Services,
    stop: asyncio.Event,
    wake: asyncio.Event,
    *,
    max_sleep: float = 60.0,
    one_round: Callable[[Services], datetime | None] = run_round,
) -> None:
    """Process due games until ``stop`` is set; sleep until the earliest due time or ``wake``.

    An APScheduler alarm (a one-off date job, replaced at every round) rings
    at the earliest ``next_due_at`` in the database; a mail that changes a
    game's due time rings ``wake`` itself (``Services.on_schedule``). The
    database is re-read on every round, and at least every ``max_sleep``
    seconds, so games planned by another judge process are picked up too;
    nothing is kept in memory that a restart would lose.
    """
    from apscheduler.schedulers.asyncio import AsyncIOScheduler

    async def ring() -> None:  # a coroutine: APScheduler runs it on this loop, where ``wake`` lives
        wake.set()

    alarm = AsyncIOScheduler(timezone=UTC)
    alarm.start()
    try:
        while not stop.is_set():
            wake.clear()
            earliest = await asyncio.to_thread(one_round, services)
            if earliest is not None:
                # The judge's clock may be offset from the machine's (tests): the alarm counts real seconds.
                delay = max(0.0, (earliest - services.clock.now()).total_seconds())
                if delay < max_sleep:
                    alarm.add_job(
                        ring, "date", run_date=datetime.now(UTC) + timedelta(seconds=delay),
                        id=ALARM, replace_existing=True, misfire_grace_time=None,
                    )  # fmt: skip
            await first_of(stop, wake, timeout=max_sleep)
    finally:
        alarm.shutdown(wait=False)

