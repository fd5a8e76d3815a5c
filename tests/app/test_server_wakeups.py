"""Roles split over processes on PostgreSQL wake each other through the database (issue 14).

Each server below runs some roles only, as a ``judge serve --only ROLE`` process does, with
polls of a minute: a mail answered or sent within seconds proves that the other server's
wake-up (NOTIFY) reached it, since its poll could not have found the work yet.
"""

from __future__ import annotations

import asyncio
import smtplib
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.app.runtime.judge_server import JudgeServer, Role, ServerTuning
from judge.app.session.services import Services
from judge.config import load_config
from judge.db.database import Database
from judge.db.enums import InboundState, OutboundState
from judge.db.wakeups import Channel, PostgresWakeups, wakeups_for
from judge.timekeeping.clock import FakeClock
from tests.app.server_helpers import until
from tests.conftest import TEST_PASSWORDS

JUDGE = "judge@example.org"
SLOW = ServerTuning(worker_poll_seconds=60, outbound_poll_seconds=60, shutdown_grace_seconds=5)
"""Idle roles would look at the database only after a minute."""


class RecordingRelay:
    def __init__(self) -> None:
        self.delivered: list[Sequence[str]] = []

    def deliver(self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None) -> Mapping[str, str]:
        self.delivered.append(list(recipients))
        return {}


@pytest.fixture
def services(postgres_database_url: str, tmp_path: Path) -> Iterator[Services]:
    db = Database(postgres_database_url, passwords=TEST_PASSWORDS)
    config = load_config(
        {
            "JUDGE_ADDRESS": JUDGE,
            "JUDGE_CODE": "XPY",
            "JUDGE_ADMIN": "keeper@example.org",
            "JUDGE_DATA_DIR": str(tmp_path),
            "JUDGE_DATABASE_URL": postgres_database_url,
            "JUDGE_RATE_LIMIT_MESSAGES": "0",
            "JUDGE_SMTP_PORT": "0",
        }
    )
    clock = FakeClock(datetime(2026, 11, 23, 9, 0, tzinfo=UTC))
    try:
        yield Services(db=db, config=config, clock=clock)
    finally:
        db.dispose()


def _processed(db: Database) -> int:
    with db.unit_of_work(readonly=True) as uow:
        return uow.mail_in.count(InboundState.PROCESSED)


def _listening(db: Database, channel: Channel) -> bool:
    """Whether a session of this database has run ``LISTEN channel`` (its last statement while it
    waits): a wake-up sent before that is lost, and only the role's poll would find the work."""
    with db.engine.connect() as connection:
        found = connection.exec_driver_sql(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query = %(listen)s",
            {"listen": f"LISTEN {channel.value}"},
        ).scalar_one()
    return bool(found)


