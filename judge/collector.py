"""The cyclic garbage collector paused around a bounded stretch of work that makes no cycles to free.

A stretch that allocates many short-lived objects (a map's picture: tens of
thousands of spans and tuples; the start-up of a command) triggers collections
of the youngest generation every 700 net new objects, and now and then a full
one that traces every object kept alive: a board's kept pixels, the variants'
maps. What such a stretch allocates is freed by reference counting as it goes
(it builds no cycles), so those collections find nothing and only cost time:
about 2 ms a World picture, up to 7 ms when a full collection falls in it.

Pausing is process-wide and threads may overlap: the collector is switched back
on only by the pause that switched it off, so a stretch nested in another, or
begun while a command keeps the collector off on purpose, leaves it as it found
it. Cyclic garbage made meanwhile is collected at the next collection after.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off inside the block, back on after it only if it was on before."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
