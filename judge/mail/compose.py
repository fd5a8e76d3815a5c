"""Building the mails the judge sends, in the classic Judge's conventions.

Every outgoing mail is valid UTF-8 MIME text/plain and carries what keeps mail
between robots safe and threads readable: ``Message-ID``, ``Date``,
``In-Reply-To``/``References`` for replies, the judge's ``X-Judge`` header
(so its own mail coming back is recognised, see :mod:`judge.mail.loopguard`)
and ``Auto-Submitted`` (so well-behaved autoresponders stay quiet).

Subjects and the ``::`` header lines follow the Judge (conventions §4):
``XPY:game1 - S1901M Results``, ``Re: [Error Flag] XPY:game1 - S1901M orders``,
``:: Judge: XPY  Game: game1  Variant: Standard`` and
``:: Deadline: S1901M Sun Nov 22 2026 23:30:00 +0000``.

Each mail names exactly one reader: ``To`` holds one address, and no other
header the judge writes holds a reader's address. A text for many readers is
many mails (:class:`SharedMail` writes them cheaply), so no reader ever learns
from a header who else reads it: an observer's address, or which power of a
gunboat game a broadcast's missing reader plays.
"""

from __future__ import annotations

import binascii
import functools
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from email import message_from_bytes, policy
from email.header import Header
from email.message import EmailMessage
from email.utils import format_datetime, getaddresses, make_msgid
from enum import StrEnum

from judge.config import Config
from judge.mail.addresses import AddressError, ascii_domain_of, canonical_address
from judge.mail.loopguard import JUDGE_HEADER
from judge.timekeeping.dates import format_judge_date

MAX_SUBJECT_LENGTH = 79  # the Judge's limit; longer subjects are cut
MAX_REFERENCES = 10  # a References chain copied from a stranger's mail stays short
_SMTP_LINE_LIMIT = 998
_FOLD_AT = 78
_REPLY_PREFIX = re.compile(r"^\s*(re|aw|sv|tr|fw|fwd)\s*(\[\d+\])?\s*:\s*", re.IGNORECASE)
_FLAG_PREFIX = re.compile(r"^\s*\[(error flag|you are late!)\]\s*", re.IGNORECASE)
_PHASE = r"[SUFW]\d{4}[MRBA]"
# Control characters (C0, DEL, C1, line and paragraph separators) never travel in a header
# the judge writes: a NUL or a bare CR in a copied Subject would corrupt or split it.
_HEADER_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0080-\u009f\u2028\u2029]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_NEEDS_QUOTES = re.compile(r'[][\\()<>@,:;".]')


@dataclass(frozen=True, slots=True)
class Attachment:
    """One file sent with a mail (a map): its name, MIME type and bytes."""

    filename: str
    content_type: str
    data: bytes


class AutoSubmitted(StrEnum):
    """RFC 3834: a reply to a person's mail, or a mail the judge sends on its own."""

    REPLIED = "auto-replied"
    GENERATED = "auto-generated"


@dataclass(frozen=True)
class JudgeIdentity:
    """Who the judge is in the mails it sends."""

    address: str
    code: str
    display_name: str = "Diplomacy Judge"

    @classmethod
    def from_config(cls, config: Config) -> JudgeIdentity:
        return cls(config.address, config.code, config.display_name)

    @property
    def domain(self) -> str:
        """The judge's domain in ASCII (IDNA), for Message-IDs."""
        domain = self.address.rpartition("@")[2] or "localhost"
        try:
            return ascii_domain_of(domain)
        except AddressError:
            return "localhost"


