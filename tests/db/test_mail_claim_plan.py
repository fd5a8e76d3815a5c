"""The worker's claim reads the partial indexes of pending mail, on both engines (issue 14).

On PostgreSQL a claim that read a full index on state visited a dead entry for every update of
every mail processed since the last vacuum: its cost grew with the mail processed. The claim's
condition is written in SQL text so that each engine can prove it implies the partial indexes'
(bound values prove nothing); these tests fail if a claim statement stops using them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import event

from judge.db import Database
from judge.db.models.mail import PENDING_CONDITION
from judge.db.repositories.mail import PENDING_STATES
from tests.db.helpers import at


def test_the_indexes_condition_names_exactly_the_pending_states() -> None:
    named = set(re.findall(r"'([a-z_]+)'", str(PENDING_CONDITION)))
    assert named == {state.value for state in PENDING_STATES}


CLAIMS: dict[str, Callable[[Any], object]] = {
    "take_next_row": lambda uow: uow.mail_in.take_next_row(at(30), at(35)),
    "take_next": lambda uow: uow.mail_in.take_next(at(30), at(35)),
    "lease_more": lambda uow: uow.mail_in.lease_more(at(30), at(35), 4),
    "claim_next": lambda uow: uow.mail_in.claim_next(at(30)),
}


@pytest.mark.parametrize("claim", sorted(CLAIMS))
def test_each_claim_reads_the_pending_indexes(database: Database, claim: str) -> None:
    for n in range(12):
        database.store_inbound_mail(f"mail {n}".encode(), f"p{n % 3}@example.org", ["j@x"], at(n))
    with database.unit_of_work() as uow:
        for _ in range(6):  # some processed, as in a judge that has run a while
            taken = uow.mail_in.take_next_row(at(20), at(21))
            assert taken is not None and uow.mail_in.start_processing(taken[0], at(20)) is not None
    plan = _plan_of(database, CLAIMS[claim])
    assert "ix_mail_in_pending" in plan, plan


def _plan_of(database: Database, claim: Callable[[Any], object]) -> str:
    """The engine's plan for the statement ``claim`` sends, with its very parameters; on
    PostgreSQL with sequential scans discouraged, so that a usable index is always chosen and
    an unusable one shows as a sequential scan."""
    seen: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if "mail_in" in statement and "min(" in statement:  # the claims: each sender's oldest
            seen.append((statement, parameters))

    event.listen(database.engine, "before_cursor_execute", capture)
    try:
        with database.unit_of_work() as uow:
            claim(uow)
            uow.session.rollback()
    finally:
        event.remove(database.engine, "before_cursor_execute", capture)
    assert seen, "the claim sent no statement"
    statement, parameters = seen[0]
    with database.engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql("SET enable_seqscan = off")
            rows = connection.exec_driver_sql("EXPLAIN " + statement, parameters).all()
            text = "\n".join(str(row[0]) for row in rows)
        else:
            rows = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters).all()
            text = "\n".join(str(row[-1]) for row in rows)
        connection.rollback()
    return text
