"""Migrations: empty to head on every engine, down to base and up again, and no drift."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text

from judge.cli import main
from judge.db import Database, open_database
from judge.db.engine import make_engine
from judge.db.errors import SchemaError
from judge.db.migrate import (
    MIGRATIONS_DIR,
    check_current,
    current_revision,
    downgrade,
    head_revision,
    upgrade,
)
from judge.db.models import Base

TABLES = set(Base.metadata.tables)


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def _drift(url: str) -> list[object]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(
                connection, opts={"compare_type": True, "compare_server_default": True}
            )
            return list(compare_metadata(context, Base.metadata))
    finally:
        engine.dispose()


def test_migrations_ship_inside_the_package() -> None:
    assert MIGRATIONS_DIR.parent.name == "judge"
    assert (MIGRATIONS_DIR / "env.py").is_file()
    assert any((MIGRATIONS_DIR / "versions").glob("*.py"))


def test_upgrade_from_empty_to_head(empty_database_url: str) -> None:
    assert current_revision(empty_database_url) is None
    with pytest.raises(SchemaError, match="judge db upgrade"):
        check_current(empty_database_url)
    upgrade(empty_database_url)
    assert current_revision(empty_database_url) == head_revision()
    assert _tables(empty_database_url) == TABLES
    check_current(empty_database_url)


def test_downgrade_to_base_and_up_again(empty_database_url: str) -> None:
    upgrade(empty_database_url)
    downgrade(empty_database_url, "base")
    assert current_revision(empty_database_url) is None
    assert _tables(empty_database_url) == set()
    upgrade(empty_database_url)
    assert _tables(empty_database_url) == TABLES


def test_autogenerate_finds_no_difference(database_url: str) -> None:
    assert _drift(database_url) == []


def test_the_drift_check_can_fail(empty_database_url: str) -> None:
    """The check above would notice a model the migrations do not create."""
    upgrade(empty_database_url)
    engine = make_engine(empty_database_url)
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE diary_entries"))
    engine.dispose()
    assert any("diary_entries" in str(change) for change in _drift(empty_database_url))


def test_open_database_migrates_on_first_start(empty_database_url: str) -> None:
    db = open_database(empty_database_url)
    try:
        assert current_revision(empty_database_url) == head_revision()
        with db.unit_of_work(readonly=True) as uow:
            assert uow.games.list() == []
    finally:
        db.dispose()
    open_database(empty_database_url).dispose()  # second start: nothing to do


def test_cli_upgrade_and_current(
    empty_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "--url", empty_database_url, "current"]) == 0
    assert capsys.readouterr().out.startswith("none")
    assert main(["db", "--url", empty_database_url, "upgrade"]) == 0
    assert head_revision() in capsys.readouterr().out
    assert main(["db", "--url", empty_database_url, "current"]) == 0
    assert capsys.readouterr().out.strip() == f"{head_revision()} (head)"
    assert main(["db", "--url", empty_database_url, "downgrade", "base"]) == 0
    assert _tables(empty_database_url) == set()
    assert main(["db", "--url", empty_database_url, "heads"]) == 0
    assert capsys.readouterr().out.strip().endswith(head_revision())


def test_cli_uses_the_data_directory_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("JUDGE_DATABASE_URL", raising=False)
    monkeypatch.setenv("JUDGE_DATA_DIR", str(tmp_path / "state"))
    assert main(["db", "upgrade"]) == 0
    assert (tmp_path / "state" / "judge.sqlite3").is_file()


def test_cli_reports_an_unreachable_database(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql+psycopg://nobody:secret@127.0.0.1:1/none"
    assert main(["db", "--url", url, "current"]) == 1
    err = capsys.readouterr().err
    assert "judge db current" in err and "secret" not in err


def test_sqlite_runs_in_wal_mode_with_foreign_keys(sqlite_database_url: str) -> None:
    db = Database(sqlite_database_url)
    try:
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        db.dispose()


def test_foreign_keys_are_enforced(database: Database) -> None:
    from sqlalchemy.exc import IntegrityError

    from judge.db.models import DeadlineSchedule

    with pytest.raises(IntegrityError), database.unit_of_work() as uow:
        uow.session.add(DeadlineSchedule(game_id=12345, phase_type="M"))
