"""The operator's MTA's Authentication-Results (issue 30): only the topmost header, only when it
names the configured authserv-id; a sender's forged header is never read; `judge mail show` shows
the verdict; the optional setting keeps a DMARC-failing mail unanswered."""

from __future__ import annotations

from email import message_from_bytes

import pytest

from judge.mail.authresults import MAX_CHARS, AuthResults, auth_results_of, read_auth_results

TRUSTED = "Authentication-Results: mx.example.org; spf=pass smtp.mailfrom=example.net; dkim=pass (2048-bit key) header.d=example.net; dmarc=pass (p=none) header.from=example.net\r\n"
FORGED = "Authentication-Results: mx.example.org; spf=pass; dkim=pass; dmarc=pass\r\n"
FAILED = "Authentication-Results: mx.example.org 1; spf=fail smtp.mailfrom=example.net; dkim=none; dmarc=fail header.from=example.net\r\n"


def mail(*headers: str) -> bytes:
    return ("".join(headers) + "From: p@example.net\r\nSubject: x\r\n\r\nVERSION\r\n").encode()


def test_the_topmost_header_of_the_operators_mta_is_read() -> None:
    found = auth_results_of(mail(TRUSTED, FAILED), "MX.example.org")
    assert found == AuthResults("mx.example.org", "pass", "pass", "pass")
    assert str(found) == "spf=pass dkim=pass dmarc=pass (by mx.example.org)"
    assert auth_results_of(mail(FAILED, TRUSTED), "mx.example.org") == AuthResults("mx.example.org", "fail", "none", "fail")


@pytest.mark.parametrize(
    "raw",
    [
        mail(),  # no header
        mail("Authentication-Results: other.example; dmarc=pass\r\n", FORGED),  # ours is not on top
        mail("Authentication-Results: mx.example.org.evil.example; dmarc=pass\r\n"),
        mail("Authentication-Results: ; dmarc=pass\r\n"),
        mail("Authentication-Results:\r\n"),
    ],
)
def test_no_verdict_without_the_operators_header_on_top(raw: bytes) -> None:
    assert auth_results_of(raw, "mx.example.org") is None


def test_comments_garbage_and_a_huge_header_are_read_safely() -> None:
    tricky = "Authentication-Results: mx.example.org; spf=pass (dmarc=fail (nested)) ; dmarc=fail\r\n"
    assert auth_results_of(mail(tricky), "mx.example.org") == AuthResults("mx.example.org", "pass", None, "fail")
    huge = "Authentication-Results: mx.example.org; spf=pass; " + "x" * (MAX_CHARS * 10) + "; dmarc=fail\r\n"
    found = auth_results_of(mail(huge), "mx.example.org")
    assert found is not None and found.spf == "pass" and found.dmarc is None  # cut before it
    assert auth_results_of(b"\xff\xfe\x00garbage", "mx.example.org") is None
    assert read_auth_results(message_from_bytes(mail(TRUSTED)), "") is None  # no setting: nothing read
