"""Worker CPU and SQL statements per order mail (issue 14; not a test: it prints figures).

The typical order mail (SIGNON, 17 orders, SIGNOFF) from a power holding 17 units in a
started Standard game, stored as the SMTP door stores it, then processed by the worker
(claim, parse, sign-on, orders checked and stored, reply queued, two commits), on a fresh
SQLite database with durable commits. Printed: the worker's CPU time per mail
(``time.process_time``, so the wait for the disk is not in it), the median of ``--batches``
batches, and the statements of one mail (BEGINs apart; ``tests/app/test_statement_budget.py``
holds them to the budget). Goal: at most 4 ms of CPU and 10 statements.

    .venv/bin/python benchmarks/bench_order_mail.py [--mails 200] [--batches 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import event

from judge.app.game_state.boards import opening_position
from judge.app.session.services import Services
from judge.config import load_config
from judge.core.variants import load_map
from judge.db.database import open_database
from judge.timekeeping.clock import FakeClock
from tests.app.conftest import Harness
from tests.app.orders_helpers import address, start_game
from tests.conftest import TEST_PASSWORDS

POWER = "RUSSIA"
UNITS = 17


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--mails", type=int, default=200)
    parser.add_argument("--batches", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    url = f"sqlite:///{folder}/bench.db"
    database = open_database(url, passwords=TEST_PASSWORDS)
    clock = FakeClock(datetime(2026, 11, 23, 9, 0, tzinfo=UTC))
    config = load_config({
        "JUDGE_ADDRESS": "judge@example.org", "JUDGE_CODE": "XPY", "JUDGE_ADMIN": "keeper@example.org",
        "JUDGE_DATA_DIR": str(folder), "JUDGE_DATABASE_URL": url, "JUDGE_RATE_LIMIT_MESSAGES": "0",
    })  # fmt: skip
    harness = Harness(Services(db=database, config=config, clock=clock), clock)
    opening = opening_position(load_map("standard"))
    others = [unit for unit in opening.units if unit.power != POWER]
    units = tuple(replace(unit, power=POWER) for unit in others[:UNITS]) + tuple(others[UNITS:])
    game = start_game(harness, position=replace(opening, units=units))
    orders = "".join(f"{unit} H\n" for unit in units if unit.power == POWER)
    body = game.signon(POWER) + orders + "SIGNOFF\n"
    sender = address(POWER)

    statements: list[str] = []
    harness.send(sender, body)
    listener = lambda *a: statements.append(a[2])  # noqa: E731
    event.listen(database.engine, "before_cursor_execute", listener)
    harness.drain()
    event.remove(database.engine, "before_cursor_execute", listener)
    counted = [s for s in statements if not s.upper().startswith("BEGIN")]
    counted = counted[: len(counted) - 1]  # the last: the look for a next mail, which found none

    per_batch = max(1, args.mails // args.batches)
    samples: list[float] = []
    for _ in range(args.batches):
        for _ in range(per_batch):
            harness.send(sender, body)
        started = time.process_time()
        harness.drain()
        samples.append((time.process_time() - started) / per_batch * 1000)
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(f"statements per order mail: {len(counted)}")
    print(f"worker CPU per order mail: {statistics.median(samples):.2f} ms "
          f"(median of {args.batches} batches of {per_batch}: {', '.join(f'{s:.2f}' for s in samples)})")


if __name__ == "__main__":
    main()