def render(
    identity: JudgeIdentity,
    reader: str,
    subject: str,
    body: str,
    *,
    now: datetime,
    auto_submitted: AutoSubmitted,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    message_id: str | None = None,
    extra_headers: Sequence[tuple[str, str]] = (),
    attachment: Attachment | None = None,
) -> bytes:
    """One outgoing mail to ``reader`` in wire form (CRLF), ready for the outbox and any relay.

    Written directly rather than through :class:`EmailMessage` (about ten
    times faster, and every reply goes through here): a single text/plain
    UTF-8 part, 7bit when the text allows it, quoted-printable otherwise, so
    no relay needs 8BITMIME; non-ASCII headers as RFC 2047 encoded words.
    ``now`` must be timezone-aware; it becomes the ``Date``.

    Addresses are written in their canonical form (domain in IDNA); a
    non-ASCII local part stays UTF-8 (RFC 6532), for a relay offering
    SMTPUTF8 (the sender refuses it otherwise). Nothing here raises on an
    odd address: what cannot be canonicalised is written cleaned of spaces
    and control characters, and the relay refuses it.

    With ``attachment`` the mail is multipart/mixed: the same text part
    first (complete on its own), then the file in base64.
    """
    if now.tzinfo is None:
        raise ValueError("compose needs a timezone-aware datetime")
    if not reader.strip():
        raise ValueError("a mail needs a recipient")
    headers = [
        ("From", format_address(identity.display_name, identity.address)),
        ("To", _reader_header(reader)),
        ("Subject", _text_header("Subject", subject)),
        ("Date", format_datetime(now)),
        ("Message-ID", _one_line(message_id or make_msgid(domain=identity.domain))),
    ]
    headers += _after_message_id(identity, auto_submitted, in_reply_to, references, extra_headers)
    text_headers, payload = _text_part(body)
    headers += text_headers
    head = "\r\n".join(_fold(name, value) for name, value in headers)
    # "replace": a lone surrogate (bytes that were never UTF-8) becomes "?", never an error.
    message = head.encode("utf-8", "replace") + b"\r\n\r\n" + payload.replace(b"\n", b"\r\n")
    return message if attachment is None else with_attachment(message, attachment)


def _after_message_id(
    identity: JudgeIdentity,
    auto_submitted: AutoSubmitted,
    in_reply_to: str | None,
    references: Sequence[str],
    extra_headers: Sequence[tuple[str, str]],
) -> list[tuple[str, str]]:
    """:func:`render`'s headers between the ``Message-ID`` and the text part's, in order."""
    headers: list[tuple[str, str]] = []
    if in_reply_to:
        headers.append(("In-Reply-To", _one_line(in_reply_to)))
    chain = list(dict.fromkeys(_one_line(ref) for ref in (*references, in_reply_to) if ref))
    if len(chain) > MAX_REFERENCES:  # keep the thread's root and its latest mails (RFC 5322 §3.6.4)
        chain = chain[:1] + chain[-(MAX_REFERENCES - 1) :]
    if chain:
        headers.append(("References", " ".join(dict.fromkeys(chain))))
    headers += [(_one_line(name), _one_line(value)) for name, value in extra_headers]
    headers += [
        (JUDGE_HEADER, f"{identity.code} {identity.address}"),
        ("Auto-Submitted", auto_submitted.value),
        ("X-Auto-Response-Suppress", "All"),  # asks Exchange not to answer with vacation notices
    ]
    if auto_submitted is AutoSubmitted.GENERATED:  # what older vacation programs look for instead
        headers.append(("Precedence", "bulk"))
    headers.append(("MIME-Version", "1.0"))
    return headers


