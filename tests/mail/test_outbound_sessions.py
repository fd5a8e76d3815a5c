"""The drain sends a pass on one SMTP session (issue 28): a deadline storm's thousands of mails do
not each open a connection, and an error in the middle of a pass loses no mail and doubles none."""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
from aiosmtpd.smtp import SMTP, Envelope, Session

from judge.mail.outbound import (
    BackoffPolicy,
    DrainReport,
    PermanentDeliveryError,
    Relay,
    RelayUnavailableError,
    SmtpRelay,
    TransientDeliveryError,
    drain_once,
)
from tests.mail.memory_outbox import BatchMemoryOutbox, MemoryOutbox
from tests.mail.smtp_capture import CaptureHandler, capture_server

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
POLICY = BackoffPolicy(base=timedelta(minutes=1), jitter=0.0, max_attempts=5)


def _mail(number: int) -> bytes:
    return (
        f"From: judge@example.org\r\nTo: p{number}@x.org\r\nSubject: mail {number}\r\n"
        f"Message-ID: <m{number}@judge.test>\r\n\r\nbody {number}\r\n"
    ).encode()


def _queue(outbox: MemoryOutbox, count: int) -> None:
    for number in range(1, count + 1):
        outbox.add(_mail(number), (f"p{number}@x.org",), NOW)


def _numbers(handler: CaptureHandler) -> Counter[int]:
    found = (re.search(rb"Subject: mail (\d+)", captured.data) for captured in handler.received)
    return Counter(int(match.group(1)) for match in found if match)


async def _drain(outbox: MemoryOutbox, relay: Relay, when: datetime = NOW, **options: int) -> DrainReport:
    return await asyncio.to_thread(drain_once, outbox, relay, when, policy=POLICY, **options)


@dataclass
class Flaky(CaptureHandler):
    """Refuses the DATA of the mails numbered in ``refuse`` for now (451), once each; closes the
    session after the mails numbered in ``hang_up_after`` (the relay dropping an idle session)."""

    refuse: set[int] = field(default_factory=set)
    hang_up_after: set[int] = field(default_factory=set)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        match = re.search(rb"Subject: mail (\d+)", bytes(envelope.original_content or b""))
        number = int(match.group(1)) if match else 0
        if number in self.refuse:
            self.refuse.discard(number)
            return "451 try later"
        reply = await super().handle_DATA(server, session, envelope)
        if number in self.hang_up_after and server.transport is not None:
            asyncio.get_running_loop().call_soon(server.transport.close)  # after the 250 is written
        return reply


@pytest.mark.asyncio
@pytest.mark.parametrize("outbox_kind", [MemoryOutbox, BatchMemoryOutbox])
async def test_a_pass_sends_every_mail_on_one_connection_each_with_its_envelope(
    outbox_kind: type[MemoryOutbox],
) -> None:
    handler = CaptureHandler()
    outbox = outbox_kind()
    _queue(outbox, 12)
    async with capture_server(handler) as port:
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)
        report = await _drain(outbox, relay, limit=50, batch=5)
    assert report.sent == 12 and report.exhausted
    assert handler.connections == 1
    assert _numbers(handler) == Counter(range(1, 13))
    for captured in handler.received:  # each mail its own envelope: its one reader (and its VERP sender)
        number = int(re.search(rb"mail (\d+)", captured.data).group(1))  # type: ignore[union-attr]
        assert captured.rcpt_tos == [f"p{number}@x.org"]
        expected = f"b+{number}@judge.test" if outbox_kind is BatchMemoryOutbox else "judge@example.org"
        assert captured.mail_from == expected
    assert outbox.states() == {"sent": 12}
    if isinstance(outbox, BatchMemoryOutbox):
        assert outbox.claims == 4  # 5 + 5 + 2, then one that finds none


@pytest.mark.asyncio
async def test_a_session_is_renewed_after_its_quota_of_mails() -> None:
    handler = CaptureHandler()
    outbox = BatchMemoryOutbox()
    _queue(outbox, 12)
    async with capture_server(handler) as port:
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10, mails_per_connection=5)
        report = await _drain(outbox, relay, limit=50)
    assert report.sent == 12 and handler.connections == 3
    assert _numbers(handler) == Counter(range(1, 13))


@pytest.mark.asyncio
async def test_an_error_mid_pass_loses_no_mail_and_doubles_none() -> None:
    handler = Flaky(refuse={3, 8}, hang_up_after={5})
    outbox = BatchMemoryOutbox()
    _queue(outbox, 10)
    async with capture_server(handler) as port:
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)
        first = await _drain(outbox, relay, limit=50, batch=4)
        # Refused for now: 3 and 8 wait their back-off; the rest went out once, the session
        # kept after each refusal (reset) and reopened after the relay hung up following mail 5.
        assert (first.sent, first.retried, first.released) == (8, 2, 0)
        assert handler.connections == 2
        assert {row.id: row.state for row in outbox.rows.values() if row.state != "sent"} == {3: "pending", 8: "pending"}
        assert outbox.rows[3].attempts == 1 and outbox.rows[3].due > NOW
        later = await _drain(outbox, relay, NOW + timedelta(minutes=2), limit=50)
    assert later.sent == 2
    assert _numbers(handler) == Counter(range(1, 11))  # each mail exactly once
    assert outbox.states() == {"sent": 10}


