"""A relay that is down delays the judge's mail; it never loses it."""

from __future__ import annotations

import pytest

from judge.db.enums import InboundState, OutboundState
from tests.e2e.harness import E2EJudge, text, wait_until

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only


def test_a_reply_waits_while_the_relay_is_down_and_is_sent_when_it_returns(
    judge: E2EJudge,
) -> None:
    judge.relay.stop()
    message_id = judge.mail("patient@example.net", "VERSION\n")

    def retried() -> bool:
        rows = judge.outbox()
        return bool(rows) and rows[0].attempts >= 2 and rows[0].state is OutboundState.PENDING

    wait_until(retried, what="two failed delivery attempts")
    (row,) = judge.outbox()
    assert row.last_error and "unavailable" in row.last_error
    assert judge.inbound_states() == [InboundState.PROCESSED]
    assert judge.relay.received == []

    judge.relay.start()
    reply = judge.reply_to(message_id)
    assert "> VERSION" in text(reply)
    wait_until(judge.settled, what="the outbox emptied")
    (row,) = judge.outbox()
    assert row.state is OutboundState.SENT
    assert len(judge.relay.received) == 1
