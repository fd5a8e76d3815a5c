"""Errors of the persistence layer, precise enough to tell a player or an operator what went wrong.

All derive from :class:`PersistenceError`. ``str(error)`` is a sentence; the
attributes carry the parts so a handler can build its own reply.
"""

from __future__ import annotations


class PersistenceError(Exception):
    """Base of every error the repository layer raises on purpose."""


class InvalidTextError(PersistenceError, ValueError):
    """Text that the database cannot hold faithfully on every engine.

    PostgreSQL refuses NUL characters in text and lone surrogates cannot be
    encoded as UTF-8; rather than store them on one engine and fail on the
    other, both refuse them here with the field named.
    """

    def __init__(self, table: str, column: str, reason: str) -> None:
        self.table = table
        self.column = column
        self.reason = reason
        super().__init__(f"cannot store {table}.{column}: {reason}")


class TextTooLongError(InvalidTextError):
    """Text longer than its column allows (SQLite would not check; PostgreSQL would)."""

    def __init__(self, table: str, column: str, length: int, limit: int) -> None:
        self.length = length
        self.limit = limit
        super().__init__(table, column, f"{length} characters, at most {limit} allowed")


class NotFoundError(PersistenceError, LookupError):
    """A row that was expected and is not there (an unknown game, person, seat...)."""

    def __init__(self, what: str, key: object) -> None:
        self.what = what
        self.key = key
        super().__init__(f"no {what} {key!r}")


class DuplicateError(PersistenceError):
    """A row that would clash with an existing one (a game name, an address, a power)."""

    def __init__(self, what: str, key: object) -> None:
        self.what = what
        self.key = key
        super().__init__(f"{what} {key!r} already exists")


class StaleStateError(PersistenceError):
    """The row changed under us: e.g. a phase already processed by another judge process."""


class SchemaError(PersistenceError):
    """The database schema is not at the revision this judge expects (run ``judge db upgrade``)."""
