"""Column types that behave the same on SQLite and PostgreSQL.

SQLite has no time-zone-aware timestamps and no enum type; these decorators
make both engines hand back the same Python values, so code above never
checks which engine it runs on.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

from sqlalchemy import DateTime, Dialect, String
from sqlalchemy.types import TypeDecorator

E = TypeVar("E", bound=StrEnum)


class NaiveDatetimeError(ValueError):
    """A datetime without a time zone: the judge would not know which instant it means."""


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back time-zone aware (UTC).

    Naive datetimes are refused: time is injected by callers, and a naive one
    is a bug there. On SQLite the value is stored as naive UTC text, so text
    order is time order and indexes on it work.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise NaiveDatetimeError(f"naive datetime {value.isoformat()}: pass an aware UTC time")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class StrEnumType(TypeDecorator[E], Generic[E]):
    """A :class:`StrEnum` stored as its value in a VARCHAR (no native enum: see judge.db.enums)."""

    impl = String(24)
    cache_ok = True

    def __init__(self, enum: type[E], length: int = 24) -> None:
        super().__init__(length)
        self.enum = enum

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        if value is None:
            return None
        return self.enum(value).value

    def process_result_value(self, value: Any, dialect: Dialect) -> E | None:
        if value is None:
            return None
        return self.enum(value)
