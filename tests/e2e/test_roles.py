"""Roles in separate servers sharing one database (as `judge serve --only ROLE` processes do),
and the flood limit a running judge applies."""

from __future__ import annotations

from judge.app.runtime.judge_server import Role
from judge.db.enums import InboundState
from tests.e2e.conftest import JudgeFactory
from tests.e2e.harness import E2EJudge, text, wait_until


def test_the_door_alone_stores_mail_and_separate_workers_answer_it(
    judge_factory: JudgeFactory,
) -> None:
    door = judge_factory(roles=[Role.INBOUND])
    assert door.server.running_roles == {Role.INBOUND}
    message_id = door.mail("solo@example.net", "VERSION\n")
    assert door.inbound_states() == [InboundState.RECEIVED]  # nobody else runs yet
    assert door.relay.received == []

    worker = judge_factory(roles=[Role.WORKER, Role.SCHEDULER])
    sender = judge_factory(roles=[Role.OUTBOUND])
    assert worker.server.running_roles == {Role.WORKER, Role.SCHEDULER}
    assert sender.server.running_roles == {Role.OUTBOUND}
    # Nothing wakes them across processes: they find the mail by polling the database.
    reply = door.reply_to(message_id)
    assert "> VERSION" in text(reply)
    wait_until(door.settled, what="the mail processed and the reply sent")
    assert door.inbound_states() == [InboundState.PROCESSED]


def test_a_flood_is_answered_once_then_dropped_quietly(judge_factory: JudgeFactory) -> None:
    judge: E2EJudge = judge_factory(JUDGE_RATE_LIMIT_MESSAGES="3")
    ids = [judge.mail("flood@example.net", "VERSION\n") for _ in range(5)]
    for message_id in ids[:3]:
        assert "> VERSION" in text(judge.reply_to(message_id))
    warning = judge.reply_to(ids[3])
    assert text(warning).strip().startswith(
        "The judge reads at most 3 mails from one address in 60 minutes, and you have sent more. Until "
    )
    assert text(warning).strip().endswith("your orders and press are always read. This mail was not read.")
    wait_until(judge.settled, what="all five mails handled")
    assert judge.inbound_states() == [InboundState.PROCESSED] * 3 + [InboundState.IGNORED] * 2
    assert len(judge.messages_to("flood@example.net")) == 4
    assert all(m["In-Reply-To"] != ids[4] for m in judge.messages_to("flood@example.net"))
