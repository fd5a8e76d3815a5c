"""Outbound delivery: Maildir, SMTP to a capture server, back-off, and a drain that never loses mail."""

from __future__ import annotations

import asyncio
import email
import random
import shutil
import ssl
import subprocess
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword
from hypothesis import given
from hypothesis import strategies as st

from judge.config import MaildirRelaySpec, SmtpRelaySpec, TlsMode, load_config
from judge.mail.compose import AutoSubmitted, JudgeIdentity, compose, message_bytes
from judge.mail.outbound import (
    BackoffPolicy,
    MaildirRelay,
    PermanentDeliveryError,
    RelayUnavailableError,
    SmtpRelay,
    TransientDeliveryError,
    delay_bounds,
    drain_once,
    gives_up,
    next_attempt,
    relay_from_config,
    relay_from_spec,
    run_outbound,
)
from tests.mail.memory_outbox import MemoryOutbox
from tests.mail.smtp_capture import CaptureHandler, capture_server

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
JUDGE = JudgeIdentity("judge@example.org", "XPY")


def outgoing(body: str = "Armée Paris -> Bourgogne.\n", to: Sequence[str] = ("p@x.org",)) -> bytes:
    return message_bytes(
        compose(
            JUDGE,
            to[0],
            "XPY:g - S1901M Results",
            body,
            now=NOW,
            auto_submitted=AutoSubmitted.GENERATED,
        )
    )


# --- back-off ----------------------------------------------------------------


def test_backoff_grows_exponentially_then_caps() -> None:
    policy = BackoffPolicy(
        base=timedelta(minutes=1), factor=2, max_delay=timedelta(hours=1), jitter=0.0
    )
    delays = [delay_bounds(n, policy)[0] for n in range(1, 10)]
    assert delays[:4] == [timedelta(minutes=m) for m in (1, 2, 4, 8)]
    assert delays[-1] == timedelta(hours=1)
    assert delays == sorted(delays)
    assert delay_bounds(10_000, policy)[0] == timedelta(hours=1)  # no overflow


@given(st.integers(min_value=1, max_value=500), st.floats(min_value=0, max_value=1))
def test_next_attempt_stays_within_the_jitter_bounds(attempts: int, rand: float) -> None:
    policy = BackoffPolicy(jitter=0.2)
    low, high = delay_bounds(attempts, policy)
    when = next_attempt(attempts, NOW, policy=policy, rand=rand)
    assert NOW + low <= when <= NOW + high
    assert low > timedelta(0)


def test_jitter_extremes_and_giving_up() -> None:
    policy = BackoffPolicy(base=timedelta(seconds=100), jitter=0.5, max_attempts=3)
    assert next_attempt(1, NOW, policy=policy, rand=0.0) == NOW + timedelta(seconds=50)
    assert next_attempt(1, NOW, policy=policy, rand=1.0) == NOW + timedelta(seconds=150)
    assert not gives_up(2, policy) and gives_up(3, policy)
    assert not gives_up(10**6, BackoffPolicy(max_attempts=None))
    with pytest.raises(ValueError):
        BackoffPolicy(jitter=1.5)


# --- the drain ---------------------------------------------------------------


class FlakyRelay:
    """Down (as told) until switched on; then records every delivery."""

    def __init__(self, failure: Exception | None) -> None:
        self.failure = failure
        self.attempts = 0
        self.delivered: list[tuple[bytes, list[str]]] = []

    def deliver(self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None) -> Mapping[str, str]:
        self.attempts += 1
        if self.failure is not None:
            raise self.failure
        self.delivered.append((message, list(recipients)))
        return {}


