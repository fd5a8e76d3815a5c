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

What lives as long as the process (modules, grammars, tables, each board's kept
parts) is left out of the full passes by :func:`settle_heap` once it is built.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_SETTLED: set[str] = set()
"""The stages of start-up whose heap :func:`settle_heap` has frozen in this process."""
_SETTLING = threading.Lock()


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


def settle_heap(stage: str) -> bool:
    """Once per ``stage`` of a process's start-up (its imports, its boards drawn): collect, then
    leave every object alive out of the collector's later passes (``gc.freeze``). True when it
    did so now, False when that stage was settled before.

    Why: a full pass scans every tracked object; in a judge process, with all of the judge
    imported, one costs about 80 ms and comes every few hundred mails (issue 14), and a sender's
    kept boards add to it. Frozen objects are still freed by reference counting when they go;
    only a cycle among them would be kept, which is why each stage is frozen once, not again and
    again as objects come and go."""
    with _SETTLING:
        if stage in _SETTLED:
            return False
        _SETTLED.add(stage)
        gc.collect()
        gc.freeze()
        return True
