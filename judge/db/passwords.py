"""Game passwords, hashed with argon2id (memory-hard), never kept or logged in clear.

The Judge's passwords guard seats, masters and observers. Only the hash is
stored; verifying reports whether the hash should be upgraded (parameters
changed since it was made) so callers can re-hash on a successful sign-on.
Passwords are compared exactly: any case folding the Judge's conventions call
for is the caller's decision, made before calling here.

The costs (:data:`JUDGE_HASHER`) are OWASP's first recommended argon2id
profile: 19 MiB of memory, 2 passes, 1 lane. That is memory-hard enough that
an attacker holding a stolen database pays for every guess in memory as well
as time, while a sign-on costs tens of milliseconds rather than the half
second or more of argon2-cffi's default (RFC 9106 "low memory": 64 MiB,
3 passes, 4 lanes) on a busy machine, which every order mail pays (each
starts with a SIGNON, verified while the mail's transaction is open).
Hashes made with other parameters (the older default included) still verify,
and :meth:`PasswordHashing.needs_rehash` says they should be re-made, which
the repositories do on the next successful sign-on.

Verification also remembers, in this process only, which (stored hash,
password) pairs it has already found to match (:class:`VerifiedPasswords`),
so a player's tenth order mail of the day does not pay argon2 again. Why
that is sound:

* it is exact: argon2 verification is a pure function of the stored hash
  (which embeds salt and parameters) and the password, so a remembered
  success is the answer argon2 would give again. Changing a password makes a
  new hash, which is not in the cache; only successes are remembered, so a
  wrong password always pays the full argon2 cost;
* passwords are never kept: the key is an HMAC-SHA256 of the password under
  a random key drawn when the process starts and kept only in its memory,
  so the cache, if it ever leaked without that key, reveals nothing, and
  nothing is ever written to disk or logged;
* with the key too (the whole process memory), an attacker could test
  guesses at HMAC speed against the remembered entries only; but such an
  attacker already reads every password in clear as it arrives, since a
  SIGNON mail carries it and the mail is in memory (and in the inbound
  queue). The cache adds no exposure beyond that;
* it is bounded (least recently used entries go first).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

JUDGE_TIME_COST = 2
JUDGE_MEMORY_COST_KIB = 19 * 1024
JUDGE_PARALLELISM = 1
VERIFIED_CACHE_SIZE = 4096
"""Remembered successful verifications per process (a few hundred bytes each)."""


def judge_hasher() -> PasswordHasher:
    """argon2id with the judge's costs (OWASP: m=19 MiB, t=2, p=1)."""
    return PasswordHasher(
        time_cost=JUDGE_TIME_COST, memory_cost=JUDGE_MEMORY_COST_KIB, parallelism=JUDGE_PARALLELISM
    )


class VerifiedPasswords:
    """Successful verifications this process has made: (stored hash, keyed digest of the password).

    Thread-safe: the SMTP door, the worker and the scheduler share one.
    """

    def __init__(self, size: int = VERIFIED_CACHE_SIZE) -> None:
        self._size = size
        self._key = secrets.token_bytes(32)
        self._entries: OrderedDict[tuple[str, bytes], None] = OrderedDict()
        self._lock = threading.Lock()

    def _entry(self, password_hash: str, password: str) -> tuple[str, bytes]:
        digest = hmac.new(self._key, password.encode("utf-8", "surrogatepass"), hashlib.sha256)
        return password_hash, digest.digest()

    def known(self, password_hash: str, password: str) -> bool:
        entry = self._entry(password_hash, password)
        with self._lock:
            if entry not in self._entries:
                return False
            self._entries.move_to_end(entry)
            return True

    def remember(self, password_hash: str, password: str) -> None:
        if self._size <= 0:
            return
        entry = self._entry(password_hash, password)
        with self._lock:
            self._entries[entry] = None
            self._entries.move_to_end(entry)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


@dataclass(frozen=True)
class PasswordHashing:
    """An argon2id hasher with chosen costs, and the successes it remembers (see the module)."""

    hasher: PasswordHasher = field(default_factory=judge_hasher)
    verified: VerifiedPasswords = field(default_factory=VerifiedPasswords, compare=False, repr=False)

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, password_hash: str, password: str) -> bool:
        """True if ``password`` matches; False for a wrong password or an unreadable hash."""
        if self.verified.known(password_hash, password):
            return True
        try:
            ok = self.hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        if ok:
            self.verified.remember(password_hash, password)
        return ok

    def needs_rehash(self, password_hash: str) -> bool:
        """True when the hash was made with other costs than this hasher's (or is unreadable)."""
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
