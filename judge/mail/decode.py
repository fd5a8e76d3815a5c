"""Real-world mail bytes -> the sender, the subject and the body text a command reader wants.

Players write from every kind of client: plain text, HTML only, quoted-printable
Latin-1 from an old French webmail, Windows-1252 from Outlook, base64 UTF-8
from a phone. The grammar must see the same plain lines whatever the client
did, so everything about MIME, charsets and line endings is settled here.

Decoding never raises: a mail the judge accepted must always get an answer, so
whatever goes wrong is recorded in ``problems`` and decoding carries on with
the best text it can get; what the player should hear about (text that could
not be read) is also in ``unreadable``, for the reply. The work is bounded
whatever the mail: a mail nested deeper than :data:`MAX_MIME_NESTING` (or with
more than :data:`MAX_MULTIPARTS` multipart containers) is read for its headers
only, and lines longer than :data:`MAX_LINE_LENGTH` are cut. Quoted lines (``>``) and everything after a ``-- ``
signature line (:mod:`judge.mail.signature`, the command reader's rule too) are dropped here; ``SIGNOFF`` belongs to the grammar.
"""

from __future__ import annotations

import codecs
import email
import email.errors
import email.header
import email.parser
import email.utils
import re
from collections.abc import Callable
from dataclasses import dataclass
from email import _header_value_parser as rfc5322
from email.message import Message
from email.policy import compat32
from enum import StrEnum
from typing import TypeVar

from judge.mail.addresses import AddressError, canonical_address
from judge.mail.html_text import html_to_text
from judge.mail.signature import is_signature_line

T = TypeVar("T")

# Labels that mean something a little larger in practice: mail marked Latin-1 or
# ASCII by Windows clients is really Windows-1252 (curly quotes, the euro sign),
# which is how web browsers read it too. Windows-1252 decodes Latin-1 text the same.
_WIDENED = {"iso8859-1": "cp1252", "ascii": "cp1252"}
_FALLBACK = "cp1252"
# Typing aids that would otherwise reach the grammar as unknown characters:
# French typography puts (narrow) no-break spaces before ':' and inside
# guillemets, and word processors turn "-" into dashes ("A Par – Bur").
_TRANSLATE = str.maketrans(
    {
        "\u00a0": " ", "\u202f": " ", "\u2007": " ", "\u2009": " ", "\t": " ",
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
        "\u2192": "->",
        "\ufeff": None, "\u200b": None, "\u200c": None, "\u200d": None,
    }
)  # fmt: skip
_ATTRIBUTION = re.compile(r"(wrote|a écrit|écrit|schrieb|scritto|escribió)\s*:\s*$", re.IGNORECASE)
_ORIGINAL_MESSAGE = re.compile(
    r"^\s*-{2,}\s*(original message|message d'origine|message original|mensaje original)\s*-{2,}\s*$",
    re.IGNORECASE,
)
_OUTLOOK_RULE = re.compile(r"^\s*_{20,}\s*$")
_OUTLOOK_FROM = re.compile(r"^\s*(from|de|von)\s*:", re.IGNORECASE)
# A Message-ID the judge copies into its own mail: printable ASCII only, bounded.
_MESSAGE_ID = re.compile(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,250}>")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# In a header value copied into the judge's mail (the Subject): every control character.
_HEADER_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0080-\u009f\u2028\u2029]")
_FOLDING = re.compile(r"\r?\n(?=[ \t])")
MAX_REFERENCES = 50  # more Message-IDs than any real thread carries are not kept
MAX_MIME_NESTING = 32
"""Deepest part read: real mail nests a few levels (a forwarded mail in a signed one...)."""
MAX_MULTIPARTS = 64
"""More multipart (or message/*) containers than this and the mail is read for its headers
only (the parser recurses once per level, so a 1,000-deep mail would exhaust the stack)."""
MAX_LINE_LENGTH = 10_000
"""Longer body lines are cut: no command is that long, and the grammar's work stays bounded."""
# A part that contains parts: multipart/*, and message/* (an attached mail is parsed as a tree).
_MULTIPART_HEADER = re.compile(
    rb"^content-type:[ \t]*(\r?\n[ \t]+)?(multipart|message)/", re.IGNORECASE | re.MULTILINE
)
_BAD_QP_ESCAPE = re.compile(r"=(?![0-9A-Fa-f]{2}|\r?\n|\s*$)", re.M)
_BASE64_DEFECTS = (
    email.errors.InvalidBase64CharactersDefect,
    email.errors.InvalidBase64PaddingDefect,
    email.errors.InvalidBase64LengthDefect,
)


