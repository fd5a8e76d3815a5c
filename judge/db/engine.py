"""Engines for the two supported databases, set up so both behave the same.

SQLite: WAL (readers never block the writer), foreign keys enforced, a busy
timeout instead of immediate "database is locked" errors, and transactions
begun by us (``BEGIN IMMEDIATE`` for writers) because SQLite has no
``SELECT ... FOR UPDATE``: taking the write lock at the start of a unit of
work is how two processes are kept from processing the same thing.
PostgreSQL: psycopg 3, connections checked before use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.engine import URL

SQLITE_BEGIN_OPTION = "judge_sqlite_begin"
BUSY_TIMEOUT_MS = 30_000


def normalise_url(url: str | URL) -> URL:
    """Make ``postgresql://`` mean psycopg 3 (SQLAlchemy would pick psycopg2, not installed)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_engine(url: str | URL, *, echo: bool = False) -> Engine:
    """An engine for ``url`` with the judge's per-engine settings applied."""
    parsed = normalise_url(url)
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_engine(parsed, echo=echo)
    if parsed.get_backend_name() == "postgresql":
        return create_engine(parsed, echo=echo, pool_pre_ping=True)
    raise ValueError(
        f"unsupported database {parsed.get_backend_name()!r}: use sqlite or postgresql"
    )


def _sqlite_engine(url: URL, *, echo: bool) -> Engine:
    database = url.database or ""
    in_memory = database in ("", ":memory:") or database.startswith("file::memory:")
    if not in_memory:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, echo=echo, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event below issue BEGIN, not the driver.
        dbapi_connection.isolation_level = None
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
        connection.exec_driver_sql(f"BEGIN {mode}")

    return engine


def writer(engine: Engine) -> Engine:
    """The same engine, but its transactions take SQLite's write lock at BEGIN.

    On PostgreSQL it is the engine itself: there, row locks do that job.
    """
    if engine.dialect.name == "sqlite":
        return engine.execution_options(**{SQLITE_BEGIN_OPTION: "IMMEDIATE"})
    return engine
