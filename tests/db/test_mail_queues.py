"""Mail in and the outbox: durable storage, per-sender order, claims, retries."""

from __future__ import annotations

import threading
import time
from collections import defaultdict

import pytest

from judge.db import Database
from judge.db.enums import InboundState, OutboundState
from tests.conftest import TEST_PASSWORDS
from tests.db.helpers import T0, at


def _store(database: Database, sender: str, n: int) -> int:
    return database.store_inbound_mail(
        f"From: {sender}\r\n\r\nmail {n}\r\n".encode(),
        f"<{sender}>",
        ["judge@example.org"],
        at(n),
        "127.0.0.1",
    )


def test_stored_mail_is_committed_before_store_returns(database: Database) -> None:
    mail_id = _store(database, "ann@example.org", 1)
    other = Database(database.url, passwords=TEST_PASSWORDS)  # as another process would see it
    try:
        with other.unit_of_work(readonly=True) as uow:
            mail = uow.mail_in.get(mail_id)
            assert mail.state is InboundState.RECEIVED and mail.received_at == at(1)
            assert mail.sender_key == "ann@example.org"
    finally:
        other.dispose()


def test_claims_follow_arrival_order_per_sender(database: Database) -> None:
    first_a = _store(database, "a@example.org", 1)
    second_a = _store(database, "A@example.org", 2)
    first_b = _store(database, "b@example.org", 3)
    order = []
    while True:
        with database.unit_of_work() as uow:
            mail = uow.mail_in.claim_next()
            if mail is None:
                break
            order.append(mail.id)
            uow.mail_in.mark_processed(mail, at(10))
    assert order == [first_a, second_a, first_b]
    with database.unit_of_work(readonly=True) as uow:
        assert uow.mail_in.count(InboundState.PROCESSED) == 3
        assert uow.mail_in.get(first_a).processed_at == at(10)


def test_a_failed_mail_is_rolled_back_then_marked_failed(database: Database) -> None:
    mail_id = _store(database, "a@example.org", 1)
    later_id = _store(database, "a@example.org", 2)
    with pytest.raises(RuntimeError), database.unit_of_work() as uow:
        mail = uow.mail_in.claim_next()
        assert mail is not None and mail.id == mail_id
        uow.games.create("half-done", T0)
        raise RuntimeError("handler crashed")
    with database.unit_of_work() as uow:
        uow.mail_in.mark_failed(mail_id, "RuntimeError: handler crashed", at(5), retry_at=at(7))
    with database.unit_of_work() as uow:
        assert uow.games.by_name("half-done") is None
        failed = uow.mail_in.get(mail_id)
        assert failed.state is InboundState.FAILED and "crashed" in (failed.error or "")
        # A mail to be retried holds back its sender's later mail (order), until and after its time.
        assert uow.mail_in.claim_next(at(6)) is None
    with database.unit_of_work() as uow:
        again = uow.mail_in.claim_next(at(7))
        # 1: the first claim's count was rolled back with its unit of work (hence take_next's own commit)
        assert again is not None and again.id == mail_id and again.attempts == 1
    with database.unit_of_work() as uow:
        uow.mail_in.mark_failed(mail_id, "RuntimeError: handler crashed", at(8))  # quarantined
    with database.unit_of_work() as uow:
        assert uow.mail_in.get(mail_id).state is InboundState.QUARANTINED
        nxt = uow.mail_in.claim_next(at(8))
        assert nxt is not None and nxt.id == later_id  # a quarantined mail does not block its sender
        uow.mail_in.mark_ignored(nxt, "mail loop", at(8))
    with database.unit_of_work() as uow:
        assert uow.mail_in.claim_next(at(9)) is None
        uow.mail_in.requeue(mail_id, reset_attempts=True)
    with database.unit_of_work() as uow:
        again = uow.mail_in.claim_next(at(9))
        assert again is not None and again.id == mail_id and again.attempts == 1