def test_a_relay_that_is_down_delays_mail_and_loses_none() -> None:
    outbox = MemoryOutbox()
    messages = [outgoing(f"mail {i}\n") for i in range(5)]
    for message in messages:
        outbox.add(message, ("p@x.org",), NOW)
    relay = FlakyRelay(RelayUnavailableError("connection refused"))
    policy = BackoffPolicy(jitter=0.2)
    rng = random.Random(7)

    report = drain_once(outbox, relay, NOW, policy=policy, rng=rng)
    assert (report.claimed, report.sent, report.retried, report.failed) == (1, 0, 1, 0)
    assert relay.attempts == 1  # the relay is not hammered once it is known to be down
    assert sorted(row.attempts for row in outbox.rows.values()) == [0, 0, 0, 0, 1]
    for _ in range(4):  # each later pass tries the next mail, once
        assert drain_once(outbox, relay, NOW, policy=policy, rng=rng).retried == 1
    assert relay.attempts == 5
    low, high = delay_bounds(1, policy)
    assert all(NOW + low <= row.due <= NOW + high for row in outbox.rows.values())
    assert drain_once(outbox, relay, NOW, policy=policy, rng=rng).claimed == 0  # not due yet

    relay.failure = None
    much_later = NOW + timedelta(hours=2)
    report = drain_once(outbox, relay, much_later, policy=policy, rng=rng)
    assert report.sent == 5
    assert sorted(message for message, _ in relay.delivered) == sorted(messages)
    assert outbox.states() == {"sent": 5}
    assert all(row.attempts == 2 for row in outbox.rows.values())
    assert drain_once(outbox, relay, much_later + timedelta(days=1)).claimed == 0  # sent once


def test_the_attempt_is_counted_before_the_relay_sees_the_mail() -> None:
    """A crash while the relay holds the mail must not leave the attempt uncounted."""
    outbox = MemoryOutbox()
    mail_id = outbox.add(outgoing(), ("p@x.org",), NOW)
    seen: list[int] = []

    class Watching:
        def deliver(self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None) -> Mapping[str, str]:
            row = outbox.rows[mail_id]
            seen.append(row.attempts)
            assert row.due > NOW  # leased: no other sender takes it meanwhile
            raise KeyboardInterrupt  # the process dies here

    with pytest.raises(KeyboardInterrupt):
        drain_once(outbox, Watching(), NOW)
    assert seen == [1]
    assert outbox.rows[mail_id].state == "pending"


def test_a_mail_that_crashes_every_attempt_ends_failed_not_retried_for_ever() -> None:
    outbox = MemoryOutbox()
    mail_id = outbox.add(outgoing(), ("p@x.org",), NOW)
    policy = BackoffPolicy(max_attempts=3)

    class Dying:
        def deliver(self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None) -> Mapping[str, str]:
            raise KeyboardInterrupt

    moment = NOW
    for _ in range(3):
        with pytest.raises(KeyboardInterrupt):
            drain_once(outbox, Dying(), moment, policy=policy)
        moment += timedelta(days=1)
    report = drain_once(outbox, FlakyRelay(None), moment, policy=policy)
    assert report.failed == 1 and report.sent == 0
    assert outbox.rows[mail_id].state == "failed"
    assert "interrupted" in outbox.rows[mail_id].errors[-1]


def test_one_mail_whose_outcome_cannot_be_recorded_does_not_stop_the_others() -> None:
    outbox = MemoryOutbox()
    first = outbox.add(outgoing("a\n"), ("p@x.org",), NOW)
    outbox.add(outgoing("b\n"), ("q@x.org",), NOW)
    original = outbox.mark_sent

    def flaky_mark_sent(id: int, now: datetime, refused: Mapping[str, str]) -> None:
        if id == first:
            raise RuntimeError("database went away")
        original(id, now, refused)

    outbox.mark_sent = flaky_mark_sent  # type: ignore[method-assign]
    report = drain_once(outbox, FlakyRelay(None), NOW)
    assert (report.claimed, report.sent, report.errors) == (2, 1, 1)


def test_transient_errors_are_retried_each_on_its_own() -> None:
    outbox = MemoryOutbox()
    for i in range(3):
        outbox.add(outgoing(f"{i}\n"), ("p@x.org",), NOW)
    relay = FlakyRelay(TransientDeliveryError("451 greylisted", 451))
    report = drain_once(outbox, relay, NOW)
    assert relay.attempts == 3 and report.retried == 3
    assert all("451" in row.errors[0] for row in outbox.rows.values())


def test_a_permanent_refusal_marks_the_mail_failed_and_keeps_it() -> None:
    outbox = MemoryOutbox()
    mail_id = outbox.add(outgoing(), ("nobody@x.org",), NOW)
    report = drain_once(outbox, FlakyRelay(PermanentDeliveryError("no such user", 550)), NOW)
    assert report.failed == 1
    row = outbox.rows[mail_id]
    assert row.state == "failed" and row.errors == ["550 no such user"] and row.message


