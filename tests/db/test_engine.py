"""Engine set-up: URLs, SQLite's begin modes, refusing what the judge does not support."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.db import open_database
from judge.db.engine import SQLITE_BEGIN_OPTION, make_engine, normalise_url, writer
from judge.db.errors import SchemaError


def test_postgresql_urls_mean_psycopg_3() -> None:
    assert normalise_url("postgresql://u@h/db").drivername == "postgresql+psycopg"
    assert normalise_url("postgresql+psycopg://u@h/db").drivername == "postgresql+psycopg"
    assert normalise_url("sqlite:///x.db").drivername == "sqlite"


def test_unsupported_databases_are_refused() -> None:
    with pytest.raises(ValueError, match="unsupported database"):
        make_engine("mysql://u@h/db")


def test_sqlite_writers_begin_immediate(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/x.sqlite3")
    try:
        assert writer(engine).get_execution_options()[SQLITE_BEGIN_OPTION] == "IMMEDIATE"
        assert SQLITE_BEGIN_OPTION not in engine.get_execution_options()
        with writer(engine).connect() as connection:
            connection.exec_driver_sql("CREATE TABLE t (x INTEGER)")
            connection.commit()
    finally:
        engine.dispose()


def test_sqlite_parent_directory_is_created(tmp_path: Path) -> None:
    assert not (tmp_path / "deep").exists()
    engine = make_engine(f"sqlite:///{tmp_path}/deep/er/x.sqlite3")
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql("SELECT 1").scalar() == 1
    finally:
        engine.dispose()
    assert (tmp_path / "deep" / "er").is_dir() and (tmp_path / "deep" / "er" / "x.sqlite3").is_file()


def test_open_without_migrating_checks_the_revision(empty_database_url: str) -> None:
    with pytest.raises(SchemaError, match="judge db upgrade"):
        open_database(empty_database_url, migrate=False)
    open_database(empty_database_url).dispose()
    open_database(empty_database_url, migrate=False).dispose()
