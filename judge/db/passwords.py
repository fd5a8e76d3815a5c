"""Game passwords, hashed with argon2id (memory-hard), never kept or logged in clear.

The Judge's passwords guard seats, masters and observers. Only the hash is
stored; verifying reports whether the hash should be upgraded (parameters
raised since it was made) so callers can re-hash on a successful sign-on.
Passwords are compared exactly: any case folding the Judge's conventions call
for is the caller's decision, made before calling here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError


@dataclass(frozen=True)
class PasswordHashing:
    """An argon2id hasher with chosen costs (defaults: argon2-cffi's RFC 9106 profile)."""

    hasher: PasswordHasher = field(default_factory=PasswordHasher)

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, password_hash: str, password: str) -> bool:
        """True if ``password`` matches; False for a wrong password or an unreadable hash."""
        try:
            return self.hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, password_hash: str) -> bool:
        try:
            return self.hasher.check_needs_rehash(password_hash)
        except InvalidHashError:
            return True


DEFAULT_HASHING = PasswordHashing()


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (salted: two calls give two different strings)."""
    return DEFAULT_HASHING.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    return DEFAULT_HASHING.verify(password_hash, password)


def needs_rehash(password_hash: str) -> bool:
    return DEFAULT_HASHING.needs_rehash(password_hash)
