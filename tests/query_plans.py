"""The statements a piece of code sends, and the engine's plan for one of them: for tests that
hold a query to its index (issue 14), on SQLite and PostgreSQL alike."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event


@contextmanager
def statements_sent(engine: Engine, wanted: Callable[[str], bool]) -> Iterator[list[tuple[str, Any]]]:
    """The (statement, parameters) pairs ``engine`` sends inside the block that ``wanted`` picks,
    exactly as sent to the driver."""
    seen: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if wanted(statement):
            seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", capture)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", capture)


def query_plan(engine: Engine, statement: str, parameters: Any) -> str:
    """The engine's plan for ``statement`` with its very parameters, one line per step; nothing
    is executed. On PostgreSQL sequential scans and sorts are discouraged, so that a usable
    index is always chosen and an unusable one shows as a sequential scan, and an index that
    gives the order asked for is walked rather than a few rows sorted (the planner's choice for
    a table of a few rows, whose statistics change with what ran before on the database).
    Neither is forbidden: a statement no index serves still shows its scan or its sort."""
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql("SET enable_seqscan = off")
            connection.exec_driver_sql("SET enable_sort = off")
            rows = connection.exec_driver_sql("EXPLAIN " + statement, parameters).all()
            text = "\n".join(str(row[0]) for row in rows)
        else:
            rows = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters).all()
            text = "\n".join(str(row[-1]) for row in rows)
        connection.rollback()
    return text
