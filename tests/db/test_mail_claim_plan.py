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

from judge.db import Database
from judge.db.engine import writer
from judge.db.models.mail import PENDING_CONDITION
from judge.db.repositories.mail import PENDING_STATES, claim_rows_on
from tests.db.helpers import at
from tests.query_plans import query_plan, statements_sent


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
            assert taken is not None and uow.mail_in.start_processing(taken[0], at(20), at(-1000)) is not None
    with statements_sent(database.engine, _is_claim) as sent, database.unit_of_work() as uow:
        CLAIMS[claim](uow)
        uow.session.rollback()
    assert sent, "the claim sent no statement"
    plan = query_plan(database.engine, *sent[0])
    assert "ix_mail_in_pending" in plan, plan


def _is_claim(statement: str) -> bool:
    return "mail_in" in statement and "min(" in statement  # the claims: each sender's oldest


def test_the_look_for_an_earlier_delivery_reads_its_index(database: Database) -> None:
    """Taking a mail looks for an earlier delivery of it (judge.mail.once) by ``ix_mail_in_once_key``,
    in the statement that marks it taken: no scan of the mail kept, no statement more."""
    for n in range(12):
        database.store_inbound_mail(f"Message-ID: <{n}@x>\r\n\r\nmail {n}".encode(), "p@example.org", ["j@x"], at(n))
    with statements_sent(database.engine, lambda s: s.startswith("UPDATE mail_in")) as sent, database.unit_of_work() as uow:
        taken = uow.mail_in.take_next_row(at(20), at(21))
        assert taken is not None and uow.mail_in.start_processing(taken[0], at(20), at(-1000)) is not None
    assert sent, "no UPDATE of mail_in was sent"
    start = [s for s in sent if "once_key" in s[0]]
    assert len(start) == 1
    plan = query_plan(database.engine, *start[0])
    assert "ix_mail_in_once_key" in plan, plan


def test_the_senders_claim_walks_its_index_in_order_without_sorting(database: Database) -> None:
    """Mails queued by one round share their due time: the claim must take the batch by walking
    ``(state, next_attempt_at, id)`` in order, not read every mail due and sort them (migration 0017)."""
    with database.unit_of_work() as uow:
        for n in range(60):
            uow.outbox.enqueue(f"p{n}@example.org", b"Subject: x\r\n\r\nhi\r\n", at(0), mail_from="j@x")
    claims = statements_sent(database.engine, lambda s: s.lstrip().startswith("SELECT mail_out.id"))
    with claims as sent, writer(database.engine).begin() as connection:
        claim_rows_on(connection, at(1), lambda _attempts: at(2), 20)
    assert sent, "the claim sent no statement"
    plan = query_plan(database.engine, *sent[0])
    assert "ix_mail_out_state_next_attempt_at_id" in plan, plan
    assert "Sort" not in plan and "TEMP B-TREE" not in plan, plan