class Unreachable:
    """A relay whose every connection is refused."""

    def __init__(self) -> None:
        self.tries = 0

    def deliver(self, message: bytes, recipients: list[str], envelope_sender: str | None = None) -> dict[str, str]:
        self.tries += 1
        raise RelayUnavailableError("relay unavailable: connection refused")


def test_a_relay_that_is_down_gives_back_the_rest_of_the_batch_untried() -> None:
    outbox = BatchMemoryOutbox()
    _queue(outbox, 6)
    relay = Unreachable()
    report = drain_once(outbox, relay, NOW, limit=50, policy=POLICY)
    assert relay.tries == 1 and report.retried == 1 and report.released == 5
    assert outbox.rows[1].attempts == 1 and outbox.rows[1].due > NOW  # tried: waits its back-off
    assert outbox.released == [2, 3, 4, 5, 6]
    assert all(outbox.rows[n].attempts == 0 and outbox.rows[n].due <= NOW for n in range(2, 7))


class Slow:
    """Takes each mail, slowly: a pass outlives the shortest lease."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.sent: list[bytes] = []

    def deliver(self, message: bytes, recipients: list[str], envelope_sender: str | None = None) -> dict[str, str]:
        import time

        time.sleep(self.seconds)
        self.sent.append(message)
        return {}


def test_a_pass_that_outlives_half_the_lease_gives_back_what_it_did_not_send() -> None:
    outbox = BatchMemoryOutbox()
    _queue(outbox, 6)
    short = BackoffPolicy(base=timedelta(seconds=0.1), jitter=0.0)  # another sender may take a mail after 0.1 s
    report = drain_once(outbox, Slow(0.03), NOW, limit=50, policy=short)
    assert 1 <= report.sent < 6 and report.sent + report.released == 6 and not report.exhausted
    assert report.more  # the next pass starts at once, with fresh leases
    assert all(outbox.rows[n].attempts == 0 for n in outbox.released)
    again = drain_once(outbox, Slow(0.0), NOW, limit=50, policy=short)
    assert again.sent == 6 - report.sent and outbox.states() == {"sent": 6}


@dataclass
class Recording(Flaky):
    """:class:`Flaky` that notes each session's commands (``MAIL`` and ``RSET``, by session) and
    offers ``PIPELINING`` when told (as Postfix does)."""

    pipelining: bool = False
    commands: list[tuple[int, str]] = field(default_factory=list)
    sessions: dict[int, int] = field(default_factory=dict)
    closing_at: set[int] = field(default_factory=set)
    """The commands (counted from 1) answered ``421`` before the relay hangs up."""

    def _session(self, session: Session) -> int:
        return self.sessions.setdefault(id(session), len(self.sessions) + 1)

    async def handle_EHLO(
        self, server: SMTP, session: Session, envelope: Envelope, hostname: str, responses: list[str]
    ) -> list[str]:
        session.host_name = hostname
        if self.pipelining:
            responses.insert(1, "250-PIPELINING")
        return responses

    async def handle_MAIL(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        self.commands.append((self._session(session), "MAIL"))
        if len(self.commands) in self.closing_at:  # the relay shutting down: 421, then it hangs up
            if server.transport is not None:
                asyncio.get_running_loop().call_later(0.05, server.transport.close)
            return "421 closing"
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        return "250 OK"

    async def handle_RSET(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.commands.append((self._session(session), "RSET"))
        return "250 OK"


@pytest.mark.asyncio
@pytest.mark.parametrize("pipelining", [False, True])
async def test_no_rset_between_two_mails_of_a_session_but_one_after_a_refused_mail(pipelining: bool) -> None:
    handler = Recording(refuse={3}, pipelining=pipelining)
    outbox = BatchMemoryOutbox()
    _queue(outbox, 5)
    async with capture_server(handler) as port:
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)
        report = await _drain(outbox, relay, limit=50)
    assert (report.sent, report.retried) == (4, 1)
    assert handler.connections == 1
    # A completed transaction is followed by the next MAIL at once; the refused one (mail 3) is reset.
    assert handler.commands == [(1, "MAIL"), (1, "MAIL"), (1, "MAIL"), (1, "RSET"), (1, "MAIL"), (1, "MAIL")]
    assert _numbers(handler) == Counter([1, 2, 4, 5])


@pytest.mark.asyncio
@pytest.mark.parametrize("pipelining", [False, True])
async def test_a_session_the_relay_closed_while_idle_sends_the_next_mail_once_on_a_new_one(pipelining: bool) -> None:
    handler = Recording(hang_up_after={1, 2}, pipelining=pipelining)
    outbox = BatchMemoryOutbox()
    _queue(outbox, 3)
    async with capture_server(handler) as port:
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)

        def three_mails_with_pauses() -> int:
            with relay.connection() as session:
                for number in (1, 2, 3):
                    session.deliver(_mail(number), [f"p{number}@x.org"])
                    time.sleep(0.2)  # the relay hangs up meanwhile (after mails 1 and 2)
                return session.connections

        assert await asyncio.to_thread(three_mails_with_pauses) == 3
    assert _numbers(handler) == Counter([1, 2, 3])  # each once: the relay never had the text twice
    assert [number for number, _command in handler.commands] == [1, 2, 3]


@pytest.mark.asyncio
@pytest.mark.parametrize("pipelining", [False, True])
async def test_lines_starting_with_a_dot_arrive_whole_and_the_refusals_read_as_before(pipelining: bool) -> None:
    handler = Recording(pipelining=pipelining, rcpt_replies={"no@x.org": "550 no such user", "later@x.org": "450 later"})
    text = b"From: judge@example.org\r\nSubject: mail 1\r\n\r\n.\r\n..two\r\n.three\r\nlast line without end"
    async with capture_server(handler) as port:
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)
        await asyncio.to_thread(_four_mails_one_session, relay, text)
    assert [captured.rcpt_tos for captured in handler.received] == [["p1@x.org"], ["p2@x.org"]]
    for captured in handler.received:
        assert captured.data == text + b"\r\n"


def _four_mails_one_session(relay: SmtpRelay, text: bytes) -> None:
    """One partly refused, one refused for good, one refused for now, one taken: one session."""
    with relay.connection() as session:
        refused = session.deliver(text, ["p1@x.org", "no@x.org"])
        assert set(refused) == {"no@x.org"} and refused["no@x.org"].startswith("550")
        with pytest.raises(PermanentDeliveryError):
            session.deliver(text, ["no@x.org"])
        with pytest.raises(TransientDeliveryError) as later:
            session.deliver(text, ["later@x.org", "no@x.org"])
        assert not isinstance(later.value, PermanentDeliveryError)
        assert session.deliver(text, ["p2@x.org"]) == {}
        assert session.connections == 1


@pytest.mark.asyncio
@pytest.mark.parametrize(("pipelining", "writes"), [(False, 3), (True, 1)])
async def test_a_relay_offering_pipelining_gets_a_mails_commands_in_one_write(
    pipelining: bool, writes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MAIL, RCPT and DATA in one write and one round trip (RFC 2920), the text after the 354."""
    import smtplib

    sent: list[bytes] = []
    send = smtplib.SMTP.send

    def counted(self: smtplib.SMTP, data: bytes | str) -> None:
        sent.append(data if isinstance(data, bytes) else data.encode())
        send(self, data)

    handler = Recording(pipelining=pipelining)
    async with capture_server(handler) as port:
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)

        def two_mails() -> None:
            with relay.connection() as session:
                session.deliver(_mail(1), ["p1@x.org"])
                monkeypatch.setattr(smtplib.SMTP, "send", counted)
                session.deliver(_mail(2), ["p2@x.org"])
                monkeypatch.setattr(smtplib.SMTP, "send", send)

        await asyncio.to_thread(two_mails)
    assert len(sent) == writes
    assert b"".join(sent).startswith(b"MAIL FROM:<judge@example.org> size=") and b"RCPT TO:<p2@x.org>\r\n" in b"".join(sent)
    assert _numbers(handler) == Counter([1, 2])


@pytest.mark.parametrize(
    "address", ["j@x.org", "b+12.ab@judge.test", "Judge <j@x.org>", "<j@x.org>", "jü@x.org", "a.b-c_d=e@sub.x.org", ""]
)
def test_envelope_addresses_read_as_smtplib_reads_them(address: str) -> None:
    import smtplib

    from judge.mail.smtp_transaction import angle_address

    assert angle_address(address) == smtplib.quoteaddr(address)


@pytest.mark.asyncio
@pytest.mark.parametrize("pipelining", [False, True])
async def test_a_relay_closing_the_session_before_a_mail_sends_it_once_on_a_new_one(pipelining: bool) -> None:
    handler = Recording(pipelining=pipelining, closing_at={2})
    outbox = BatchMemoryOutbox()
    _queue(outbox, 3)
    async with capture_server(handler) as port:
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)
        report = await _drain(outbox, relay, limit=50)
    assert report.sent == 3 and report.retried == 0
    assert handler.connections == 2
    assert [number for number, _command in handler.commands] == [1, 1, 2, 2]  # mail 2 said 421, then again on session 2
    assert _numbers(handler) == Counter([1, 2, 3])
