"""A judge process leaves what start-up built out of the collector's full passes (issue 14)."""

from __future__ import annotations

import asyncio
import gc

import pytest

from judge.app.runtime import judge_server as server_module
from judge.app.runtime.judge_server import JudgeServer, Role, ServerTuning
from tests.app.conftest import Harness

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_the_worker_freezes_the_start_up_heap_once(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    gc.unfreeze()
    monkeypatch.setattr(server_module, "_heap_settled", server_module.threading.Event())
    freezes: list[int] = []
    real_freeze = gc.freeze

    def freeze() -> None:
        real_freeze()
        freezes.append(gc.get_freeze_count())

    monkeypatch.setattr(gc, "freeze", freeze)

    async def run() -> None:
        tuning = ServerTuning(worker_poll_seconds=0.05, shutdown_grace_seconds=5, workers=2)
        async with JudgeServer(harness.services, roles={Role.WORKER}, tuning=tuning):
            for _ in range(100):
                if freezes:
                    break
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.1)
            server_module.settle_heap()  # another worker, another server: nothing more

    asyncio.run(run())
    assert len(freezes) == 1
    assert freezes[0] > 1000  # the judge's modules, at least