def test_a_taken_mail_is_counted_at_once_and_held_for_its_worker(database: Database) -> None:
    """The attempt is committed before processing; the lease keeps others (and the sender's next mail) off."""
    first = _store(database, "a@example.org", 1)
    _store(database, "a@example.org", 2)
    other = _store(database, "b@example.org", 3)
    with database.unit_of_work() as uow:
        taken = uow.mail_in.take_next(at(10), lease_until=at(20))
        assert taken is not None and taken.id == first
    with database.unit_of_work() as uow:
        assert uow.mail_in.get(first).attempts == 1
        nxt = uow.mail_in.take_next(at(11), lease_until=at(21))
        assert nxt is not None and nxt.id == other  # a's mails wait for the first one
        assert uow.mail_in.take_next(at(11), lease_until=at(21)) is None
        assert uow.mail_in.lock_taken(first) is not None
    with database.unit_of_work() as uow:  # the lease ran out (the worker died): tried again
        again = uow.mail_in.take_next(at(20), lease_until=at(30))
        assert again is not None and again.id == first and again.attempts == 2
        uow.mail_in.mark_processed(again, at(20))
    with database.unit_of_work() as uow:
        assert uow.mail_in.lock_taken(first) is None  # done: a late worker finds nothing to do


def test_parallel_workers_keep_each_senders_order(database: Database) -> None:
    senders = [f"p{n}@example.org" for n in range(4)]
    expected: dict[str, list[int]] = defaultdict(list)
    for n in range(24):
        sender = senders[n % len(senders)]
        expected[sender].append(_store(database, sender, n))
    seen: dict[str, list[int]] = defaultdict(list)
    guard = threading.Lock()
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            while True:
                with database.unit_of_work() as uow:
                    mail = uow.mail_in.claim_next()
                    if mail is None:
                        return
                    with guard:
                        seen[mail.sender_key].append(mail.id)
                    time.sleep(0.005)  # some work while holding the claim
                    uow.mail_in.mark_processed(mail, at(100))
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    assert dict(seen) == dict(expected)


@pytest.mark.postgres
def test_a_claimed_mail_holds_back_its_senders_later_mail_only(postgres_database_url: str) -> None:
    """PostgreSQL: while one worker holds a's first mail, another gets b's, never a's second.

    (SQLite serialises workers with its write lock: nothing runs side by side there.)
    """
    database = Database(postgres_database_url, passwords=TEST_PASSWORDS)
    first_a = _store(database, "a@example.org", 1)
    _store(database, "a@example.org", 2)
    first_b = _store(database, "b@example.org", 3)
    with database.unit_of_work() as one:
        held = one.mail_in.claim_next()
        assert held is not None and held.id == first_a
        with database.unit_of_work() as two:
            other = two.mail_in.claim_next()
            assert other is not None and other.id == first_b
            with database.unit_of_work() as three:
                assert three.mail_in.claim_next() is None
            two.mail_in.mark_processed(other, at(5))
        one.mail_in.mark_processed(held, at(5))
    database.dispose()


def test_outbox_delivery_and_retries(database: Database) -> None:
    with database.unit_of_work() as uow:
        reply = uow.outbox.enqueue(
            "ann@example.org", b"Subject: hi\r\n\r\nbody\r\n", T0, mail_from="judge@example.org"
        )
        later = uow.outbox.enqueue(
            "bob@example.org",
            b"x",
            T0,
            mail_from="judge@example.org",
            not_before=at(30),
        )
        with pytest.raises(ValueError):
            uow.outbox.enqueue("", b"x", T0, mail_from="judge@example.org")
        reply_id, later_id = reply.id, later.id
        assert uow.outbox.earliest_due() == T0
    with database.unit_of_work() as uow:
        due = uow.outbox.claim_due(at(1))
        assert [m.id for m in due] == [reply_id]
        uow.outbox.retry_later(due[0], "451 try later", at(10))
    with database.unit_of_work() as uow:
        assert uow.outbox.claim_due(at(5)) == []
        assert uow.outbox.earliest_due() == at(10)
        due = uow.outbox.claim_due(at(40))
        assert [m.id for m in due] == [reply_id, later_id]
        uow.outbox.mark_sent(due[0], at(40))
        uow.outbox.give_up(due[1], "550 no such user")
    with database.unit_of_work(readonly=True) as uow:
        assert (
            uow.outbox.count(OutboundState.SENT) == 1
            and uow.outbox.count(OutboundState.FAILED) == 1
        )
        assert uow.outbox.earliest_due() is None
        sent = uow.session.get(type(due[0]), reply_id)
        assert sent is not None and sent.attempts == 2 and sent.sent_at == at(40)
        assert sent.message == b"Subject: hi\r\n\r\nbody\r\n" and sent.recipients == [
            "ann@example.org"
        ]
