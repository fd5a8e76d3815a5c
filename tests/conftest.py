"""Fixtures shared by the whole suite: fresh, migrated, isolated databases.

``database_url`` is parametrised over the engines under test: SQLite always,
PostgreSQL too when ``JUDGE_TEST_POSTGRES_URL`` is set (CI sets it). If it is
set and the server cannot be reached, PostgreSQL tests FAIL: no silent skip.

Each test gets its own database, copied from a template migrated once per
session (and per xdist worker): an SQLite file copy, or on PostgreSQL
``CREATE DATABASE ... TEMPLATE``, with unique names so parallel workers never
collide. Tests that only want SQLite use ``sqlite_database_url``.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url

from judge.db import Database
from judge.db.passwords import PasswordHashing

POSTGRES_URL_VARIABLE = "JUDGE_TEST_POSTGRES_URL"
POSTGRES_URL = os.environ.get(POSTGRES_URL_VARIABLE, "").strip()
ENGINES = ["sqlite", *(["postgresql"] if POSTGRES_URL else [])]

# argon2id still, but cheap: the suite hashes many passwords.
TEST_PASSWORDS = PasswordHashing(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))


def _server_url() -> URL:
    url = make_url(POSTGRES_URL)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    return url


def _admin(sql: str) -> None:
    """Run one statement outside a transaction (CREATE/DROP DATABASE) on the test server."""
    engine = create_engine(_server_url(), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(text(sql))
    finally:
        engine.dispose()


def _unique(prefix: str) -> str:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return f"{prefix}_{worker}_{uuid.uuid4().hex[:12]}"


def create_postgres_database(template: str | None = None) -> str:
    """A new database on the test server; returns its URL."""
    name = _unique("judge_test")
    suffix = f" TEMPLATE {template}" if template else ""
    _admin(f"CREATE DATABASE {name}{suffix}")
    return _server_url().set(database=name).render_as_string(hide_password=False)


def drop_postgres_database(url: str) -> None:
    _admin(f"DROP DATABASE IF EXISTS {make_url(url).database} WITH (FORCE)")


@pytest.fixture(scope="session")
def postgres_available() -> str:
    """The test server's URL; fails (not skips) the test if it is set but unreachable."""
    if not POSTGRES_URL:
        pytest.skip(f"{POSTGRES_URL_VARIABLE} is not set")
    try:
        _admin("SELECT 1")
    except Exception as error:
        pytest.fail(f"{POSTGRES_URL_VARIABLE} is set but PostgreSQL is unreachable: {error}")
    return POSTGRES_URL


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from judge.db.migrate import upgrade

    path = tmp_path_factory.mktemp("template") / "judge.sqlite3"
    upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def _postgres_template(postgres_available: str) -> Iterator[str]:
    from judge.db.migrate import upgrade

    url = create_postgres_database()
    upgrade(url)
    yield str(make_url(url).database)
    drop_postgres_database(url)


def _fresh_url(engine: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if engine == "sqlite":
        template: Path = request.getfixturevalue("_sqlite_template")
        path = tmp_path / "judge.sqlite3"
        shutil.copyfile(template, path)
        yield f"sqlite:///{path}"
        return
    url = create_postgres_database(template=request.getfixturevalue("_postgres_template"))
    try:
        yield url
    finally:
        drop_postgres_database(url)


@pytest.fixture(params=ENGINES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a fresh database at the head revision, on each engine under test."""
    yield from _fresh_url(request.param, request, tmp_path)


@pytest.fixture
def sqlite_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a fresh SQLite database at the head revision (for tests not about engines)."""
    yield from _fresh_url("sqlite", request, tmp_path)


@pytest.fixture
def postgres_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh migrated PostgreSQL database, for tests of what only PostgreSQL does.

    Skipped when JUDGE_TEST_POSTGRES_URL is unset; fails when it is set and unreachable.
    """
    yield from _fresh_url("postgresql", request, tmp_path)


@pytest.fixture(params=ENGINES)
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database (no tables), on each engine under test: for migration tests."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    request.getfixturevalue("postgres_available")
    url = create_postgres_database()
    try:
        yield url
    finally:
        drop_postgres_database(url)


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    """A :class:`Database` on a fresh migrated database (each engine), with cheap password hashing."""
    db = Database(database_url, passwords=TEST_PASSWORDS)
    try:
        yield db
    finally:
        db.dispose()