class Unreadable(StrEnum):
    """What of a mail could not be read, as the reply tells the player (see judge.app.mail_in.unreadable)."""

    UNPARSABLE = "unparsable"  # not a mail at all
    TOO_DEEP = "too-deep"  # parts nested past the bound: only the headers were read
    DAMAGED_ENCODING = "damaged-encoding"  # broken base64 or quoted-printable
    NO_TEXT = "no-text"  # no text/plain or text/html part
    LONG_LINES = "long-lines"  # lines cut at MAX_LINE_LENGTH


class TooComplexDefect(email.errors.MessageDefect):
    """Recorded on a mail read for its headers only because its MIME structure is past the bounds."""


@dataclass(frozen=True)
class DecodedMail:
    """What the command reader needs from one mail, and what went wrong getting it.

    ``sender`` is the bare address replies go to (last ``Reply-To``, else
    ``From``), or ``None`` when the mail names nobody usable. ``notes`` say
    what was done (which part, which charset, which lines were dropped) for the
    operator; ``problems`` say what was wrong with the mail itself.
    """

    sender: str | None
    subject: str
    message_id: str | None
    references: tuple[str, ...]
    body: str
    notes: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    unreadable: tuple[Unreadable, ...] = ()


def parse_message(raw: bytes) -> Message:
    """The MIME tree of ``raw`` with the lenient compat32 policy (defects recorded, not raised).

    A mail past the nesting bounds (or that the parser cannot take) is read
    for its headers only, with a :class:`TooComplexDefect` saying why.
    """
    if len(_MULTIPART_HEADER.findall(raw)) > MAX_MULTIPARTS:
        return _headers_only(raw, f"more than {MAX_MULTIPARTS} multipart or message parts")
    try:
        message = email.message_from_bytes(raw, policy=compat32)
    except RecursionError:
        return _headers_only(raw, "parts nested too deeply to read")
    if _depth(message) > MAX_MIME_NESTING:
        return _headers_only(raw, f"parts nested more than {MAX_MIME_NESTING} levels deep")
    return message


def _headers_only(raw: bytes, why: str) -> Message:
    message = email.parser.BytesHeaderParser(policy=compat32).parsebytes(raw)
    message.defects.append(TooComplexDefect(why))
    return message


def _depth(message: Message) -> int:
    """How deep the parsed tree goes (iteratively: no recursion on a hostile tree)."""
    deepest = 0
    stack: list[tuple[Message, int]] = [(message, 1)]
    while stack:
        part, level = stack.pop()
        deepest = max(deepest, level)
        if level > MAX_MIME_NESTING:
            break
        payload = part.get_payload()
        if isinstance(payload, list):
            stack.extend((child, level + 1) for child in payload if isinstance(child, Message))
    return deepest


def decode_mail(raw: bytes) -> DecodedMail:
    """Decode one raw mail; see the module docstring. Never raises."""
    try:
        message = parse_message(raw)
    except Exception as error:  # the parser is lenient; this is a last resort
        problem = f"mail could not be parsed: {type(error).__name__}: {error}"
        return DecodedMail(None, "", None, (), "", (), (problem,), (Unreadable.UNPARSABLE,))
    return decode_message(message)


def decode_message(message: Message) -> DecodedMail:
    """Decode an already parsed mail (see :func:`parse_message`); never raises."""
    notes: list[str] = []
    problems: list[str] = []
    unreadable: list[Unreadable] = []
    sender = _guarded(lambda: find_sender(message), None, "sender", problems)
    if sender is None:
        problems.append("no usable sender address in Reply-To or From")
    subject = _guarded(
        lambda: clean_header_text(header_text(message, "Subject")), "", "Subject", problems
    )
    message_id = _guarded(
        lambda: _first_message_id(header_text(message, "Message-ID")), None, "Message-ID", problems
    )
    references = _guarded(
        lambda: tuple(_MESSAGE_ID.findall(header_text(message, "References"))[-MAX_REFERENCES:]),
        (),
        "References",
        problems,
    )
    too_complex = [d for d in message.defects if isinstance(d, TooComplexDefect)]
    if too_complex:
        problems.append(f"only the headers were read: {too_complex[0]}")
        unreadable.append(Unreadable.TOO_DEEP)
        text = ""
    else:
        text = _guarded(
            lambda: _body_text(message, notes, problems, unreadable), "", "body", problems
        )
    body = _guarded(lambda: clean_body(text, notes, unreadable), text, "body lines", problems)
    return DecodedMail(
        sender, subject, message_id, references, body,
        tuple(notes), tuple(problems), tuple(dict.fromkeys(unreadable)),
    )  # fmt: skip


