"""Alembic, driven from code: no alembic.ini needed, works from an installed wheel.

The migration scripts live in the top-level ``migrations/`` directory, shipped
inside the package through the ``judge/migrations`` link, and
:func:`alembic_config` points Alembic there. Each function opens its own
engine (with the judge's SQLite settings) and closes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from judge.db.engine import make_engine, normalise_url
from judge.db.errors import SchemaError

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic configuration for the judge's migrations (and ``url`` if given)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        # ConfigParser interpolates '%': escape it (passwords in URLs may hold it).
        rendered = normalise_url(url).render_as_string(hide_password=False)
        config.set_main_option("sqlalchemy.url", rendered.replace("%", "%%"))
    return config


@contextmanager
def _connected(url: str) -> Iterator[tuple[Config, Connection]]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            config = alembic_config(url)
            config.attributes["connection"] = connection
            yield config, connection
    finally:
        engine.dispose()


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` up to ``revision`` (an empty database gets everything)."""
    with _connected(url) as (config, connection):
        command.upgrade(config, revision)
        connection.commit()


def downgrade(url: str, revision: str) -> None:
    """Take the database down to ``revision`` (``base``: drop every table of the judge)."""
    with _connected(url) as (config, connection):
        command.downgrade(config, revision)
        connection.commit()


def current_revision(url: str) -> str | None:
    """The revision the database is at; None for a database the judge never touched."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()


def head_revision() -> str:
    """The newest revision this judge knows."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise SchemaError("no migrations found: the judge is installed without its migrations")
    return head


def check_current(url: str) -> None:
    """Raise SchemaError unless the database is at the head revision."""
    current = current_revision(url)
    head = head_revision()
    if current != head:
        raise SchemaError(
            f"database is at revision {current or 'none'}, this judge needs {head}: "
            "run `judge db upgrade`"
        )
