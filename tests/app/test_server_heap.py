"""A judge process leaves what start-up built out of the collector's full passes (issue 14)."""

from __future__ import annotations

import asyncio
import gc

from judge.app import server as server_module
from judge.app.server import JudgeServer, Role, ServerTuning
from tests.app.conftest import Harness


def test_the_worker_freezes_the_start_up_heap_once(harness: Harness) -> None:
    gc.unfreeze()
    server_module._heap_settled.clear()

    async def run() -> int:
        tuning = ServerTuning(worker_poll_seconds=0.05, shutdown_grace_seconds=5)
        async with JudgeServer(harness.services, roles={Role.WORKER}, tuning=tuning):
            for _ in range(100):
                if server_module._heap_settled.is_set():
                    break
                await asyncio.sleep(0.02)
            frozen = gc.get_freeze_count()
            server_module.settle_heap()  # a second call (another worker, another server) does nothing
            assert gc.get_freeze_count() == frozen
            return frozen

    assert asyncio.run(run()) > 1000  # the judge's modules, at least
