"""A fixed statement run on the driver's connection (judge.db.driver_statements) does what
``connection.execute`` does with it, on both engines: the column types' conversions, the rows
matched, the caller's transaction, and the listeners of ``before_cursor_execute`` told."""

from __future__ import annotations

from datetime import timedelta, timezone

import pytest
from sqlalchemy import Connection, event, select, update
from sqlalchemy.exc import StatementError

from judge.db import Database
from judge.db.driver_statements import execute_fixed
from judge.db.engine import writer
from judge.db.enums import OutboundState
from judge.db.models import OutboundMail
from judge.db.repositories.mail import _sent_statement, claim_rows_on
from judge.db.types import NaiveDatetimeError
from tests.db.helpers import T0, at


def _queued(database: Database, count: int) -> list[int]:
    with database.unit_of_work() as uow:
        return [uow.outbox.enqueue(f"p{n}@example.org", b"Subject: x\r\n\r\nhi\r\n", T0, mail_from="j@x").id for n in range(count)]


def _row(database: Database, id: int) -> OutboundMail:
    with database.unit_of_work(readonly=True) as uow:
        row = uow.session.scalars(select(OutboundMail).where(OutboundMail.id == id)).one()
        uow.session.expunge(row)
        return row


def test_the_statement_converts_its_values_and_counts_the_rows_matched(database: Database) -> None:
    first, second = _queued(database, 2)
    told: list[str] = []

    def listener(_conn: Connection, _cursor: object, statement: str, *_args: object) -> None:
        told.append(statement)

    event.listen(database.engine, "before_cursor_execute", listener)
    try:
        with writer(database.engine).begin() as connection:
            in_paris = at(5).astimezone(timezone(timedelta(hours=1)))  # stored as the same instant
            matched = execute_fixed(
                connection, _sent_statement(), {"sent_id": first, "sent_now": in_paris, "sent_error": "not all"}
            )
            missing = execute_fixed(
                connection, _sent_statement(), {"sent_id": second + 100, "sent_now": at(5), "sent_error": None}
            )
    finally:
        event.remove(database.engine, "before_cursor_execute", listener)
    assert (matched, missing) == (1, 0)
    assert [s.split()[:3] for s in told if s.lstrip().upper().startswith("UPDATE")] == [["UPDATE", "mail_out", "SET"]] * 2
    row = _row(database, first)
    assert row.state is OutboundState.SENT and row.sent_at == at(5) and row.last_error == "not all"
    assert row.next_attempt_at is None
    assert _row(database, second).state is OutboundState.PENDING


def test_the_statement_is_part_of_the_callers_transaction(database: Database) -> None:
    (mail,) = _queued(database, 1)
    with pytest.raises(RuntimeError), writer(database.engine).begin() as connection:
        assert execute_fixed(connection, _sent_statement(), {"sent_id": mail, "sent_now": at(5), "sent_error": None}) == 1
        raise RuntimeError("the caller gives up")
    assert _row(database, mail).state is OutboundState.PENDING  # rolled back with the rest


def test_a_naive_time_is_refused_as_the_column_type_refuses_it(database: Database) -> None:
    (mail,) = _queued(database, 1)
    with pytest.raises((NaiveDatetimeError, StatementError)) as raised, writer(database.engine).begin() as connection:
        execute_fixed(connection, _sent_statement(), {"sent_id": mail, "sent_now": at(5).replace(tzinfo=None), "sent_error": None})
    # SQLAlchemy wraps the type's error in a StatementError; the driver's path raises it as it is
    assert isinstance(getattr(raised.value, "orig", raised.value), NaiveDatetimeError)
    assert _row(database, mail).state is OutboundState.PENDING


def test_a_batch_claim_counts_each_mails_attempt_and_gives_each_its_own_lease(database: Database) -> None:
    """On PostgreSQL the claim writes the batch in one statement of three arrays: each mail gets
    its own attempt and lease, not a neighbour's."""
    ids = _queued(database, 4)
    with writer(database.engine).begin() as connection:  # the second mail tried once before
        connection.execute(update(OutboundMail).where(OutboundMail.id == ids[1]).values(attempts=1))
    leases = iter(range(10, 100, 10))
    with writer(database.engine).begin() as connection:
        claimed = claim_rows_on(connection, at(1), lambda attempts: at(next(leases) + attempts), 3)
    assert [(c[0], c[3]) for c in claimed] == [(ids[0], 1), (ids[1], 2), (ids[2], 1)]
    rows = [_row(database, id) for id in ids]
    assert [(r.attempts, r.next_attempt_at) for r in rows] == [(1, at(11)), (2, at(22)), (1, at(31)), (0, T0)]