def test_an_unexpected_relay_bug_delays_the_mail() -> None:
    outbox = MemoryOutbox()
    outbox.add(outgoing(), ("p@x.org",), NOW)
    report = drain_once(outbox, FlakyRelay(RuntimeError("bug")), NOW)
    assert report.retried == 1 and outbox.states() == {"pending": 1}


def test_after_max_attempts_the_mail_is_failed_not_deleted() -> None:
    outbox = MemoryOutbox()
    mail_id = outbox.add(outgoing(), ("p@x.org",), NOW)
    policy = BackoffPolicy(max_attempts=3)
    relay = FlakyRelay(TransientDeliveryError("down"))
    moment = NOW
    for _ in range(5):
        drain_once(outbox, relay, moment, policy=policy)
        moment += timedelta(days=1)
    row = outbox.rows[mail_id]
    assert row.state == "failed" and row.attempts == 3
    assert row.errors[-1].startswith("gave up after 3 attempts")
    assert relay.attempts == 3


def test_drain_respects_the_limit_and_refuses_naive_time() -> None:
    outbox = MemoryOutbox()
    for _ in range(7):
        outbox.add(outgoing(), ("p@x.org",), NOW)
    relay = FlakyRelay(None)
    assert drain_once(outbox, relay, NOW, limit=3).sent == 3
    assert drain_once(outbox, relay, NOW, limit=3).sent == 3
    assert drain_once(outbox, relay, NOW, limit=3).sent == 1
    with pytest.raises(ValueError):
        drain_once(outbox, relay, datetime(2026, 1, 1))


@pytest.mark.asyncio
async def test_run_outbound_delivers_when_woken_and_stops(tmp_path: Path) -> None:
    outbox = MemoryOutbox()
    relay = MaildirRelay(tmp_path / "maildir")
    stop, wake = asyncio.Event(), asyncio.Event()
    loop_task = asyncio.ensure_future(
        run_outbound(
            outbox, relay, lambda: datetime.now(UTC), stop=stop, wake=wake, poll_interval=60
        )
    )
    outbox.add(outgoing(), ("p@x.org",), NOW)
    wake.set()
    for _ in range(500):
        if outbox.states() == {"sent": 1}:
            break
        await asyncio.sleep(0.01)
    assert outbox.states() == {"sent": 1}
    stop.set()
    await asyncio.wait_for(loop_task, 10)


# --- Maildir -------------------------------------------------------------------


def test_maildir_delivery_writes_one_readable_file_per_message(tmp_path: Path) -> None:
    relay = MaildirRelay(tmp_path / "maildir")
    first, second = outgoing("first\n"), outgoing("second é\n")
    assert relay.deliver(first, ["a@x.org", "b@y.org"]) == {}
    relay.deliver(second, ["c@z.org"])
    files = sorted((tmp_path / "maildir" / "new").iterdir())
    assert len(files) == 2
    assert list((tmp_path / "maildir" / "tmp").iterdir()) == []  # nothing half-written
    parsed = [email.message_from_bytes(f.read_bytes(), policy=email.policy.default) for f in files]
    envelopes = sorted(str(m["X-Envelope-To"]) for m in parsed)
    assert envelopes == ["a@x.org, b@y.org", "c@z.org"]
    bodies = sorted(m.get_content() for m in parsed)
    assert bodies == ["first\n", "second é\n"]


def test_maildir_that_cannot_be_written_is_a_transient_failure(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("x")
    with pytest.raises(TransientDeliveryError):
        MaildirRelay(blocker / "maildir").deliver(outgoing(), ["a@x.org"])


def test_relays_are_built_from_the_configuration(tmp_path: Path) -> None:
    config = load_config(env={"JUDGE_DATA_DIR": str(tmp_path)})
    relay = relay_from_config(config)
    assert isinstance(relay, MaildirRelay) and relay.path == tmp_path / "maildir"
    smtp = relay_from_spec(SmtpRelaySpec("mx", 587, TlsMode.STARTTLS, "u", "p"), "judge@x.org")
    assert (
        isinstance(smtp, SmtpRelay)
        and smtp.tls is TlsMode.STARTTLS
        and smtp.envelope_sender == "judge@x.org"
    )
    assert isinstance(relay_from_spec(MaildirRelaySpec(tmp_path), "j@x"), MaildirRelay)


# --- SMTP ----------------------------------------------------------------------


@pytest.mark.asyncio
async def test_smtp_delivery_to_a_capture_server() -> None:
    handler = CaptureHandler()
    message = outgoing()
    async with capture_server(handler) as port:
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)
        refused = await asyncio.to_thread(relay.deliver, message, ["a@x.org", "b@y.org"])
    assert refused == {}
    [captured] = handler.received
    assert captured.mail_from == "judge@example.org"
    assert captured.rcpt_tos == ["a@x.org", "b@y.org"]
    assert captured.data == message


