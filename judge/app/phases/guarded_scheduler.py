"""The scheduler's loop, under the guard: one game's failure never stops the others, nor the judge.

:mod:`judge.app.phases.scheduler` decides what is due in one game and does it.
This module is the one loop around it, the one ``judge serve`` runs and the
tests drive: due games are claimed and handled (several per transaction when
several are due at once); a game whose turn raises is rolled back, its
failure is recorded (the game's ``failed_attempts``, an audit event with the
error), it is backed off (five minutes, doubling, at most six hours), the
judgekeeper is alarmed (at most one mail an hour,
:mod:`judge.app.mail_out.alarms`), and the other due games are handled in the
same round. A failure of the round itself (the database away) is logged and
the round tried again later: the role never ends.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

from judge.app.mail_out.alarms import GAME_FAILED, alarm_keeper
from judge.app.phases import scheduler
from judge.app.session.services import Services, wake
from judge.collector import collector_paused
from judge.db.enums import AuditKind
from judge.db.errors import StaleStateError
from judge.waiting import first_of

log = logging.getLogger(__name__)

MAX_ERROR_CHARS = 4000

ALARM = "next-due"
"""The APScheduler job that wakes the scheduler at the earliest due time."""

MAX_STEPS_PER_CALL = 10_000
"""At most this many games handled by one :func:`process_due` (the loop then sleeps a moment)."""

BATCH = 32
"""Due games claimed and handled in one transaction when several are due at once (a deadline
shared by many games): one claim and one commit for them all instead of one each, and the
batch's reads and writes (about a dozen statements) shared by them all. 32: in a storm of 1,000
games 1.39 statements a game (2.50 at 8, 1.76 at 16). A batch holds its games' row locks while
its games are processed (a tenth of a second or two on a slow machine): what waits on them is a
mail for one of those games, whose deadline has passed, read once the batch commits. A failing
batch is redone one game per transaction, so one game's failure never holds back the others."""


def process_due(services: Services) -> int:
    """Do what is due in every due game; returns how many were handled.

    Games due together are handled :data:`BATCH` at a time, in one
    transaction. If anything in a batch fails, the whole batch is rolled
    back and the rest of the round goes one game per transaction, so the
    failing game is found, recorded and backed off while the others are
    handled: each game's work is still all or nothing, and done once.

    Never raises: a game that fails is recorded and backed off; if even that
    cannot be written, or no game can be claimed, the round ends and the
    next one tries again.

    A batch's transaction runs with the cyclic collector paused
    (:func:`judge.collector.collector_paused`): a batch of sixteen games
    allocates some hundred thousand objects (rows, boards, rulings, texts,
    mails), nearly all alive until its session closes, so the collections
    they would trigger (one every 700 objects, and now and then a full pass
    over everything the process keeps, its modules and maps: about a tenth
    of the scheduler's CPU in a storm of 1,000 games) find almost nothing to
    free. The cycles a batch leaves (its rows and their relationships) go at
    the first collection after it: one batch's worth at most.
    """
    handled = 0
    batch = BATCH
    while handled < MAX_STEPS_PER_CALL:
        now = services.clock.now()
        game_ids: list[int] = []
        try:
            with collector_paused(), services.db.unit_of_work() as uow:  # see the docstring
                games = uow.games.claim_due_many(now, min(batch, MAX_STEPS_PER_CALL - handled))
                if not games:
                    return handled
                game_ids = [game.id for game in games]
                ahead = scheduler.read_ahead(uow, services, games, now)
                with uow.together():  # the batch's new phases, games' rows and mails written together
                    for game in games:
                        scheduler.handle_due(uow, services, game, now, ahead=ahead)
            # Committed: the outbound role (here or in another process) sends the batch's results
            # now, not at its next poll.
            wake(services.on_outbox)
        except StaleStateError:
            log.info("game(s) %s handled by another process", game_ids)
            if len(game_ids) > 1:
                batch = 1
                continue
        except Exception as error:
            if not game_ids:
                log.exception("the scheduler could not claim a due game; trying again later")
                return handled
            if len(game_ids) > 1:  # rolled back: find the failing game one per transaction
                log.info("a batch of %d due games failed; handling them one by one", len(game_ids))
                batch = 1
                continue
            log.exception("scheduler failed on game %s", game_ids[0])
            if not record_failure(services, game_ids[0], error, now):
                return handled  # the game is still due: stop here rather than fail on it again
        handled += max(1, len(game_ids))
    return handled


def record_failure(services: Services, game_id: int, error: BaseException, now: datetime) -> bool:
    """Back the game off, note the error in its audit trail, alarm the keeper; False if it could not."""
    text = f"{type(error).__name__}: {error}"[:MAX_ERROR_CHARS]
    try:
        with services.db.unit_of_work() as uow:
            game = uow.games.get(game_id)
            game.failed_attempts += 1
            delay = scheduler.retry_delay(game.failed_attempts)
            uow.games.set_next_due(game, now + delay)
            uow.audit.record(
                AuditKind.FAILURE, now, game=game, actor="scheduler",
                detail=f"failed ({game.failed_attempts} in a row), tried again in {delay}: {text}",
            )
            name, attempts = game.name, game.failed_attempts
            try:
                with uow.session.begin_nested():
                    alarm_keeper(
                        uow, services, GAME_FAILED, f"game '{name}' could not be processed",
                        f"The judge failed on game '{name}' ({attempts} time(s) in a row):\n\n"
                        f"{text}\n\nNothing of that turn was kept. It is tried again in {delay}, "
                        "and later again with a longer wait each time; the other games go on.\n",
                        now,
                    )
            except Exception:
                log.exception("could not queue the alarm about game %s", game_id)
    except Exception:
        log.exception("could not record the failure of game %s", game_id)
        return False
    wake(services.on_outbox)  # the keeper's alarm, if one was queued
    return True


def guarded_round(services: Services) -> datetime | None:
    """:func:`process_due`, then the earliest due time; a failing round is logged, never fatal."""
    try:
        process_due(services)
        return scheduler.earliest_due(services)
    except Exception:
        log.exception("the scheduler's round failed; trying again shortly")
        return None


async def run_scheduler(
    services: Services, stop: asyncio.Event, wake: asyncio.Event, *, max_sleep: float = 60.0
) -> None:
    """Process due games until ``stop`` is set; sleep until the earliest due time or ``wake``.

    An APScheduler alarm (a one-off date job, replaced at every round) rings
    at the earliest ``next_due_at`` in the database; a mail that changes a
    game's due time rings ``wake`` itself (``Services.on_schedule``). The
    database is re-read on every round, and at least every ``max_sleep``
    seconds, so games planned by another judge process are picked up too;
    nothing is kept in memory that a restart would lose. A failing round is
    logged and the loop goes on (:func:`guarded_round`).
    """
    from apscheduler.schedulers.asyncio import AsyncIOScheduler

    async def ring() -> None:  # a coroutine: APScheduler runs it on this loop, where ``wake`` lives
        wake.set()

    alarm = AsyncIOScheduler(timezone=UTC)
    alarm.start()
    try:
        while not stop.is_set():
            wake.clear()
            earliest = await asyncio.to_thread(guarded_round, services)
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
