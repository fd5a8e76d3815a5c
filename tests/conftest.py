"""Fixtures shared by the whole suite: fresh, migrated, isolated databases.

``database_url`` is parametrised over both engines, SQLite and PostgreSQL. The
PostgreSQL variants run when ``JUDGE_TEST_POSTGRES_URL`` is set (``.ci/run``
sets it) and are reported as skipped when it is not, never silently absent; if
it is set and the server cannot be reached, or it is missing under CI
(``CI=true``), they FAIL.

Each test gets its own database in the state of a template migrated once per
session (and per xdist worker): an SQLite file copy, or on PostgreSQL a
``CREATE DATABASE ... TEMPLATE`` copy with a unique name (parallel workers never
collide), which :class:`_PostgresPool` puts back to the template's state after
its test and hands to the next one (or drops and replaces, if the test changed
more than rows). Tests that only want SQLite use ``sqlite_database_url``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from hypothesis import HealthCheck, settings
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.pool import NullPool

from judge.db import Database
from judge.db.passwords import PasswordHashing

settings.register_profile(
    "judge", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("judge")
"""Hypothesis judges a property by its examples, never by the machine's speed: its timing checks
(a 200 ms deadline an example, a health check on slow generation) fail a correct test when the
suite shares the cores with other work (seen: test_scoring's drawn-game property under load 17)."""

RAM_DISK = Path("/dev/shm")
RAM_DISK_MINIMUM = 4 * 2**30
"""Free space the RAM disk needs before the suite puts its temporary files there (a container's
default /dev/shm of 64 MB does not qualify, and the suite then stays on the ordinary one)."""


def _temporary_files_in_ram() -> None:
    """Put the suite's temporary directories (``tmp_path``, so every SQLite test database) on
    the RAM disk when there is one with room and the caller did not choose with ``TMPDIR``.

    The judge still issues every fsync SQLite's settings ask for; on a RAM disk each costs
    microseconds instead of a disk flush, and the SQLite tests spent much of their time there.
    Nothing a test checks depends on where its files are (kill -9 keeps the page cache either
    way). Runs when this file is imported: before pytest picks its base temporary directory, and
    before xdist starts its workers (they inherit ``TMPDIR``).
    """
    if os.environ.get("TMPDIR") or not RAM_DISK.is_dir() or not os.access(RAM_DISK, os.W_OK):
        return
    stats = os.statvfs(RAM_DISK)
    if stats.f_bavail * stats.f_frsize < RAM_DISK_MINIMUM:
        return
    os.environ["TMPDIR"] = str(RAM_DISK)
    tempfile.tempdir = str(RAM_DISK)


_temporary_files_in_ram()

POSTGRES_URL_VARIABLE = "JUDGE_TEST_POSTGRES_URL"
POSTGRES_URL = os.environ.get(POSTGRES_URL_VARIABLE, "").strip()
ENGINES = ["sqlite", "postgresql"]
"""Both engines always: without ``JUDGE_TEST_POSTGRES_URL`` each PostgreSQL variant is collected and
reported as skipped (``postgres_available``), never silently absent; CI sets it and never skips."""

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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the PostgreSQL variant of each test of an ``engine_blind`` module (unless the test
    is marked ``engine_sql``): what it checks is decided above the database (who reads a mail, in
    which words), the engine cannot change it, and its SQL is the same as that of the tests kept on
    both engines. Left out, not skipped: such a variant is not run, and says so in the count of
    deselected tests. ``JUDGE_TEST_EVERY_ENGINE=1`` keeps them all (benchmarks/engine_coverage.py
    checks with it that the kept tests send PostgreSQL every statement the left-out ones do)."""
    if os.environ.get("JUDGE_TEST_EVERY_ENGINE"):
        return
    kept: list[pytest.Item] = []
    left_out: list[pytest.Item] = []
    for item in items:
        callspec = getattr(item, "callspec", None)
        engine = callspec.params.get("database_url") if callspec is not None else None
        blind = item.get_closest_marker("engine_blind") and not item.get_closest_marker("engine_sql")
        (left_out if engine == "postgresql" and blind else kept).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept
    config.stash[_LEFT_OUT] = len(left_out)
    worker_output = getattr(config, "workeroutput", None)  # under xdist, told to the controller at the end
    if worker_output is not None:
        worker_output["engine_blind_left_out"] = len(left_out)


_LEFT_OUT = pytest.StashKey[int]()
"""How many PostgreSQL variants :func:`pytest_collection_modifyitems` left out in this process."""


def pytest_testnodedown(node: Any, error: object) -> None:
    """The controller of an xdist run learns how many variants its workers left out (each worker
    collects the whole suite, so any one of them tells)."""
    told = getattr(node, "workeroutput", {}).get("engine_blind_left_out")
    if told is not None:
        node.config.stash[_LEFT_OUT] = max(told, node.config.stash.get(_LEFT_OUT, 0))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Say how many PostgreSQL variants were left out: an xdist run's own summary counts no
    deselected tests, and a variant not run must never be silent."""
    if hasattr(config, "workerinput"):
        return
    left_out = config.stash.get(_LEFT_OUT, 0)
    if left_out:
        terminalreporter.write_line(
            f"{left_out} PostgreSQL variants of engine_blind tests left out (the engine cannot change what they check; "
            "JUDGE_TEST_EVERY_ENGINE=1 runs them)"
        )


@pytest.fixture(scope="session")
def postgres_available() -> str:
    """The test server's URL; fails (not skips) the test if it is set but unreachable."""
    if not POSTGRES_URL:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{POSTGRES_URL_VARIABLE} is not set under CI: the PostgreSQL variants never skip there")
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


_FINGERPRINT = r"""
SELECT md5(coalesce(string_agg(x, '|' ORDER BY x), '')) FROM (
  SELECT 'n:' || nspname AS x FROM pg_namespace
   WHERE nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema'
  UNION ALL
  SELECT 'c:' || c.oid::regclass::text || ':' || c.relkind::text || ':' || c.relpersistence::text || ':'
         || coalesce(array_to_string(c.reloptions, ','), '') || ':' || c.relrowsecurity
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema'
  UNION ALL
  SELECT 'a:' || a.attrelid::regclass::text || ':' || a.attnum || ':' || a.attname || ':'
         || format_type(a.atttypid, a.atttypmod) || ':' || a.attnotnull || ':' || a.attisdropped
         || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') || ':' || a.attidentity::text || a.attgenerated::text
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
   WHERE a.attnum > 0 AND n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema'
  UNION ALL
  SELECT 'k:' || conrelid::regclass::text || ':' || conname || ':' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace IN (SELECT oid FROM pg_namespace WHERE nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema')
  UNION ALL
  SELECT 'i:' || pg_get_indexdef(indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema'
  UNION ALL
  SELECT 's:' || seqrelid::regclass::text || ':' || seqtypid || ':' || seqstart || ':' || seqincrement || ':' || seqmax || ':' || seqmin || ':' || seqcache || ':' || seqcycle FROM pg_sequence
  UNION ALL
  SELECT 'p:' || p.oid::regprocedure::text || ':' || md5(coalesce(p.prosrc, '')) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema'
  UNION ALL
  SELECT 't:' || t.oid::regtype::text || ':' || t.typtype::text FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
   WHERE n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema' AND t.typrelid = 0
  UNION ALL
  SELECT 'g:' || tgrelid::regclass::text || ':' || tgname || ':' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL
  SELECT 'r:' || ev_class::regclass::text || ':' || rulename FROM pg_rewrite WHERE ev_class IN (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema')
  UNION ALL
  SELECT 'e:' || extname || ':' || extversion FROM pg_extension
  UNION ALL
  SELECT 'v:' || evtname FROM pg_event_trigger
  UNION ALL
  SELECT 'o:' || pol.polrelid::regclass::text || ':' || pol.polname FROM pg_policy pol
  UNION ALL
  SELECT 'l:' || count(*) FROM pg_largeobject_metadata
  UNION ALL
  SELECT 'd:' || coalesce(array_to_string(setconfig, ','), '') FROM pg_db_role_setting
   WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
  UNION ALL
  SELECT 'x:' || count(*) FROM pg_prepared_xacts WHERE database = current_database()
  UNION ALL
  SELECT 'm:' || datallowconn || ':' || datconnlimit || ':' || encoding || ':' || datcollate || ':' || datctype FROM pg_database WHERE datname = current_database()
) fingerprint
"""
"""Everything a test could change in a database besides its rows: schemas, tables and columns
(dropped ones too), constraints, indexes, sequences' definitions, functions, types, triggers,
rules, extensions, policies, large objects, the database's own settings, prepared transactions."""


class _PostgresPool:
    """Databases copied from the migrated template and handed to one test at a time, made as
    fresh as a new copy between tests.

    Each new copy cost a CREATE DATABASE, and each used one a DROP DATABASE, which on PostgreSQL
    15 forces a checkpoint that must fsync every file of every database copied since the last
    one: with hundreds of copies the server spent most of the suite's time on the disk. Here a
    used database is instead put back to the template's state, then reused:

    - every other connection to it is ended (as DROP ... WITH (FORCE) ended them), so no session
      state (advisory locks, LISTEN, prepared statements) carries over;
    - its :data:`_FINGERPRINT` must equal the template's and its ``alembic_version`` the template's,
      or it is dropped and a new copy made (a test that changed the schema gets no reuse);
    - every row of every table but ``alembic_version`` is deleted and every sequence restarted,
      so ids start again where a new copy's would.

    A template with rows in any other table (seed data) turns reuse off: every test then gets a
    new copy, as before.
    """

    def __init__(self, template: str) -> None:
        self._template = template
        self._free: list[str] = []
        self._all: set[str] = set()
        template_url = _server_url().set(database=template)
        engine = create_engine(template_url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        try:
            with engine.connect() as connection:
                self._fingerprint = connection.execute(text(_FINGERPRINT)).scalar_one()
                self._version = self._alembic_version(connection)
                self._tables = [
                    str(name)
                    for name in connection.execute(
                        text(
                            "SELECT format('%I.%I', schemaname, tablename) FROM pg_tables"
                            " WHERE schemaname NOT LIKE 'pg\\_%' AND schemaname <> 'information_schema'"
                            " AND tablename <> 'alembic_version' ORDER BY 1"
                        )
                    ).scalars()
                ]
                self._sequences = [
                    str(name)
                    for name in connection.execute(
                        text(
                            "SELECT format('%I.%I', schemaname, sequencename) FROM pg_sequences"
                            " WHERE schemaname NOT LIKE 'pg\\_%' ORDER BY 1"
                        )
                    ).scalars()
                ]
                self._reuse = not any(
                    connection.execute(text(f"SELECT EXISTS (SELECT FROM {table})")).scalar_one()
                    for table in self._tables
                )
        finally:
            engine.dispose()

    @staticmethod
    def _alembic_version(connection: Connection) -> list[str]:
        rows = connection.execute(text("SELECT version_num FROM alembic_version ORDER BY 1"))
        return [str(row) for row in rows.scalars()]

    def take(self) -> str:
        """The URL of a database in the template's state, for one test."""
        name = self._free.pop() if self._free else self._create()
        return _server_url().set(database=name).render_as_string(hide_password=False)

    def give_back(self, url: str) -> None:
        """The test is over: put the database back as the template has it, or drop it."""
        name = make_url(url).database
        assert name is not None
        if self._reuse and self._reset(name):
            self._free.append(name)
        else:
            self._drop(name)

    def close(self) -> None:
        for name in list(self._all):
            self._drop(name)

    def _create(self) -> str:
        name = _unique("judge_test")
        _admin(f"CREATE DATABASE {name} TEMPLATE {self._template}")
        self._all.add(name)
        return name

    def _drop(self, name: str) -> None:
        self._all.discard(name)
        _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def _reset(self, name: str) -> bool:
        """Make ``name`` hold what the template holds; False if it cannot be (drop it then)."""
        url = _server_url().set(database=name)
        engine = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        try:
            with engine.connect() as connection:
                if not self._alone(connection):
                    return False
                if connection.execute(text(_FINGERPRINT)).scalar_one() != self._fingerprint:
                    return False
                if self._alembic_version(connection) != self._version:
                    return False
                # One script, one round trip, one transaction. Foreign keys are not checked row
                # by row (their triggers do not fire as a replica): every row goes.
                script = [
                    "BEGIN",
                    "SET LOCAL session_replication_role = replica",
                    *(f"DELETE FROM {table}" for table in self._tables),
                    *(f"ALTER SEQUENCE {sequence} RESTART" for sequence in self._sequences),
                    "COMMIT",
                ]
                driver = connection.connection.driver_connection
                assert driver is not None
                driver.execute(";\n".join(script))
                return True
        finally:
            engine.dispose()

    @staticmethod
    def _alone(connection: Connection) -> bool:
        """End every other session on this database and wait until they are gone."""
        others = (
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        connection.execute(text(f"SELECT pg_terminate_backend(pid) FROM ({others}) s"))
        deadline = time.monotonic() + 10
        while connection.execute(text(f"SELECT count(*) FROM ({others}) s")).scalar_one():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True


@pytest.fixture(scope="session")
def _postgres_template(postgres_available: str) -> Iterator[str]:
    from judge.db.migrate import upgrade

    url = create_postgres_database()
    upgrade(url)
    yield str(make_url(url).database)
    drop_postgres_database(url)


@pytest.fixture(scope="session")
def _postgres_pool(_postgres_template: str) -> Iterator[_PostgresPool]:
    pool = _PostgresPool(_postgres_template)
    try:
        yield pool
    finally:
        pool.close()


def _fresh_url(engine: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if engine == "sqlite":
        template: Path = request.getfixturevalue("_sqlite_template")
        path = tmp_path / "judge.sqlite3"
        shutil.copyfile(template, path)
        yield f"sqlite:///{path}"
        return
    pool: _PostgresPool = request.getfixturevalue("_postgres_pool")
    url = pool.take()
    try:
        yield url
    finally:
        pool.give_back(url)


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


@pytest.fixture
def sqlite_database(sqlite_database_url: str) -> Iterator[Database]:
    """The same on SQLite only, for tests not about engines (a long game by mail, the attack corpus)."""
    db = Database(sqlite_database_url, passwords=TEST_PASSWORDS)
    try:
        yield db
    finally:
        db.dispose()
