"""International senders over real SMTP: answered at their IDNA address, or (a UTF-8 name
before the @ and a relay without SMTPUTF8) refused with the reason, the keeper told, and the
judge goes on. Before, each of these mails stopped `judge serve` for good."""

from __future__ import annotations

import smtplib

import pytest

from judge.db.enums import InboundState, OutboundState
from tests.e2e.harness import ADMIN, JUDGE, WAIT_SECONDS, E2EJudge, wait_until

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only


def _raw(headers: str, message_id: str) -> bytes:
    return (
        f"{headers}To: {JUDGE}\r\nSubject: hello\r\nMessage-ID: {message_id}\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\nVERSION\r\n"
    ).encode()


def test_international_senders_are_answered_or_refused_with_a_reason(judge: E2EJudge) -> None:
    with smtplib.SMTP("127.0.0.1", judge.port, timeout=WAIT_SECONDS) as client:
        client.sendmail(
            "a@example.net",
            [JUDGE],
            _raw("From: a@example.net\r\nReply-To: b@bücher.example\r\n", "<idna1@t>"),
        )
        client.sendmail("x@example.net", [JUDGE], _raw("From: x@例子.example\r\n", "<idna2@t>"))
        client.sendmail(
            "用户@example.org",
            [JUDGE],
            _raw("From: 用户@example.org\r\n", "<utf8@t>"),
            mail_options=["SMTPUTF8"],
        )
    witness = judge.mail("witness@example.net", "VERSION\n")

    judge.reply_to(witness)
    first = judge.reply_to("<idna1@t>")
    second = judge.reply_to("<idna2@t>")
    assert [a.addr_spec for a in first["To"].addresses] == ["b@xn--bcher-kva.example"]
    assert [a.addr_spec for a in second["To"].addresses] == ["x@xn--fsqu00a.example"]
    wait_until(judge.settled, what="every mail handled")
    assert judge.inbound_states() == [InboundState.PROCESSED] * 4
    [refused] = [m for m in judge.outbox() if list(m.recipients) == ["用户@example.org"]]
    assert refused.state is OutboundState.FAILED
    assert refused.last_error is not None and "SMTPUTF8" in refused.last_error
    alarm = judge.wait_for_mail(
        lambda m: ADMIN in str(m["To"]) and "not delivered" in str(m["Subject"]),
        what="the keeper's alarm",
    )
    assert alarm
    assert not judge.server.failed
