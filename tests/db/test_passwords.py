"""Passwords are argon2id hashes: never the password, salted, verifiable, upgradable."""

from __future__ import annotations

from typing import Literal

from argon2 import PasswordHasher
from sqlalchemy import text

from judge.db import Database
from judge.db.passwords import (
    PasswordHashing,
    VerifiedPasswords,
    hash_password,
    needs_rehash,
    verify_password,
)
from tests.db.helpers import T0, person


def test_hash_is_argon2id_salted_and_verifies() -> None:
    first, second = hash_password("Secret1"), hash_password("Secret1")
    assert first.startswith("$argon2id$") and "Secret1" not in first
    assert first != second  # salted
    assert verify_password(first, "Secret1") and verify_password(second, "Secret1")
    assert not verify_password(first, "secret1")
    assert not verify_password("not a hash", "Secret1")
    assert not needs_rehash(first) and needs_rehash("not a hash")


def test_stored_value_is_not_the_password(database: Database) -> None:
    with database.unit_of_work() as uow:
        game = uow.games.create("pwgame", T0)
        ann = person(uow)
        uow.seats.join(game, ann, "hunter2", T0, power="F")
        uow.games.add_master(game, ann, "masterpw", T0)
        uow.games.add_observer(game, "obs@example.org", "watchpw", T0)
    with database.engine.connect() as connection:
        stored = [
            *connection.execute(text("SELECT password_hash FROM seats")).scalars(),
            *connection.execute(text("SELECT password_hash FROM game_masters")).scalars(),
            *connection.execute(text("SELECT password_hash FROM game_observers")).scalars(),
        ]
        dump = " ".join(
            str(row)
            for table in ("seats", "game_masters", "game_observers", "audit_events")
            for row in connection.execute(text(f"SELECT * FROM {table}"))
        )
    assert len(stored) == 3 and all(value.startswith("$argon2id$") for value in stored)
    for password in ("hunter2", "masterpw", "watchpw"):
        assert password not in dump


def test_outdated_hashes_are_upgraded_on_successful_sign_on(database_url: str) -> None:
    weak = PasswordHashing(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    strong = PasswordHashing(PasswordHasher(time_cost=2, memory_cost=2048, parallelism=1))
    old_db = Database(database_url, passwords=weak)
    with old_db.unit_of_work() as uow:
        game = uow.games.create("pwgame", T0)
        old_hash = uow.seats.join(game, person(uow), "pw", T0, power="F").password_hash
    old_db.dispose()
    new_db = Database(database_url, passwords=strong)
    with new_db.unit_of_work() as uow:
        seat = uow.seats.by_power(uow.games.require("pwgame"), "F")
        assert seat is not None
        assert not uow.seats.check_password(seat, "wrong") and seat.password_hash == old_hash
        assert uow.seats.check_password(seat, "pw") and seat.password_hash != old_hash
    with new_db.unit_of_work(readonly=True) as uow:
        seat = uow.seats.by_power(uow.games.require("pwgame"), "F")
        assert seat is not None and seat.password_hash is not None
        assert "m=2048" in seat.password_hash
    new_db.dispose()


# --- the judge's costs and the verified-password cache --------------------------------------


class CountingHasher(PasswordHasher):
    """A cheap argon2id hasher that counts the verifications argon2 really does."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.calls = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.calls += 1
        return super().verify(hash, password)


def test_default_costs_are_owasp_argon2id() -> None:
    stored = hash_password("Secret1")
    assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")


def test_hashes_made_with_argon2_cffi_defaults_still_verify_and_are_upgraded() -> None:
    old = PasswordHasher().hash("Secret1")  # RFC 9106 low-memory: m=65536, t=3, p=4
    assert verify_password(old, "Secret1") and not verify_password(old, "Secret2")
    assert needs_rehash(old)


def test_a_repeated_success_skips_argon2_but_a_wrong_password_never_does() -> None:
    hasher = CountingHasher()
    hashing = PasswordHashing(hasher)
    stored = hashing.hash("Secret1")
    assert hashing.verify(stored, "Secret1") and hasher.calls == 1
    assert hashing.verify(stored, "Secret1") and hasher.calls == 1  # remembered
    for _ in range(3):
        assert not hashing.verify(stored, "secret1")
    assert hasher.calls == 4  # failures are never remembered
    other = hashing.hash("Secret1")  # same password, new salt: a new hash, argon2 again
    assert hashing.verify(other, "Secret1") and hasher.calls == 5
    assert not hashing.verify("not a hash", "Secret1")


def test_the_cache_keeps_no_password_and_its_key_is_per_process() -> None:
    first, second = PasswordHashing(CountingHasher()), PasswordHashing(CountingHasher())
    stored = first.hash("hunter2")
    assert first.verify(stored, "hunter2") and second.verify(stored, "hunter2")
    entries = list(first.verified._entries) + list(second.verified._entries)
    assert all(b"hunter2" not in digest and len(digest) == 32 for _hash, digest in entries)
    assert entries[0][1] != entries[1][1]  # different random keys: digests not comparable


def test_the_cache_is_bounded_least_recently_used_first() -> None:
    hasher = CountingHasher()
    hashing = PasswordHashing(hasher, VerifiedPasswords(size=2))
    hashes = {password: hashing.hash(password) for password in ("a1", "b2", "c3")}
    for password in ("a1", "b2", "a1", "c3"):  # b2 is now the least recently used
        hashing.verify(hashes[password], password)
    assert len(hashing.verified) == 2 and hasher.calls == 3
    hashing.verify(hashes["a1"], "a1")
    assert hasher.calls == 3
    hashing.verify(hashes["b2"], "b2")
    assert hasher.calls == 4
