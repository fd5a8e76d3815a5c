"""Helpers for the tests of what each council member reads and does alone (issue 26, seed 003)."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import getaddresses

from tests.app.conftest import Harness, text
from tests.app.councils_helpers import Seated
from tests.app.councils_helpers import member_id as member_id

HEADERS_NAMING_READERS = ("To", "Cc", "Bcc", "Resent-To", "Resent-Cc", "Delivered-To", "X-Original-To")


def readers(message: EmailMessage) -> set[str]:
    """Every address the mail's headers give it to."""
    found: list[str] = []
    for header in HEADERS_NAMING_READERS:
        found += [str(value) for value in message.get_all(header, [])]
    return {address.lower() for _name, address in getaddresses(found) if address}


def mails_to(mails: list[EmailMessage], address: str) -> list[EmailMessage]:
    return [m for m in mails if address.lower() in readers(m)]


def with_text(mails: list[EmailMessage], needle: str) -> list[EmailMessage]:
    return [m for m in mails if needle in text(m)]


def reached_by(mails: list[EmailMessage], needle: str) -> set[str]:
    """Who got a mail holding ``needle``."""
    return set().union(*(readers(m) for m in with_text(mails, needle))) if with_text(mails, needle) else set()


def say(harness: Harness, who: Seated, body: str) -> EmailMessage:
    """``who`` signs on with his own password and sends ``body``; returns the reply."""
    return harness.exchange(who.address, f"{who.signon}\n{body}\n")
