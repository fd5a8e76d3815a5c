"""Which mails the judge must store but never answer, so two robots never mail each other forever.

A judge that answers a bounce, a vacation notice, a mailing list or another
judge starts a loop that only a full disk ends. The tests are the ones every
careful autoresponder uses (RFC 3834) plus the classic Judge's own list of
daemon senders, and what robots that ignore those rules still show: a
delivery or read report anywhere in the mail, a returned mail carrying a
judge's header, a bounce in a shape :mod:`flufl.bounce` knows. The function
is pure: the worker calls it on the parsed mail and, when it returns a
reason, records the reason and sends nothing.

Two signs are weaker, because a person's mail can show them too: a subject
such as "Out of Office" or "Réponse automatique", and a body quoting a
judge mail. :func:`robot_content` names them; the worker holds such a mail
back only when it carries no command (see :mod:`judge.mail.triage`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from email.message import Message
from enum import StrEnum

from flufl.bounce import all_failures

from judge.mail.addresses import AddressError, canonical_address, printable
from judge.mail.decode import MAX_MIME_NESTING, first_address, header_values, raw_header_values

log = logging.getLogger(__name__)

JUDGE_HEADER = "X-Judge"
"""Carried by every mail this judge sends (see :mod:`judge.mail.compose`)."""

_OTHER_JUDGE_HEADERS = ("X-Njudge",)  # what the classic njudge puts on its mail
_BULK_PRECEDENCE = frozenset({"bulk", "junk", "list", "auto_reply", "auto-reply"})
# Headers whose mere presence marks an autoresponder's mail (vacation programs, Exchange).
_AUTORESPONDER_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress")
# Headers whose presence marks mail from a mailing list (RFC 2919, RFC 2369, ezmlm, vger).
_LIST_HEADERS = (
    "List-Id", "List-Unsubscribe", "List-Post", "List-Help", "List-Subscribe", "List-Owner",
    "List-Archive", "Mailing-List", "X-Mailing-List",
)  # fmt: skip
# Local parts of mail software, matched as WHOLE local parts (after any +tag): the classic
# Judge matched prefixes ("mailer", "postma", "smtp"…) and so ignored smtpfan@ and postman@.
_DAEMON_LOCAL_PARTS = frozenset(
    {
        "mailer-daemon", "mailer_daemon", "mailerdaemon", "mail-daemon", "maildaemon",
        "mailer", "postmaster", "postmast", "uucp", "mmdf", "smtp", "daemon", "root",
        "noreply", "no-reply", "no_reply", "donotreply", "do-not-reply", "do_not_reply",
        "bounce", "bounces", "listserv", "majordomo", "mailman", "autoreply", "auto-reply",
        "nobody", "notifications", "notification", "notify", "notifier", "alerts", "autoresponder",
        "auto-responder",
    }
)  # fmt: skip
# Local parts that START like this, once dots, dashes and underscores are taken out, are
# robots too: no.reply@, noreply-dmarc@, do_not_reply123@ (a person is rarely "no reply").
_NO_REPLY_STARTS = ("noreply", "donotreply")
_SEPARATORS = re.compile(r"[._-]")
# MIME parts that only mail software writes: delivery reports (RFC 3464, 6533), read
# reports (RFC 8098), abuse feedback reports (RFC 5965).
_REPORT_TYPES = frozenset(
    {
        "message/delivery-status", "message/global-delivery-status",
        "message/disposition-notification", "message/global-disposition-notification",
        "message/feedback-report",
    }
)  # fmt: skip
# Parts that carry a returned mail (whole, or its headers only).
_RETURNED_MAIL_TYPES = frozenset({"message/rfc822", "message/global"})
_RETURNED_HEADERS_TYPES = frozenset({"text/rfc822-headers", "message/global-headers"})
_JUDGE_HEADER_LINE = re.compile(rb"^(?:X-Judge|X-Njudge):", re.IGNORECASE | re.MULTILINE)
_SUBJECT_LOOKED_AT = 200
"""An autoreply says what it is at the start of its subject; a longer subject is not read further."""
_MAX_PARTS_LOOKED_AT = 256
""":func:`_parts` stops there (the parser already bounds the tree; this bounds the look)."""


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
    DAEMON_SENDER = "daemon-sender"  # MAILER-DAEMON, postmaster, noreply and friends
    BOUNCE = "bounce"  # null sender, a delivery or read report, a bounce flufl.bounce knows
    # The weaker signs of robot_content: held back only from a mail without a command.
    AUTOREPLY_SUBJECT = "autoreply-subject"  # "Out of Office", "Réponse automatique"...
    QUOTES_JUDGE = "quotes-judge"  # the body quotes a judge mail (its ":: Judge:" or X-Judge line)


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
    present = {str(key).lower() for key, _value in message.raw_items()}  # each look below: a set test
    judge = _named_header(message, present, (JUDGE_HEADER, *_OTHER_JUDGE_HEADERS), LoopKind.JUDGE_MAIL)
    if judge is not None:
        return judge
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
    flagged = (
        _named_header(message, present, _AUTORESPONDER_HEADERS, LoopKind.AUTORESPONDER)
        or _named_header(message, present, _LIST_HEADERS, LoopKind.MAILING_LIST)
        # Exim writes it on its bounces only.
        or _named_header(message, present, ("X-Failed-Recipients",), LoopKind.BOUNCE)
    )
    if flagged is not None:
        return flagged
    if envelope_sender is not None and envelope_sender.strip("<> ") == "":
        return LoopReason(LoopKind.BOUNCE, "null envelope sender")
    for value in raw_header_values(message, "Return-Path"):
        if value.strip("<> \t") == "":
            return LoopReason(LoopKind.BOUNCE, "null return path (Return-Path: <>)")
    if message.get_content_type() == "multipart/report":
        return LoopReason(LoopKind.BOUNCE, "Content-Type: multipart/report")
    return _robot_parts(message) or _robot_sender(message, own, envelope_sender)


def _named_header(message: Message, present: set[str], names: Iterable[str], kind: LoopKind) -> LoopReason | None:
    """``kind`` when one of the headers ``names`` (whose mere presence tells) is in the mail."""
    for name in names:
        if name.lower() in present:
            values = header_values(message, name)
            if values:
                return LoopReason(kind, f"{name}: {values[-1].strip()}")
    return None


def _robot_sender(message: Message, own: set[str], envelope_sender: str | None) -> LoopReason | None:
    """The judge itself, or a daemon, in From, Reply-To (the judge only) or Sender, or the envelope."""
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
    names as a whole: ``postmaster@`` is a daemon, ``postman@`` a person;
    or start like "no reply" once dots, dashes and underscores are taken out
    (``no.reply@``, ``noreply-dmarc@``).
    """
    local = address.rpartition("@")[0] or address
    local = local.strip().strip("<>").split("+", 1)[0].lower()
    return local in _DAEMON_LOCAL_PARTS or _SEPARATORS.sub("", local).startswith(_NO_REPLY_STARTS)


