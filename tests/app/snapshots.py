"""Build a game position once per test process, and give every later test that starts from it a copy.

The council tests play the same start by mail again and again (21 sign-ons, then 21 votes) before
the few mails each of them is about; that replay was most of their time. :func:`replay` runs the
build the first time a key is asked for on an engine, then keeps what it made: every row of the
database (SQLite: a page-for-page backup; PostgreSQL: each table's rows by ``COPY`` and each
sequence's position) and the harness's own state (the fake clock, the Message-ID counter, the
outbox already read, the data directory's files). A later test asking for the same key gets that
state written into its own fresh database, as if it had played the start itself.

Nothing is faked: the position is what the judge's code made from real mails, in this process, on
the same engine, and a test that played anything before asking (a harness that is not fresh) builds
for itself, uncached. Caches live per process, so each xdist worker builds its own.

``JUDGE_TEST_NO_REPLAY=1`` turns the copies off (every test builds its own start): the mutation
benchmark sets it, so that a planted bug in the code of a start meets every test that begins there.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from tests.app.conftest import Harness


@dataclass
class _Position:
    rows: Any  # sqlite3.Connection (an in-memory copy) or list of (table, COPY bytes)
    sequences: list[tuple[str, int | None, bool]]
    now: datetime
    count: int
    seen: int
    read_up_to: int
    files: dict[str, bytes]
    others: list[str]  # the Message-IDs of harness.others and harness.copies after the build
    copies: list[str]


_POSITIONS: dict[tuple[object, ...], _Position] = {}


def replay(harness: Harness, key: tuple[object, ...], build: Callable[[], object]) -> bool:
    """Bring ``harness`` to the position ``build`` makes from a fresh harness; True if copied.

    ``key`` must name everything the build depends on (seed, languages, options...)."""
    if not _fresh(harness) or os.environ.get("JUDGE_TEST_NO_REPLAY"):
        build()
        return False
    full_key = (harness.db.dialect, *key)
    position = _POSITIONS.get(full_key)
    if position is None:
        build()
        _POSITIONS[full_key] = _take(harness)
        return False
    _restore(harness, position)
    return True


def _fresh(harness: Harness) -> bool:
    """Nothing played yet: no mail sent, nothing queued, the clock where the harness starts."""
    return harness._count == 0 and harness._seen == 0 and not harness.outbox()


def _data_dir(harness: Harness) -> Path:
    return Path(harness.services.config.data_dir)


def _take(harness: Harness) -> _Position:
    files = {
        path.name: path.read_bytes()
        for path in sorted(_data_dir(harness).glob("*"))
        if path.is_file()
    }
    state = dict(
        now=harness.clock.now(), count=harness._count, seen=harness._seen, read_up_to=harness._read_up_to, files=files,
        others=[str(m["Message-ID"]) for m in harness.others], copies=[str(m["Message-ID"]) for m in harness.copies],
    )  # fmt: skip
    if harness.db.dialect == "sqlite":
        copy = sqlite3.connect(":memory:", check_same_thread=False)
        source = sqlite3.connect(_sqlite_path(harness))
        try:
            source.backup(copy)
        finally:
            source.close()
        return _Position(rows=copy, sequences=[], **state)  # type: ignore[arg-type]
    tables, sequences = _postgres_objects(harness)
    rows: list[tuple[str, bytes]] = []
    with harness.db.engine.connect() as connection:
        driver = connection.connection.driver_connection
        with driver.cursor() as cursor:
            for table in tables:
                data = bytearray()
                with cursor.copy(f"COPY {table} TO STDOUT (FORMAT BINARY)") as copy:
                    for block in copy:
                        data += block
                rows.append((table, bytes(data)))
            positions = []
            for sequence in sequences:
                cursor.execute(f"SELECT last_value, is_called FROM {sequence}")
                last, called = cursor.fetchone()
                positions.append((sequence, last, called))
        driver.rollback()
    return _Position(rows=rows, sequences=positions, **state)  # type: ignore[arg-type]


def _restore(harness: Harness, position: _Position) -> None:
    if harness.db.dialect == "sqlite":
        harness.db.dispose()
        path = _sqlite_path(harness)
        target = sqlite3.connect(path)
        try:
            position.rows.backup(target)
        finally:
            target.close()
    else:
        harness.db.dispose()
        tables, _sequences = _postgres_objects(harness)
        with harness.db.engine.connect() as connection:
            driver = connection.connection.driver_connection
            with driver.cursor() as cursor:
                cursor.execute("SET LOCAL session_replication_role = replica")
                for table in tables:
                    cursor.execute(f"DELETE FROM {table}")
                for table, data in position.rows:
                    with cursor.copy(f"COPY {table} FROM STDIN (FORMAT BINARY)") as copy:
                        copy.write(data)
                for sequence, last, called in position.sequences:
                    if last is not None:
                        cursor.execute("SELECT setval(%s, %s, %s)", (sequence, last, called))
            driver.commit()
        harness.db.dispose()
    data_dir = _data_dir(harness)
    data_dir.mkdir(parents=True, exist_ok=True)
    for name, content in position.files.items():
        (data_dir / name).write_bytes(content)
        (data_dir / name).chmod(0o600)
    harness.clock.set(position.now)
    harness._count = position.count
    harness._seen = position.seen
    harness._read_up_to = position.read_up_to
    queued = {str(m["Message-ID"]): m for m in harness.outbox()}
    harness.others = [queued[id] for id in position.others]
    harness.copies = [queued[id] for id in position.copies]


def _sqlite_path(harness: Harness) -> str:
    database = make_url(harness.db.url).database
    assert database, harness.db.url
    return database


def _postgres_objects(harness: Harness) -> tuple[list[str], list[str]]:
    """The tables (all but Alembic's) and sequences of the test's PostgreSQL database."""
    with harness.db.engine.connect() as connection:
        driver = connection.connection.driver_connection
        with driver.cursor() as cursor:
            cursor.execute(
                "SELECT format('%I.%I', schemaname, tablename) FROM pg_tables"
                " WHERE schemaname NOT LIKE 'pg\\_%' AND schemaname <> 'information_schema'"
                " AND tablename <> 'alembic_version' ORDER BY 1"
            )
            tables = [row[0] for row in cursor.fetchall()]
            cursor.execute(
                "SELECT format('%I.%I', schemaname, sequencename) FROM pg_sequences"
                " WHERE schemaname NOT LIKE 'pg\\_%' ORDER BY 1"
            )
            sequences = [row[0] for row in cursor.fetchall()]
        driver.rollback()
    return tables, sequences
