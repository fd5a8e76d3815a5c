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

from judge.mail.decode import first_address, header_text, header_values

JUDGE_HEADER = "X-Judge"
"""Carried by every mail this judge sends (see :mod:`judge.mail.compose`)."""

_OTHER_JUDGE_HEADERS = ("X-Njudge",)  # what the classic njudge puts on its mail
_BULK_PRECEDENCE = frozenset({"bulk", "junk", "list"})
# Local parts of daemon senders, matched as prefixes as the classic Judge does.
_DAEMON_PREFIXES = ("mailer-daemon", "mail-daemon", "mailer", "postma", "uucp", "mmdf", "smtp")
_DAEMON_EXACT = frozenset({"root", "noreply", "no-reply", "do-not-reply", "donotreply"})


class LoopKind(StrEnum):
    JUDGE_MAIL = (
        "judge-mail"  # carries a judge's own header: our mail came back, or another judge's
    )
    FROM_JUDGE = "from-judge"  # sent from one of the judge's own addresses
    PRECEDENCE = "precedence"  # Precedence: bulk / junk / list
    AUTO_SUBMITTED = "auto-submitted"  # Auto-Submitted other than "no" (RFC 3834)
    DAEMON_SENDER = "daemon-sender"  # MAILER-DAEMON, postmaster and friends
    BOUNCE = "bounce"  # null envelope sender or a delivery status report


@dataclass(frozen=True)
class LoopReason:
    """Why a mail must not be answered: the kind, and the header value that showed it."""

    kind: LoopKind
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def classify(
    message: Message,
    *,
    own_addresses: Iterable[str] = (),
    envelope_sender: str | None = None,
) -> LoopReason | None:
    """The reason ``message`` must never be answered, or ``None`` when a reply is safe.

    ``own_addresses`` are the judge's addresses (mail *from* them is a loop);
    ``envelope_sender`` is the SMTP ``MAIL FROM`` when known (``""`` is the
    null sender of bounces).
    """
    for name in (JUDGE_HEADER, *_OTHER_JUDGE_HEADERS):
        values = header_values(message, name)
        if values:
            return LoopReason(LoopKind.JUDGE_MAIL, f"{name}: {values[-1].strip()}")
    precedence = header_text(message, "Precedence").lower()
    if precedence in _BULK_PRECEDENCE:
        return LoopReason(LoopKind.PRECEDENCE, f"Precedence: {precedence}")
    for value in header_values(message, "Auto-Submitted"):
        keyword = value.split(";")[0].strip().lower()
        if keyword and keyword != "no":
            return LoopReason(LoopKind.AUTO_SUBMITTED, f"Auto-Submitted: {keyword}")
    if envelope_sender is not None and envelope_sender.strip("<> ") == "":
        return LoopReason(LoopKind.BOUNCE, "null envelope sender")
    if message.get_content_type() == "multipart/report":
        return LoopReason(LoopKind.BOUNCE, "Content-Type: multipart/report")
    own = {address.lower() for address in own_addresses}
    for name in ("From", "Reply-To", "Sender"):
        for value in header_values(message, name):
            address = first_address(value)
            if address is None:
                continue
            if address.lower() in own:
                return LoopReason(LoopKind.FROM_JUDGE, f"{name}: {address}")
            if name != "Reply-To" and is_daemon_address(address):
                return LoopReason(LoopKind.DAEMON_SENDER, f"{name}: {address}")
    if envelope_sender and is_daemon_address(envelope_sender.strip("<> ")):
        return LoopReason(LoopKind.DAEMON_SENDER, f"envelope sender {envelope_sender}")
    return None


def is_daemon_address(address: str) -> bool:
    """True for addresses that belong to mail software rather than to a person."""
    local = address.rpartition("@")[0].lower() or address.lower()
    return local.startswith(_DAEMON_PREFIXES) or local in _DAEMON_EXACT
