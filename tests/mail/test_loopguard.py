"""The loop guard: which mails are stored but never answered."""

from __future__ import annotations

import pytest

from judge.mail.decode import parse_message
from judge.mail.loopguard import LoopKind, classify, is_daemon_address

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