def _looks(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The worker's looks at the queue, each noted once over (whether it found mail): a test
    stores its mail after the first, so only a wake-up or the poll can find it."""
    from judge.app.mail_in import worker

    looks: list[bool] = []
    real = worker.process_waiting_mail

    def looking(*args: object, **kwargs: object) -> bool:
        worked = real(*args, **kwargs)  # type: ignore[arg-type]
        looks.append(worked)
        return worked

    monkeypatch.setattr(worker, "process_waiting_mail", looking)
    return looks


def test_a_mail_at_the_door_wakes_a_worker_in_another_process(services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    looks = _looks(monkeypatch)

    async def run() -> bool:
        async with JudgeServer(services, roles={Role.WORKER}, tuning=SLOW):
            assert await until(lambda: looks == [False], 30)  # the worker has looked once and found nothing
            assert await until(lambda: _listening(services.db, Channel.MAIL_IN), 15)  # and listens
            async with JudgeServer(services, roles={Role.INBOUND}, tuning=SLOW) as door:
                message = f"From: p@example.net\r\nTo: {JUDGE}\r\nSubject: v\r\n\r\nVERSION\r\n"
                await asyncio.to_thread(_send, door.port, message)
                return await until(lambda: _processed(services.db) == 1, 15)

    assert asyncio.run(run())


def test_a_reply_queued_by_a_worker_wakes_a_sender_in_another_process(services: Services) -> None:
    relay = RecordingRelay()

    async def run() -> bool:
        async with JudgeServer(services, roles={Role.OUTBOUND}, relay=relay, tuning=SLOW):
            await asyncio.sleep(0.5)  # the sender has looked once and found nothing: it sleeps
            assert await until(lambda: _listening(services.db, Channel.OUTBOX), 15)  # and listens
            async with JudgeServer(services, roles={Role.WORKER}, tuning=SLOW):
                services.db.store_inbound_mail(
                    f"From: p@example.net\r\nTo: {JUDGE}\r\nSubject: v\r\n\r\nVERSION\r\n".encode(),
                    "p@example.net",
                    [JUDGE],
                    services.clock.now(),
                )
                # the worker would find it only at its next poll: wake it as a door would, once it listens
                assert await until(lambda: _listening(services.db, Channel.MAIL_IN), 15)
                waker = wakeups_for(services.db.engine)
                assert waker is not None
                waker.announce(Channel.MAIL_IN)
                waker.close()
                return await until(lambda: relay.delivered == [["p@example.net"]], 15)

    assert asyncio.run(run())
    with services.db.unit_of_work(readonly=True) as uow:
        assert uow.outbox.count(OutboundState.PENDING) == 0


def test_without_a_wake_up_a_split_role_waits_for_its_poll(services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: the same worker, told nothing, does not answer within the same time."""
    looks = _looks(monkeypatch)

    async def run() -> bool:
        async with JudgeServer(services, roles={Role.WORKER}, tuning=SLOW):
            assert await until(lambda: looks == [False], 30)  # looked once, found nothing: it sleeps
            services.db.store_inbound_mail(
                f"From: p@example.net\r\nTo: {JUDGE}\r\nSubject: v\r\n\r\nVERSION\r\n".encode(),
                "p@example.net",
                [JUDGE],
                services.clock.now(),
            )
            return await until(lambda: _processed(services.db) == 1, 3)

    assert not asyncio.run(run())


def test_a_listener_that_loses_its_connection_listens_again_and_wakes_its_roles(
    services: Services,
) -> None:
    wakeups = wakeups_for(services.db.engine)
    assert isinstance(wakeups, PostgresWakeups)
    heard: list[Channel] = []
    stop = threading.Event()
    listener = threading.Thread(target=wakeups.listen, args=([Channel.OUTBOX], heard.append, stop))
    listener.start()
    try:
        time.sleep(0.5)
        engine = services.db.engine
        with engine.connect() as connection:  # cut the listener off, as a database restart would
            from sqlalchemy import text

            connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND query LIKE 'LISTEN%'"
                )
            )
            connection.commit()
        deadline = time.monotonic() + 10
        while Channel.OUTBOX not in heard and time.monotonic() < deadline:
            time.sleep(0.05)
        assert heard == [Channel.OUTBOX]  # woken once after listening again, in case it missed one
        heard.clear()
        wakeups.announce(Channel.OUTBOX)
        deadline = time.monotonic() + 10
        while not heard and time.monotonic() < deadline:
            time.sleep(0.05)
        assert heard == [Channel.OUTBOX]
    finally:
        stop.set()
        listener.join(timeout=5)
        wakeups.close()
    assert not listener.is_alive()


def test_sqlite_has_no_cross_process_wakeups(sqlite_database: Database) -> None:
    assert wakeups_for(sqlite_database.engine) is None


def _send(port: int, message: str) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        client.sendmail("p@example.net", [JUDGE], message.encode())


def test_the_operator_guide_names_the_channels_the_judge_uses() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "operator-guide.md").read_text()
    named = {name for name in ("judge_mail_in", "judge_outbox", "judge_schedule") if f"`{name}`" in guide}
    assert named == {channel.value for channel in Channel}
