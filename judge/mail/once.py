"""What makes two deliveries the same mail: the key the judge carries a mail out once by.

A mail server that lost the judge's ``250`` delivers the mail again; so may a player's program.
Two deliveries are the same mail when they have the same ``Message-ID``, the same envelope
sender and the same body (the headers a server adds on the way, ``Received:``, may differ);
a mail without a ``Message-ID`` is the same only as the very same bytes. The key is read from
the raw bytes as the door stored them, without decoding (every stored mail gets one, however
broken): a SHA-256, so the key says nothing of the mail.
"""

from __future__ import annotations

import hashlib
import re

_HEADER_END = re.compile(rb"\r?\n\r?\n")
_MESSAGE_ID = re.compile(rb"^message-id[ \t]*:(?P<value>.*(?:\r?\n[ \t].*)*)", re.I | re.M)


def once_key(raw: bytes, envelope_sender: str) -> str:
    """The key of ``raw`` received from ``envelope_sender`` (64 hex digits)."""
    end = _HEADER_END.search(raw)
    head, body = (raw[: end.start()], raw[end.end() :]) if end else (raw, b"")
    found = _MESSAGE_ID.search(head)
    message_id = b" ".join(found.group("value").split()) if found else b""
    digest = hashlib.sha256()
    if message_id:
        sender = envelope_sender.strip().lower().encode("utf-8", "surrogateescape")
        for part in (b"message-id", message_id, sender, body):
            digest.update(len(part).to_bytes(8, "big") + part)
    else:
        digest.update(b"raw" + raw)
    return digest.hexdigest()
