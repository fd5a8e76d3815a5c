"""How many order submissions per second the repository layer stores, on each engine.

Not a test: it prints figures. Each submission is what a player's order mail
costs the database: one unit of work that finds the game and the seat, stores
a new version of the orders (superseding the previous one) and commits — on
SQLite a durable WAL commit, on PostgreSQL a committed transaction. A second
figure stores many submissions per transaction, to show what the commit
itself costs.

    .venv/bin/python benchmarks/bench_repository.py
    .venv/bin/python benchmarks/bench_repository.py --postgres-url postgresql+psycopg://postgres@127.0.0.1:5432/test

PostgreSQL runs when --postgres-url or JUDGE_TEST_POSTGRES_URL is given; a
throwaway database is created on that server and dropped afterwards.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from argon2 import PasswordHasher
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from judge.db import Database
from judge.db.migrate import upgrade
from judge.db.passwords import PasswordHashing
from judge.db.repositories import Registration

POWERS = "AEFGIRT"
ORDERS = ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]
T0 = datetime(2024, 1, 1, tzinfo=UTC)
CHEAP = PasswordHashing(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))


@contextmanager
def sqlite_url() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as directory:
        yield f"sqlite:///{Path(directory) / 'bench.sqlite3'}"


@contextmanager
def postgres_url(server: str) -> Iterator[str]:
    url = make_url(server)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    name = f"judge_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


def prepare(db: Database) -> None:
    with db.unit_of_work() as uow:
        game = uow.games.create("bench", T0)
        for letter in POWERS:
            who = uow.people.register(Registration(name=letter), f"{letter}@example.org", T0)
            uow.seats.join(game, who, "pw", T0, power=letter)


def one_per_transaction(db: Database, count: int) -> float:
    """Submissions per second, one unit of work (one commit) each."""
    start = time.perf_counter()
    for n in range(count):
        with db.unit_of_work() as uow:
            game = uow.games.require("bench")
            seat = uow.seats.by_power(game, POWERS[n % len(POWERS)])
            assert seat is not None
            uow.orders.submit(
                game, seat, "S1901M", "\n".join(ORDERS).lower(), ORDERS, T0 + timedelta(seconds=n)
            )
    return count / (time.perf_counter() - start)


def batched(db: Database, count: int, batch: int) -> float:
    """Submissions per second, ``batch`` of them per unit of work."""
    start = time.perf_counter()
    done = 0
    while done < count:
        with db.unit_of_work() as uow:
            game = uow.games.require("bench")
            seats = {s.power: s for s in game.seats}
            for n in range(done, min(count, done + batch)):
                seat = seats[POWERS[n % len(POWERS)]]
                uow.orders.submit(
                    game,
                    seat,
                    "F1901M",
                    "\n".join(ORDERS).lower(),
                    ORDERS,
                    T0 + timedelta(seconds=n),
                )
        done += batch
    return count / (time.perf_counter() - start)


def run(engine: str, url: str, count: int, batch: int) -> None:
    upgrade(url)
    db = Database(url, passwords=CHEAP)
    try:
        prepare(db)
        one_per_transaction(db, min(50, count))  # warm-up: connections, statement caches
        single = one_per_transaction(db, count)
        many = batched(db, count, batch)
        print(
            f"{engine:<11} {single:>10.0f} submissions/s (1 per transaction)   {many:>10.0f} submissions/s ({batch} per transaction)"
        )
    finally:
        db.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="submissions per measurement")
    parser.add_argument(
        "--batch", type=int, default=100, help="submissions per transaction in the batched run"
    )
    parser.add_argument("--postgres-url", default=os.environ.get("JUDGE_TEST_POSTGRES_URL", ""))
    args = parser.parse_args()
    print(f"order submissions stored by the repository layer ({args.count} per run)")
    with sqlite_url() as url:
        run("sqlite", url, args.count, args.batch)
    if args.postgres_url:
        with postgres_url(args.postgres_url) as url:
            run("postgresql", url, args.count, args.batch)
    else:
        print("postgresql  (skipped: give --postgres-url or set JUDGE_TEST_POSTGRES_URL)")


if __name__ == "__main__":
    main()