def _parts(message: Message) -> Iterator[Message]:
    """The mail's parts, attached mails included, breadth first and bounded (no recursion)."""
    queue = [(message, 1)]
    seen = 0
    while queue and seen < _MAX_PARTS_LOOKED_AT:
        part, level = queue.pop(0)
        seen += 1
        yield part
        payload = part.get_payload()
        if isinstance(payload, list) and level < MAX_MIME_NESTING:
            queue.extend((child, level + 1) for child in payload if isinstance(child, Message))


def _robot_parts(message: Message) -> LoopReason | None:
    """What the mail's parts show of a robot: a report only software writes, a judge's mail
    returned to it, or (in a mail carrying a returned mail) a bounce :mod:`flufl.bounce` knows."""
    if not message.is_multipart():
        return None
    returned = False
    for part in _parts(message):
        kind = part.get_content_type()
        if kind in _REPORT_TYPES:
            return LoopReason(LoopKind.BOUNCE, f"a {kind} part")
        if kind in _RETURNED_MAIL_TYPES:
            returned = True
            payload = part.get_payload()
            inner = payload[0] if isinstance(payload, list) and payload else None
            if isinstance(inner, Message):
                for name in (JUDGE_HEADER, *_OTHER_JUDGE_HEADERS):
                    values = header_values(inner, name)
                    if values:
                        return LoopReason(LoopKind.JUDGE_MAIL, f"{name} in a returned mail: {values[-1].strip()}")
        elif kind in _RETURNED_HEADERS_TYPES:
            returned = True
            data = part.get_payload(decode=True)
            if isinstance(data, bytes) and _JUDGE_HEADER_LINE.search(data):
                return LoopReason(LoopKind.JUDGE_MAIL, f"a judge's header in returned {kind}")
    if returned:
        failed = _bounce_failures(message)
        if failed:
            return LoopReason(LoopKind.BOUNCE, f"a bounce for {failed}")
    return None


