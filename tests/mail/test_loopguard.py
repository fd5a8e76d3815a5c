"""The loop guard: which mails are stored but never answered."""

from __future__ import annotations

import pytest

from judge.mail.decode import parse_message
from judge.mail.loopguard import (
    LoopKind,
    autoreply_subject,
    classify,
    is_daemon_address,
    robot_content,
)

JUDGE = ("judge@example.org", "dip@example.org")


def mail(headers: str, body: str = "SIGNON Fgame pw\n") -> bytes:
    return (headers.strip() + "\n\n" + body).encode()


@pytest.mark.parametrize(
    ("headers", "kind"),
    [
        ("From: a@x.org\nX-Judge: XPY judge@example.org", LoopKind.JUDGE_MAIL),
        ("From: a@x.org\nX-Njudge: YES", LoopKind.JUDGE_MAIL),
        ("From: a@x.org\nPrecedence: bulk", LoopKind.PRECEDENCE),
        ("From: a@x.org\nPrecedence: JUNK", LoopKind.PRECEDENCE),
        ("From: a@x.org\nPrecedence: list", LoopKind.PRECEDENCE),
        ("From: a@x.org\nAuto-Submitted: auto-replied", LoopKind.AUTO_SUBMITTED),
        ("From: a@x.org\nAuto-Submitted: auto-generated; owner-email=x@y", LoopKind.AUTO_SUBMITTED),
        ("From: MAILER-DAEMON@mx.x.org", LoopKind.DAEMON_SENDER),
        ("From: Mail Delivery System <Mailer-Daemon@x.org>", LoopKind.DAEMON_SENDER),
        ("From: postmaster@x.org", LoopKind.DAEMON_SENDER),
        ("From: Judge <JUDGE@example.org>", LoopKind.FROM_JUDGE),
        ("From: a@x.org\nReply-To: dip@example.org", LoopKind.FROM_JUDGE),
        (
            "From: a@x.org\nContent-Type: multipart/report; report-type=delivery-status; boundary=b",
            LoopKind.BOUNCE,
        ),
    ],
)
def test_loops_are_recognised(headers: str, kind: LoopKind) -> None:
    reason = classify(parse_message(mail(headers)), own_addresses=JUDGE)
    assert reason is not None
    assert reason.kind is kind
    assert str(reason).startswith(kind.value)


@pytest.mark.parametrize(
    "headers",
    [
        "From: player@x.org",
        "From: player@x.org\nAuto-Submitted: no",
        "From: player@x.org\nPrecedence: first-class",
        "From: Mailer Fan <fan@x.org>",  # the display name is not the address
        "From: player@x.org\nReply-To: someone.else@y.org",
    ],
)
def test_ordinary_mail_may_be_answered(headers: str) -> None:
    assert classify(parse_message(mail(headers)), own_addresses=JUDGE) is None


def test_null_envelope_sender_is_a_bounce() -> None:
    message = parse_message(mail("From: player@x.org"))
    reason = classify(message, own_addresses=JUDGE, envelope_sender="")
    assert reason is not None and reason.kind is LoopKind.BOUNCE
    assert classify(message, own_addresses=JUDGE, envelope_sender="player@x.org") is None


def test_daemon_envelope_sender() -> None:
    message = parse_message(mail("From: player@x.org"))
    reason = classify(message, envelope_sender="<postmaster@x.org>")
    assert reason is not None and reason.kind is LoopKind.DAEMON_SENDER


def test_a_reason_quoting_a_header_of_raw_bytes_can_be_stored_and_echoed() -> None:
    # Regression (tests/hostile/test_fuzz.py): a no-reply From with a byte that is not UTF-8 made a
    # reason with a lone surrogate, which the mail's row refused, so the worker failed on the mail.
    raw = b"From: Do_Not_Reply@\xadxample.com\r\nTo: judge@example.org\r\n\r\nVERSION\r\n"
    reason = classify(parse_message(raw), own_addresses=JUDGE)
    assert reason is not None and reason.kind is LoopKind.DAEMON_SENDER
    assert str(reason).encode("utf-8").endswith(b"Do_Not_Reply@?xample.com")


def test_daemon_addresses() -> None:
    assert is_daemon_address("MAILER-DAEMON@x")
    assert is_daemon_address("postmaster@x")
    assert is_daemon_address("root@x")
    assert not is_daemon_address("rooter@x")
    assert not is_daemon_address("marie@x")