def _guarded(compute: Callable[[], T], default: T, what: str, problems: list[str]) -> T:
    """Run one extraction step; a failure becomes a problem and a default, never an exception."""
    try:
        return compute()
    except Exception as error:
        problems.append(f"could not read the {what}: {type(error).__name__}: {error}")
        return default


# --- headers ---------------------------------------------------------------


def header_values(message: Message, name: str) -> list[str]:
    """Every value of header ``name``, decoded (RFC 2047 words, raw 8-bit bytes) and unfolded."""
    wanted = name.lower()
    return [
        _decode_header_value(value) for key, value in message.raw_items() if key.lower() == wanted
    ]


def header_text(message: Message, name: str) -> str:
    """The last value of header ``name``, decoded, or ``""``."""
    values = header_values(message, name)
    return values[-1].strip() if values else ""


def _decode_header_value(value: object) -> str:
    text = str(value)
    if not text.isascii() and any("\udc80" <= char <= "\udcff" for char in text):
        # 8-bit bytes straight in a header (against the RFC, common in practice).
        text = decode_bytes(text.encode("ascii", "surrogateescape"), None)[0]
    text = re.sub(r"\r?\n[ \t]+", " ", text).replace("\r", "").replace("\n", "")
    if "=?" not in text:
        return text
    try:
        chunks = email.header.decode_header(text)
    except Exception:
        return text
    pieces = []
    for chunk, charset in chunks:
        pieces.append(chunk if isinstance(chunk, str) else decode_bytes(chunk, charset)[0])
    return "".join(pieces)


def find_sender(message: Message) -> str | None:
    """The address a reply goes to, canonical, or ``None`` when there is no usable one.

    The last ``Reply-To`` header naming a mailbox, else the last ``From``
    (the classic Judge reads it this way, so a master's or a player's
    ``Reply-To`` is honoured); within it, the first mailbox. The RAW header
    is parsed as RFC 5322 says, before any encoded word is decoded: an
    address is only ever the ``addr-spec`` of a well-formed mailbox, never
    text from a display name (``=?utf-8?q?x=40evil.example?= <a@b>`` is
    ``a@b``; ``x@evil.example <a@b>`` is malformed and names nobody). The
    address is then canonicalised (:func:`canonical_address`); an unusable
    one means no usable sender.
    """
    for name in ("Reply-To", "From"):
        for value in reversed(raw_header_values(message, name)):
            found = mailbox_addresses(value)
            if found:
                try:
                    return canonical_address(found[0])
                except AddressError:
                    return None
    return None


def raw_header_values(message: Message, name: str) -> list[str]:
    """Every value of header ``name`` unfolded but NOT decoded: encoded words stay encoded.

    8-bit bytes (RFC 6532 UTF-8 headers) are read as UTF-8; bytes that are
    not UTF-8 stay as surrogates, which no address accepts.
    """
    wanted = name.lower()
    values = []
    for key, value in message.raw_items():
        if key.lower() != wanted:
            continue
        text = str(value)
        if not text.isascii() and any("\udc80" <= char <= "\udcff" for char in text):
            raw = text.encode("ascii", "surrogateescape")
            text = raw.decode("utf-8", "surrogateescape")
        values.append(_FOLDING.sub("", text).replace("\r", "").replace("\n", "").strip())
    return values


_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_DOT_ATOM_ADDRESS = rf"{_ATEXT}(?:\.{_ATEXT})*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*"
_SIMPLE_MAILBOX = re.compile(
    rf"[ \t]*(?:(?P<bare>{_DOT_ATOM_ADDRESS})|(?:[A-Za-z0-9]+(?:[ \t]+[A-Za-z0-9]+)*[ \t]*)?<(?P<angled>{_DOT_ATOM_ADDRESS})>)[ \t]*"
)
"""One mailbox in its plainest forms (``a@b.c``, ``<a@b.c>``, ``Ann Lee <a@b.c>``: dot-atoms and a
display name of plain words), whose address the RFC 5322 parser gives back unchanged."""


