"""Engines for the two supported databases, set up so both behave the same.

SQLite: WAL (readers never block the writer), foreign keys enforced, a busy
timeout instead of immediate "database is locked" errors, and transactions
begun by us (``BEGIN IMMEDIATE`` for writers) because SQLite has no
``SELECT ... FOR UPDATE``: taking the write lock at the start of a unit of
work is how two processes are kept from processing the same thing.
Durability is left at SQLite's default for WAL (``synchronous=FULL``: every
commit is on disk before it returns), because the SMTP door answers 250 only
after its commit.

Writers of one process queue for SQLite's write lock in a first-come,
first-served :class:`WriteGate` before they ``BEGIN IMMEDIATE``. Without it
they would only have SQLite's busy handler, which polls with growing sleeps
(up to 100 ms): a thread that commits and begins again at once (the worker
going from one mail to the next) nearly always wins the lock back, and the
SMTP door's short insert could starve for the whole busy timeout and answer
451. With the gate the lock passes to the longest-waiting writer the moment
it is released. Other processes on the same file still meet the busy timeout.
PostgreSQL: psycopg 3, connections checked before use.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.engine import URL

from judge.json_text import dumps, loads

SQLITE_BEGIN_OPTION = "judge_sqlite_begin"
BUSY_TIMEOUT_MS = 30_000


def normalise_url(url: str | URL) -> URL:
    """Make ``postgresql://`` mean psycopg 3 (SQLAlchemy would pick psycopg2, not installed)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_engine(url: str | URL, *, echo: bool = False) -> Engine:
    """An engine for ``url`` with the judge's per-engine settings applied.

    Statement parameters are hidden from logs and error messages (``hide_parameters``): they
    carry raw mail, replies quoting passwords, and private press."""
    parsed = normalise_url(url)
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_engine(parsed, echo=echo)
    if parsed.get_backend_name() == "postgresql":
        # JSON columns read and written by orjson (judge.json_text): the same documents, a fraction of the time.
        return create_engine(
            parsed, echo=echo, pool_pre_ping=True, hide_parameters=True, json_serializer=dumps, json_deserializer=loads
        )
    raise ValueError(
        f"unsupported database {parsed.get_backend_name()!r}: use sqlite or postgresql"
    )


class WriteGateTimeout(sqlite3.OperationalError):
    """A writer waited the whole busy timeout for the others of its process."""


class WriteGate:
    """A first-come, first-served lock for the writers of one SQLite database in one process.

    A plain ``threading.Lock`` would not do: it promises no order, and the
    thread releasing it (still holding the GIL) usually takes it again.
    """

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._waiting: deque[object] = deque()
        self._held = False

    def acquire(self, timeout: float) -> None:
        """Wait for every writer that came first; WriteGateTimeout after ``timeout`` seconds."""
        ticket = object()
        deadline = time.monotonic() + timeout
        with self._condition:
            self._waiting.append(ticket)
            while self._held or self._waiting[0] is not ticket:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._waiting.remove(ticket)
                    self._condition.notify_all()
                    raise WriteGateTimeout("database is locked (waited for this process's other writers)")
                self._condition.wait(remaining)
            self._waiting.popleft()
            self._held = True

    def release(self) -> None:
        with self._condition:
            self._held = False
            self._condition.notify_all()


class _GatedConnection(sqlite3.Connection):
    """A driver connection that gives the gate back when its write transaction ends, however it ends."""

    gate: WriteGate | None = None
    holds_gate: bool = False

    def enter_write(self) -> None:
        if self.gate is not None and not self.holds_gate:
            self.gate.acquire(BUSY_TIMEOUT_MS / 1000)
            self.holds_gate = True

    def leave_write(self) -> None:
        if self.holds_gate and self.gate is not None:
            self.holds_gate = False
            self.gate.release()

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self.leave_write()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self.leave_write()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.leave_write()


def _sqlite_engine(url: URL, *, echo: bool) -> Engine:
    database = url.database or ""
    in_memory = database in ("", ":memory:") or database.startswith("file::memory:")
    if not in_memory:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    gate = WriteGate()
    engine = create_engine(
        url, echo=echo, hide_parameters=True,
        connect_args={"timeout": BUSY_TIMEOUT_MS / 1000, "factory": _GatedConnection},
    )  # fmt: skip

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event below issue BEGIN, not the driver.
        dbapi_connection.isolation_level = None
        if isinstance(dbapi_connection, _GatedConnection):
            dbapi_connection.gate = gate
        cursor = dbapi_connection.cursor()
        try:
            if not in_memory:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        mode = connection.get_execution_options().get(SQLITE_BEGIN_OPTION, "DEFERRED")
        driver = connection.connection.dbapi_connection
        gated = mode == "IMMEDIATE" and isinstance(driver, _GatedConnection)
        if gated:
            driver.enter_write()
        try:
            connection.exec_driver_sql(f"BEGIN {mode}")
        except BaseException:
            if gated:
                driver.leave_write()
            raise

    return engine


def writer(engine: Engine) -> Engine:
    """The same engine, but its transactions take SQLite's write lock at BEGIN.

    On PostgreSQL it is the engine itself: there, row locks do that job.
    """
    if engine.dialect.name == "sqlite":
        return engine.execution_options(**{SQLITE_BEGIN_OPTION: "IMMEDIATE"})
    return engine
