"""The scheduler role under the guard: one game's failure never stops the others, nor the judge.

:mod:`judge.app.phases.scheduler` decides what is due in a game and does it (one
game per transaction). This module runs it the way ``judge serve`` does: a
game whose turn raises is rolled back, its failure is recorded (the game's
``failed_attempts``, an audit event with the error), it is backed off (five
minutes, doubling, at most six hours), the judgekeeper is alarmed (at most
one mail an hour, :mod:`judge.app.mail_out.alarms`), and the other due games are
handled in the same round. A failure of the round itself (the database
away) is logged and the round tried again later: the role never ends.

Kept apart from :mod:`judge.app.phases.scheduler`, which sits in the app's legacy
import circle, so the guard adds nothing to that circle.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from judge.app.mail_out.alarms import GAME_FAILED, alarm_keeper
from judge.app.phases import scheduler
from judge.app.session.services import Services
from judge.db.enums import AuditKind
from judge.db.errors import StaleStateError

log = logging.getLogger(__name__)

MAX_ERROR_CHARS = 4000


BATCH = 8
"""Due games claimed and handled in one transaction when several are due at once (a deadline
shared by many games): one claim and one commit for them all instead of one each."""


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
    """
    handled = 0
    batch = BATCH
    while handled < scheduler.MAX_STEPS_PER_CALL:
        now = services.clock.now()
        game_ids: list[int] = []
        try:
            with services.db.unit_of_work() as uow:
                games = uow.games.claim_due_many(now, min(batch, scheduler.MAX_STEPS_PER_CALL - handled))
                if not games:
                    return handled
                game_ids = [game.id for game in games]
                for game in games:
                    scheduler.handle_due(uow, services, game, now)
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
    """As :func:`judge.app.phases.scheduler.run_scheduler`, but a failing round is logged, never fatal."""
    await scheduler.run_scheduler(services, stop, wake, max_sleep=max_sleep, one_round=guarded_round)
