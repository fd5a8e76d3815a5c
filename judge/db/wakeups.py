"""Wake-ups between judge processes sharing one PostgreSQL database (LISTEN/NOTIFY).

Why: when the roles run in separate processes (``judge serve --only inbound`` beside
``judge serve --only worker`` processes), nothing in memory wakes a role when another
process gave it work, so it would find its work only at its next poll (seconds later).
PostgreSQL's NOTIFY carries the wake-up instead: the door announces "mail in" after its
commit, the worker "outbox" and "schedule", and each role's process listens for its own.

A wake-up carries no data and is only a hint: the work is always read from the
database, a lost or repeated notification costs nothing but a look, and the roles keep
polling as before (a listener that loses its connection reconnects and wakes its roles
once, in case it missed something). SQLite has no such channel; a judge on SQLite runs
its roles in one process, where they wake each other directly.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection
from enum import StrEnum
from typing import Any, Protocol

from sqlalchemy.engine import Engine

log = logging.getLogger(__name__)

RECONNECT_SECONDS = (0.5, 1.0, 2.0, 5.0)
"""Back-off of a listener whose connection failed; the last value repeats."""


class Channel(StrEnum):
    """What a wake-up says. The values are PostgreSQL channel names (fixed identifiers,
    never built from input)."""

    MAIL_IN = "judge_mail_in"
    """Mail was stored: the worker has something to answer."""
    OUTBOX = "judge_outbox"
    """Mail was queued: the sender has something to send."""
    SCHEDULE = "judge_schedule"
    """A game's due time moved: the scheduler should look again."""


class _Notifications(Protocol):
    def notifies(self, *, timeout: float | None = None) -> Any: ...


class PostgresWakeups:
    """Announce and hear wake-ups on dedicated autocommit connections (never the pool's:
    a listener holds its connection for the life of the process)."""

    def __init__(self, engine: Engine, *, poll_seconds: float = 0.5) -> None:
        args, kwargs = engine.dialect.create_connect_args(engine.url)
        self._connect_args = (tuple(args), dict(kwargs))
        self._poll_seconds = poll_seconds
        self._lock = threading.Lock()
        self._announcer: Any = None
        self._warned = False

    def _connect(self) -> Any:
        import psycopg  # the PostgreSQL driver, present whenever a PostgreSQL engine is

        args, kwargs = self._connect_args
        return psycopg.connect(*args, **kwargs, autocommit=True)

    def announce(self, channel: Channel) -> None:
        """Tell every listening process; never raises (a wake-up is a hint, polling remains)."""
        with self._lock:
            try:
                if self._announcer is None or self._announcer.closed:
                    self._announcer = self._connect()
                self._announcer.execute(f"NOTIFY {Channel(channel).value}")
                self._warned = False
            except Exception as error:  # a failed hint must not fail the caller
                self._drop_announcer()
                if not self._warned:
                    self._warned = True
                    log.warning("could not announce %s to other judge processes: %s", channel, error)

    def _drop_announcer(self) -> None:
        announcer, self._announcer = self._announcer, None
        if announcer is not None:
            try:
                announcer.close()
            except Exception:  # closing a broken connection
                log.debug("closing the announcer failed", exc_info=True)

    def listen(
        self,
        channels: Collection[Channel],
        on_wake: Callable[[Channel], None],
        stop: threading.Event,
    ) -> None:
        """Hear ``channels`` until ``stop`` is set, calling ``on_wake`` for each wake-up.

        Blocks: run it in a thread of its own. Checks ``stop`` at least every
        ``poll_seconds``.
        """
        failures = 0
        while not stop.is_set():
            try:
                connection = self._connect()
            except Exception as error:  # the database may be restarting
                self._wait_after_failure(stop, failures, error)
                failures += 1
                continue
            try:
                for channel in channels:
                    connection.execute(f"LISTEN {Channel(channel).value}")
                if failures:  # something may have been announced while nobody listened
                    for channel in channels:
                        on_wake(Channel(channel))
                failures = 0
                self._hear(connection, on_wake, stop)
            except Exception as error:  # a dropped connection: listen again
                self._wait_after_failure(stop, failures, error)
                failures += 1
            finally:
                try:
                    connection.close()
                except Exception:  # closing a broken connection
                    log.debug("closing the listener failed", exc_info=True)

    def _hear(
        self, connection: _Notifications, on_wake: Callable[[Channel], None], stop: threading.Event
    ) -> None:
        while not stop.is_set():
            for note in connection.notifies(timeout=self._poll_seconds):
                try:
                    channel = Channel(note.channel)
                except ValueError:
                    continue
                on_wake(channel)
                if stop.is_set():
                    return

    def _wait_after_failure(self, stop: threading.Event, failures: int, error: Exception) -> None:
        delay = RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)]
        if failures == 0:
            log.warning("listening for other judge processes' wake-ups failed (%s); retrying", error)
        stop.wait(delay)

    def close(self) -> None:
        with self._lock:
            self._drop_announcer()


def wakeups_for(engine: Engine) -> PostgresWakeups | None:
    """The cross-process wake-ups this database offers: PostgreSQL's, or none (SQLite)."""
    if engine.dialect.name != "postgresql":
        return None
    return PostgresWakeups(engine)