def mailbox_addresses(value: str) -> list[str]:
    """The ``addr-spec`` of every well-formed mailbox in a raw address header, in order.

    Parsed with the standard library's RFC 5322 parser (the one behind
    ``email.policy.default``); mailboxes it finds malformed are skipped, and
    so is a value it cannot parse at all.
    """
    simple = _SIMPLE_MAILBOX.fullmatch(value)
    if simple is not None:  # the common case, answered as the parser would, without it (issue 14)
        return [simple.group("bare") or simple.group("angled")]
    try:
        address_list, _rest = rfc5322.get_address_list(value)
        mailboxes = address_list.mailboxes
        return [
            mailbox.addr_spec
            for mailbox in mailboxes
            if mailbox.local_part and mailbox.domain and mailbox.addr_spec
        ]
    except Exception:  # the parser is lenient; a value it chokes on names nobody
        return []


def first_address(value: str) -> str | None:
    """The first well-formed mailbox address in a raw header value, as written, or ``None``."""
    found = mailbox_addresses(value)
    return found[0] if found else None


def clean_header_text(value: str) -> str:
    """A decoded header value safe to copy into the judge's mail: no control characters."""
    return " ".join(_HEADER_CONTROL.sub(" ", value).split())


def _first_message_id(value: str) -> str | None:
    found = _MESSAGE_ID.search(value)
    if found:
        return found.group(0)
    value = value.strip()
    candidate = f"<{value}>"
    return candidate if value and _MESSAGE_ID.fullmatch(candidate) else None


# --- body ------------------------------------------------------------------


def _body_text(
    message: Message, notes: list[str], problems: list[str], unreadable: list[Unreadable]
) -> str:
    parts = _body_parts(message)
    if not parts:
        attached = [p for p in _leaves(message) if p.get_content_type() == "text/plain"]
        if attached:
            notes.append("no inline text; read the first text/plain attachment")
            parts = attached[:1]
        else:
            problems.append(f"no text part in a {message.get_content_type()} mail")
            unreadable.append(Unreadable.NO_TEXT)
            return ""
    texts = []
    for part in parts:
        kind = part.get_content_type()
        data = _payload_bytes(part, problems)
        if _damaged_encoding(part):
            problems.append(f"damaged {part.get('Content-Transfer-Encoding', '')} in a {kind} part")
            unreadable.append(Unreadable.DAMAGED_ENCODING)
        text, charset_note = decode_bytes(data, _declared_charset(part))
        if charset_note:
            (notes if charset_note.startswith("read") else problems).append(charset_note)
        if kind == "text/html":
            notes.append("converted text/html to plain text")
            text = html_to_text(text)
        else:
            notes.append(f"read {kind}")
        texts.append(text)
    return "\n".join(texts)


def _damaged_encoding(part: Message) -> bool:
    """Whether the part's base64 or quoted-printable was broken (the lenient decoder went on)."""
    if any(isinstance(defect, _BASE64_DEFECTS) for defect in part.defects):
        return True
    encoding = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
    payload = part.get_payload(decode=False)
    return (
        encoding == "quoted-printable"
        and isinstance(payload, str)
        and _BAD_QP_ESCAPE.search(payload) is not None
    )


def _body_parts(part: Message, depth: int = 0) -> list[Message]:
    """The parts that make up the readable body, in order.

    ``multipart/alternative``: the plain-text version if there is one, else
    the HTML. Other multiparts: every inline text part (``related``: only its
    root). Attachments and attached mails (``message/rfc822``) are not body.
    Parts deeper than :data:`MAX_MIME_NESTING` are not looked at.
    """
    if depth > MAX_MIME_NESTING:
        return []
    kind = part.get_content_type()
    if part.is_multipart():
        children = [c for c in part.get_payload() if isinstance(c, Message)]
        if kind == "multipart/alternative":
            options = [_body_parts(c, depth + 1) for c in children]
            for wanted in ("text/plain", "text/html"):
                for option in options:
                    if option and all(p.get_content_type() == wanted for p in option):
                        return option
            return next((option for option in options if option), [])
        if kind == "multipart/related":
            children = children[:1]
        found: list[Message] = []
        for child in children:
            found.extend(_body_parts(child, depth + 1))
        return found
    if kind in ("text/plain", "text/html") and not _is_attachment(part):
        return [part]
    return []


def _leaves(part: Message, depth: int = 0) -> list[Message]:
    if part.get_content_type() == "message/rfc822" or depth > MAX_MIME_NESTING:
        return []
    if part.is_multipart():
        return [
            leaf
            for child in part.get_payload()
            if isinstance(child, Message)
            for leaf in _leaves(child, depth + 1)
        ]
    return [part]


def _is_attachment(part: Message) -> bool:
    disposition = str(part.get("Content-Disposition", "")).split(";")[0].strip().lower()
    return disposition == "attachment"


