"""Who is speaking: the sender is the RFC 5322 address of the raw Reply-To or From, never a
display name; header values copied into the judge's mail carry no control characters."""

from __future__ import annotations

import pytest

from judge.db.enums import InboundState
from judge.mail.decode import decode_mail
from tests.mail.hostile import MailHarness, raw_mail

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only

EVIL_NAME = "=?utf-8?q?Evil=0D=0ABcc=3A_victim=40evil.example?= <bad@example.org>"


@pytest.mark.parametrize(
    ("headers", "sender"),
    [
        (f"From: {EVIL_NAME}\r\n", "bad@example.org"),
        ('From: "victim@evil.example" <bad@example.org>\r\n', "bad@example.org"),
        ("From: bad@example.org (victim@evil.example)\r\n", "bad@example.org"),
        ("From: =?utf-8?q?victim=40evil.example?=\r\n", None),  # an encoded word is no address
        ("From: victim@evil.example <bad@example.org>\r\n", None),  # malformed: names nobody
        ("From: Ann <Ann@Example.ORG>\r\n", "ann@example.org"),
        (
            "From: a@example.net\r\nReply-To: Me <me@b\u00fccher.example>\r\n",
            "me@xn--bcher-kva.example",
        ),
        ("From: a@example.net\r\nReply-To: first@x.org\r\nReply-To: last@x.org\r\n", "last@x.org"),
        ("From: a@example.net\r\nReply-To: undisclosed-recipients:;\r\n", "a@example.net"),
        ("From: Dupont, Jean <jean@example.fr>\r\n", "jean@example.fr"),
        ('From: "quoted name"@example.org\r\n', None),  # canonical_address refuses quoted locals
        ("From: a@[127.0.0.1]\r\n", None),
    ],
)
def test_the_sender_is_parsed_from_the_raw_header(headers: str, sender: str | None) -> None:
    assert decode_mail(raw_mail(headers, "VERSION\n")).sender == sender


def test_an_injected_bcc_in_a_display_name_is_answered_at_the_real_address_only(
    mail_harness: MailHarness,
) -> None:
    mail_harness.store(raw_mail(f"From: {EVIL_NAME}\r\n", "VERSION\n"))
    assert mail_harness.drain() == 1
    assert mail_harness.outbox_recipients() == [["bad@example.org"]]
    [(_, data)] = mail_harness.outbox_rows()
    assert b"victim" not in data


def test_a_mail_with_no_usable_sender_is_stored_not_answered(mail_harness: MailHarness) -> None:
    mail_harness.store(raw_mail("From: victim@evil.example <bad@example.org>\r\n", "VERSION\n"))
    mail_harness.store(raw_mail("From: someone@example.net\r\n", "VERSION\n", message_id="<w@t>"))
    assert mail_harness.drain() == 2
    assert mail_harness.states() == [InboundState.IGNORED, InboundState.PROCESSED]
    assert mail_harness.outbox_recipients() == [["someone@example.net"]]


def test_control_characters_never_reach_the_reply(mail_harness: MailHarness) -> None:
    raw = (
        b"From: p@example.net\r\nTo: judge@example.org\r\nSubject: orders\x00\x07\x1b[2J now\r\n"
        b"Message-ID: <a\x00b@x> <good@example.net>\r\nReferences: <r\x01@x> <root@example.net>\r\n"
        b"\r\nVERSION\r\n"
    )
    mail_harness.store(raw)
    assert mail_harness.drain() == 1
    [(_, data)] = mail_harness.outbox_rows()
    head = data.split(b"\r\n\r\n", 1)[0]
    assert not any((byte < 32 and byte not in (10, 13)) or byte == 127 for byte in head)
    subject = next(line for line in head.split(b"\r\n") if line.startswith(b"Subject:"))
    assert subject == b"Subject: Re: XPY orders [2J now"
    assert b"In-Reply-To: <good@example.net>" in head
    assert b"<root@example.net>" in head and b"<r\x01@x>" not in head


def test_decoded_subject_and_ids_are_clean() -> None:
    mail = decode_mail(
        b"From: p@x.org\r\nSubject: =?utf-8?q?a=00b=0D=0Ac?=\r\nMessage-ID: a\x00b@x\r\n\r\nx\r\n"
    )
    assert mail.subject == "a b c"
    assert mail.message_id is None


@pytest.mark.parametrize(
    "headers",
    [
        "From: a@example.net\r\nPrecedence: auto_reply\r\n",
        "From: a@example.net\r\nX-Autoreply: yes\r\n",
        "From: a@example.net\r\nX-Autorespond: yes\r\n",
        "From: a@example.net\r\nX-Auto-Response-Suppress: OOF\r\n",
        "From: a@example.net\r\nList-Id: <l.example.net>\r\n",
        "From: a@example.net\r\nList-Unsubscribe: <mailto:x@example.net>\r\n",
        "From: a@example.net\r\nX-Loop: judge@example.org\r\n",
        "From: a@example.net\r\nReturn-Path: <>\r\n",
        "From: postmaster@example.net\r\n",
    ],
)
def test_robot_mail_is_stored_visible_and_not_answered(
    mail_harness: MailHarness, headers: str
) -> None:
    mail_harness.store(raw_mail(headers, "VERSION\n"))
    assert mail_harness.drain() == 1
    assert mail_harness.states() == [InboundState.IGNORED]
    [error] = mail_harness.errors()
    assert error is not None and error.startswith("mail loop guard:")
    assert mail_harness.outbox_rows() == []


@pytest.mark.parametrize("local", ["smtpfan", "mailerbob", "postman", "uucpuser", "mmdfx"])
def test_humans_with_robot_like_names_are_answered(mail_harness: MailHarness, local: str) -> None:
    mail_harness.store(
        raw_mail(f"From: {local}@example.net\r\n", "VERSION\n"), f"{local}@example.net"
    )
    assert mail_harness.drain() == 1
    assert mail_harness.outbox_recipients() == [[f"{local}@example.net"]]
