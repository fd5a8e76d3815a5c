"""Alembic environment for the judge: target metadata and how to connect.

Called by judge.db.migrate (which passes an open connection in
``config.attributes["connection"]``) or by the ``alembic`` command with the
developer's alembic.ini (then the URL comes from it or from
JUDGE_DATABASE_URL). SQLite migrations use batch mode, since SQLite cannot
ALTER most things in place.
"""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy import Connection
from sqlalchemy.types import TypeDecorator

from judge.config import database_url
from judge.db.engine import make_engine
from judge.db.models import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or database_url()


def _render_item(kind: str, obj: Any, _context: AutogenContext) -> str | Literal[False]:
    """Write the judge's column types as the plain SQLAlchemy types they store.

    Migrations must not import application code that may change later; a
    UTCDateTime is a DateTime(timezone=True) and a StrEnumType a String.
    """
    if kind == "type" and isinstance(obj, TypeDecorator):
        return f"sa.{obj.impl!r}"
    return False


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        compare_server_default=True,
        render_item=_render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as connection:
            _configure(connection)
            connection.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
