"""The scheduler under the guard: one game's failure never stops the others, nor the role.

Games are made due by hand and the scheduler's step for one of them is forced
to raise (monkeypatch), on each engine.
"""

from __future__ import annotations

import asyncio
import gc
from datetime import timedelta

import pytest

from judge.app.mail_out.alarms import ALARM_INTERVAL
from judge.app.phases import guarded_scheduler, scheduler
from judge.app.runtime import judge_server as server
from judge.app.session.services import Services
from judge.db.database import UnitOfWork
from judge.db.enums import AuditKind
from judge.db.models import Game
from judge.db.repositories.audit import AuditRepository
from tests.app.conftest import Harness, text

KEEPER = "keeper@example.org"


def _due_games(harness: Harness, *names: str) -> dict[str, int]:
    now = harness.clock.now()
    ids = {}
    with harness.db.unit_of_work() as uow:
        for name in names:
            game = uow.games.create(name, now)
            uow.games.set_next_due(game, now)
            ids[name] = game.id
    return ids


def _fails_on(name: str, handled: list[str]) -> object:
    def handle_due(uow: UnitOfWork, services: Services, game: Game, now: object, **_: object) -> None:
        if game.name == name:
            raise RuntimeError(f"a bug in game {name}")
        handled.append(game.name)
        uow.games.set_next_due(game, None)

    return handle_due


def _game(harness: Harness, game_id: int) -> tuple[int, object]:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.get(game_id)
        return game.failed_attempts, game.next_due_at


def test_one_games_failure_is_recorded_backed_off_and_alarmed_the_others_go_on(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _due_games(harness, "broken", "fine1", "fine2")
    handled: list[str] = []
    monkeypatch.setattr(scheduler, "handle_due", _fails_on("broken", handled))
    assert guarded_scheduler.process_due(harness.services) == 3
    assert sorted(handled) == ["fine1", "fine2"]
    now = harness.clock.now()
    assert _game(harness, ids["broken"]) == (1, now + scheduler.RETRY_AFTER)
    with harness.db.unit_of_work(readonly=True) as uow:
        [event] = uow.audit.for_game(uow.games.get(ids["broken"]), kind=AuditKind.FAILURE)
        assert "RuntimeError: a bug in game broken" in (event.detail or "")
    [alarm] = [m for m in harness.new_mail() if KEEPER in str(m["To"])]
    assert "game 'broken'" in text(alarm) and "the other games go on" in text(alarm)

    harness.clock.advance(scheduler.RETRY_AFTER)
    assert guarded_scheduler.process_due(harness.services) == 1
    assert _game(harness, ids["broken"]) == (2, harness.clock.now() + 2 * scheduler.RETRY_AFTER)
    assert harness.new_mail() == []  # one alarm an hour
    harness.clock.advance(ALARM_INTERVAL)
    guarded_scheduler.process_due(harness.services)
    assert [m for m in harness.new_mail() if KEEPER in str(m["To"])]


def test_when_the_failure_cannot_be_recorded_the_round_ends_without_raising(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    _due_games(harness, "broken")
    monkeypatch.setattr(scheduler, "handle_due", _fails_on("broken", []))

    def cannot(*_args: object) -> None:
        raise RuntimeError("the database is away")

    monkeypatch.setattr(AuditRepository, "record", cannot)
    assert guarded_scheduler.process_due(harness.services) == 0


def test_the_role_survives_a_failing_round_and_judge_serve_runs_the_guarded_scheduler(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert server._scheduler_loop() is guarded_scheduler.run_scheduler
    rounds: list[int] = []
    stop = asyncio.Event()

    def failing_round(services: Services) -> int:
        rounds.append(1)
        if len(rounds) >= 3:
            stop.set()
        raise RuntimeError("a bug in the round")

    monkeypatch.setattr(guarded_scheduler, "process_due", failing_round)

    async def run() -> None:
        wake = asyncio.Event()

        async def keep_waking() -> None:
            while not stop.is_set():
                wake.set()
                await asyncio.sleep(0.01)

        waker = asyncio.create_task(keep_waking())
        await asyncio.wait_for(
            guarded_scheduler.run_scheduler(harness.services, stop, wake, max_sleep=0.05), timeout=30
        )
        waker.cancel()

    asyncio.run(run())
    assert len(rounds) >= 3


def test_the_guarded_scheduler_still_does_the_real_work(harness: Harness) -> None:
    ids = _due_games(harness, "forming")
    assert guarded_scheduler.process_due(harness.services) == 1
    assert _game(harness, ids["forming"]) == (0, None)  # nothing to keep: no longer due
    harness.clock.advance(timedelta(days=1))
    assert guarded_scheduler.process_due(harness.services) == 0


def test_a_failure_inside_a_batch_rolls_the_batch_back_and_each_game_is_done_once(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games due together are handled several per transaction; a failing one sends the batch
    back one game per transaction: the others' work is kept exactly once, the failure recorded."""
    ids = _due_games(harness, "fine1", "broken", "fine2")
    handled: list[str] = []

    def handle_due(uow: UnitOfWork, services: Services, game: Game, now: object, **_: object) -> None:
        if game.name == "broken":
            raise RuntimeError("a bug in game broken")
        handled.append(game.name)
        uow.audit.record(AuditKind.FAILURE, harness.clock.now(), game=game, actor="test", detail="handled")
        uow.games.set_next_due(game, None)

    monkeypatch.setattr(scheduler, "handle_due", handle_due)
    assert guarded_scheduler.BATCH >= 3
    assert guarded_scheduler.process_due(harness.services) == 3
    assert handled == ["fine1", "fine1", "fine2"]  # fine1 in the batch (rolled back), then alone
    with harness.db.unit_of_work(readonly=True) as uow:
        for name in ("fine1", "fine2"):
            game = uow.games.get(ids[name])
            assert game.next_due_at is None
            assert len(uow.audit.for_game(game, kind=AuditKind.FAILURE)) == 1  # kept once
    assert _game(harness, ids["broken"]) == (1, harness.clock.now() + scheduler.RETRY_AFTER)


def test_a_batch_is_handled_with_the_collector_paused_and_it_is_on_again_after(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch's transaction runs without cyclic collections (its objects live until it ends); the
    collector is on again after it, and after a failing batch and the failing game's own round."""
    _due_games(harness, "fine1", "broken", "fine2")
    seen: list[tuple[str, bool]] = []

    def handle_due(uow: UnitOfWork, services: Services, game: Game, now: object, **_: object) -> None:
        seen.append((game.name, gc.isenabled()))
        if game.name == "broken":
            raise RuntimeError("a bug in game broken")
        uow.games.set_next_due(game, None)

    monkeypatch.setattr(scheduler, "handle_due", handle_due)
    gc.enable()
    assert guarded_scheduler.process_due(harness.services) == 3
    assert gc.isenabled()
    assert seen and all(not enabled for _name, enabled in seen)
