"""VERP: every outgoing mail's envelope sender names that mail and its reader, unforgeably.

A bounce goes back to the envelope sender (``MAIL FROM``), whatever the
bounce's text says. So the judge sends each mail of its outbox (one reader
each, judge.app.mail_out.outbox) from ``<bounce local part><separator><token>@<domain>``
(``judge-bounces+812-k4vd2q7nfe3xw5ha@judge.example``): a bounce that comes back
to that address is tied to outbox mail 812 and its reader without reading the
bounce at all, and whatever a server writes in it (a forwarded address, a
mangled report) cannot tie it to anybody else.

The token is the mail's id and a keyed hash (HMAC-SHA256, cut to 80 bits) of
the id and the reader's address: nobody without the key can make a token for a
mail, nor move a real token onto another address (the hash is checked against
the reader the outbox row was for). The token is lower case letters and digits
only, since some servers change the case of a local part.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from judge.config import BOUNCE_SECRET_FILE, Config
from judge.mail.addresses import AddressError, ascii_domain_of

_MAC_CHARS = 16
"""Base32 characters of the keyed hash kept in a token: 80 bits, beyond guessing by mail."""
_TOKEN = re.compile(rf"^([1-9][0-9]{{0,17}})-([a-z2-7]{{{_MAC_CHARS}}})$")
_UNSUBSCRIBE = re.compile(rf"^u([1-9][0-9]{{0,17}})-([a-z2-7]{{{_MAC_CHARS}}})$")


@dataclass(frozen=True)
class Verp:
    """The judge's bounce address and the key of its tokens."""

    local_part: str
    separator: str
    domain: str
    secret: bytes = field(repr=False)

    @property
    def address(self) -> str:
        """The bare bounce address (no token): where a bounce with no token comes."""
        return f"{self.local_part}@{self.domain}"

    def envelope_sender(self, mail_id: int, reader: str) -> str:
        """The envelope sender of outbox mail ``mail_id`` to ``reader``."""
        return f"{self.local_part}{self.separator}{mail_id}-{self._mac(mail_id, reader)}@{self.domain}"

    def is_bounce_address(self, address: str) -> bool:
        """Whether ``address`` is the bounce address, with or without a token of the right shape
        (what the door accepts; :meth:`token_of` and :meth:`verifies` tell a real token)."""
        local, domain = _split(address)
        if local is None or domain != self.domain.lower():
            return False
        own = self.local_part.lower()
        return local == own or local.startswith(own + self.separator)

    def token_of(self, address: str) -> tuple[int, str] | None:
        """The (mail id, hash) an address to the bounce address carries, or None (no token, or
        not one of the judge's shape)."""
        local, domain = _split(address)
        prefix = self.local_part.lower() + self.separator
        if local is None or domain != self.domain.lower() or not local.startswith(prefix):
            return None
        found = _TOKEN.match(local[len(prefix) :])
        return (int(found.group(1)), found.group(2)) if found is not None else None

    def verifies(self, mail_id: int, reader: str, mac: str) -> bool:
        """Whether ``mac`` is the hash of outbox mail ``mail_id`` to ``reader`` (constant time)."""
        return hmac.compare_digest(self._mac(mail_id, reader), mac.lower())

    def unsubscribe_token(self, observer_id: int, address: str) -> str:
        """The token that stops observer ``observer_id``'s mail (``u<id>-<hash>``), for the
        ``List-Unsubscribe`` of the mail to ``address``: in a mailto to the bounce address, and
        in the web role's one-click address (RFC 8058)."""
        return f"u{observer_id}-{self._mac(observer_id, address, 'unsubscribe1')}"

    def unsubscribe_address(self, observer_id: int, address: str) -> str:
        """The mailto address of :meth:`unsubscribe_token`."""
        return f"{self.local_part}{self.separator}{self.unsubscribe_token(observer_id, address)}@{self.domain}"

    def unsubscribe_of(self, address_or_token: str) -> tuple[int, str] | None:
        """The (observer id, hash) an unsubscribe address or bare token carries, or None."""
        text = address_or_token.strip().strip("<>").strip().lower()
        if "@" in text:
            local, domain = _split(text)
            prefix = self.local_part.lower() + self.separator
            if local is None or domain != self.domain.lower() or not local.startswith(prefix):
                return None
            text = local[len(prefix) :]
        found = _UNSUBSCRIBE.match(text)
        return (int(found.group(1)), found.group(2)) if found is not None else None

    def verifies_unsubscribe(self, observer_id: int, address: str, mac: str) -> bool:
        """Whether ``mac`` is the unsubscribe hash of observer ``observer_id`` at ``address``."""
        return hmac.compare_digest(self._mac(observer_id, address, "unsubscribe1"), mac.lower())

    def _mac(self, number: int, address: str, purpose: str = "verp1") -> str:
        digest = hmac.digest(self.secret, f"{purpose}\0{number}\0{address.strip().lower()}".encode(), hashlib.sha256)
        return base64.b32encode(digest[: _MAC_CHARS * 5 // 8]).decode("ascii").lower()  # 8 characters a 5 bytes


def _split(address: str) -> tuple[str | None, str]:
    text = address.strip().strip("<>").strip().lower()
    local, at, domain = text.rpartition("@")
    if not at or not local or len(local) > 64:
        return None, ""
    return local, domain


def verp_from_config(config: Config) -> Verp:
    """The judge's :class:`Verp`: its bounce address on the judge's domain (in ASCII), and the
    key from the settings or, when none is set, from the data directory (made on first use)."""
    domain = config.domain
    with contextlib.suppress(AddressError):
        domain = ascii_domain_of(domain)
    secret = config.bounce_secret.encode() if config.bounce_secret else stored_secret(config.data_dir)
    return Verp(config.bounce_local, config.verp_separator, domain.lower(), secret)


def stored_secret(data_dir: Path) -> bytes:
    """The key kept in ``data_dir/bounce-secret``, made (32 random bytes, hex, mode 0600) when
    missing; two processes making it at once both read the one that won."""
    path = data_dir / BOUNCE_SECRET_FILE
    try:
        return _read_secret(path)
    except FileNotFoundError:
        pass
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_secret(path)
    with os.fdopen(handle, "w") as file:
        file.write(secrets.token_hex(32) + "\n")
        file.flush()
        os.fsync(file.fileno())
    return _read_secret(path)


def _read_secret(path: Path) -> bytes:
    text = path.read_text(encoding="ascii").strip()
    if len(text) < 16:
        raise ValueError(f"{path} holds no usable key (at least 16 characters); remove it to make a new one")
    return text.encode("ascii")
