"""A mail that kills the worker's process is quarantined after three restarts, for real.

Each run is a new Python process that works through the queue; processing
the poisoned mail ends the process at once (``os._exit``: no exception, no
clean-up, as a segfault or the OOM killer would). Its attempt was committed
before processing, so the restarts count it, and the fourth start sets it
aside instead of dying again. Other senders' mail is answered meanwhile.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from judge.app.mail_in.worker import CLAIM_LEASE
from judge.db.enums import InboundState
from tests.app.conftest import JUDGE, Harness

WORKER_RUN = """
import os, sys
from datetime import datetime
from judge.app.mail_in import worker
from judge.app.session.services import Services
from judge.config import load_config
from judge.db import Database
from judge.timekeeping.clock import FakeClock

url, now = sys.argv[1], datetime.fromisoformat(sys.argv[2])
real = worker.run_commands

def dies_on_poison(session, parsed):
    if session.decoded.subject == "poison":
        os._exit(9)
    real(session, parsed)

worker.run_commands = dies_on_poison
config = load_config({"JUDGE_ADDRESS": "judge@example.org", "JUDGE_ADMIN": "keeper@example.org",
                      "JUDGE_DATABASE_URL": url, "JUDGE_DATA_DIR": sys.argv[3],
                      "JUDGE_RATE_LIMIT_MESSAGES": "0"})
database = Database(url)
services = Services(db=database, config=config, clock=FakeClock(now))
while worker.process_next_mail(services):
    pass
database.dispose()
"""


def _run(harness: Harness, tmp_path: Path, offset: timedelta) -> int:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", WORKER_RUN, harness.db.url, (harness.clock.now() + offset).isoformat(),
         str(tmp_path)],
        cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, timeout=120, check=False,
        capture_output=True,
    )
    assert done.returncode in (0, 9), done.stderr.decode(errors="replace")
    return done.returncode


def _states(harness: Harness, *ids: int) -> list[tuple[InboundState, int]]:
    with harness.db.unit_of_work(readonly=True) as uow:
        return [(uow.mail_in.get(i).state, uow.mail_in.get(i).attempts) for i in ids]


def test_a_mail_that_kills_the_process_is_quarantined_after_three_restarts(
    harness: Harness, tmp_path: Path
) -> None:
    poison = harness.send("ann@example.net", "VERSION\n", subject="poison")
    later = harness.send("ann@example.net", "VERSION\n", subject="later")
    bob = harness.send("bob@example.net", "VERSION\n")
    lease = CLAIM_LEASE + timedelta(seconds=1)

    assert _run(harness, tmp_path, timedelta(0)) == 9
    assert _states(harness, poison) == [(InboundState.RECEIVED, 1)]
    assert _run(harness, tmp_path, timedelta(0)) == 0  # the poison is held: others are answered
    assert _states(harness, later, bob) == [(InboundState.RECEIVED, 0), (InboundState.PROCESSED, 1)]
    assert _run(harness, tmp_path, lease) == 9
    assert _run(harness, tmp_path, 2 * lease) == 9
    assert _states(harness, poison) == [(InboundState.RECEIVED, 3)]
    assert _run(harness, tmp_path, 3 * lease) == 0  # the fourth start sets it aside
    assert _states(harness, poison, later) == [
        (InboundState.QUARANTINED, 3), (InboundState.PROCESSED, 1)
    ]
    to = sorted(str(m["To"]) for m in harness.new_mail())
    assert to == ["ann@example.net", "ann@example.net", "bob@example.net", "keeper@example.org"]
    assert JUDGE not in to