def _bounce_failures(message: Message) -> str | None:
    """The addresses a bounce says could not be reached (flufl.bounce's detectors), or None."""
    try:
        temporary, permanent = all_failures(message)
    except Exception:  # its heuristics on hostile input: not a bounce we can read
        log.debug("flufl.bounce could not read a mail", exc_info=True)
        return None
    found = sorted(permanent | temporary)
    if not found:
        return None
    return ", ".join(address.decode("ascii", "replace") for address in found[:3])


def robot_content(message: Message, subject: str) -> LoopReason | None:
    """A weaker sign of a robot, which a person's mail may show too: an autoreply's subject,
    or a body quoting a judge mail. The worker answers such a mail only when it carries a
    command, and one that quotes the judge only a few times a day (:mod:`judge.mail.triage`)."""
    autoreply = autoreply_subject(subject[:_SUBJECT_LOOKED_AT])
    if autoreply is not None:
        return LoopReason(LoopKind.AUTOREPLY_SUBJECT, f"Subject: {autoreply}")
    for part in _parts(message):
        if part.get_content_maintype() != "text" or part.get_content_type() in _RETURNED_HEADERS_TYPES:
            continue
        data = part.get_payload(decode=True)
        # The two plain searches first: most bodies (and all the long ones) have neither.
        if isinstance(data, bytes) and (b"udge:" in data or b"UDGE:" in data):
            found = _JUDGE_QUOTED.search(data)
            if found is not None:
                return LoopReason(LoopKind.QUOTES_JUDGE, found.group(0).decode("ascii", "replace").strip())
    return None


_JUDGE_QUOTED = re.compile(
    rb"(?:^|>)[ \t>]*(?::: Judge: [A-Za-z0-9]+|(?:X-Judge|X-Njudge):[^\r\n]{0,80})", re.IGNORECASE | re.MULTILINE
)
"""A line of a judge mail, quoted (or not, or in HTML) in a body: every reply starts
``:: Judge: XPY``; mail quoted with its headers shows ``X-Judge``."""

# Subjects of autoreplies, in English, French, German, Dutch, Spanish, Italian. The phrases
# are robots' wherever they stand; the single words only at the start of the subject.
_AUTOREPLY_PHRASES = (
    r"out of (?:the )?office", r"automatic reply", r"auto[- ]?reply", r"auto[- ]?response",
    r"away from (?:the |my )?(?:office|desk|e-?mail)", r"vacation (?:reply|notice|message|response)",
    r"r[ée]ponse automatique", r"message d'absence", r"absent(?:e)? du bureau", r"en cong[ée]s?\b",
    r"abwesenheitsnotiz", r"automatische antwort", r"nicht im b[üu]ro", r"au[ßs]er haus",
    r"automatisch antwoord", r"afwezigheidsbericht", r"respuesta autom[áa]tica",
    r"fuera de la oficina", r"risposta automatica", r"fuori ufficio",
)  # fmt: skip
_AUTOREPLY_WORDS = (
    r"absence", r"absent(?:e)?", r"abwesend", r"abwesenheit", r"urlaub", r"vacation", r"holiday",
    r"on leave", r"afwezig",
)  # fmt: skip
_AUTOREPLY_SUBJECT = re.compile(
    rf"(?:{'|'.join(_AUTOREPLY_PHRASES)})|^\s*(?:{'|'.join(_AUTOREPLY_WORDS)})\b", re.IGNORECASE
)


def autoreply_subject(subject: str) -> str | None:
    """The words of ``subject`` that an autoreply writes ("Out of Office", "Absence"...), or None."""
    found = _AUTOREPLY_SUBJECT.search(subject)
    return found.group(0).strip() if found is not None else None


def _comparable(address: str) -> str:
    """The form in which two addresses are compared (canonical when possible)."""
    try:
        return canonical_address(address)
    except AddressError:
        return address.strip().strip("<>").lower()


def _addresses_in_text(value: str) -> list[str]:
    """Every ``local@domain`` word of a free-text header such as ``X-Loop``."""
    return [word.strip("<>()[],;\"'") for word in value.split() if "@" in word]
