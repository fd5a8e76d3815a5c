"""kill -9 during delivery: each reply is sent at most once more than without kills, per kill.

A real ``judge serve --only outbound`` process drains a queue of mails to a slow
capture relay on loopback. The test kills it with SIGKILL while the relay holds
a mail (DATA received, 250 not yet given), twice, restarts it each time, and
counts the deliveries of every message. Before the sender committed each
delivery on its own, a kill resent the whole batch delivered so far.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from email import message_from_bytes
from pathlib import Path

import pytest
from aiosmtpd.smtp import SMTP, Envelope, Session

from judge.app.mail_out import outbox
from judge.app.session.services import Services
from judge.config import load_config
from judge.db.database import Database
from judge.db.enums import OutboundState
from judge.timekeeping.clock import SystemClock
from tests.e2e.harness import LoopThread

MAILS = 24
KILLS = 2
RELAY_DELAY_SECONDS = 0.15
DEADLINE_SECONDS = 60.0


class SlowRelay:
    """Records each message at DATA, then holds the 250 for a while: the window a kill hits."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.holding = threading.Event()
        self._lock = threading.Lock()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        message = message_from_bytes(bytes(envelope.original_content or b""))
        with self._lock:
            self.received.append(str(message["Message-ID"]))
        self.holding.set()
        await asyncio.sleep(RELAY_DELAY_SECONDS)
        self.holding.clear()
        return "250 OK"

    def count(self) -> int:
        with self._lock:
            return len(self.received)


@pytest.fixture
def slow_relay() -> Iterator[tuple[SlowRelay, int]]:
    thread = LoopThread()
    relay = SlowRelay()

    async def start() -> asyncio.Server:
        loop = asyncio.get_running_loop()
        return await loop.create_server(
            lambda: SMTP(relay, hostname="relay.test", loop=loop), "127.0.0.1", 0
        )

    server = thread.run(start())
    try:
        yield relay, int(server.sockets[0].getsockname()[1])
    finally:

        async def stop() -> None:
            server.close()
            await server.wait_closed()

        thread.run(stop())
        thread.close()


def _settings(database: Database, tmp_path: Path, relay_port: int) -> dict[str, str]:
    return {
        "JUDGE_ADDRESS": "judge@example.org",
        "JUDGE_ADMIN": "keeper@example.org",
        "JUDGE_CODE": "XPY",
        "JUDGE_DATA_DIR": str(tmp_path / "data"),
        "JUDGE_DATABASE_URL": database.url,
        "JUDGE_RELAY": f"smtp://127.0.0.1:{relay_port}",
        "JUDGE_OUTBOUND_RETRY_SECONDS": "0.3",
        "JUDGE_LOG_LEVEL": "WARNING",
    }


def _start(settings: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")} | settings
    with log.open("ab") as sink:
        return subprocess.Popen(
            [sys.executable, "-m", "judge.cli", "serve", "--only", "outbound"],
            env=env,
            stdout=sink,
            stderr=sink,
        )


def _wait(condition: object, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def _all_sent(database: Database) -> bool:
    with database.unit_of_work(readonly=True) as uow:
        return uow.outbox.count(OutboundState.SENT) == MAILS


def test_kill_9_while_delivering_resends_at_most_the_mail_in_flight(
    database: Database, tmp_path: Path, slow_relay: tuple[SlowRelay, int]
) -> None:
    relay, port = slow_relay
    settings = _settings(database, tmp_path, port)
    services = Services(db=database, config=load_config(settings), clock=SystemClock())
    now = datetime.now(UTC)
    with database.unit_of_work() as uow:
        for n in range(MAILS):
            outbox.queue(uow, services, [f"p{n}@example.net"], f"mail {n}", f"body {n}\n", now)

    log = tmp_path / "serve.log"
    process = _start(settings, log)
    try:
        for kill in range(KILLS):
            target = (kill + 1) * MAILS // (KILLS + 1)
            _wait(lambda t=target: relay.count() >= t, f"{target} deliveries")  # type: ignore[misc]
            _wait(relay.holding.is_set, "a mail held by the relay")
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=10)
            process = _start(settings, log)
        _wait(lambda: _all_sent(database), "every mail marked sent")
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
    deliveries = Counter(relay.received)
    assert len(deliveries) == MAILS, log.read_text(errors="replace")[-2000:]
    extra = sum(count - 1 for count in deliveries.values())
    assert extra <= KILLS, deliveries.most_common(5)
    assert max(deliveries.values()) <= 1 + KILLS
