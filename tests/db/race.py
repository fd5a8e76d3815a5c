"""What each racing process runs in the concurrency tests (importable by spawned children)."""

from __future__ import annotations

import time
from typing import Any

from judge.db import Database
from judge.db.enums import PhaseState
from tests.conftest import TEST_PASSWORDS
from tests.db.helpers import at, position

PROCESSED = "processed"
NOTHING_TO_DO = "nothing to do"


def _adjudicate(db: Database, uow: Any, game: Any) -> str:
    phase = uow.phases.current(game)
    if phase is None or phase.name != "S1901M" or phase.state is not PhaseState.OPEN:
        return NOTHING_TO_DO
    time.sleep(0.3)  # "adjudicating" while holding the lock: the other process races into it
    uow.phases.record_processing(
        phase,
        orders_received={"France": ["a par-bur"]},
        orders_adjudicated={"France": ["A PAR - BUR"]},
        results={"France": ["A PAR - BUR"]},
        position_after=position("F1901M"),
        processed_at=at(61),
        processing_ms=300,
    )
    uow.phases.open(game, "F1901M", position("F1901M"), at(61))
    uow.games.set_next_due(game, None)
    return PROCESSED


def claim_and_process(url: str, barrier: Any, results: Any) -> None:
    """The scheduler's way: claim a due game (skip locked), process it, move its due time."""
    db = Database(url, passwords=TEST_PASSWORDS)
    try:
        barrier.wait(timeout=60)
        with db.unit_of_work() as uow:
            game = uow.games.claim_due(at(60))
            results.put(NOTHING_TO_DO if game is None else _adjudicate(db, uow, game))
    except BaseException as error:
        results.put(f"error: {error!r}")
    finally:
        db.dispose()


def lock_and_process(url: str, game_id: int, barrier: Any, results: Any) -> None:
    """A master's PROCESS: lock the game (waiting for any holder), then check the phase is still open."""
    db = Database(url, passwords=TEST_PASSWORDS)
    try:
        barrier.wait(timeout=60)
        with db.unit_of_work() as uow:
            game = uow.games.lock(game_id)
            results.put(_adjudicate(db, uow, game))
    except BaseException as error:
        results.put(f"error: {error!r}")
    finally:
        db.dispose()
