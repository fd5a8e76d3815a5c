"""Reading a bounce: hard or soft failure, and the server's words, from a DSN or a server's own format.

Which mail and which reader bounced is never read from the bounce: the VERP
token of the address it came to says it (judge.mail.verp). This module only
says what kind of failure the bounce reports, for the address's bounce score
(judge.app.mail_out.bounces): a delivery status notification (RFC 3464) is read for
its ``Action`` and ``Status`` (5.x.x permanent, 4.x.x temporary; ``delayed``
is a warning, not a failure), and a bounce in another shape is read with
:mod:`flufl.bounce`'s detectors (the formats of common servers). A mail that
shows no failure at all (a vacation notice sent to the envelope sender, a
challenge from an anti-spam service) is no bounce and scores nothing.

Pure: bytes in, a :class:`BounceReport` out. Hostile input is bounded: a mail
over :data:`MAX_BOUNCE_BYTES` is not read (and scores nothing), at most
:data:`MAX_PARTS` parts are looked at, and a detector that fails on odd input
counts as having found nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from email.message import Message
from enum import StrEnum

from flufl.bounce import all_failures

from judge.mail.addresses import printable
from judge.mail.decode import MAX_MIME_NESTING, parse_message

log = logging.getLogger(__name__)

MAX_BOUNCE_BYTES = 2 * 1024 * 1024
"""A bounce larger than this is kept but not read: real ones carry the judge's mail (a map at
most) and a few lines of report."""
MAX_PARTS = 64
_DETAIL_CHARS = 300


class BounceKind(StrEnum):
    HARD = "hard"  # a permanent failure (5.x.x): the address does not take mail
    SOFT = "soft"  # a temporary failure (4.x.x) the server gave up on: a full mailbox, a server down
    NONE = "none"  # no failure: a delay warning, an autoreply, or a mail that could not be read


@dataclass(frozen=True)
class BounceReport:
    """What a bounce says: the kind of failure and the server's words (printable, bounded)."""

    kind: BounceKind
    detail: str


def read_bounce(raw: bytes) -> BounceReport:
    """The failure ``raw`` reports (see the module's docstring)."""
    if len(raw) > MAX_BOUNCE_BYTES:
        return BounceReport(BounceKind.NONE, f"too large to read ({len(raw)} bytes)")
    try:
        message = parse_message(raw)
    except Exception:  # the parser is lenient; a crash on hostile bytes is still no bounce
        log.debug("a bounce could not be parsed", exc_info=True)
        return BounceReport(BounceKind.NONE, "could not be parsed")
    report = _delivery_status(message)
    if report is not None:
        return report
    try:
        temporary, permanent = all_failures(message)
    except Exception:  # flufl.bounce's heuristics on hostile input
        log.debug("flufl.bounce could not read a bounce", exc_info=True)
        return BounceReport(BounceKind.NONE, "no failure could be read")
    if permanent:
        return BounceReport(BounceKind.HARD, _named("permanent failure", permanent))
    if temporary:
        return BounceReport(BounceKind.SOFT, _named("temporary failure", temporary))
    return BounceReport(BounceKind.NONE, "no failure reported (an autoreply or a warning)")


def _named(what: str, addresses: frozenset[bytes] | set[bytes]) -> str:
    names = ", ".join(sorted(a.decode("ascii", "replace") for a in addresses)[:3])
    return printable(f"{what} reported for {names}", _DETAIL_CHARS)


def _delivery_status(message: Message) -> BounceReport | None:
    """The first recipient block of a ``message/delivery-status`` part, read; None without one."""
    for part in _parts(message):
        if part.get_content_type() not in ("message/delivery-status", "message/global-delivery-status"):
            continue
        payload = part.get_payload()
        blocks = [block for block in payload if isinstance(block, Message)] if isinstance(payload, list) else []
        for block in blocks[1:] or blocks:  # the first block is the report's own (per-message) fields
            action = str(block.get("Action", "")).strip().lower()
            status = str(block.get("Status", "")).strip().split(" ")[0]
            if not action and not status:
                continue
            diagnostic = " ".join(str(block.get("Diagnostic-Code", "")).split())
            detail = printable(" ".join(w for w in (status, diagnostic) if w) or action, _DETAIL_CHARS)
            if action in ("delayed", "delivered", "relayed", "expanded"):
                return BounceReport(BounceKind.NONE, printable(f"{action}: {detail}", _DETAIL_CHARS))
            if status.startswith("5."):
                return BounceReport(BounceKind.HARD, detail)
            if status.startswith("4.") or action == "failed":
                return BounceReport(BounceKind.SOFT, detail)
            return BounceReport(BounceKind.NONE, detail)
    return None


def _parts(message: Message) -> list[Message]:
    """The mail's parts, breadth first, at most :data:`MAX_PARTS` and :data:`MAX_MIME_NESTING` deep."""
    found: list[Message] = []
    queue = [(message, 1)]
    while queue and len(found) < MAX_PARTS:
        part, level = queue.pop(0)
        found.append(part)
        payload = part.get_payload()
        if isinstance(payload, list) and level < MAX_MIME_NESTING and part.get_content_type() != "message/delivery-status":
            queue.extend((child, level + 1) for child in payload if isinstance(child, Message))
    return found
