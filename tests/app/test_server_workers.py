"""``judge serve --workers N``: several workers in one process answer every mail once, each
sender's mail in the order it came (issue 14)."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from judge.app.runtime.judge_server import JudgeServer, Role, ServerTuning
from judge.db.enums import InboundState
from judge.db.models import InboundMail, OutboundMail
from tests.app.conftest import Harness

SENDERS = [f"p{n}@example.net" for n in range(3)]
PER_SENDER = 6


def test_several_workers_answer_each_mail_once_and_each_senders_mail_in_order(harness: Harness) -> None:
    for round_ in range(PER_SENDER):
        for sender in SENDERS:
            harness.send(sender, f"VERSION\nGET nothing{round_}\n")

    def done() -> bool:
        with harness.db.unit_of_work(readonly=True) as uow:
            return uow.mail_in.count(InboundState.PROCESSED) == PER_SENDER * len(SENDERS)

    async def run() -> None:
        tuning = ServerTuning(worker_poll_seconds=0.05, shutdown_grace_seconds=5, workers=3)
        async with JudgeServer(harness.services, roles={Role.WORKER}, tuning=tuning) as server:
            assert sum(name.startswith("worker") for name in server._tasks) == 3
            for _ in range(600):
                if done():
                    break
                await asyncio.sleep(0.05)

    asyncio.run(run())
    assert done()
    with harness.db.unit_of_work(readonly=True) as uow:
        mails = uow.session.scalars(select(InboundMail).order_by(InboundMail.id)).all()
        assert all(mail.attempts == 1 for mail in mails)  # each taken once
        replies = uow.session.scalars(select(OutboundMail).where(OutboundMail.in_reply_to_id.is_not(None))).all()
        assert sorted(r.in_reply_to_id for r in replies) == [m.id for m in mails]  # one reply each
        for sender in SENDERS:
            theirs = [m for m in mails if m.mail_from == sender]
            times = [m.processed_at for m in theirs]
            assert all(t is not None for t in times)
            answered = sorted(
                (r for r in replies if r.in_reply_to_id in {m.id for m in theirs}), key=lambda r: r.id
            )
            assert [r.in_reply_to_id for r in answered] == [m.id for m in theirs]  # in order
