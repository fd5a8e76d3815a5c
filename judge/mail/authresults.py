"""The operator's own MTA's verdict on a mail: SPF, DKIM and DMARC from its ``Authentication-Results``.

RFC 8601: the receiving MTA (Postfix with OpenDKIM/OpenDMARC, or rspamd) adds
``Authentication-Results: <authserv-id>; spf=pass ...; dkim=pass ...; dmarc=pass
...`` on top of the mail. Anybody can write such a header into a mail they send,
so the judge reads only the topmost one, and only when it names the operator's
own MTA (``authserv_id``): a sender's header lies below the MTA's and is never
read; a mail whose topmost header is not the MTA's has no verdict. Pure, bounded:
a header over :data:`MAX_CHARS` characters is cut before it is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesHeaderParser
from email.policy import compat32

MAX_CHARS = 4000
_METHODS = ("spf", "dkim", "dmarc")
_RESULT = re.compile(r"(?:^|;)\s*(spf|dkim|dmarc)\s*=\s*([a-z]+)", re.IGNORECASE)
_COMMENT = re.compile(r"\([^()]*\)")


@dataclass(frozen=True)
class AuthResults:
    """The MTA's results, each ``pass``, ``fail``, ``none``... or None when it gave none."""

    authserv_id: str
    spf: str | None
    dkim: str | None
    dmarc: str | None

    def __str__(self) -> str:
        shown = " ".join(f"{name}={getattr(self, name) or '-'}" for name in _METHODS)
        return f"{shown} (by {self.authserv_id})"


def read_auth_results(message: Message, authserv_id: str) -> AuthResults | None:
    """The topmost ``Authentication-Results`` of ``message`` when its authserv-id is
    ``authserv_id`` (case-insensitive), read; None otherwise (or when ``authserv_id`` is empty)."""
    if not authserv_id:
        return None
    values = message.get_all("Authentication-Results") or []
    if not values:
        return None
    text = " ".join(str(values[0])[:MAX_CHARS].split())
    text = _COMMENT.sub("", _COMMENT.sub("", text))  # comments, nested once
    server, _, rest = text.partition(";")
    words = server.split()  # the authserv-id, and maybe a version number
    if not words or words[0].lower() != authserv_id.strip().lower():
        return None
    found: dict[str, str] = {}
    for method, result in _RESULT.findall(";" + rest):
        found.setdefault(method.lower(), result.lower())  # the first result of each method
    return AuthResults(authserv_id.strip().lower(), found.get("spf"), found.get("dkim"), found.get("dmarc"))


def auth_results_of(raw: bytes, authserv_id: str) -> AuthResults | None:
    """:func:`read_auth_results` of a stored mail's headers (the body is not parsed)."""
    if not authserv_id:
        return None
    return read_auth_results(BytesHeaderParser(policy=compat32).parsebytes(raw, headersonly=True), authserv_id)
