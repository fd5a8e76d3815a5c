"""``column IN (a list given as one parameter)``: one array on PostgreSQL, the list spread elsewhere.

A batch's reads and writes name their rows by lists given at execution: the
people of sixteen games (some 150 ids), the players credited alike. An
expanding ``IN`` (``bindparam(..., expanding=True)``) is spread into one
placeholder per value at every execution: SQLAlchemy renders the statement's
text again, and psycopg, which keeps the conversion of a statement to its
wire form only for statements of at most 50 parameters, converts that text
again (a scan of the whole statement) each time. :func:`in_parameter` is the
same test written once: on PostgreSQL it is ``column = ANY(:name)`` with the
list as one array parameter (the statement's text and its conversion the
same whatever the list's length, PostgreSQL's plan the same as for the list
spread: it rewrites ``IN (...)`` to ``= ANY (ARRAY[...])`` itself); on any
other database (SQLite) the expanding ``IN`` it was. Either way the rows are
those the list names; an empty list names none.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, any_, bindparam
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import QueryableAttribute
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.visitors import InternalTraversal


class InParameter(ColumnElement[bool]):
    """``column`` among the values of the parameter ``name`` (a list): see the module."""

    inherit_cache = True
    type = Boolean()
    _traverse_internals = [  # noqa: RUF012 (SQLAlchemy's own declaration): its cache key, both
        ("column", InternalTraversal.dp_clauseelement),
        ("name", InternalTraversal.dp_string),
    ]

    def __init__(self, column: ColumnElement[Any] | QueryableAttribute[Any], name: str) -> None:
        self.column: ColumnElement[Any] = (
            column.__clause_element__() if isinstance(column, QueryableAttribute) else column
        )
        self.name = name


def in_parameter(column: ColumnElement[Any] | QueryableAttribute[Any], name: str) -> InParameter:
    """``column IN (:name)``, ``name`` given a list when the statement runs (see the module)."""
    return InParameter(column, name)


@compiles(InParameter)
def _spread(element: InParameter, compiler: SQLCompiler, **kw: Any) -> str:
    return compiler.process(element.column.in_(bindparam(element.name, expanding=True)), **kw)


@compiles(InParameter, "postgresql")
def _array(element: InParameter, compiler: SQLCompiler, **kw: Any) -> str:
    array = bindparam(element.name, type_=ARRAY(element.column.type))
    return compiler.process(element.column == any_(array), **kw)
