"""Fixed Core statements run on PostgreSQL's driver connection itself: compiled once, prepared by the server.

A statement the sender runs for every mail (marking it sent: issue 28's
9,000 results mails) costs more in SQLAlchemy's execution path (cache key,
execution context, result object) than in psycopg and the server together.
:func:`execute_fixed` keeps the statement written once, in Core, and runs it
as SQLAlchemy would have compiled it: the SQL text and the bind processors
(the column types' conversions: an enum to its value, a time checked aware)
are made once per statement and dialect; each call converts the parameters
and hands them to psycopg as a named, server-side prepared statement
(``prepare=True``: parsed and planned once per connection). Transactions are
the connection's own, as with ``connection.execute`` (the driver connection
is the one SQLAlchemy's connection holds). Listeners of ``before_cursor_execute``
are told of each statement (statement counts, traces), as SQLAlchemy tells them;
they cannot change it. On any other database the statement goes through
``connection.execute`` unchanged.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Dialect
from sqlalchemy.sql.dml import UpdateBase


@dataclass(frozen=True, slots=True)
class _Compiled:
    """A statement's SQL for one dialect, its bound constants (converted), and each parameter's conversion."""

    sql: str
    constants: dict[str, Any]
    converts: tuple[tuple[str, Callable[[Any], Any]], ...]

    def parameters(self, given: Mapping[str, Any]) -> dict[str, Any]:
        values = self.constants | dict(given)
        for name, convert in self.converts:
            values[name] = convert(values[name])
        return values


_compiled: dict[tuple[int, str], tuple[UpdateBase, _Compiled]] = {}
_lock = threading.Lock()


def _compile(statement: UpdateBase, dialect: Dialect) -> _Compiled:
    key = (id(statement), dialect.name)
    found = _compiled.get(key)
    if found is not None and found[0] is statement:
        return found[1]
    compiled = statement.compile(dialect=dialect)
    if compiled.positional or compiled.literal_execute_params or compiled.post_compile_params:
        raise ValueError("execute_fixed takes statements with named parameters only, none expanded")
    constants: dict[str, Any] = {}
    converts: list[tuple[str, Callable[[Any], Any]]] = []
    for bind, name in compiled.bind_names.items():
        convert = bind.type.bind_processor(dialect)
        if not bind.required:  # a value written into the statement: converted once
            constants[name] = bind.effective_value if convert is None else convert(bind.effective_value)
        elif convert is not None:
            converts.append((name, convert))
    made = _Compiled(compiled.string, constants, tuple(converts))
    with _lock:
        _compiled[key] = (statement, made)  # the statement kept: its id is not reused meanwhile
    return made


def execute_fixed(connection: Connection, statement: UpdateBase, parameters: Mapping[str, Any]) -> int:
    """Run ``statement`` (an INSERT, UPDATE or DELETE without RETURNING, made once and kept:
    a module's cached statement) with ``parameters`` on ``connection``; the rows it matched."""
    if connection.dialect.driver != "psycopg":
        return int(connection.execute(statement, dict(parameters)).rowcount or 0)
    compiled = _compile(statement, connection.dialect)
    if not connection.in_transaction():
        connection.begin()  # as connection.execute begins one: the caller commits, or it is rolled back
    values = compiled.parameters(parameters)
    driver = connection.connection.driver_connection
    assert driver is not None  # an open connection has its driver's
    with driver.cursor() as cursor:
        for listener in connection.dispatch.before_cursor_execute:
            listener(connection, cursor, compiled.sql, values, None, False)
        cursor.execute(compiled.sql, values, prepare=True)
        return int(cursor.rowcount)
