"""International addresses: IDNA domains, UTF-8 local parts, SMTPUTF8 or a clean refusal.

Before this, ``formataddr`` raised ``UnicodeEncodeError`` on ``Reply-To:
b@bücher.example``, ``From: x@例子.example`` or ``From: 用户@example.org``, the
worker raised again while recording the failure, and ``judge serve`` stopped.
"""

from __future__ import annotations

import asyncio
import mailbox
from datetime import UTC, datetime
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from judge.db.enums import InboundState
from judge.mail.compose import AutoSubmitted, JudgeIdentity, format_address, render, render_reply
from judge.mail.outbound import MaildirRelay, PermanentDeliveryError, SmtpRelay
from tests.mail.hostile import JUDGE, MailHarness, raw_mail
from tests.mail.smtp_capture import CaptureHandler, capture_server

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
IDENTITY = JudgeIdentity("judge@example.org", "XPY")


@pytest.mark.parametrize(
    ("given", "header"),
    [
        ("b@bücher.example", "b@xn--bcher-kva.example"),
        ("x@例子.example", "x@xn--fsqu00a.example"),
        ("用户@example.org", "用户@example.org"),
        ("Zoë <zoe@bücher.example>", "=?utf-8?q?Zo=C3=AB?= <zoe@xn--bcher-kva.example>"),
    ],
)
def test_compose_writes_international_addresses_without_raising(given: str, header: str) -> None:
    raw = render_reply(IDENTITY, given, "Re: hello", "ok\n", now=NOW, original_message_id="<m@x>")
    head = raw.split(b"\r\n\r\n", 1)[0].decode("utf-8")
    assert f"To: {header}" in head.split("\r\n")


def test_an_unusable_address_is_written_harmlessly_not_raised() -> None:
    assert format_address("", "a b<c>@d,e") == "abc@de"
    assert format_address('Eve "x"', "eve@x.org") == '"Eve \\"x\\"" <eve@x.org>'
    raw = render(
        IDENTITY, "\udce9@x.org", "s", "b", now=NOW, auto_submitted=AutoSubmitted.REPLIED
    )
    assert raw.startswith(b"From: ")


@pytest.mark.parametrize(
    ("headers", "answered_to"),
    [
        ("From: a@example.net\r\nReply-To: b@bücher.example\r\n", "b@xn--bcher-kva.example"),
        ("From: x@例子.example\r\n", "x@xn--fsqu00a.example"),
        ("From: 用户@example.org\r\n", "用户@example.org"),
    ],
)
def test_the_worker_answers_international_senders(
    mail_harness: MailHarness, headers: str, answered_to: str
) -> None:
    mail_harness.store(raw_mail(headers, "VERSION\n"))
    assert mail_harness.drain() == 1
    assert mail_harness.states() == [InboundState.PROCESSED]
    [reply] = mail_harness.replies()
    assert [str(a.addr_spec) for a in reply["To"].addresses] == [answered_to]
    # The queued mail keeps to what a relay accepts: IDNA domains, UTF-8 only before the @.
    assert mail_harness.outbox_recipients() == [[answered_to]]


# --- the SMTP relay ------------------------------------------------------------------------


def _deliver(smtputf8: bool, recipients: list[str]) -> tuple[CaptureHandler, object]:
    handler = CaptureHandler()

    async def run() -> object:
        async with capture_server(handler, enable_SMTPUTF8=smtputf8) as port:
            relay = SmtpRelay("127.0.0.1", port, envelope_sender=JUDGE, timeout=10)
            message = render(
                IDENTITY, recipients[0], "s", "body\n", now=NOW, auto_submitted=AutoSubmitted.REPLIED
            )
            try:
                return await asyncio.to_thread(relay.deliver, message, recipients)
            except PermanentDeliveryError as error:
                return error

    return handler, asyncio.run(run())


def test_a_relay_offering_smtputf8_carries_a_utf8_local_part() -> None:
    handler, outcome = _deliver(True, ["用户@example.org", "b@bücher.example"])
    assert outcome == {}
    [captured] = handler.received
    assert captured.rcpt_tos == ["用户@example.org", "b@xn--bcher-kva.example"]
    parsed = message_from_bytes(captured.data, policy=policy.SMTPUTF8)
    assert "用户@example.org" in str(parsed["To"])


def test_without_smtputf8_the_utf8_recipient_is_refused_and_the_others_served() -> None:
    handler, outcome = _deliver(False, ["用户@example.org", "b@bücher.example"])
    assert isinstance(outcome, dict)
    assert list(outcome) == ["用户@example.org"]
    assert "SMTPUTF8" in outcome["用户@example.org"]
    assert [c.rcpt_tos for c in handler.received] == [["b@xn--bcher-kva.example"]]


def test_without_smtputf8_a_mail_for_nobody_else_fails_permanently_with_the_reason(
    caplog: pytest.LogCaptureFixture,
) -> None:
    handler, outcome = _deliver(False, ["用户@example.org"])
    assert isinstance(outcome, PermanentDeliveryError)
    assert "SMTPUTF8" in str(outcome)
    assert handler.received == []
    assert any("SMTPUTF8" in r.getMessage() for r in caplog.records)


def test_the_maildir_relay_copes_with_international_recipients(tmp_path: Path) -> None:
    relay = MaildirRelay(tmp_path / "maildir")
    recipients = ["用户@example.org", "x@例子.example", "not an address"]
    message = render(
        IDENTITY, recipients[0], "s", "b\n", now=NOW, auto_submitted=AutoSubmitted.REPLIED
    )
    refused = relay.deliver(message, recipients)
    assert list(refused) == ["not an address"]
    [stored] = list(mailbox.Maildir(str(tmp_path / "maildir"), factory=None))
    envelope = stored.as_bytes().split(b"\n", 1)[0].decode("utf-8")
    assert envelope == "X-Envelope-To: 用户@example.org, x@xn--fsqu00a.example"
    with pytest.raises(PermanentDeliveryError):
        relay.deliver(message, ["not an address"])


def test_a_judge_on_an_international_domain_writes_ascii_message_ids() -> None:
    identity = JudgeIdentity("juge@bücher.example", "XPY")
    raw = render(identity, "p@x.org", "s", "b\n", now=NOW, auto_submitted=AutoSubmitted.REPLIED)
    head = raw.split(b"\r\n\r\n", 1)[0]
    [message_id] = [line for line in head.split(b"\r\n") if line.startswith(b"Message-ID:")]
    assert message_id.endswith(b"@xn--bcher-kva.example>")
    assert b"From: Diplomacy Judge <juge@xn--bcher-kva.example>" in head