@pytest.mark.asyncio
async def test_smtp_partial_refusal_is_reported_and_the_rest_delivered() -> None:
    handler = CaptureHandler(rcpt_replies={"gone@x.org": "550 no such user"})
    async with capture_server(handler) as port:
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)
        refused = await asyncio.to_thread(relay.deliver, outgoing(), ["a@x.org", "gone@x.org"])
    assert refused == {"gone@x.org": "550 no such user"}
    assert handler.received[0].rcpt_tos == ["a@x.org"]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("rcpt_reply", "data_reply", "error"),
    [
        ("550 no such user", "250 OK", PermanentDeliveryError),
        ("450 mailbox busy", "250 OK", TransientDeliveryError),
        ("250 OK", "554 spam", PermanentDeliveryError),
        ("250 OK", "451 try later", TransientDeliveryError),
    ],
)
async def test_smtp_refusals_are_classified(
    rcpt_reply: str, data_reply: str, error: type[Exception]
) -> None:
    handler = CaptureHandler(rcpt_replies={"a@x.org": rcpt_reply}, data_reply=data_reply)
    async with capture_server(handler) as port:
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)
        with pytest.raises(error) as caught:
            await asyncio.to_thread(relay.deliver, outgoing(), ["a@x.org"])
    assert not isinstance(caught.value, RelayUnavailableError)
    assert handler.received == []


@pytest.mark.asyncio
async def test_a_closed_port_means_the_relay_is_unavailable() -> None:
    async with capture_server(CaptureHandler()) as port:
        pass  # the port is free again once the server is closed
    relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=5)
    with pytest.raises(RelayUnavailableError):
        await asyncio.to_thread(relay.deliver, outgoing(), ["a@x.org"])


class Passwords:
    def __init__(self, user: str, password: str) -> None:
        self.user, self.password = user.encode(), password.encode()

    def __call__(
        self, server: object, session: object, envelope: object, mechanism: str, data: object
    ) -> AuthResult:
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
            self.user,
            self.password,
        )
        return AuthResult(success=ok, handled=False)


@pytest.mark.asyncio
@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
async def test_smtp_login() -> None:
    handler = CaptureHandler()
    options = {
        "authenticator": Passwords("judge", "s3cret"),
        "auth_require_tls": False,
        "auth_required": True,
    }
    async with capture_server(handler, **options) as port:
        good = SmtpRelay(
            "127.0.0.1",
            port,
            envelope_sender="judge@example.org",
            username="judge",
            password="s3cret",
            timeout=10,
        )
        await asyncio.to_thread(good.deliver, outgoing(), ["a@x.org"])
        bad = SmtpRelay(
            "127.0.0.1",
            port,
            envelope_sender="judge@example.org",
            username="judge",
            password="wrong",
            timeout=10,
        )
        with pytest.raises(RelayUnavailableError, match="login"):
            await asyncio.to_thread(bad.deliver, outgoing(), ["a@x.org"])
    assert len(handler.received) == 1


def _self_signed(tmp_path: Path) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


@pytest.mark.asyncio
async def test_smtp_starttls_with_login(tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path)
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(cert, key)
    client_context = ssl.create_default_context(cafile=str(cert))
    handler = CaptureHandler()
    options = {
        "tls_context": server_context,
        "require_starttls": True,
        "authenticator": Passwords("judge", "pw"),
    }
    async with capture_server(handler, **options) as port:
        relay = SmtpRelay(
            "127.0.0.1", port, envelope_sender="judge@example.org", tls=TlsMode.STARTTLS,
            username="judge", password="pw", ssl_context=client_context, timeout=10,
        )  # fmt: skip
        await asyncio.to_thread(relay.deliver, outgoing(), ["a@x.org"])
        plain = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)
        with pytest.raises((TransientDeliveryError, PermanentDeliveryError)):
            await asyncio.to_thread(
                plain.deliver, outgoing(), ["a@x.org"]
            )  # server demands STARTTLS
    assert len(handler.received) == 1
