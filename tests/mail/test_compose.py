"""Composing outgoing mail: headers, threading, MIME validity, the Judge's subjects and lines."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from zoneinfo import ZoneInfo

import pytest

from judge.mail.compose import (
    Attachment,
    AutoSubmitted,
    JudgeIdentity,
    SharedMail,
    compose,
    compose_reply,
    deadline_line,
    game_subject,
    header_block,
    header_lines,
    judge_date,
    judge_line,
    message_bytes,
    render,
    render_reply,
    reply_subject,
    strip_subject,
    with_attachment,
)
from judge.mail.decode import decode_mail, parse_message
from judge.mail.loopguard import LoopKind, classify

JUDGE = JudgeIdentity("judge@example.org", "XPY")
NOW = datetime(2026, 11, 22, 23, 30, tzinfo=UTC)


def reparse(message: EmailMessage) -> EmailMessage:
    parsed = message_from_bytes(message_bytes(message), policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def test_a_reply_carries_every_header_the_issue_asks_for() -> None:
    message = compose_reply(
        JUDGE,
        "player@example.net",
        "Re: XPY:game1 - S1901M orders",
        "France: Army Paris -> Burgundy.\n",
        now=NOW,
        original_message_id="<orders-1@example.net>",
        original_references=("<judge-0@example.org>",),
    )
    parsed = reparse(message)
    assert parsed["From"] == "Diplomacy Judge <judge@example.org>"
    assert parsed["To"] == "player@example.net"
    assert parsed["Date"] == "Sun, 22 Nov 2026 23:30:00 +0000"
    assert parsed["Message-ID"].startswith("<") and parsed["Message-ID"].endswith("@example.org>")
    assert parsed["In-Reply-To"] == "<orders-1@example.net>"
    assert parsed["References"] == "<judge-0@example.org> <orders-1@example.net>"
    assert parsed["X-Judge"] == "XPY judge@example.org"
    assert parsed["Auto-Submitted"] == "auto-replied"
    assert parsed["MIME-Version"] == "1.0"
    assert parsed.get_content_type() == "text/plain"
    assert parsed.get_content_charset() == "utf-8"
    assert parsed.defects == []


def test_a_notice_is_auto_generated_and_has_no_in_reply_to() -> None:
    message = compose(
        JUDGE, "a@x.org", "XPY:game1 - S1901M Results", "Results\n",
        now=NOW, auto_submitted=AutoSubmitted.GENERATED,
    )  # fmt: skip
    parsed = reparse(message)
    assert parsed["Auto-Submitted"] == "auto-generated"
    assert parsed["In-Reply-To"] is None and parsed["References"] is None
    assert parsed["To"] == "a@x.org"


@pytest.mark.parametrize("reader", ["a@x.org, b@y.org", "a@x.org; b@y.org", "A <a@x.org>, B <b@y.org>"])
def test_a_mail_never_names_two_readers(reader: str) -> None:
    """A reader given as a list is one (unusable) token, never two readers who would see each other."""
    for raw in (
        render(JUDGE, reader, "s", "b\n", now=NOW, auto_submitted=AutoSubmitted.GENERATED),
        SharedMail(JUDGE, "s", "b\n", now=NOW, auto_submitted=AutoSubmitted.GENERATED).to(reader),
    ):
        parsed = message_from_bytes(raw, policy=policy.default)
        assert len(parsed["To"].addresses) == 1, parsed["To"]
        assert "b@y.org" not in str(parsed["To"])


def test_accented_text_is_valid_utf8_mime_and_reads_back_identically() -> None:
    body = "Armée Paris -> Bourgogne.\nPress: « à bientôt » ✓\n" + "x" * 1200 + "\n"
    raw = message_bytes(
        compose(
            JUDGE, "p@x.org", "Résultats", body, now=NOW, auto_submitted=AutoSubmitted.GENERATED
        )
    )
    assert raw.isascii()  # quoted-printable: safe through any relay, no 8BITMIME needed
    assert all(len(line) <= 998 for line in raw.split(b"\r\n"))
    parsed = message_from_bytes(raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    assert parsed["Subject"] == "Résultats"
    assert parsed.get_content().replace("\r\n", "\n") == body
    assert parsed.defects == []


def test_plain_ascii_stays_readable_seven_bit() -> None:
    raw = message_bytes(
        compose(
            JUDGE, "p@x.org", "s", "A Par - Bur", now=NOW, auto_submitted=AutoSubmitted.REPLIED
        )
    )
    assert b"Content-Transfer-Encoding: 7bit" in raw
    assert raw.endswith(b"\r\n\r\nA Par - Bur\r\n")


def test_our_own_mail_coming_back_is_caught_by_the_loop_guard() -> None:
    raw = message_bytes(
        compose(JUDGE, "p@x.org", "s", "body", now=NOW, auto_submitted=AutoSubmitted.REPLIED)
    )
    reason = classify(parse_message(raw))
    assert reason is not None and reason.kind is LoopKind.JUDGE_MAIL
    assert decode_mail(raw).sender == "judge@example.org"


def test_header_injection_is_impossible() -> None:
    message = compose(
        JUDGE,
        "p@x.org",
        "hello\r\nBcc: victim@x.org",
        "b",
        now=NOW,
        auto_submitted=AutoSubmitted.REPLIED,
    )
    parsed = reparse(message)
    assert parsed["Bcc"] is None
    assert parsed["Subject"] == "hello Bcc: victim@x.org"


def test_naive_time_and_no_recipient_are_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        compose(
            JUDGE,
            "p@x.org",
            "s",
            "b",
            now=datetime(2026, 1, 1),
            auto_submitted=AutoSubmitted.REPLIED,
        )
    with pytest.raises(ValueError, match="recipient"):
        compose(JUDGE, " ", "s", "b", now=NOW, auto_submitted=AutoSubmitted.REPLIED)


def test_message_ids_are_unique() -> None:
    ids = {
        compose(JUDGE, "p@x.org", "s", "b", now=NOW, auto_submitted=AutoSubmitted.REPLIED)[
            "Message-ID"
        ]
        for _ in range(200)
    }
    assert len(ids) == 200


def test_game_subjects() -> None:
    assert game_subject("XPY", "game1", "Results", "S1901M") == "XPY:game1 - S1901M Results"
    assert game_subject("XPY", "game1", "Game Starting") == "XPY:game1 - Game Starting"


@pytest.mark.parametrize(
    ("original", "kwargs", "expected"),
    [
        ("my orders", {"game": "game1", "phase": "S1901M"}, "Re: XPY:game1 - S1901M my orders"),
        (
            "Re: [Error Flag] XPY:game1 - S1901M my orders",
            {"game": "game1", "phase": "F1901M", "error_flag": True},
            "Re: [Error Flag] XPY:game1 - F1901M my orders",
        ),
        ("RE: Re: register", {}, "Re: XPY register"),
        ("Re: XPY register", {}, "Re: XPY register"),
        ("", {}, "Re: XPY"),
        (
            "orders",
            {"game": "g", "phase": "S1901M", "late": True},
            "Re: [You are late!] XPY:g - S1901M orders",
        ),
        ('say "hi"', {}, "Re: XPY say hi"),
    ],
)
def test_reply_subjects(original: str, kwargs: dict[str, object], expected: str) -> None:
    assert reply_subject("XPY", original, **kwargs) == expected  # type: ignore[arg-type]


def test_long_subjects_are_cut_to_the_judges_limit() -> None:
    subject = reply_subject("XPY", "word " * 40, game="game1", phase="S1901M")
    assert len(subject) == 79 and subject.endswith("...")


def test_strip_subject_keeps_a_subject_that_merely_starts_like_the_code() -> None:
    assert strip_subject("XPYLON orders", "XPY") == "XPYLON orders"
    assert strip_subject("TR: Fwd: xpy:game1 - S1901M Results", "XPY") == "Results"


def test_judge_lines() -> None:
    assert judge_line("XPY") == ":: Judge: XPY"
    assert judge_line("XPY", "game1", "standard") == ":: Judge: XPY  Game: game1  Variant: Standard"
    assert (
        judge_line("XXXX", "Dt", "Standard", ["Gunboat"])
        == ":: Judge: XXXX  Game: Dt  Variant: Standard Gunboat"
    )
    assert (
        deadline_line("S1901M", NOW, ZoneInfo("UTC"))
        == ":: Deadline: S1901M Sun Nov 22 2026 23:30:00 +0000"
    )


def test_dates_are_in_the_judges_zone_and_in_english() -> None:
    assert judge_date(NOW, ZoneInfo("Europe/Paris")) == "Mon Nov 23 2026 00:30:00 +0100"
    assert (
        judge_date(datetime(2004, 1, 6, 23, 30, tzinfo=UTC), ZoneInfo("UTC"))
        == "Tue Jan 06 2004 23:30:00 +0000"
    )
    with pytest.raises(ValueError):
        judge_date(datetime(2004, 1, 6), ZoneInfo("UTC"))


def test_header_block() -> None:
    block = header_block(
        "XPY", game="game1", variant="standard", phase="S1901M", deadline=NOW, zone=ZoneInfo("UTC")
    )
    assert block == (
        "\n:: Judge: XPY  Game: game1  Variant: Standard\n"
        ":: Deadline: S1901M Sun Nov 22 2026 23:30:00 +0000\n"
    )
    assert header_block("XPY") == "\n:: Judge: XPY\n"


def test_render_writes_valid_crlf_mime_with_folded_long_headers() -> None:
    reader = "Un joueur au nom " + "tres " * 20 + "long <player@example.net>"
    subject = "Re: XPY:game1 - S1901M Résultats de l'été, « très » longs " + "é" * 30
    raw = render(
        JudgeIdentity("judge@example.org", "XPY", "Juge de Diplomatie — Paris"),
        reader,
        subject,
        "Armée Paris -> Bourgogne.\n\tindented\n. dot line\nFrom the start\n",
        now=NOW,
        auto_submitted=AutoSubmitted.REPLIED,
        in_reply_to="<orders@x.org>",
        references=[f"<ref{i}@example.org>" for i in range(20)],
    )
    assert raw.isascii()
    assert b"\n" not in raw.replace(b"\r\n", b"")  # no bare line feeds
    assert all(len(line) <= 998 for line in raw.split(b"\r\n"))
    header_part = raw.split(b"\r\n\r\n", 1)[0]
    assert all(len(line) <= 78 for line in header_part.split(b"\r\n"))
    parsed = message_from_bytes(raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    assert parsed.defects == []
    assert parsed["Subject"] == subject
    assert [a.addr_spec for a in parsed["To"].addresses] == ["player@example.net"]
    assert parsed["From"].addresses[0].display_name == "Juge de Diplomatie — Paris"
    # A long chain keeps its root and its latest mails (MAX_REFERENCES in all).
    assert parsed["References"].split() == [
        "<ref0@example.org>",
        *(f"<ref{i}@example.org>" for i in range(12, 20)),
        "<orders@x.org>",
    ]
    assert (
        parsed.get_content().replace("\r\n", "\n")
        == "Armée Paris -> Bourgogne.\n\tindented\n. dot line\nFrom the start\n"
    )


def test_a_subject_echoing_a_broken_encoded_word_reads_back_as_written() -> None:
    # Regression (tests/hostile/test_fuzz.py): a sender's encoded word that did not decode stays
    # as text in his subject; echoed unencoded in the reply's, a reader would try to decode it.
    subject = "Re: XPY =?utf-8?b?YcKFYuKAqGPigK5kG1sy g==?="
    raw = render(JUDGE, "p@x.org", subject, "body\n", now=NOW, auto_submitted=AutoSubmitted.REPLIED)
    header_part = raw.split(b"\r\n\r\n", 1)[0]
    assert b"Subject: Re: XPY =?utf-8?b?YcKF" not in header_part
    parsed = message_from_bytes(raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    assert parsed["Subject"] == subject
    assert parsed.defects == [] and parsed["Subject"].defects == ()


def test_render_reply_and_compose_reply_are_the_same_mail() -> None:
    arguments = {"now": NOW, "original_message_id": "<o@x.org>", "original_references": ()}
    raw = render_reply(JUDGE, "p@x.org", "Re: XPY s", "body é\n", **arguments)  # type: ignore[arg-type]
    message = compose_reply(JUDGE, "p@x.org", "Re: XPY s", "body é\n", **arguments)  # type: ignore[arg-type]
    parsed = message_from_bytes(raw, policy=policy.default)
    for name in ("From", "To", "Subject", "Date", "In-Reply-To", "X-Judge", "Auto-Submitted"):
        assert parsed[name] == message[name]
    assert parsed["Auto-Submitted"] == "auto-replied"


def test_a_mail_made_multipart_asks_no_resolver_and_gets_a_boundary_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sender attaches each results mail's map as it sends it (issue 28): the boundary is a
    random token, not a message id naming this host, which the resolver was asked for each mail."""
    import socket

    def no_resolver(*_args: object) -> str:
        raise AssertionError("the resolver was asked for this host's name")

    monkeypatch.setattr(socket, "getfqdn", no_resolver)
    monkeypatch.setattr(socket, "gethostbyaddr", no_resolver)
    text = render(JUDGE, "p@x.org", "Results", "Spring 1901.\n", now=NOW, auto_submitted=AutoSubmitted.GENERATED)
    picture = Attachment("map.png", "image/png", bytes(range(256)) * 40)
    first, second = with_attachment(text, picture), with_attachment(text, picture)
    boundaries = [message_from_bytes(m, policy=policy.default).get_boundary() for m in (first, second)]
    assert boundaries[0] and boundaries[1] and boundaries[0] != boundaries[1]
    for mail in (first, second):
        parsed = message_from_bytes(mail, policy=policy.default)
        assert isinstance(parsed, EmailMessage) and parsed.get_content_type() == "multipart/mixed"
        parts = list(parsed.iter_attachments())
        assert len(parts) == 1 and parts[0].get_content() == picture.data


@pytest.mark.parametrize(
    "headers",
    [
        [("List-Id", "<demo.judge.example.org>")],
        [("List-Id", "demo game " + "x" * 120 + " <demo.judge.example.org>"), ("List-Unsubscribe", "<mailto:j@x.org>")],
        [],
    ],
)
def test_headers_put_on_top_before_the_attachment_give_the_same_bytes_as_after(
    headers: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sender puts a game mail's list headers on top of its text and then attaches the map
    (the text copied for the headers, not the text and the map): the mail is the same, byte for
    byte, as with the headers put on top of the mail with its map (folded lines included)."""
    import secrets

    monkeypatch.setattr(secrets, "token_hex", lambda _n: "0" * 24)
    text = render(JUDGE, "p@x.org", "Results", "Spring 1901.\n" * 40, now=NOW, auto_submitted=AutoSubmitted.GENERATED)
    picture = Attachment("map.png", "image/png", bytes(range(256)) * 40)
    on_top = header_lines(headers)
    assert with_attachment(on_top + text, picture) == on_top + with_attachment(text, picture)
