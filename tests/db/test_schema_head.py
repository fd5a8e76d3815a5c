"""Start-up's short cut past Alembic (issue 14): it must agree with Alembic, or step aside."""

from __future__ import annotations

from pathlib import Path

from judge.db.database import Database
from judge.db.migrate import downgrade, head_revision, upgrade
from judge.db.schema_head import at_head, script_head


def test_the_head_read_from_the_scripts_is_alembics() -> None:
    assert script_head() == head_revision()


def test_a_database_at_head_is_seen_so_and_one_behind_is_not(database: Database) -> None:
    assert at_head(database.url)
    previous = head_revision()
    downgrade(database.url, "-1")
    assert not at_head(database.url)
    upgrade(database.url)
    assert at_head(database.url) and head_revision() == previous


def test_a_database_never_migrated_is_not_at_head(tmp_path: Path) -> None:
    assert not at_head(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
