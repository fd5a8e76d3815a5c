"""Bounces as mail servers write them, for the bounce tests (issue 30): a DSN (RFC 3464) in
Postfix's shape, a delay warning, a bounce in a server's own non-standard words, an autoreply."""

from __future__ import annotations

_DSN = """\
From: MAILER-DAEMON@mx.example.net (Mail Delivery System)
To: {to}
Subject: {subject}
Auto-Submitted: auto-replied
Message-Id: <{tag}@mx.example.net>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B0UND"

--B0UND
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.example.net.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients.

--B0UND
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net
Arrival-Date: Mon, 23 Nov 2026 09:00:00 +0000

Final-Recipient: rfc822; {failed}
Original-Recipient: rfc822;{failed}
Action: {action}
Status: {status}
Diagnostic-Code: smtp; {diagnostic}

{original}--B0UND--
"""
_ORIGINAL = """\
--B0UND
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers

From: Diplomacy Judge <judge@example.org>
To: {failed}
Subject: XPY:demo - S1901M Results

"""


def dsn(
    to: str, failed: str, *, status: str = "5.1.1", action: str = "failed",
    diagnostic: str = "550 5.1.1 User unknown", tag: str = "dsn1", subject: str = "Undelivered Mail Returned to Sender",
    original: bool = True,
) -> bytes:
    """A delivery status notification for ``failed``, sent to ``to`` (the envelope's VERP address);
    ``original=False``: without the returned mail's headers (RFC 3464 makes them optional)."""
    text = _DSN.format(to=to, failed=failed, status=status, action=action, diagnostic=diagnostic, tag=tag,
                       subject=subject, original=_ORIGINAL.format(failed=failed) if original else "")  # fmt: skip
    return text.replace("\n", "\r\n").encode("ascii")


def qmail_bounce(to: str, failed: str) -> bytes:
    """A qmail-style bounce (no DSN part): flufl.bounce's detectors read it."""
    return (
        f"From: MAILER-DAEMON@mx.example.net\r\nTo: {to}\r\nSubject: failure notice\r\n"
        "Message-Id: <q1@mx.example.net>\r\n\r\n"
        "Hi. This is the qmail-send program at mx.example.net.\r\n"
        "I'm afraid I wasn't able to deliver your message to the following addresses.\r\n"
        "This is a permanent error; I've given up. Sorry it didn't work out.\r\n\r\n"
        f"<{failed}>:\r\nSorry, no mailbox here by that name. (#5.1.1)\r\n\r\n"
        "--- Below this line is a copy of the message.\r\n\r\nSubject: XPY:demo\r\n\r\nhello\r\n"
    ).encode("ascii")


def autoreply(to: str) -> bytes:
    """A vacation notice sent to the envelope sender: no failure at all."""
    return (
        f"From: france@example.net\r\nTo: {to}\r\nSubject: Out of office\r\n"
        "Auto-Submitted: auto-replied\r\nMessage-Id: <away1@example.net>\r\n\r\n"
        "I am away until Monday.\r\nSIGNON FDEMO pwfrance\r\n"
    ).encode("ascii")
