"""Persistence: SQLAlchemy 2 models, repositories, units of work, Alembic migrations.

Use :class:`Database` (or :func:`open_database`, which migrates first) and
its ``unit_of_work()``; the models and repositories are reachable from there.
"""

from __future__ import annotations

from judge.db.database import Database, UnitOfWork, open_database

__all__ = ["Database", "UnitOfWork", "open_database"]
