"""Waiting for the first of several events, with a time limit: how every role of the judge idles
(standard library only, so that every layer may use it).

The door, the worker, the sender and the scheduler each sleep until they are woken (an event set
by another role, in this process or through the database) or asked to stop, or until their next
look at the database is due, whichever comes first.
"""

from __future__ import annotations

import asyncio


async def first_of(*events: asyncio.Event, timeout: float) -> None:
    """Return when any of ``events`` is set, or after ``timeout`` seconds (no error either way)."""
    waiters = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()