# --- robots the judge must never answer (issue 12) ------------------------------------------


@pytest.mark.parametrize(
    ("headers", "kind"),
    [
        ("From: a@x.org\nPrecedence: auto_reply", LoopKind.PRECEDENCE),
        ("From: a@x.org\nX-Autoreply: yes", LoopKind.AUTORESPONDER),
        ("From: a@x.org\nX-Autorespond: vacation", LoopKind.AUTORESPONDER),
        ("From: a@x.org\nX-Auto-Response-Suppress: All", LoopKind.AUTORESPONDER),
        ("From: a@x.org\nList-Id: <diplo.lists.example.org>", LoopKind.MAILING_LIST),
        ("From: a@x.org\nList-Unsubscribe: <mailto:leave@lists.x.org>", LoopKind.MAILING_LIST),
        ("From: a@x.org\nX-Loop: judge@example.org", LoopKind.X_LOOP),
        ("From: a@x.org\nX-Loop: Dip <DIP@example.org>", LoopKind.X_LOOP),
        ("From: a@x.org\nReturn-Path: <>", LoopKind.BOUNCE),
        ("From: mailer-daemon+1234@x.org", LoopKind.DAEMON_SENDER),
        ("From: uucp@x.org", LoopKind.DAEMON_SENDER),
        ("From: MMDF@x.org", LoopKind.DAEMON_SENDER),
        ("From: smtp@x.org", LoopKind.DAEMON_SENDER),
        ("From: p@x.org\nSender: mailer@x.org", LoopKind.DAEMON_SENDER),
    ],
)
def test_robots_of_every_kind_are_recognised(headers: str, kind: LoopKind) -> None:
    reason = classify(parse_message(mail(headers)), own_addresses=JUDGE)
    assert reason is not None and reason.kind is kind


@pytest.mark.parametrize(
    "headers",
    [
        "From: smtpfan@x.org",
        "From: mailerbob@x.org",
        "From: postman@x.org",
        "From: uucpuser@x.org",
        "From: mmdfx@x.org",
        "From: a@x.org\nX-Loop: somebody-else@lists.example.org",
        "From: a@x.org\nReturn-Path: <a@x.org>",
        "From: a@x.org\nPrecedence: first-class",
    ],
)
def test_humans_whose_names_merely_start_like_a_robot_are_answered(headers: str) -> None:
    assert classify(parse_message(mail(headers)), own_addresses=JUDGE) is None


def test_daemon_names_are_whole_local_parts() -> None:
    for human in ("smtpfan@x", "mailerbob@x", "postman@x", "uucpuser@x", "mmdfx@x", "rooter@x"):
        assert not is_daemon_address(human), human
    for robot in ("MAILER-DAEMON@x", "postmaster+bounce@x", "mailer@x", "no-reply@x"):
        assert is_daemon_address(robot), robot


# --- robots the first round still answered (issue 25) ----------------------------------------


@pytest.mark.parametrize(
    ("headers", "kind"),
    [
        ("From: a@x.org\nList-Post: <mailto:dip@lists.x.org>", LoopKind.MAILING_LIST),
        ("From: a@x.org\nMailing-List: contact dip-help@lists.x.org; run by ezmlm", LoopKind.MAILING_LIST),
        ("From: a@x.org\nX-Failed-Recipients: b@y.org", LoopKind.BOUNCE),
        ("From: no.reply@x.org", LoopKind.DAEMON_SENDER),
        ("From: NoReply-DMARC@x.org", LoopKind.DAEMON_SENDER),
        ("From: do.not.reply+42@x.org", LoopKind.DAEMON_SENDER),
        ("From: GitHub <notifications@x.org>", LoopKind.DAEMON_SENDER),
        ("From: nobody@x.org", LoopKind.DAEMON_SENDER),
    ],
)
def test_the_robots_issue_25_found_are_recognised(headers: str, kind: LoopKind) -> None:
    reason = classify(parse_message(mail(headers)), own_addresses=JUDGE)
    assert reason is not None and reason.kind is kind


def multipart(*parts: str, sender: str = "system@mx.x.org") -> bytes:
    body = "".join(f"--b\n{part}\n" for part in parts) + "--b--\n"
    return mail(f"From: {sender}\nContent-Type: multipart/mixed; boundary=b", body)


