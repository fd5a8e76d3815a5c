"""How long the judge takes to answer a master's mails (not a test: it prints figures).

Each figure is one mail stored as the SMTP door stores it, then processed by
the worker (parse, handler, Parameter Change or other announcements rendered
into the outbox, reply, commit), on a fresh SQLite database with a started
seven-player moderated game, times in ms. ``SIGNON M`` alone is the
baseline: what a master's mail costs before its command does anything.

    .venv/bin/python benchmarks/bench_masters.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.app.session.services import Services
from judge.config import load_config
from judge.db.database import open_database
from judge.timekeeping.clock import FakeClock
from tests.app.conftest import Harness
from tests.app.masters_helpers import MASTER, MASTER_PASSWORD, as_power, moderated_game
from tests.conftest import TEST_PASSWORDS

SIGNON = f"SIGNON Mmodo {MASTER_PASSWORD}\n"


def timed(harness: Harness, label: str, bodies: list[str]) -> None:
    times: list[float] = []
    for body in bodies:
        harness.send(MASTER, SIGNON + body)
        start = time.perf_counter()
        harness.drain()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    count = len(times)
    print(f"{label:<46} n={count:4d}  median {statistics.median(times):7.2f} ms"
          f"  p90 {times[int(count * 0.9)]:7.2f} ms")


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    url = f"sqlite:///{folder}/bench.db"
    database = open_database(url, passwords=TEST_PASSWORDS)
    clock = FakeClock(datetime(2026, 11, 23, 9, 0, tzinfo=UTC))
    config = load_config({
        "JUDGE_ADDRESS": "judge@example.org", "JUDGE_CODE": "XPY", "JUDGE_ADMIN": "keeper@example.org",
        "JUDGE_DATA_DIR": str(folder), "JUDGE_DATABASE_URL": url, "JUDGE_RATE_LIMIT_MESSAGES": "0",
    })  # fmt: skip
    harness = Harness(Services(db=database, config=config, clock=clock), clock)
    moderated_game(harness)
    as_power(harness, "FRANCE", "A PAR-BUR\nA MAR-SPA\nF BRE-MAO\n")
    timed(harness, "SIGNON M (baseline)", [""] * 50)
    timed(harness, "SET NMR / SET NO NMR (announced)", ["SET NMR\n", "SET NO NMR\n"] * 50)
    timed(harness, "SET NMR, GREY / NO NMR, WHITE (one mail, 2)",
          ["SET NMR, GREY\n", "SET NO NMR, WHITE\n"] * 50)
    timed(harness, "BECOME F + SET WAIT (copy to the player)", ["BECOME F\nSET WAIT\n"] * 50)
    timed(harness, "PREDICT (processing run and rolled back)", ["PREDICT\n"] * 50)
    rollbacks: list[float] = []
    for _ in range(30):
        harness.send(MASTER, SIGNON + "PROCESS\n")
        harness.drain()
        harness.send(MASTER, SIGNON + "ROLLBACK 1\n")
        start = time.perf_counter()
        harness.drain()
        rollbacks.append((time.perf_counter() - start) * 1000)
    rollbacks.sort()
    print(f"{'ROLLBACK 1 (after a PROCESS, orders restored)':<46} n={len(rollbacks):4d}  "
          f"median {statistics.median(rollbacks):7.2f} ms  p90 {rollbacks[int(len(rollbacks) * 0.9)]:7.2f} ms")
    database.dispose()


if __name__ == "__main__":
    main()
