"""Fixtures: a whole judge started in-process on a free loopback port, with a capture relay.

``judge`` starts the real server (SMTP door, worker, outbound sender, and the
scheduler once it exists) on a fresh database: SQLite, and PostgreSQL too when
``JUDGE_TEST_POSTGRES_URL`` is set (the ``database`` fixture of tests/conftest.py).
Its relay is an aiosmtpd server in the test. ``judge_factory`` lets a test
change settings (a small size limit) before the server starts.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from judge.app.runtime.judge_server import (
    ALL_ROLES,
    JudgeServer,
    Role,
    ServerTuning,
    build_services,
)
from judge.config import load_config
from judge.db.database import Database
from judge.mail.outbound import BackoffPolicy
from tests.e2e.harness import ADMIN, CODE, JUDGE, CaptureRelay, E2EJudge, LoopThread, OffsetClock

# Quick enough that a relay coming back is noticed within a second or two.
E2E_TUNING = ServerTuning(
    worker_poll_seconds=0.5,
    outbound_poll_seconds=0.2,
    scheduler_poll_seconds=0.5,
    backoff=BackoffPolicy(
        base=timedelta(seconds=0.3), factor=1.5, max_delay=timedelta(seconds=1), jitter=0.1
    ),
    shutdown_grace_seconds=10,
)


@pytest.fixture
def loop_thread() -> Iterator[LoopThread]:
    thread = LoopThread()
    try:
        yield thread
    finally:
        thread.close()


@pytest.fixture
def relay(loop_thread: LoopThread) -> Iterator[CaptureRelay]:
    capture = CaptureRelay(loop_thread)
    capture.start()
    try:
        yield capture
    finally:
        capture.stop()


JudgeFactory = Callable[..., E2EJudge]


@pytest.fixture
def judge_factory(
    database: Database, relay: CaptureRelay, loop_thread: LoopThread, tmp_path: Path
) -> Iterator[JudgeFactory]:
    """``judge_factory(JUDGE_MAX_MESSAGE_SIZE="2048")`` starts a judge with those settings on top;
    ``roles=`` starts only some roles (several judges then share the database)."""
    started: list[JudgeServer] = []

    def start(roles: Collection[Role] = ALL_ROLES, **settings: str) -> E2EJudge:
        env = {
            "JUDGE_ADDRESS": JUDGE,
            "JUDGE_ADMIN": ADMIN,
            "JUDGE_CODE": CODE,
            "JUDGE_DATA_DIR": str(tmp_path / "data"),
            "JUDGE_DATABASE_URL": database.url,
            "JUDGE_RELAY": relay.url,
            "JUDGE_SMTP_HOST": "127.0.0.1",
            "JUDGE_SMTP_PORT": "0",
            "JUDGE_WEB_PORT": "0",  # the pages: tests/web
            "JUDGE_RATE_LIMIT_MESSAGES": "0",
            # The games' fixtures use short passwords (pw0); the rules: tests/app/test_password_rules.py.
            "JUDGE_PASSWORD_MIN_LENGTH": "1",
            "JUDGE_PASSWORD_COMMON_REFUSED": "0",
            **settings,
        }
        clock = OffsetClock()
        services = build_services(load_config(env), database, clock)
        server = JudgeServer(services, roles=roles, tuning=E2E_TUNING)
        loop_thread.run(server.start())
        started.append(server)
        return E2EJudge(server, relay, database, clock)

    yield start
    for server in started:
        loop_thread.run(server.stop())


@pytest.fixture
def judge(judge_factory: JudgeFactory) -> E2EJudge:
    """A running judge with the test settings (judge@example.org, code XPY, no rate limit)."""
    return judge_factory()
