"""Two judge processes race to process the same due phase: exactly one does it.

Real processes (spawned, each with its own engine and connections), on every
engine under test: PostgreSQL relies on row locks (``FOR UPDATE [SKIP
LOCKED]``), SQLite on the write transaction each unit of work begins with.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any

from judge.db import Database
from judge.db.enums import PhaseState
from judge.db.models import PhaseRecord
from tests.db import race
from tests.db.helpers import T0, at, game_with_seats, position


def _due_game(database: Database) -> int:
    with database.unit_of_work() as uow:
        game, _ = game_with_seats(uow)
        uow.phases.open(game, "S1901M", position("S1901M"), T0, deadline_at=at(60))
        uow.games.set_next_due(game, at(60))
        return game.id


def _race(target: Callable[..., None], *args: Any) -> list[str]:
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    results = context.Queue()
    processes = [context.Process(target=target, args=(*args, barrier, results)) for _ in range(2)]
    for process in processes:
        process.start()
    outcomes = sorted(results.get(timeout=120) for _ in processes)
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    return outcomes


def _check_processed_once(database: Database, game_id: int) -> None:
    with database.unit_of_work(readonly=True) as uow:
        game = uow.games.get(game_id)
        rows = (
            uow.session.query(PhaseRecord)
            .filter_by(game_id=game_id)
            .order_by(PhaseRecord.turn)
            .all()
        )
        assert [(p.turn, p.name, p.state) for p in rows] == [
            (1, "S1901M", PhaseState.PROCESSED),
            (2, "F1901M", PhaseState.OPEN),
        ]
        assert game.next_due_at is None and game.current_phase == "F1901M"


def test_two_schedulers_claim_the_same_due_game(database: Database) -> None:
    game_id = _due_game(database)
    outcomes = _race(race.claim_and_process, database.url)
    assert outcomes == [race.NOTHING_TO_DO, race.PROCESSED]
    _check_processed_once(database, game_id)


def test_two_processes_lock_the_same_game(database: Database) -> None:
    game_id = _due_game(database)
    outcomes = _race(race.lock_and_process, database.url, game_id)
    assert outcomes == [race.NOTHING_TO_DO, race.PROCESSED]
    _check_processed_once(database, game_id)


def test_the_database_refuses_a_phase_opened_twice(database: Database) -> None:
    """The last line of defence, should locking ever be bypassed: (game, epoch, turn) is unique."""
    import pytest
    from sqlalchemy.exc import IntegrityError

    game_id = _due_game(database)
    with pytest.raises(IntegrityError), database.unit_of_work() as uow:
        uow.session.add(
            PhaseRecord(
                game_id=game_id, epoch=0, turn=1, name="S1901M", opened_at=at(1), position_before={}
            )
        )
