"""The database outbox: the attempt is committed before the send, "sent" right after it, and a
mail given up on is kept failed with one mail to the judgekeeper (never an alarm about an alarm)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

import pytest

from judge.app.mail_out import outbox
from judge.app.mail_out.sender import TransactionalOutbox
from judge.db.enums import OutboundState
from judge.db.models import OutboundMail
from judge.mail.outbound import (
    BackoffPolicy,
    PermanentDeliveryError,
    TransientDeliveryError,
    drain_once,
)
from tests.mail.hostile import KEEPER, MailHarness

POLICY = BackoffPolicy(base=timedelta(seconds=10), jitter=0.0, max_attempts=3)


class Crash(BaseException):
    """The process dies (kill -9) while the relay holds the mail."""


def _queue(harness: MailHarness, count: int, to: str = "p@example.net") -> None:
    with harness.services.db.unit_of_work() as uow:
        for n in range(count):
            outbox.queue(
                uow, harness.services, [to], f"mail {n}", f"body {n}\n", harness.clock.now()
            )


def _rows(harness: MailHarness) -> list[OutboundMail]:
    with harness.services.db.unit_of_work(readonly=True) as uow:
        rows = uow.session.query(OutboundMail).order_by(OutboundMail.id).all()
        uow.session.expunge_all()
        return rows


class Relay:
    """Records what it is given; dies, or refuses, as told, on the n-th delivery."""

    def __init__(self, harness: MailHarness, *, crash_at: int | None = None) -> None:
        self.harness = harness
        self.crash_at = crash_at
        self.failure: Exception | None = None
        self.delivered: list[bytes] = []
        self.attempts_seen: list[int] = []

    def deliver(self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None) -> Mapping[str, str]:
        # What ANOTHER connection sees now: this mail's attempt must already be committed.
        [row] = [row for row in _rows(self.harness) if row.message in message]
        self.attempts_seen.append(row.attempts)
        if self.crash_at is not None and len(self.attempts_seen) == self.crash_at:
            raise Crash
        if self.failure is not None:
            raise self.failure
        self.delivered.append(message)
        return {}


def test_each_mail_is_committed_sent_as_soon_as_the_relay_accepts_it(
    mail_harness: MailHarness,
) -> None:
    _queue(mail_harness, 5)
    relay = Relay(mail_harness, crash_at=3)
    sender = TransactionalOutbox(mail_harness.services)
    with pytest.raises(Crash):
        drain_once(sender, relay, mail_harness.clock.now(), limit=10, policy=POLICY)
    # The attempt of each mail was visible to another connection before its send.
    assert relay.attempts_seen == [1, 1, 1]
    rows = _rows(mail_harness)
    assert [row.state for row in rows] == [OutboundState.SENT] * 2 + [OutboundState.PENDING] * 3
    # The five were claimed in one commit: the one in flight and the two not yet tried are leased,
    # not re-sent at once (the two untried go out once, after the lease, like the one in flight).
    assert [row.attempts for row in rows] == [1, 1, 1, 1, 1]
    for waiting in rows[2:]:
        assert waiting.next_attempt_at is not None
        assert waiting.next_attempt_at > mail_harness.clock.now()

    # After the restart: the two delivered are never sent again; the one in flight is, once.
    later = mail_harness.clock.now() + timedelta(minutes=1)
    restarted = Relay(mail_harness)
    report = drain_once(sender, restarted, later, limit=10, policy=POLICY)
    assert report.sent == 3
    assert len(relay.delivered) + len(restarted.delivered) == 5
    assert {row.state for row in _rows(mail_harness)} == {OutboundState.SENT}


def test_retries_stop_at_the_limit_and_the_keeper_is_told_once(mail_harness: MailHarness) -> None:
    _queue(mail_harness, 1)
    relay = Relay(mail_harness)
    relay.failure = TransientDeliveryError("451 try later", 451)
    sender = TransactionalOutbox(mail_harness.services)
    moment = mail_harness.clock.now()
    for _ in range(5):
        drain_once(sender, relay, moment, policy=POLICY)
        moment += timedelta(hours=2)
    rows = _rows(mail_harness)
    assert rows[0].state is OutboundState.FAILED and rows[0].attempts == 3
    assert rows[0].last_error is not None and "gave up after 3 attempts" in rows[0].last_error
    # The alarm was the one more mail; it failed too (the relay refuses all) and raised none.
    assert len(rows) == 2
    alarm = rows[1]
    assert list(alarm.recipients) == [KEEPER]
    assert b"451 try later" in alarm.message and b"not delivered" in alarm.message
    assert alarm.state is OutboundState.FAILED


def test_a_permanent_refusal_fails_at_once_and_alarms(mail_harness: MailHarness) -> None:
    _queue(mail_harness, 1)
    relay = Relay(mail_harness)
    relay.failure = PermanentDeliveryError("no such user", 550)
    sender = TransactionalOutbox(mail_harness.services)
    drain_once(sender, relay, mail_harness.clock.now(), limit=1)
    first, alarm = _rows(mail_harness)
    assert first.state is OutboundState.FAILED and first.last_error == "550 no such user"
    assert alarm.state is OutboundState.PENDING and list(alarm.recipients) == [KEEPER]


def test_a_burst_of_failures_makes_one_alarm_an_hour(mail_harness: MailHarness) -> None:
    _queue(mail_harness, 5)
    relay = Relay(mail_harness)
    relay.failure = PermanentDeliveryError("no such user", 550)
    sender = TransactionalOutbox(mail_harness.services)
    drain_once(sender, relay, mail_harness.clock.now(), limit=5)
    rows = _rows(mail_harness)
    assert [row.state for row in rows[:5]] == [OutboundState.FAILED] * 5
    assert [list(row.recipients) for row in rows[5:]] == [[KEEPER]]
    # An hour later the next failure alarms again, counting the four held back.
    mail_harness.clock.advance(hours=1, minutes=1)
    _queue(mail_harness, 1)
    drain_once(sender, relay, mail_harness.clock.now(), limit=2)  # the new mail, then an alarm
    alarms = [row for row in _rows(mail_harness) if list(row.recipients) == [KEEPER]]
    assert len(alarms) == 2
    assert b"4 more alarm(s) of this kind were held back" in alarms[1].message


def test_mail_for_the_keeper_alone_raises_no_alarm(mail_harness: MailHarness) -> None:
    _queue(mail_harness, 1, to=KEEPER)
    relay = Relay(mail_harness)
    relay.failure = PermanentDeliveryError("mailbox full", 552)
    drain_once(TransactionalOutbox(mail_harness.services), relay, mail_harness.clock.now())
    assert [row.state for row in _rows(mail_harness)] == [OutboundState.FAILED]


def test_an_unusable_recipient_is_left_out_when_queueing(mail_harness: MailHarness) -> None:
    _queue(mail_harness, 1, to="not an address")
    _queue(mail_harness, 1, to="Zoë@Bücher.example")
    assert [list(row.recipients) for row in _rows(mail_harness)] == [["zoë@xn--bcher-kva.example"]]


def test_a_failing_alarm_does_not_undo_the_failed_mark(
    mail_harness: MailHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    from judge.app.mail_out import sender
    def broken(*_args: object, **_kwargs: object) -> bool:
        raise RuntimeError("alarm path broken")

    monkeypatch.setattr(sender, "alarm_failed_delivery", broken)
    _queue(mail_harness, 1)
    relay = Relay(mail_harness)
    relay.failure = PermanentDeliveryError("no such user", 550)
    drain_once(TransactionalOutbox(mail_harness.services), relay, mail_harness.clock.now())
    assert [row.state for row in _rows(mail_harness)] == [OutboundState.FAILED]


@pytest.mark.asyncio
async def test_a_crash_between_the_relays_acceptance_and_the_mark_sends_that_mail_again_once_and_no_other(
    mail_harness: MailHarness,
) -> None:
    """At most once per crash, over SMTP (pipelined, no RSET between mails): the mails marked sent
    before the crash never go again; the one the relay took and the crash kept from being marked
    goes once more after its lease; the ones not yet sent go once."""
    import asyncio
    import re
    from collections import Counter

    from judge.mail.outbound import SmtpRelay
    from tests.mail.smtp_capture import capture_server
    from tests.mail.test_outbound_sessions import Recording

    _queue(mail_harness, 5)
    handler = Recording(pipelining=True)

    class Dying(TransactionalOutbox):
        marks = 0

        def mark_sent(self, id: int, now: datetime, refused: Mapping[str, str]) -> None:
            Dying.marks += 1
            if Dying.marks == 3:
                raise Crash  # the relay took mail 3; the process dies before "sent" is committed
            super().mark_sent(id, now, refused)

    async with capture_server(handler) as port:
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)
        now = mail_harness.clock.now()
        with pytest.raises(Crash):
            await asyncio.to_thread(drain_once, Dying(mail_harness.services), relay, now, limit=10, policy=POLICY)
        assert [row.state for row in _rows(mail_harness)] == [OutboundState.SENT] * 2 + [OutboundState.PENDING] * 3
        assert handler.commands.count((1, "RSET")) == 0
        restarted = TransactionalOutbox(mail_harness.services)
        assert (await asyncio.to_thread(drain_once, restarted, relay, now, limit=10, policy=POLICY)).sent == 0
        later = now + timedelta(minutes=1)  # after the leases
        report = await asyncio.to_thread(drain_once, restarted, relay, later, limit=10, policy=POLICY)
    assert report.sent == 3
    subjects = Counter(re.search(rb"Subject: (mail \d)", c.data).group(1) for c in handler.received)  # type: ignore[union-attr]
    assert subjects == Counter({b"mail 0": 1, b"mail 1": 1, b"mail 2": 2, b"mail 3": 1, b"mail 4": 1})
    assert {row.state for row in _rows(mail_harness)} == {OutboundState.SENT}
