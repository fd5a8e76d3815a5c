"""The sender spends one commit per batch claimed and one autocommitted statement per mail sent
(on SQLite a commit; issues 14 and 28): the mails are claimed together, each marked sent, visibly to every other
connection, as soon as the relay took it and before the next is sent, on each engine; what is
stored is as before."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import Connection, event, select

from judge.app.mail_out.sender import TransactionalOutbox
from judge.db.enums import OutboundState
from judge.db.models import OutboundMail
from judge.mail.outbound import drain_once
from tests.app.conftest import Harness


class Relay:
    def __init__(self, refuse: str | None = None, harness: Harness | None = None) -> None:
        self.sent: list[tuple[str, ...]] = []
        self.refuse = refuse
        self.harness = harness
        self.sent_seen: list[int] = []
        self.messages: list[bytes] = []

    def deliver(self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None) -> Mapping[str, str]:
        if self.harness is not None:  # what another connection sees: every mail sent before is marked
            self.sent_seen.append(sum(row.state is OutboundState.SENT for row in _rows(self.harness)))
        self.sent.append(tuple(recipients))
        self.messages.append(message)
        return {self.refuse: "550 no such user"} if self.refuse in recipients else {}


def _rows(harness: Harness) -> list[OutboundMail]:
    with harness.db.unit_of_work(readonly=True) as uow:
        rows = list(uow.session.scalars(select(OutboundMail).order_by(OutboundMail.id)))
        for row in rows:
            uow.session.expunge(row)
        return rows


def test_each_mail_sent_costs_one_commit_and_is_marked_as_before(harness: Harness) -> None:
    senders = [f"p{n}@example.net" for n in range(3)]
    for sender in senders:
        harness.send(sender, "VERSION\n")
    harness.drain()
    commits = [0]

    def on_commit(_conn: object) -> None:
        commits[0] += 1

    marks: list[str | None] = []

    def on_execute(conn: Connection, _cursor: object, statement: str, *_args: object) -> None:
        if statement.lstrip().upper().startswith("UPDATE MAIL_OUT SET STATE"):
            marks.append(conn.get_execution_options().get("isolation_level"))

    event.listen(harness.db.engine, "commit", on_commit)
    event.listen(harness.db.engine, "before_cursor_execute", on_execute)
    try:
        relay = Relay(harness=harness)
        report = drain_once(TransactionalOutbox(harness.services), relay, harness.clock.now(), limit=10)
    finally:
        event.remove(harness.db.engine, "commit", on_commit)
        event.remove(harness.db.engine, "before_cursor_execute", on_execute)
    assert report.sent == 3 and report.claimed == 3
    commits[0] -= len(relay.sent_seen)  # the relay's own reads
    if harness.db.dialect == "postgresql":
        assert commits[0] == 1 + 1  # the claim of the three, a claim that finds none
        assert marks == ["AUTOCOMMIT"] * 3  # each mark sent one statement, committed on its own
    else:  # SQLite begins its transactions itself: each mark sent in a commit of its own
        assert commits[0] == 1 + 3 + 1 and len(marks) == 3
    assert relay.sent_seen == [0, 1, 2]  # each committed before the next mail went to the relay
    assert sorted(r[0] for r in relay.sent) == senders
    rows = _rows(harness)
    assert all(r.state is OutboundState.SENT and r.attempts == 1 and r.sent_at is not None for r in rows)
    assert all(r.next_attempt_at is None and r.last_error is None for r in rows)


def test_a_refused_recipient_is_noted_and_the_limit_holds(harness: Harness) -> None:
    for sender in ("p0@example.net", "p1@example.net", "p2@example.net"):
        harness.send(sender, "VERSION\n")
    harness.drain()
    report = drain_once(
        TransactionalOutbox(harness.services), Relay(refuse="p0@example.net"), harness.clock.now(), limit=2
    )
    assert report.claimed == 2 and report.sent == 2
    rows = _rows(harness)
    assert [r.state for r in rows] == [OutboundState.SENT, OutboundState.SENT, OutboundState.PENDING]
    assert rows[2].attempts == 0  # never claimed: the pass stopped at its limit
    assert "not delivered to: p0@example.net (550 no such user)" in (rows[0].last_error or "")


def test_a_batchs_marks_share_one_checked_out_connection(harness: Harness) -> None:
    """On PostgreSQL the marks of a batch's mails go through the connection that claimed them
    (checked out, and so pinged, once a batch), given back at the next claim, not one checkout
    and ping a mail."""
    for sender in ("p0@example.net", "p1@example.net", "p2@example.net"):
        harness.send(sender, "VERSION\n")
    harness.drain()
    checkouts = [0]

    def on_checkout(*_args: object) -> None:
        checkouts[0] += 1

    event.listen(harness.db.engine.pool, "checkout", on_checkout)
    try:
        outbox = TransactionalOutbox(harness.services)
        report = drain_once(outbox, Relay(), harness.clock.now(), limit=3)  # the pass ends at its limit
        held = harness.db.engine.pool.checkedout()
        drain_once(outbox, Relay(), harness.clock.now(), limit=10)  # finds none
    finally:
        event.remove(harness.db.engine.pool, "checkout", on_checkout)
    assert report.sent == 3
    assert held == 0  # given back once the batch's last mail was marked, not kept between passes
    rows = _rows(harness)
    assert all(r.state is OutboundState.SENT for r in rows)
    if harness.db.dialect == "postgresql":
        assert checkouts[0] == 1 + 1  # the claim and its three marks, the claim that finds none
    else:  # SQLite: each mark in a transaction of its own
        assert checkouts[0] == 1 + 3 + 1


def test_a_batch_of_game_mails_reads_its_list_headers_in_the_claim(harness: Harness) -> None:
    """A batch of mails about a game reads its List-Id and observers before the claim commits, on
    the claim's connection: no transaction, connection and ping more a batch (issue 28)."""
    with harness.db.unit_of_work() as uow:
        game = uow.games.create("demo", harness.clock.now())
        for n in range(3):
            uow.outbox.enqueue(f"p{n}@example.net", b"Subject: x\r\n\r\nhi\r\n", harness.clock.now(), mail_from="j@x", game_id=game.id)
    checkouts = [0]

    def on_checkout(*_args: object) -> None:
        checkouts[0] += 1

    event.listen(harness.db.engine.pool, "checkout", on_checkout)
    try:
        relay = Relay()
        report = drain_once(TransactionalOutbox(harness.services), relay, harness.clock.now(), limit=10)
    finally:
        event.remove(harness.db.engine.pool, "checkout", on_checkout)
    assert report.sent == 3
    assert all(m.startswith(b"List-Id: XPY game demo <demo.") for m in relay.messages), relay.messages
    if harness.db.dialect == "postgresql":
        assert checkouts[0] == 1 + 1  # the claim (its list headers read in it) and its marks, the claim that finds none
    else:
        assert checkouts[0] == 1 + 3 + 1
    rows = _rows(harness)
    assert all(r.state is OutboundState.SENT for r in rows)
