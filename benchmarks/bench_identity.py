"""How long the judge takes to answer identity and information mails (not a test: it prints figures).

Each figure is one mail stored as the SMTP door stores it, then processed by
the worker (parse, handler, reply rendered into the outbox, commit), on a
fresh SQLite database with a started seven-player game, times in ms. VERSION
is the baseline: what any mail costs before its command does anything.

    .venv/bin/python benchmarks/bench_identity.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.app.session.services import Services
from judge.config import load_config
from judge.db.database import open_database
from judge.timekeeping.clock import FakeClock
from tests.app.conftest import Harness
from tests.app.games_helpers import form_game
from tests.conftest import TEST_PASSWORDS


def timed(harness: Harness, label: str, body: Callable[[int], str], count: int,
          sender: Callable[[int], str]) -> None:
    times: list[float] = []
    for n in range(count):
        harness.send(sender(n), body(n))
        start = time.perf_counter()
        harness.drain()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(f"{label:<40} n={count:4d}  median {statistics.median(times):6.2f} ms"
          f"  p90 {times[int(count * 0.9)]:6.2f} ms")


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
    form_game(harness, "demo")
    asker: Callable[[int], str] = lambda n: "asker@example.net"  # noqa: E731
    timed(harness, "VERSION (baseline)", lambda n: "VERSION\n", 100, asker)
    timed(harness, "REGISTER (a new person each time)",
          lambda n: f"REGISTER\nName: P {n}\nCountry: France\nPhone: 1\nEND\n", 300,
          lambda n: f"s{n}@example.net")
    timed(harness, "WHOIS s1 (20 of 300 match)", lambda n: "WHOIS s1\n", 100, asker)
    timed(harness, "INFOPLAYER", lambda n: "INFOPLAYER s5@example.net\n", 100, asker)
    timed(harness, "LIST (brief)", lambda n: "LIST\n", 100, lambda n: "p1@example.net")
    timed(harness, "LIST demo (report of a started game)", lambda n: "LIST demo\n", 100, asker)
    timed(harness, "GET info syntax", lambda n: "GET info syntax\n", 100, asker)
    database.dispose()


if __name__ == "__main__":
    main()
