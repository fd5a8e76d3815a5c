"""Refuse, before anything reaches the database, text that would not come back intact.

PostgreSQL cannot store NUL characters in text, UTF-8 cannot encode lone
surrogates, and SQLite ignores VARCHAR lengths that PostgreSQL enforces. Left
alone, the same input would be stored on one engine and fail with a driver
error on the other. A ``before_flush`` hook checks every string (and every
string inside JSON) of every new or changed row and raises
:class:`~judge.db.errors.InvalidTextError` naming the table and column.
Binary columns (raw mail) are not checked: bytes are stored as they are.
"""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy import JSON, String, event
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import instance_state
from sqlalchemy.types import TypeDecorator

from judge.db.errors import InvalidTextError, TextTooLongError


def check_text(table: str, column: str, value: str, limit: int | None) -> None:
    """Raise if ``value`` cannot be stored and read back unchanged on every engine."""
    if "\x00" in value:
        raise InvalidTextError(table, column, "text contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidTextError(
            table, column, "text is not valid Unicode (lone surrogate)"
        ) from None
    if limit is not None and len(value) > limit:
        raise TextTooLongError(table, column, len(value), limit)


def check_json(table: str, column: str, value: Any) -> None:
    """Check every key and string of a JSON document.

    The document is written out once by orjson, which escapes every NUL
    as ``\\u0000`` and refuses lone surrogates (and what it cannot write):
    a document it writes without a NUL passes at once. Only a suspect one
    is walked, to name the problem as before. The judge's own documents
    (positions, rulings, reports) are large, and this runs at every flush
    that changes one.
    """
    try:
        if b"\\u0000" not in orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS):
            return
    except orjson.JSONEncodeError:
        pass
    _walk_json(table, column, value)


def _walk_json(table: str, column: str, value: Any) -> None:
    """Walk a JSON document and check every key and string in it."""
    if isinstance(value, str):
        check_text(table, column, value, None)
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                check_text(table, column, key, None)
            _walk_json(table, column, item)
    elif isinstance(value, list | tuple):
        for item in value:
            _walk_json(table, column, item)


def check_row(obj: object) -> None:
    """Check every text and JSON column of one mapped object."""
    state = instance_state(obj)
    mapper = state.mapper
    table = str(getattr(mapper.persist_selectable, "name", mapper.class_.__name__))
    # A loaded row's column can have changed only if it was set since: the ORM keeps its value
    # as loaded (committed_state), so the others are passed over without working out a history.
    changed = state.committed_state if state.persistent else None
    for attribute in mapper.column_attrs:
        if changed is not None and (
            attribute.key not in changed or not state.attrs[attribute.key].history.has_changes()
        ):
            continue
        value = state.dict.get(attribute.key)
        if value is None:
            continue
        column_type = attribute.columns[0].type
        if isinstance(column_type, TypeDecorator):
            continue  # enums and timestamps: checked by their own conversion
        if isinstance(column_type, String) and isinstance(value, str):
            check_text(table, attribute.key, value, column_type.length)
        elif isinstance(column_type, JSON):
            check_json(table, attribute.key, value)


def _before_flush(session: Session, _context: Any, _instances: Any) -> None:
    for obj in (*session.new, *session.dirty):
        check_row(obj)


def install(session_class: type[Session]) -> None:
    """Check rows on every flush of sessions of ``session_class`` (idempotent)."""
    if not event.contains(session_class, "before_flush", _before_flush):
        event.listen(session_class, "before_flush", _before_flush)
