"""The running scheduler wakes itself at the next due time (APScheduler), not at its next poll."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timedelta

from judge.app.phases.guarded_scheduler import run_scheduler
from tests.app.conftest import Harness
from tests.app.deadlines_helpers import advance_to, send_orders, times
from tests.app.orders_helpers import start_game


class SlidingClock:
    """Game time that starts at ``start`` and then runs with the real clock."""

    def __init__(self, start: datetime) -> None:
        self.start = start
        self.started = time.monotonic()

    def now(self) -> datetime:
        return self.start + timedelta(seconds=time.monotonic() - self.started)


def test_the_alarm_wakes_the_scheduler_when_a_game_falls_due_between_polls(harness: Harness) -> None:
    game = start_game(harness)
    advance_to(harness, times(game).start)
    send_orders(game)
    due = times(game).next_due
    assert due is not None
    # Game time runs from one second before the early processing is due; the poll is a minute away.
    harness.services.clock = SlidingClock(due - timedelta(seconds=1))

    async def scenario() -> bool:
        stop, wake = asyncio.Event(), asyncio.Event()
        task = asyncio.create_task(run_scheduler(harness.services, stop, wake, max_sleep=60))
        processed = False
        for _ in range(150):  # up to 15 s, well before the next poll
            await asyncio.sleep(0.1)
            if game.state()["phase"] == "F1901M":
                processed = True
                break
        stop.set()
        await asyncio.wait_for(task, timeout=10)
        return processed

    assert asyncio.run(scenario())