@pytest.mark.parametrize(
    ("parts", "kind"),
    [
        (("Content-Type: message/delivery-status\n\nAction: delivered\n",), LoopKind.BOUNCE),
        (("Content-Type: text/plain\n\nx\n", "Content-Type: message/disposition-notification\n\nDisposition: x\n"), LoopKind.BOUNCE),
        (
            ("Content-Type: text/plain\n\nSIGNON Fgame pw\n", "Content-Type: message/rfc822\n\nFrom: j@y\nX-Judge: XPY j@y\n\nhi\n"),
            LoopKind.JUDGE_MAIL,
        ),
        (("Content-Type: text/rfc822-headers\n\nFrom: j@y\nX-Judge: XPY j@y\n",), LoopKind.JUDGE_MAIL),
        (
            (
                "Content-Type: text/plain\n\nA message that you sent could not be delivered to one or more of its\n"
                "recipients.\n\n  <lost@y.org>\n\n------ This is a copy of the message ------\n",
                "Content-Type: message/rfc822\n\nFrom: a@x.org\n\nhello\n",
            ),
            LoopKind.BOUNCE,
        ),
    ],
)
def test_robots_shown_by_the_parts_of_a_multipart_mixed_mail(parts: tuple[str, ...], kind: LoopKind) -> None:
    reason = classify(parse_message(multipart(*parts)), own_addresses=JUDGE)
    assert reason is not None and reason.kind is kind, reason


def test_a_person_forwarding_a_mail_as_an_attachment_is_answered() -> None:
    forwarded = multipart(
        "Content-Type: text/plain\n\nSIGNON Fgame pw\n",
        "Content-Type: message/rfc822\n\nFrom: friend@y.org\nSubject: game\n\nThe mail could not be delivered, he says.\n",
        sender="player@x.org",
    )
    assert classify(parse_message(forwarded), own_addresses=JUDGE) is None


def test_local_parts_that_merely_sound_like_no_reply_are_people() -> None:
    for human in ("noah.reply@x", "reply.no@x", "notification.fan@x", "nobodyknows@x", "norepl@x"):
        assert not is_daemon_address(human), human


@pytest.mark.parametrize(
    "subject",
    [
        "Out of Office: Re: XPY orders", "Automatic reply: orders", "Réponse automatique : Re: ordres",
        "Absence", "Absent du bureau", "Abwesenheitsnotiz: Re: orders", "Automatische Antwort: x",
        "Re: orders [Out of the office]", "Auto-Reply: x", "AUTOREPLY", "Urlaub bis Montag",
        "Message d'absence", "En congés",
    ],
)  # fmt: skip
def test_autoreply_subjects_in_english_french_and_german(subject: str) -> None:
    assert autoreply_subject(subject) is not None
    reason = robot_content(parse_message(mail("From: a@x.org")), subject)
    assert reason is not None and reason.kind is LoopKind.AUTOREPLY_SUBJECT


@pytest.mark.parametrize(
    "subject", ["orders", "Re: absence of England", "Office politics", "automatic orders please", "Réponse"]
)
def test_subjects_of_people_are_not_autoreplies(subject: str) -> None:
    assert autoreply_subject(subject) is None


@pytest.mark.parametrize(
    "body",
    [
        "I am away.\n\n> :: Judge: XPY\n> > VERSION\n",
        "I am away.\n\n-----Original Message-----\nX-Judge: XPY judge@example.org\n",
        "<html><p>I am away.</p><blockquote><p>:: Judge: XPY</p></blockquote></html>\n",
    ],
)
def test_a_body_quoting_a_judge_mail_is_a_weak_robot_sign(body: str) -> None:
    message = parse_message(mail("From: a@x.org", body))
    assert classify(message, own_addresses=JUDGE) is None  # weak: not a loop by itself
    reason = robot_content(message, "Re: XPY orders")
    assert reason is not None and reason.kind is LoopKind.QUOTES_JUDGE


def test_a_body_that_only_talks_about_the_judge_is_not_a_quote() -> None:
    message = parse_message(mail("From: a@x.org", "What does the Judge: XPY line mean?\nSIGNON Fgame pw\n"))
    assert robot_content(message, "question") is None
