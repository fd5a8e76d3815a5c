"""Waiting in a test of the running judge (:class:`judge.app.runtime.judge_server.JudgeServer`):
its roles work in their own tasks and threads, so a test looks again until what it waits for
has happened, or gives up."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


async def until(condition: Callable[[], object], seconds: float) -> bool:
    """Whether ``condition()`` came true within ``seconds``, asked every 50 ms in a thread (it may
    read the database) while the server's loop goes on."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await asyncio.to_thread(condition):
            return True
        await asyncio.sleep(0.05)
    return False
