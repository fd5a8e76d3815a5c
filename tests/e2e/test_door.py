"""The SMTP door and the answer, over real SMTP: refusals, acceptance, the reply's headers."""

from __future__ import annotations

import smtplib
import socket
import time
from email.utils import parsedate_to_datetime

import pytest

from judge.db.enums import InboundState, OutboundState
from tests.e2e.conftest import JudgeFactory
from tests.e2e.harness import (
    CODE,
    JUDGE,
    WAIT_SECONDS,
    E2EJudge,
    build_mail,
    text,
    wait_until,
    wire,
)

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only


def test_a_recipient_other_than_the_judge_is_refused_550(judge: E2EJudge) -> None:
    message = build_mail("player@example.net", "VERSION\n", to="someone@elsewhere.org")
    with (
        smtplib.SMTP("127.0.0.1", judge.port, timeout=WAIT_SECONDS) as client,
        pytest.raises(smtplib.SMTPRecipientsRefused) as refused,
    ):
        client.sendmail("player@example.net", ["someone@elsewhere.org"], wire(message))
    code, reason = refused.value.recipients["someone@elsewhere.org"]
    assert code == 550
    assert JUDGE.encode() in reason
    assert judge.inbound_states() == []


def test_a_mail_over_the_size_limit_is_refused_552_and_not_stored(
    judge_factory: JudgeFactory,
) -> None:
    judge = judge_factory(JUDGE_MAX_MESSAGE_SIZE="2048")
    big = build_mail("player@example.net", "VERSION\n" + ("y" * 70 + "\n") * 60)
    with smtplib.SMTP("127.0.0.1", judge.port, timeout=WAIT_SECONDS) as client:
        client.ehlo()
        # Without a SIZE= declaration the limit is found while reading the data.
        assert client.mail("player@example.net")[0] == 250
        assert client.rcpt(JUDGE)[0] == 250
        code, reason = client.data(wire(big))
    assert code == 552
    assert b"2048" in reason
    # A client that declares the size is refused at once, with the same code.
    with (
        smtplib.SMTP("127.0.0.1", judge.port, timeout=WAIT_SECONDS) as client,
        pytest.raises(smtplib.SMTPSenderRefused) as refused,
    ):
        client.sendmail("player@example.net", [JUDGE], wire(big))
    assert refused.value.smtp_code == 552
    assert judge.inbound_states() == []


def test_a_normal_mail_is_accepted_250_and_answered_with_proper_headers(judge: E2EJudge) -> None:
    message = build_mail("Émile Zola <emile@example.net>", "VERSION\n", subject="hello judge")
    with smtplib.SMTP("127.0.0.1", judge.port, timeout=WAIT_SECONDS) as client:
        client.ehlo()
        assert client.mail("emile@example.net")[0] == 250
        assert client.rcpt(JUDGE)[0] == 250
        code, reason = client.data(wire(message))
    assert code == 250, reason
    assert judge.inbound_states()[0] in (InboundState.RECEIVED, InboundState.PROCESSED)

    reply = judge.reply_to(str(message["Message-ID"]))
    captured = next(
        c for c in judge.relay.received if c.message["In-Reply-To"] == message["Message-ID"]
    )
    assert captured.rcpt_tos == ["emile@example.net"]
    # The reply's envelope sender is its VERP address (issue 30): a bounce names this mail and reader.
    local, _, domain = captured.mail_from.partition("@")
    assert domain == JUDGE.partition("@")[2] and local.startswith(JUDGE.partition("@")[0] + "-bounces+")
    captured.data.decode("utf-8")  # the whole message is valid UTF-8 (in fact 7-bit here)
    assert reply["Message-ID"] and reply["Message-ID"] != message["Message-ID"]
    assert parsedate_to_datetime(str(reply["Date"])).tzinfo is not None
    assert reply["In-Reply-To"] == message["Message-ID"]
    assert message["Message-ID"] in str(reply["References"])
    assert str(reply["X-Judge"]).startswith(CODE)
    assert reply["Auto-Submitted"] == "auto-replied"
    assert reply["MIME-Version"] == "1.0"
    assert reply.get_content_type() == "text/plain"
    assert reply.get_content_charset() == "utf-8"
    assert reply["Subject"] == f"Re: {CODE} hello judge"
    assert "emile@example.net" in str(reply["To"])
    body = text(reply)
    assert f":: Judge: {CODE}" in body
    assert "> VERSION" in body
    assert "version" in body.lower()

    wait_until(judge.settled, what="the mail processed and the reply sent")
    assert judge.inbound_states() == [InboundState.PROCESSED]
    assert [m.state for m in judge.outbox()] == [OutboundState.SENT]


