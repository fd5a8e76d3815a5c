"""Mail addresses as the judge stores, compares and writes them.

Every address that reaches the judge from outside (a ``From`` header, a
REGISTER ``Email:`` line, ``SET ADDRESS``) goes through
:func:`canonical_address` before it is stored or used: one form for lookups,
safe to put in a header, and a precise reason when it cannot be used.

Domains are kept in their ASCII (IDNA, "xn--") form, so ``bücher.example``
and ``xn--bcher-kva.example`` are one address and any relay can carry it. A
non-ASCII local part (``用户@example.org``) is a valid address under RFC
6531 but can only be delivered by a relay that offers SMTPUTF8:
:func:`needs_smtputf8` tells the sender which addresses need it.
"""

from __future__ import annotations

import re
import unicodedata

import idna

MAX_LOCAL_LENGTH = 64  # RFC 5321 §4.5.3.1.1
MAX_DOMAIN_LENGTH = 255
MAX_ADDRESS_LENGTH = 254  # RFC 3696 errata: the longest path a relay must accept, less the <>

# Characters RFC 5322 allows unquoted in a local part (atext and dots), plus any
# non-ASCII letter (RFC 6531). Quoted local parts are refused: nobody plays
# Diplomacy from "john doe"@example.org, and they are a classic injection route.
_LOCAL_ASCII = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0080-\u009f\u2028\u2029\ud800-\udfff]")
"""What :func:`printable` hides: control characters, line separators, and lone surrogates (a
header's bytes that were not UTF-8, kept by the parser as surrogate escapes), which neither a
reply nor a database row can hold."""
_CONTROL_OR_SPACE = re.compile(r"[\s\x00-\x1f\x7f\u0080-\u009f\u2028\u2029\ud800-\udfff]")
"""A control character or a space: ``\\s`` of a str pattern is what ``str.isspace`` calls space."""


class AddressError(ValueError):
    """An address the judge cannot use; ``str()`` is a sentence for the person who gave it."""

    def __init__(self, address: str, reason: str) -> None:
        self.address = address
        self.reason = reason
        super().__init__(f"'{printable(address)}' is not a usable mail address: {reason}.")


def printable(text: str, limit: int = 80) -> str:
    """``text`` with control characters and lone surrogates shown as ``?`` and cut to ``limit``:
    safe to echo, and to store (a loop guard's reason quotes a header that may hold raw bytes)."""
    cleaned = _CONTROL.sub("?", text)
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


def canonical_address(text: str) -> str:
    """The stored form of ``text``: trimmed, no angle brackets, lower case, domain in IDNA.

    Raises :class:`AddressError` with the reason when ``text`` is not one
    plain ``local@domain`` address.
    """
    address = text.strip()
    try:
        address.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: bytes that were not UTF-8
        raise AddressError(text, "it is not valid UTF-8 text") from None
    address = unicodedata.normalize("NFC", address)
    if address.startswith("<") and address.endswith(">"):
        address = address[1:-1].strip()
    if not address:
        raise AddressError(text, "it is empty")
    if _CONTROL_OR_SPACE.search(address):
        raise AddressError(text, "it contains spaces or control characters")
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain:
        raise AddressError(text, "it needs the form name@domain")
    if "@" in local or local.startswith('"'):
        raise AddressError(text, "only one @ and no quoted names are accepted")
    if len(local.encode("utf-8")) > MAX_LOCAL_LENGTH:
        raise AddressError(text, f"the part before the @ is longer than {MAX_LOCAL_LENGTH} bytes")
    if local.startswith(".") or local.endswith(".") or ".." in local:
        raise AddressError(text, "the part before the @ has a misplaced dot")
    if local.isascii() and not _LOCAL_ASCII.match(local):
        raise AddressError(text, "the part before the @ has characters mail does not allow")
    if not local.isascii() and any(c in '"(),:;<>[\\]' for c in local):
        raise AddressError(text, "the part before the @ has characters mail does not allow")
    ascii_domain = ascii_domain_of(domain, original=text)
    result = f"{local.lower()}@{ascii_domain}"
    if len(result.encode("utf-8")) > MAX_ADDRESS_LENGTH:
        raise AddressError(text, f"it is longer than {MAX_ADDRESS_LENGTH} characters")
    return result


def ascii_domain_of(domain: str, *, original: str | None = None) -> str:
    """``domain`` in its ASCII form (IDNA 2008 with UTS 46 mapping), lower case."""
    shown = original if original is not None else domain
    domain = domain.rstrip(".")
    if domain.startswith("[") and domain.endswith("]"):
        raise AddressError(shown, "addresses at an IP literal are not accepted")
    if not domain:
        raise AddressError(shown, "the domain is empty")
    if domain.isascii():
        ascii_form = domain.lower()
    else:
        try:
            ascii_form = idna.encode(domain, uts46=True).decode("ascii").lower()
        except (idna.IDNAError, UnicodeError) as error:
            raise AddressError(shown, "the domain is not a valid international name") from error
    if len(ascii_form) > MAX_DOMAIN_LENGTH:
        raise AddressError(shown, "the domain is too long")
    for label in ascii_form.split("."):
        if not label or len(label) > 63 or label.startswith("-") or label.endswith("-"):
            raise AddressError(shown, "the domain has an empty or malformed part")
        if not re.fullmatch(r"[a-z0-9-]+", label):
            raise AddressError(shown, "the domain has characters a domain name cannot have")
    return ascii_form


def needs_smtputf8(address: str) -> bool:
    """True when ``address`` (canonical) can only travel through a relay offering SMTPUTF8."""
    return not address.isascii()
