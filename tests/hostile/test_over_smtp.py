"""The hostile corpus over real SMTP, to a whole judge (door, worker, outbound sender, relay).

The cases that need no game in play (forged senders, international
addresses, charsets, control characters, structure, robots, look-alike
humans, amplification) are sent one after the other, as fast as a client
can, through the SMTP door; then a plain mail. The judge must still be
running and answer the plain mail; every case the door accepted must end in
the state the issue asks for, with its reply queued for exactly the right
address (robots: nothing); and what reaches the relay must go to allowed
addresses only, with clean headers. The door may refuse a mail outright
for a line over the SMTP limit (500, for good), never "try later".
"""

from __future__ import annotations

import smtplib

import pytest
from sqlalchemy import func, select

from judge.db.enums import OutboundState
from judge.db.models import InboundMail, OutboundMail
from tests.e2e.harness import ADMIN, JUDGE, WAIT_SECONDS, E2EJudge, text, wait_until
from tests.hostile.corpus import CLAIMER, CORPUS, FRANCE, INTRUDER, NEWCOMER, Case
from tests.hostile.harness import NORMAL, VERSION_ANSWER, VICTIM, header_problems

pytestmark = pytest.mark.engine_blind  # the engine cannot change what these check: SQLite only

NEEDS_A_GAME = {FRANCE, INTRUDER, CLAIMER, NEWCOMER}
CASES = [c for c in CORPUS if c.envelope not in NEEDS_A_GAME and c.setup is None and c.check is None]


def _send(judge: E2EJudge, raw: bytes, envelope: str) -> int | None:
    """Hand ``raw`` to the door; the id it was stored under, or None if the door refused it for good."""
    try:
        with smtplib.SMTP("127.0.0.1", judge.port, timeout=WAIT_SECONDS) as client:
            client.sendmail(envelope, [JUDGE], raw)
    except smtplib.SMTPResponseException as refused:
        # The one refusal a conforming door makes of these mails: a line over 1,000 octets.
        assert (refused.smtp_code, b"Line too long" in refused.smtp_error) == (500, True), refused
        return None
    except smtplib.SMTPRecipientsRefused as refused:
        raise AssertionError(f"the door refused the judge's own address: {refused.recipients}") from None
    with judge.db.unit_of_work(readonly=True) as uow:
        return int(uow.session.scalar(select(func.max(InboundMail.id))) or 0)


def test_the_corpus_over_smtp_leaves_the_judge_answering(judge: E2EJudge) -> None:
    assert len(CASES) >= 60
    stored: dict[int, Case] = {}
    refused = []
    for case in CASES:
        mail_id = _send(judge, case.raw(), case.envelope)
        if mail_id is None:
            refused.append(case.name)
        else:
            stored[mail_id] = case
    assert len(stored) >= len(CASES) - 12, refused
    # Generous: a shared CI machine may take a while over the largest mails.
    wait_until(judge.settled, timeout=3 * WAIT_SECONDS, what="every mail handled and delivered or given up")
    reply = judge.exchange(NORMAL, "VERSION\n")
    assert VERSION_ANSWER in text(reply)
    wait_until(judge.settled, what="the plain mail's reply delivered")

    with judge.db.unit_of_work(readonly=True) as uow:
        mails = {m.id: m for m in uow.session.scalars(select(InboundMail))}
        outbox = list(uow.session.scalars(select(OutboundMail)))
        problems = []
        for mail_id, case in stored.items():
            expect = case.expect
            if mails[mail_id].state is not expect.state:
                problems.append(f"{case.name}: {mails[mail_id].state} ({mails[mail_id].error})")
                continue
            replies = [list(m.recipients) for m in outbox if m.in_reply_to_id == mail_id]
            wanted = [] if expect.reply_to is None else [sorted(expect.reply_to)]
            if sorted(map(sorted, replies)) != wanted:
                problems.append(f"{case.name}: replies to {replies}, expected {wanted}")
        assert not problems, "\n".join(problems)
        assert not [m for m in outbox if m.state is OutboundState.PENDING]

    allowed = {a for c in CASES for a in (c.expect.reply_to or ())} | {NORMAL, ADMIN}
    for captured in judge.relay.received:
        assert VICTIM not in captured.rcpt_tos
        assert set(captured.rcpt_tos) <= allowed, captured.rcpt_tos
        assert header_problems(captured.data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")) == []