@pytest.mark.parametrize(
    ("envelope_sender", "from_header", "headers"),
    [
        pytest.param(
            "player@example.net",
            "player@example.net",
            [("X-Judge", f"{CODE} {JUDGE}")],
            id="own-x-judge",
        ),
        pytest.param(
            "list@example.net", "list@example.net", [("Precedence", "bulk")], id="precedence-bulk"
        ),
        pytest.param(
            "robot@example.net",
            "robot@example.net",
            [("Auto-Submitted", "auto-replied")],
            id="auto-submitted",
        ),
        pytest.param("", "MAILER-DAEMON@mx.example.net", [], id="mailer-daemon"),
    ],
)
def test_looping_mail_is_stored_and_never_answered(
    judge: E2EJudge, envelope_sender: str, from_header: str, headers: list[tuple[str, str]]
) -> None:
    loop_mail = build_mail(from_header, "VERSION\n", subject="Re: XPY hello", headers=headers)
    judge.send(loop_mail, mail_from=envelope_sender)
    # A normal mail sent afterwards is answered: by then the looping one was looked at too.
    judge.exchange("witness@example.net", "VERSION\n")
    wait_until(judge.settled, what="both mails handled")
    assert judge.inbound_states() == [InboundState.IGNORED, InboundState.PROCESSED]
    assert all(c.message["In-Reply-To"] != loop_mail["Message-ID"] for c in judge.relay.received)
    assert [c.rcpt_tos for c in judge.relay.received] == [["witness@example.net"]]


# --- the door facing the open internet: connection caps and idle timeout ------------------------


def _idle_connection(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A client that connects and then says nothing."""
    sock = socket.create_connection(
        ("127.0.0.1", port), timeout=WAIT_SECONDS, source_address=(source, 0)
    )
    return sock


def _read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server says until it closes the connection (fails the test if it never does)."""
    received = b""
    while True:
        chunk = sock.recv(4096)
        if not chunk:
            return received
        received += chunk


def test_idle_connections_past_the_per_client_cap_are_refused_421_and_others_still_served(
    judge_factory: JudgeFactory, caplog: pytest.LogCaptureFixture
) -> None:
    judge = judge_factory(
        JUDGE_SMTP_MAX_CONNECTIONS_PER_CLIENT="3", JUDGE_SMTP_IDLE_TIMEOUT_SECONDS="2"
    )
    idle = [_idle_connection(judge.port) for _ in range(3)]
    try:
        for sock in idle:
            assert sock.recv(4096).startswith(b"220")
        refused = [_idle_connection(judge.port) for _ in range(5)]
        for sock in refused:
            answer = _read_until_closed(sock)
            assert answer.startswith(b"421 4.7.0 Too many connections from your address"), answer
            sock.close()
        # Five refusals, at most one log line (the rest are counted, not written).
        refusals = [r for r in caplog.records if "refused an SMTP connection" in r.getMessage()]
        assert len(refusals) <= 1
        # Another client (127.0.0.2 is loopback too) still gets its mail accepted.
        message = build_mail("other@example.net", "VERSION\n")
        with smtplib.SMTP(
            "127.0.0.1", judge.port, timeout=WAIT_SECONDS, source_address=("127.0.0.2", 0)
        ) as client:
            assert client.sendmail("other@example.net", [JUDGE], wire(message)) == {}
        judge.reply_to(str(message["Message-ID"]))
        # The idle ones are closed by the judge after the idle timeout, with a 421 that says why.
        for sock in idle:
            assert b"421 4.4.2" in _read_until_closed(sock)
    finally:
        for sock in idle:
            sock.close()
    # Their places are free again.
    again = _idle_connection(judge.port)
    try:
        assert again.recv(4096).startswith(b"220")
    finally:
        again.close()


def test_past_the_total_cap_every_client_is_refused_421(judge_factory: JudgeFactory) -> None:
    judge = judge_factory(JUDGE_SMTP_MAX_CONNECTIONS="2", JUDGE_SMTP_MAX_CONNECTIONS_PER_CLIENT="5")
    held = [_idle_connection(judge.port, "127.0.0.3") for _ in range(2)]
    try:
        for sock in held:
            assert sock.recv(4096).startswith(b"220")
        other = _idle_connection(judge.port, "127.0.0.4")
        assert _read_until_closed(other).startswith(b"421 4.3.2")
        other.close()
    finally:
        for sock in held:
            sock.close()
    message = build_mail("late@example.net", "VERSION\n")
    # Once the held connections are gone, mail is accepted again.
    wait_until(
        lambda: (
            judge.server._inbound is not None
            and judge.server._inbound.limits is not None
            and judge.server._inbound.limits.open == 0
        ),
        what="the held connections released",
    )
    with smtplib.SMTP("127.0.0.1", judge.port, timeout=WAIT_SECONDS) as client:
        assert client.sendmail("late@example.net", [JUDGE], wire(message)) == {}


def test_a_slow_upload_is_activity_not_idleness(judge_factory: JudgeFactory) -> None:
    """The idle timeout counts silence, not the time since the last command."""
    judge = judge_factory(JUDGE_SMTP_IDLE_TIMEOUT_SECONDS="1.5")
    message = build_mail(
        "slow@example.net", "VERSION\n" + "".join(f"line {n}\n" for n in range(30))
    )
    data = wire(message).replace(b"\n.", b"\n..") + b"\r\n.\r\n"
    with smtplib.SMTP("127.0.0.1", judge.port, timeout=WAIT_SECONDS) as client:
        client.ehlo()
        assert client.mail("slow@example.net")[0] == 250
        assert client.rcpt(JUDGE)[0] == 250
        assert client.docmd("DATA")[0] == 354
        for start in range(
            0, len(data), len(data) // 15 + 1
        ):  # about 3 s in all, never 1.5 s silent
            client.send(data[start : start + len(data) // 15 + 1])
            time.sleep(0.2)
        code, _reply = client.getreply()
    assert code == 250
