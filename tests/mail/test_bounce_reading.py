"""Reading a bounce (issue 30): hard and soft failures told apart in a DSN (RFC 3464) and in a
server's own format (flufl.bounce); a delay warning, an autoreply, a malformed DSN, a DSN with no
returned mail, a huge or unparsable mail each give the answer the rules say, and none raises."""

from __future__ import annotations

import pytest

from judge.mail.bounces import MAX_BOUNCE_BYTES, BounceKind, read_bounce
from tests.mail.bounce_samples import autoreply, dsn, qmail_bounce

VERP = "judge-bounces+7-abcdefghijklmnop@example.org"
FAILED = "france@example.net"


@pytest.mark.parametrize(
    ("status", "action", "kind"),
    [
        ("5.1.1", "failed", BounceKind.HARD),  # no such mailbox
        ("5.7.1", "failed", BounceKind.HARD),  # refused by policy
        ("4.2.2", "failed", BounceKind.SOFT),  # a full mailbox the server gave up on
        ("4.4.1", "delayed", BounceKind.NONE),  # a delay warning: no failure yet
        ("2.0.0", "delivered", BounceKind.NONE),  # a delivery report
        ("2.0.0", "relayed", BounceKind.NONE),
    ],
)
def test_a_dsn_is_read_for_its_action_and_status(status: str, action: str, kind: BounceKind) -> None:
    report = read_bounce(dsn(VERP, FAILED, status=status, action=action, diagnostic=f"smtp; {status} words"))
    assert report.kind is kind
    assert status in report.detail


def test_a_dsn_without_the_returned_mail_is_read_all_the_same() -> None:
    """RFC 3464 makes the third part optional; the VERP address, not the returned mail, says
    which mail bounced, so nothing is lost."""
    raw = dsn(VERP, FAILED, original=False)
    assert b"rfc822-headers" not in raw
    report = read_bounce(raw)
    assert report.kind is BounceKind.HARD and report.detail.startswith("5.1.1")


def test_a_servers_own_format_is_read_by_flufl_bounce() -> None:
    report = read_bounce(qmail_bounce(VERP, FAILED))
    assert report.kind is BounceKind.HARD and FAILED in report.detail


def test_an_autoreply_sent_to_the_envelope_sender_is_no_bounce() -> None:
    assert read_bounce(autoreply(VERP)).kind is BounceKind.NONE


MALFORMED_DSN = [
    # A delivery-status part with nothing in it.
    dsn(VERP, FAILED).replace(b"Final-Recipient", b"X-Nothing").replace(b"Action: failed", b"X-A: 1")
    .replace(b"Status: 5.1.1", b"X-S: 2"),
    # A status that is no status, with no action.
    dsn(VERP, FAILED).replace(b"Status: 5.1.1", b"Status: banana").replace(b"Action: failed", b"Action: ???"),
    # A report-type multipart with no parts, and one whose boundary is empty.
    b"Content-Type: multipart/report; report-type=delivery-status; boundary=\"X\"\r\n\r\n--X--\r\n",
    b"Content-Type: multipart/report; boundary=\"\"\r\n\r\n--\r\n\x00\xff\r\n",
    # A delivery-status part nested past any sane depth.
    b"Content-Type: multipart/mixed; boundary=\"a\"\r\n\r\n"
    + b"".join(f"--{'a' * n}\r\nContent-Type: multipart/mixed; boundary=\"{'a' * (n + 1)}\"\r\n\r\n".encode() for n in range(1, 80)),
    b"",
    b"\xff\xfe\x00\x00garbage",
]


@pytest.mark.parametrize("raw", MALFORMED_DSN)
def test_a_malformed_dsn_never_raises_and_is_no_hard_failure(raw: bytes) -> None:
    report = read_bounce(raw)
    assert report.kind in (BounceKind.NONE, BounceKind.SOFT)  # never a hard failure from nonsense
    assert len(report.detail) <= 300 and report.detail.isprintable()


def test_a_dsn_with_garbage_bytes_and_no_closing_boundary_is_read_leniently() -> None:
    raw = dsn(VERP, FAILED).replace(b"--B0UND--", b"\x00\xff\xfe").replace(b"Reporting-MTA", b"\x80\x81Reporting-MTA")
    assert read_bounce(raw).kind is BounceKind.HARD  # its recipient block is whole: 5.1.1


def test_an_unknown_status_with_a_failed_action_is_a_soft_failure() -> None:
    """The server says the mail failed but not how: counted as the lesser failure."""
    report = read_bounce(dsn(VERP, FAILED, status="banana", diagnostic="smtp; who knows"))
    assert report.kind is BounceKind.SOFT


def test_a_huge_bounce_is_not_read() -> None:
    report = read_bounce(dsn(VERP, FAILED) + b"x" * MAX_BOUNCE_BYTES)
    assert report.kind is BounceKind.NONE and "too large" in report.detail
