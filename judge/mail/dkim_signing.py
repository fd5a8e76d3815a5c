"""The judge's own DKIM signature, for an operator whose relay does not sign (issue 30).

Behind Postfix the MTA signs (OpenDKIM, deploy/postfix and the operator's
guide); a judge that relays through a server that does not sign can sign each
mail itself with :mod:`dkim` (dkimpy): ``dkim_key_file`` (an RSA key in PEM),
``dkim_selector`` and ``dkim_domain`` (the judge's domain by default). The mail
is signed as it goes out, after the results' map is attached, so the signature
covers the bytes the relay gets; the headers signed are those the judge writes
(:data:`SIGNED_HEADERS`), each named twice in the signature ("oversigned"): the
judge writes each once, so a second one added on the way (a forged Subject above
the judge's) breaks the signature, and so does one the judge did not write.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import dkim

from judge.config import Config

SIGNED_HEADERS = (
    b"from", b"to", b"subject", b"date", b"message-id", b"in-reply-to", b"references", b"mime-version",
    b"content-type", b"content-transfer-encoding", b"auto-submitted", b"list-id", b"list-unsubscribe",
    b"list-unsubscribe-post", b"x-judge",
)  # fmt: skip


class DkimKeyError(ValueError):
    """The configured key cannot be used (missing, unreadable, not a PEM private key)."""


@dataclass(frozen=True)
class DkimSigner:
    """Signs whole messages with one key, selector and domain."""

    selector: str
    domain: str
    key: bytes = field(repr=False)

    def sign(self, message: bytes) -> bytes:
        """``message`` with a ``DKIM-Signature`` header on top (relaxed/relaxed, rsa-sha256)."""
        signature = dkim.sign(
            message, self.selector.encode("ascii"), self.domain.encode("ascii"), self.key,
            canonicalize=(b"relaxed", b"relaxed"), include_headers=[*SIGNED_HEADERS, *SIGNED_HEADERS], linesep=b"\r\n",
        )  # fmt: skip
        return bytes(signature) + message


def signer_from_config(config: Config) -> DkimSigner | None:
    """The judge's signer when ``dkim_key_file`` and ``dkim_selector`` are set, else None; the key
    is read and tried once here, so a bad key stops the start rather than every mail."""
    if config.dkim_key_file is None or not config.dkim_selector:
        return None
    signer = DkimSigner(config.dkim_selector, config.dkim_domain or config.domain, _read_key(config.dkim_key_file))
    try:
        signer.sign(b"From: a@b\r\nSubject: test\r\n\r\ntest\r\n")
    except Exception as error:  # dkimpy's errors on a bad key are of several kinds
        raise DkimKeyError(f"{config.dkim_key_file} cannot sign: {error}") from error
    return signer


def _read_key(path: Path) -> bytes:
    try:
        key = path.read_bytes()
    except OSError as error:
        raise DkimKeyError(f"{path} cannot be read: {error.strerror}") from error
    if b"PRIVATE KEY-----" not in key:
        raise DkimKeyError(f"{path} holds no PEM private key")
    return key
