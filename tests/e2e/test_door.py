"""The SMTP door and the answer, over real SMTP: refusals, acceptance, the reply's headers."""

from __future__ import annotations

import smtplib
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
    assert captured.mail_from == JUDGE
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
