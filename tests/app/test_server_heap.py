"""A judge process leaves what start-up built out of the collector's full passes (issue 14), whatever
roles it runs (issue 28: the guide's split roles ran their scheduler and outbound processes with
every module in each full pass): its imports once, and a sender's boards once they are drawn."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest

import judge.app.reports.opening_boards as boards
from judge import collector
from judge.app.runtime import judge_server as server_module
from judge.app.runtime.judge_server import JudgeServer, Role, ServerTuning
from judge.db.enums import GameState
from tests.app.conftest import Harness
from tests.app.server_helpers import until

pytestmark = pytest.mark.engine_blind  # what a process keeps in memory: the same on either engine


class _NoRelay:
    def deliver(self, *_args: object, **_kwargs: object) -> dict[str, str]:
        raise AssertionError("nothing to send")


@pytest.fixture
def freezes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """Each freeze from now on, as (the stage settled, the objects frozen then), in a process that
    has not started up yet."""
    gc.unfreeze()
    monkeypatch.setattr(server_module, "_WARMED", [])
    monkeypatch.setattr(collector, "_SETTLED", set())
    monkeypatch.setattr(boards, "_WARMED", set())
    seen: list[tuple[str, int]] = []
    real = collector.settle_heap

    def settle(stage: str) -> bool:
        settled = real(stage)
        if settled:
            seen.append((stage, gc.get_freeze_count()))
        return settled

    monkeypatch.setattr(server_module, "settle_heap", settle)
    yield seen
    gc.unfreeze()


@pytest.mark.parametrize("role", [Role.WORKER, Role.SCHEDULER])
def test_a_process_freezes_its_imports_once_whatever_its_role(
    harness: Harness, freezes: list[tuple[str, int]], role: Role
) -> None:
    async def run() -> None:
        tuning = ServerTuning(worker_poll_seconds=0.05, scheduler_poll_seconds=0.05, shutdown_grace_seconds=5, workers=2)
        async with JudgeServer(harness.services, roles={role}, tuning=tuning):
            assert await until(lambda: freezes, 30)
            await asyncio.sleep(0.1)
        async with JudgeServer(harness.services, roles={role}, tuning=tuning):  # another server, same process
            await asyncio.sleep(0.2)

    asyncio.run(run())
    assert [stage for stage, _count in freezes] == ["imports"]
    assert freezes[0][1] > 1000  # the judge's modules, at least


def test_a_sender_freezes_its_imports_then_its_boards_once_drawn(harness: Harness, freezes: list[tuple[str, int]]) -> None:
    with harness.db.unit_of_work() as uow:
        uow.games.create("going", harness.clock.now(), variant="standard").state = GameState.ACTIVE

    async def run() -> None:
        tuning = ServerTuning(outbound_poll_seconds=0.05, shutdown_grace_seconds=5, outbound_connections=2)
        async with JudgeServer(harness.services, roles={Role.OUTBOUND}, relay=_NoRelay(), tuning=tuning) as server:
            assert server._warming is not None
            await asyncio.wait_for(asyncio.shield(server._warming), timeout=60)
            assert await until(lambda: len(freezes) >= 2, 30)

    asyncio.run(run())
    assert [stage for stage, _count in freezes] == ["imports", "boards"]
    imports, drawn = freezes[0][1], freezes[1][1]
    assert drawn > imports  # Standard's kept parts, in English and French, frozen with the rest
    assert {("standard", "en"), ("standard", "fr")} == boards._WARMED
