"""The declarative base shared by every model, and the column conventions.

Constraint names follow one convention so Alembic can name (and later drop or
alter) every constraint on both engines, SQLite batch mode included.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, MetaData
from sqlalchemy.orm import DeclarativeBase

from judge.db.types import UTCDateTime

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# Lengths used across the models, so a check and a column never disagree.
ADDRESS_LENGTH = 320  # RFC 5321: 64 + 1 + 255
NAME_LENGTH = 200
GAME_NAME_LENGTH = 32
POWER_LENGTH = 32
PHASE_LENGTH = 8
HASH_LENGTH = 255


class Base(DeclarativeBase):
    """Every table of the judge. Datetimes are aware UTC, dicts and lists are JSON."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {  # noqa: RUF012 - SQLAlchemy reads this class attribute
        datetime: UTCDateTime(),
        dict[str, Any]: JSON(none_as_null=True),
        list[str]: JSON(none_as_null=True),
    }
