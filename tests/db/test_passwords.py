"""Passwords are argon2id hashes: never the password, salted, verifiable, upgradable."""

from __future__ import annotations

from argon2 import PasswordHasher
from sqlalchemy import text

from judge.db import Database
from judge.db.passwords import PasswordHashing, hash_password, needs_rehash, verify_password
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