class SharedMail:
    """:func:`render` for one text going to many readers, one mail each: what all the mails have
    in common (sender, subject, date, the judge's headers, the encoded text) is written once;
    :meth:`to` writes each reader's ``To`` and a fresh ``Message-ID``. The bytes are the ones
    :func:`render` writes for the same arguments (the Message-ID aside, random in both).
    """

    __slots__ = ("_domain", "_from", "_middle", "_tail")

    def __init__(
        self, identity: JudgeIdentity, subject: str, body: str, *, now: datetime, auto_submitted: AutoSubmitted
    ) -> None:
        if now.tzinfo is None:
            raise ValueError("compose needs a timezone-aware datetime")
        self._domain = identity.domain
        self._from = _fold("From", format_address(identity.display_name, identity.address)).encode("utf-8", "replace")
        self._middle = "\r\n".join(
            (_fold("Subject", _text_header("Subject", subject)), _fold("Date", format_datetime(now)))
        ).encode("utf-8", "replace")
        text_headers, payload = _text_part(body)
        rest = _after_message_id(identity, auto_submitted, None, (), ()) + text_headers
        self._tail = (
            "\r\n".join(_fold(name, value) for name, value in rest).encode("utf-8", "replace")
            + b"\r\n\r\n" + payload.replace(b"\n", b"\r\n")
        )  # fmt: skip

    def to(self, reader: str) -> bytes:
        """The mail for ``reader`` in wire form."""
        if not reader.strip():
            raise ValueError("a mail needs a recipient")
        return b"\r\n".join(
            (
                self._from,
                _fold("To", _reader_header(reader)).encode("utf-8", "replace"),
                self._middle,
                _fold("Message-ID", _one_line(make_msgid(domain=self._domain))).encode("utf-8", "replace"),
                self._tail,
            )
        )


_TEXT_PART_HEADERS = (b"content-type:", b"content-transfer-encoding:")


def with_attachment(message: bytes, attachment: Attachment) -> bytes:
    """A single-part text mail made by :func:`render`, turned into multipart/mixed with ``attachment``.

    The text part comes first, unchanged and complete on its own, then the
    file in base64. Used by :func:`render` and by the sender, which attaches
    a results mail's map when it delivers the mail rather than when the
    phase is processed (drawing is too slow for the processing transaction).
    A message that is not what :func:`render` writes (already multipart, no
    header block) is returned as it is.
    """
    head, separator, payload = message.partition(b"\r\n\r\n")
    if not separator:
        return message
    kept: list[bytes] = []
    moved: list[bytes] = []
    target = kept
    for line in head.split(b"\r\n"):
        if line[:1] not in (b" ", b"\t"):  # a folded line stays with the header it continues
            target = moved if line.lower().startswith(_TEXT_PART_HEADERS) else kept
        target.append(line)
    if not moved or any(b"multipart/" in line.lower() for line in moved):
        return message
    # A random token (96 bits): "=_" never occurs in base64 or quoted-printable text, and no
    # text part holds such a token by chance. (``make_msgid()`` without a domain asked the
    # resolver for this host's name on every mail: a third of a results mail's sending.)
    boundary = f"=_judge_{secrets.token_hex(12)}"
    kept.append(f'Content-Type: multipart/mixed; boundary="{boundary}"'.encode("ascii"))
    # One join: the file's part (most of the mail) copied once, not once for each part after it.
    return b"".join((
        b"\r\n".join(kept), b"\r\n\r\nThis is a MIME message with an attachment.\r\n",
        f"--{boundary}\r\n".encode("ascii"), b"\r\n".join(moved), b"\r\n\r\n", payload,
        f"\r\n--{boundary}\r\n".encode("ascii"), _attachment_part(attachment),
        f"\r\n--{boundary}--\r\n".encode("ascii"),
    ))  # fmt: skip


def _text_part(body: str) -> tuple[list[tuple[str, str]], bytes]:
    """The text's Content-Type and transfer-encoding headers and its encoded bytes (LF line ends)."""
    headers = [("Content-Type", 'text/plain; charset="utf-8"')]
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    if not text.endswith("\n"):
        text += "\n"
    if text.isascii() and all(len(line) <= _SMTP_LINE_LIMIT for line in text.split("\n")):
        headers.append(("Content-Transfer-Encoding", "7bit"))
        return headers, text.encode("ascii")
    headers.append(("Content-Transfer-Encoding", "quoted-printable"))
    return headers, binascii.b2a_qp(text.encode("utf-8", "replace"), quotetabs=False, istext=True)


