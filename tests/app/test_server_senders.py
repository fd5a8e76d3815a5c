"""``outbound_connections``: several senders in one process, each with its own SMTP session to
the relay, deliver every mail of the outbox exactly once (issue 28)."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections import Counter

import pytest

from judge.app.mail_out import outbox
from judge.app.runtime.judge_server import JudgeServer, Role, ServerTuning, tuning_from_config
from judge.db.enums import OutboundState
from judge.mail.outbound import SmtpRelay
from tests.app.conftest import Harness
from tests.mail.smtp_capture import CaptureHandler, capture_server

MAILS = 30


def test_several_senders_deliver_each_mail_once(harness: Harness) -> None:
    with harness.db.unit_of_work() as uow:
        for number in range(MAILS):
            outbox.queue(uow, harness.services, [f"p{number}@example.net"], f"mail {number}", "body\n", harness.clock.now())
    handler = CaptureHandler()

    async def run() -> None:
        tuning = ServerTuning(
            outbound_poll_seconds=0.05, shutdown_grace_seconds=5, outbound_connections=3, outbound_batch=4
        )
        async with capture_server(handler) as port:
            relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org", timeout=10)
            async with JudgeServer(harness.services, roles={Role.OUTBOUND}, relay=relay, tuning=tuning) as server:
                assert sorted(name for name in server._tasks if name.startswith("outbound")) == [
                    "outbound", "outbound-2", "outbound-3"
                ]  # fmt: skip
                for _ in range(600):
                    if len(handler.received) >= MAILS:
                        break
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.2)  # a mail sent twice would show now

    asyncio.run(run())
    subjects = Counter(
        int(match.group(1)) for c in handler.received if (match := re.search(rb"Subject: mail (\d+)", c.data))
    )
    assert subjects == Counter(range(MAILS))
    assert 1 <= handler.connections <= MAILS // 4 + 3  # sessions reused: at most one a batch, plus one a sender
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.outbox.count(OutboundState.SENT) == MAILS


def test_the_setting_gives_the_senders() -> None:
    from judge.config import load_config

    assert tuning_from_config(load_config({})).outbound_connections == 1
    assert tuning_from_config(load_config({"JUDGE_OUTBOUND_CONNECTIONS": "4"})).outbound_connections == 4


class _Found:
    def __init__(self, row: tuple[object, ...]) -> None:
        self.row = row

    def first(self) -> tuple[object, ...]:
        return self.row


class _Connection:
    def execute(self, _statement: object, _parameters: object) -> _Found:
        return _Found(("2026-11-27 00:00", 1, "S1901M"))  # the picture's key: drawn by the fake above


class _Session:
    def connection(self) -> _Connection:
        return _Connection()


class _Uow:
    session = _Session()


def test_the_senders_of_a_process_draw_each_phase_once_between_them(monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.app.mail_out import results_maps
    from judge.app.mail_out.sender import SharedPictures

    drawn: list[tuple[object, str]] = []

    def draw(_uow: object, phase_id: int, _row: object, language: str) -> None:
        time.sleep(0.05)  # long enough for the other senders to ask meanwhile
        drawn.append((phase_id, language))

    monkeypatch.setattr(results_maps, "_draw_results", draw)
    shared = SharedPictures()
    uow = _Uow()
    asks = [(7, "en")] * 4 + [(7, "fr")] * 2 + [(8, "en")] * 2
    threads = [threading.Thread(target=shared.picture, args=(uow, phase, language)) for phase, language in asks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(drawn) == [(7, "en"), (7, "fr"), (8, "en")]
