"""Log lines that repeat are written once per window, with a count: a flood never floods the log.

A thousand idle sockets or a database that refuses every store would
otherwise write the same warning thousands of times a minute, drowning what
the operator needs to see (and the disk). :class:`RepeatFilter` lets the
first record of a kind through, holds back the same kind for ``window``
seconds, and adds to the next one let through how many were held back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable

DEFAULT_WINDOW_SECONDS = 60.0
FLOOD_PRONE_LOGGERS = ("mail.log", "asyncio", "judge.mail.inbound")
"""The SMTP library, the event loop (accept errors) and the door: what a flood of clients hits."""


class RepeatFilter(logging.Filter):
    """Let one record of a kind (logger, level, message template, exception type) through per window.

    Records below ``min_level`` always pass. Thread-safe: the door logs from
    its store threads too.
    """

    def __init__(
        self,
        window: float = DEFAULT_WINDOW_SECONDS,
        *,
        min_level: int = logging.WARNING,
        clock: Callable[[], float] = time.monotonic,
        max_kinds: int = 1000,
    ) -> None:
        super().__init__()
        self.window = window
        self.min_level = min_level
        self.clock = clock
        self.max_kinds = max_kinds
        self._last: dict[tuple[object, ...], float] = {}
        self._held: dict[tuple[object, ...], int] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < self.min_level:
            return True
        exc_type = record.exc_info[0] if record.exc_info else None
        kind = (record.name, record.levelno, str(record.msg), exc_type)
        now = self.clock()
        with self._lock:
            last = self._last.get(kind)
            if last is not None and now - last < self.window:
                self._held[kind] = self._held.get(kind, 0) + 1
                return False
            if len(self._last) >= self.max_kinds:  # bounded memory whatever the flood
                self._last.clear()
                self._held.clear()
            self._last[kind] = now
            held = self._held.pop(kind, 0)
        if held:
            record.msg = f"{record.msg} (and {held} more like it in the last {self.window:g} s)"
        return True


def install(
    names: Iterable[str] = FLOOD_PRONE_LOGGERS, window: float = DEFAULT_WINDOW_SECONDS
) -> RepeatFilter:
    """Put one shared :class:`RepeatFilter` on the named loggers (once: a second call reuses it)."""
    shared: RepeatFilter | None = None
    for name in names:
        for existing in logging.getLogger(name).filters:
            if isinstance(existing, RepeatFilter):
                shared = existing
    shared = shared or RepeatFilter(window)
    for name in names:
        logger = logging.getLogger(name)
        if shared not in logger.filters:
            logger.addFilter(shared)
    return shared
