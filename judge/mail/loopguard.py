"""Which mails the judge must store but never answer, so two robots never mail each other forever.

A judge that answers a bounce, a vacation notice, a mailing list or another
judge starts a loop that only a full disk ends. The tests are the ones every
careful autoresponder uses (RFC 3834) plus the classic Judge's own list of
daemon senders. The function is pure: the worker calls it on the parsed mail
and, when it returns a reason, records the reason and sends nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from email.message import Message
from enum import StrEnum

from judge.mail.addresses import AddressError, canonical_address, printable
from judge.mail.decode import first_address, header_values, raw_header_values

JUDGE_HEADER = "X-Judge"
"""Carried by every mail this judge sends (see :mod:`judge.mail.compose`)."""

_OTHER_JUDGE_HEADERS = ("X-Njudge",)  # what the classic njudge puts on its mail
_BULK_PRECEDENCE = frozenset({"bulk", "junk", "list", "auto_reply", "auto-reply"})
# Headers whose mere presence marks an autoresponder's mail (vacation programs, Exchange).
_AUTORESPONDER_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress")
# Headers whose presence marks mail from a mailing list (RFC 2919, RFC 2369).
_LIST_HEADERS = ("List-Id", "List-Unsubscribe")
# Local parts of mail software, matched as WHOLE local parts (after any +tag): the classic
# Judge matched prefixes ("mailer", "postma", "smtp"…) and so ignored smtpfan@ and postman@.
_DAEMON_LOCAL_PARTS = frozenset(
    {
        "mailer-daemon", "mailer_daemon", "mailerdaemon", "mail-daemon", "maildaemon",
        "mailer", "postmaster", "postmast", "uucp", "mmdf", "smtp", "daemon", "root",
        "noreply", "no-reply", "no_reply", "donotreply", "do-not-reply", "do_not_reply",
        "bounce", "bounces", "listserv", "majordomo", "mailman", "autoreply", "auto-reply",
    }
)  # fmt: skip


class LoopKind(StrEnum):
    JUDGE_MAIL = (
        "judge-mail"  # carries a judge's own header: our mail came back, or another judge's
    )
    FROM_JUDGE = "from-judge"  # sent from one of the judge's own addresses
    X_LOOP = "x-loop"  # X-Loop names one of the judge's addresses
    PRECEDENCE = "precedence"  # Precedence: bulk / junk / list / auto_reply
    AUTO_SUBMITTED = "auto-submitted"  # Auto-Submitted other than "no" (RFC 3834)
    AUTORESPONDER = "autoresponder"  # X-Autoreply, X-Autorespond, X-Auto-Response-Suppress
    MAILING_LIST = "mailing-list"  # List-Id or List-Unsubscribe
    DAEMON_SENDER = "daemon-sender"  # MAILER-DAEMON, postmaster and friends
    BOUNCE = "bounce"  # null envelope sender or return path, or a delivery status report


@dataclass(frozen=True)
class LoopReason:
    """Why a mail must not be answered: the kind, and the header value that showed it."""

    kind: LoopKind
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {printable(self.detail, 200)}"


def classify(
    message: Message,
    *,
    own_addresses: Iterable[str] = (),
    envelope_sender: str | None = None,
) -> LoopReason | None:
    """The reason ``message`` must never be answered, or ``None`` when a reply is safe.

    ``own_addresses`` are the judge's addresses (mail *from* them, or an
    ``X-Loop`` naming them, is a loop); ``envelope_sender`` is the SMTP
    ``MAIL FROM`` when known (``""`` is the null sender of bounces).
    """
    own = {_comparable(address) for address in own_addresses}
    for name in (JUDGE_HEADER, *_OTHER_JUDGE_HEADERS):
        values = header_values(message, name)
        if values:
            return LoopReason(LoopKind.JUDGE_MAIL, f"{name}: {values[-1].strip()}")
    for value in header_values(message, "X-Loop"):
        named = {_comparable(a) for a in _addresses_in_text(value)}
        if named & own:
            return LoopReason(LoopKind.X_LOOP, f"X-Loop: {value.strip()}")
    for value in header_values(message, "Precedence"):
        precedence = value.split(";")[0].strip().lower()
        if precedence in _BULK_PRECEDENCE:
            return LoopReason(LoopKind.PRECEDENCE, f"Precedence: {precedence}")
    for value in header_values(message, "Auto-Submitted"):
        keyword = value.split(";")[0].strip().lower()
        if keyword and keyword != "no":
            return LoopReason(LoopKind.AUTO_SUBMITTED, f"Auto-Submitted: {keyword}")
    for name in _AUTORESPONDER_HEADERS:
        values = header_values(message, name)
        if values:
            return LoopReason(LoopKind.AUTORESPONDER, f"{name}: {values[-1].strip()}")
    for name in _LIST_HEADERS:
        values = header_values(message, name)
        if values:
            return LoopReason(LoopKind.MAILING_LIST, f"{name}: {values[-1].strip()}")
    if envelope_sender is not None and envelope_sender.strip("<> ") == "":
        return LoopReason(LoopKind.BOUNCE, "null envelope sender")
    for value in raw_header_values(message, "Return-Path"):
        if value.strip("<> \t") == "":
            return LoopReason(LoopKind.BOUNCE, "null return path (Return-Path: <>)")
    if message.get_content_type() == "multipart/report":
        return LoopReason(LoopKind.BOUNCE, "Content-Type: multipart/report")
    for name in ("From", "Reply-To", "Sender"):
        for value in raw_header_values(message, name):
            address = first_address(value)
            if address is None:
                continue
            if _comparable(address) in own:
                return LoopReason(LoopKind.FROM_JUDGE, f"{name}: {address}")
            if name != "Reply-To" and is_daemon_address(address):
                return LoopReason(LoopKind.DAEMON_SENDER, f"{name}: {address}")
    if envelope_sender and is_daemon_address(envelope_sender.strip("<> ")):
        return LoopReason(LoopKind.DAEMON_SENDER, f"envelope sender {envelope_sender}")
    return None


def is_daemon_address(address: str) -> bool:
    """True for addresses that belong to mail software rather than to a person.

    The local part (before any ``+tag``) must be one of the known daemon
    names as a whole: ``postmaster@`` is a daemon, ``postman@`` a person.
    """
    local = address.rpartition("@")[0] or address
    local = local.strip().strip("<>").split("+", 1)[0].lower()
    return local in _DAEMON_LOCAL_PARTS


def _comparable(address: str) -> str:
    """The form in which two addresses are compared (canonical when possible)."""
    try:
        return canonical_address(address)
    except AddressError:
        return address.strip().strip("<>").lower()


def _addresses_in_text(value: str) -> list[str]:
    """Every ``local@domain`` word of a free-text header such as ``X-Loop``."""
    return [word.strip("<>()[],;\"'") for word in value.split() if "@" in word]