def _payload_bytes(part: Message, problems: list[str]) -> bytes:
    """The part's bytes with quoted-printable or base64 undone (leniently, as the email package does)."""
    try:
        payload = part.get_payload(decode=True)
    except Exception as error:
        problems.append(f"transfer encoding could not be undone ({error}); read the raw text")
        raw = part.get_payload(decode=False)
        return raw.encode("ascii", "surrogateescape") if isinstance(raw, str) else b""
    if isinstance(payload, bytes):
        return payload
    return b""


def _declared_charset(part: Message) -> str | None:
    try:
        charset = part.get_param("charset")
    except Exception:
        return None
    if isinstance(charset, tuple):  # RFC 2231 form
        charset = charset[2]
    return str(charset).strip().strip('"').lower() or None if charset else None


def decode_bytes(data: bytes, declared: str | None) -> tuple[str, str | None]:
    """Text from ``data`` and, if anything was guessed, a note saying what.

    The declared charset is trusted when the bytes agree with it. Undeclared
    text is tried as UTF-8, then Windows-1252. Unknown or lying labels fall
    back the same way, with replacement characters rather than an error.
    """
    note: str | None = None
    if declared:
        codec = _text_codec(declared)
        if codec is None:
            note = f"unknown charset {declared!r}; guessed"
        else:
            codec = _WIDENED.get(codec, codec)
            try:
                return data.decode(codec), None
            except UnicodeDecodeError:
                note = f"text is not valid {declared}; guessed"
            except Exception:
                note = f"charset {declared!r} cannot be decoded; guessed"
    try:
        text = data.decode("utf-8")
        guessed = "utf-8"
    except UnicodeDecodeError:
        text = data.decode(_FALLBACK, errors="replace")
        guessed = "windows-1252"
    if note is not None:
        return text, f"{note} {guessed}"
    return text, (f"read undeclared 8-bit text as {guessed}" if not data.isascii() else None)


def _text_codec(label: str) -> str | None:
    try:
        info = codecs.lookup(label)
    except (LookupError, ValueError):
        return None
    if not getattr(info, "_is_text_encoding", True):  # e.g. "base64", "rot13"
        return None
    return info.name


def clean_body(text: str, notes: list[str], unreadable: list[Unreadable] | None = None) -> str:
    """Normalise line ends and typing aids; drop the signature, quotes and quoted replies.

    Control characters (NUL...) are removed; lines longer than
    :data:`MAX_LINE_LENGTH` are cut (noted in ``unreadable`` when given).
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_TRANSLATE)
    text = _CONTROL.sub("", text)
    lines = [line.rstrip() for line in text.split("\n")]
    long_lines = [index for index, line in enumerate(lines) if len(line) > MAX_LINE_LENGTH]
    for index in long_lines:
        lines[index] = lines[index][:MAX_LINE_LENGTH]
    if long_lines:
        notes.append(f"cut {len(long_lines)} lines longer than {MAX_LINE_LENGTH} characters")
        if unreadable is not None:
            unreadable.append(Unreadable.LONG_LINES)
    kept: list[str] = []
    quoted = 0
    for index, line in enumerate(lines):
        if is_signature_line(line):
            notes.append(f"dropped the signature ({len(lines) - index} lines)")
            break
        if _ORIGINAL_MESSAGE.match(line) or (
            _OUTLOOK_RULE.match(line) and _next_text_matches(lines, index, _OUTLOOK_FROM)
        ):
            notes.append(f"dropped the quoted earlier mail ({len(lines) - index} lines)")
            break
        if line.lstrip().startswith(">"):
            quoted += 1
            continue
        if _ATTRIBUTION.search(line) and _next_text_is_quote(lines, index):
            quoted += 1
            continue
        kept.append(line)
    if quoted:
        notes.append(f"dropped {quoted} quoted lines")
    first = next((i for i, line in enumerate(kept) if line.strip()), len(kept))
    last = max((i for i, line in enumerate(kept) if line.strip()), default=-1)
    kept = kept[first : last + 1]
    return "\n".join(kept) + "\n" if kept else ""


def _next_text_is_quote(lines: list[str], index: int) -> bool:
    following = next((line for line in lines[index + 1 :] if line.strip()), "")
    return following.lstrip().startswith(">")


def _next_text_matches(lines: list[str], index: int, pattern: re.Pattern[str]) -> bool:
    following = next((line for line in lines[index + 1 :] if line.strip()), "")
    return bool(pattern.match(following))