def attachment_bytes(attachment: Attachment) -> int:
    """What ``attachment`` adds to a mail once encoded: its MIME part (base64) and boundaries."""
    data = len(attachment.data)
    encoded = 4 * ((data + 2) // 3)
    lines = (encoded + 75) // 76
    return encoded + 2 * lines + 400  # 400: the part's headers, the boundaries and the preamble


@functools.lru_cache(maxsize=8)
def _attachment_part(attachment: Attachment) -> bytes:
    """The file's MIME part in base64, lines of 76 characters; the name kept to safe characters.

    Kept for the last few files: the sender attaches one phase's map to each of its readers' mails
    one after another, and encoding it again for each took a third of a results mail's sending."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", attachment.filename)[:60] or "attachment"
    kind = re.sub(r"[^a-z0-9./+-]", "", attachment.content_type.lower()) or "application/octet-stream"
    encoded = binascii.b2a_base64(attachment.data, newline=False)
    lines = b"\r\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76))
    head = (
        f'Content-Type: {kind}; name="{name}"\r\nContent-Transfer-Encoding: base64\r\n'
        f'Content-Disposition: attachment; filename="{name}"\r\n\r\n'
    )
    return head.encode("ascii") + lines


def compose(
    identity: JudgeIdentity,
    reader: str,
    subject: str,
    body: str,
    *,
    now: datetime,
    auto_submitted: AutoSubmitted,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    message_id: str | None = None,
) -> EmailMessage:
    """The same mail as :func:`render`, as an :class:`EmailMessage` to inspect or adjust."""
    data = render(
        identity, reader, subject, body, now=now, auto_submitted=auto_submitted,
        in_reply_to=in_reply_to, references=references, message_id=message_id,
    )  # fmt: skip
    message = message_from_bytes(data, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return message


def render_reply(
    identity: JudgeIdentity,
    reader: str,
    subject: str,
    body: str,
    *,
    now: datetime,
    original_message_id: str | None,
    original_references: Sequence[str] = (),
    attachment: Attachment | None = None,
) -> bytes:
    """The answer to a person's mail: threaded under it and marked ``auto-replied``."""
    return render(
        identity,
        reader,
        subject,
        body,
        now=now,
        auto_submitted=AutoSubmitted.REPLIED,
        in_reply_to=original_message_id,
        references=original_references,
        attachment=attachment,
    )


def compose_reply(
    identity: JudgeIdentity,
    reader: str,
    subject: str,
    body: str,
    *,
    now: datetime,
    original_message_id: str | None,
    original_references: Sequence[str] = (),
) -> EmailMessage:
    """:func:`render_reply` as an :class:`EmailMessage`."""
    data = render_reply(
        identity, reader, subject, body, now=now,
        original_message_id=original_message_id, original_references=original_references,
    )  # fmt: skip
    message = message_from_bytes(data, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return message


def message_bytes(message: EmailMessage) -> bytes:
    """The wire form (CRLF line ends) of a message built or changed as an object."""
    return message.as_bytes(policy=policy.SMTP)


_PLAIN_ADDRESS = re.compile(r"[a-z0-9_+-]+(?:\.[a-z0-9_+-]+)*@[a-z0-9-]+(?:\.[a-z0-9-]+)*")
"""An address of lower-case dot-atoms alone, as nearly every reader's canonical address is: its own
``To`` value (:func:`_reader_header`), without the parse, written for the results of a deadline
storm's thousands of readers, that took a tenth of a results mail's making."""


def _reader_header(reader: str) -> str:
    """The one reader as a ``To`` value (``Name <address>`` or a bare address).

    Never a list: text that reads as several addresses (``a@x, b@y``) is
    written as one token cleaned of separators, which the relay refuses,
    rather than as two readers who would see each other.
    """
    if _PLAIN_ADDRESS.fullmatch(reader):
        return reader  # what the parse below gives back for it: nothing to quote, clean or encode
    pairs = getaddresses([_one_line(reader)])
    if len(pairs) == 1 and pairs[0][1]:
        return format_address(*pairs[0])
    return format_address("", reader)


def format_address(name: str, address: str) -> str:
    """``Name <address>`` (or the bare address) as a header value; never raises.

    Unlike :func:`email.utils.formataddr`, a non-ASCII address is not an
    error: its domain is IDNA-encoded and a non-ASCII local part kept as
    UTF-8. A non-ASCII display name becomes an RFC 2047 encoded word.
    """
    address = header_address(address)
    name = _one_line(name)
    if not name:
        return address
    if not name.isascii():
        encoded = Header(name, "utf-8").encode(linesep="\r\n")
        return f"{encoded} <{address}>"
    if _NEEDS_QUOTES.search(name):
        name = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{name} <{address}>"


def header_address(address: str) -> str:
    """``address`` as it may stand in a header: canonical, else stripped of what could break out."""
    try:
        return canonical_address(address)
    except AddressError:
        return "".join(c for c in _one_line(address) if c not in ' <>,;:"\\()[]')


def _text_header(name: str, value: str) -> str:
    """``value`` as a header's text: kept as it is when plain ASCII, else RFC 2047 encoded words.

    ASCII that holds ``=?`` is encoded too: a subject echoing a sender's broken encoded word
    (``=?utf-8?b?...?=`` left undecoded) would otherwise be read by mail clients as one, and
    fail to decode or show other text than the judge wrote."""
    value = _one_line(value)
    if value.isascii() and "=?" not in value:
        return value
    return Header(value, "utf-8", header_name=name).encode(linesep="\r\n")


def _fold(name: str, value: str) -> str:
    """``Name: value``, folded at spaces so lines stay under 78 characters where they can."""
    line = f"{name}: {value}"
    if len(line) <= _FOLD_AT or "\r\n" in value:
        return line
    lines: list[str] = []
    current = f"{name}:"
    for word in value.split(" "):
        if (
            len(current) + 1 + len(word) > _FOLD_AT
            and current.strip()
            and not current.endswith(":")
        ):
            lines.append(current)
            current = ""
        current += f" {word}"
    lines.append(current)
    return "\r\n".join(lines)


def header_lines(headers: Sequence[tuple[str, str]]) -> bytes:
    """Headers in wire form (each on one line, folded, CRLF after each), for headers added to a
    rendered mail as it goes out (judge.app.mail_out.list_headers)."""
    return b"".join(
        _fold(_one_line(name), _one_line(value)).encode("utf-8", "replace") + b"\r\n" for name, value in headers
    )


def _one_line(text: str) -> str:
    """Header values never contain line breaks (header injection) nor control characters."""
    return " ".join(_HEADER_CONTROL.sub(" ", _SURROGATE.sub("\ufffd", text)).split())


# --- subjects ----------------------------------------------------------------


def game_subject(code: str, game: str, event: str, phase: str | None = None) -> str:
    """``XPY:game1 - S1901M Results``: a mail about a game."""
    middle = " ".join(part for part in (phase, event) if part)
    return _fit(f"{code}:{game} - {middle}")


def reply_subject(
    code: str,
    original: str,
    *,
    game: str | None = None,
    phase: str | None = None,
    error_flag: bool = False,
    late: bool = False,
) -> str:
    """``Re: [Error Flag] XPY:game1 - S1901M <their subject>`` (``Re: XPY <subject>`` before sign-on).

    The player's own ``Re:``, flags and judge prefix are removed first, so a
    long exchange does not grow ``Re: Re: [Error Flag] [Error Flag] …``.
    """
    flags = ("[You are late!] " if late else "") + ("[Error Flag] " if error_flag else "")
    prefix = game_subject(code, game, "", phase) if game else code
    return _fit(f"Re: {flags}{prefix.rstrip()} {strip_subject(original, code)}".rstrip())


def strip_subject(subject: str, code: str) -> str:
    """A subject without reply prefixes, the Judge's flags and the Judge's own ``CODE:game - PHASE``."""
    judge_prefix = re.compile(
        rf"^\s*{re.escape(code)}(:\S+\s+-\s*)?(\s*{_PHASE}\b)?\s*", re.IGNORECASE
    )
    text = _one_line(subject)
    while True:
        stripped = _REPLY_PREFIX.sub("", text, count=1)
        stripped = _FLAG_PREFIX.sub("", stripped, count=1)
        stripped = (
            judge_prefix.sub("", stripped, count=1)
            if _is_judge_prefixed(stripped, code)
            else stripped
        )
        if stripped == text:
            return text
        text = stripped


def subject_phase(subject: str, code: str, game: str) -> str | None:
    """The phase a subject names as the judge writes it about ``game`` (``Re: [Error Flag]
    XPY:demo - S1901M ...``, as :func:`reply_subject` and :func:`game_subject` make it), or None:
    what a player answering an older mail of the game was answering."""
    found = re.search(
        rf"(?:^|\s){re.escape(code)}:{re.escape(game)}\s+-\s*({_PHASE})\b", _one_line(subject), re.IGNORECASE
    )
    return found.group(1).upper() if found else None


def _is_judge_prefixed(text: str, code: str) -> bool:
    head = text.split(maxsplit=1)[0] if text.split() else ""
    return head.upper() == code.upper() or head.upper().startswith(f"{code.upper()}:")


def _fit(subject: str) -> str:
    subject = _one_line(subject.replace('"', ""))
    return (
        subject
        if len(subject) <= MAX_SUBJECT_LENGTH
        else subject[: MAX_SUBJECT_LENGTH - 3].rstrip() + "..."
    )


# --- the "::" header lines ----------------------------------------------------


def judge_line(
    code: str,
    game: str | None = None,
    variant: str | None = None,
    modifiers: Sequence[str] = (),
) -> str:
    """``:: Judge: XPY  Game: game1  Variant: Standard Gunboat`` (game parts only when signed on)."""
    line = f":: Judge: {code}"
    if game:
        line += f"  Game: {game}"
        if variant:
            words = [variant[:1].upper() + variant[1:], *modifiers]
            line += f"  Variant: {' '.join(words)}"
    return line


LOCAL_DEADLINE = ":: Local deadline:"
judge_date = format_judge_date
"""The Judge's own date form (:func:`judge.timekeeping.dates.format_judge_date`)."""


def deadline_line(phase: str, deadline: datetime, zone: tzinfo) -> str:
    """``:: Deadline: S1901M Sun Nov 22 2026 23:30:00 +0000`` in the judge's time zone."""
    return f":: Deadline: {phase} {judge_date(deadline, zone)}"


def header_block(
    code: str,
    *,
    game: str | None = None,
    variant: str | None = None,
    modifiers: Sequence[str] = (),
    phase: str | None = None,
    deadline: datetime | None = None,
    zone: tzinfo | None = None,
    reader_deadline: str | None = None,
) -> str:
    """The lines a Judge mail body starts with: a blank line, ``:: Judge:``, then ``:: Deadline:``.

    The ``:: Deadline:`` line keeps the Judge's own form in the judge's zone, which the players'
    tools read; ``reader_deadline`` (the same moment as the reader is told it, in their zone and
    language) follows it on a line of its own, ``:: Local deadline:``, that no tool mistakes for it.
    """
    lines = ["", judge_line(code, game, variant, modifiers)]
    if game and phase and deadline is not None:
        if zone is None:
            raise ValueError("a deadline line needs the judge's time zone")
        lines.append(deadline_line(phase, deadline, zone))
        if reader_deadline:
            lines.append(f"{LOCAL_DEADLINE} {reader_deadline}")
    return "\n".join(lines) + "\n"
