"""The guard with mail waiting (issue 14): one commit holds several senders' mails.

``process_waiting_mail`` counts the first mail's attempt and holds the others
in one commit; each mail is then processed in its own transaction, which also
counts the next held mail's attempt. What must hold, on each engine: every
mail answered exactly once and in its sender's order, each attempt committed
before its mail is processed, no attempt charged to a mail that was only held,
a failing mail costs itself only, and the commits are fewer than two per mail.
"""

from __future__ import annotations

import pytest
from sqlalchemy import event

from judge.app.mail_in import worker
from judge.db.enums import InboundState
from judge.db.models import InboundMail
from tests.app.conftest import Harness

SENDERS = [f"player{n}@example.net" for n in range(5)]


def _mails(harness: Harness) -> dict[int, InboundMail]:
    with harness.db.unit_of_work(readonly=True) as uow:
        rows = uow.session.query(InboundMail).order_by(InboundMail.id).all()
        for row in rows:
            uow.session.expunge(row)
        return {row.id: row for row in rows}


def _commits(harness: Harness) -> list[int]:
    counted = [0]

    def on_commit(_conn: object) -> None:
        counted[0] += 1

    event.listen(harness.db.engine, "commit", on_commit)
    return counted


def test_waiting_mail_is_answered_with_one_guard_commit_and_one_commit_per_mail(harness: Harness) -> None:
    ids = [harness.send(sender, "VERSION\n") for sender in SENDERS]
    commits = _commits(harness)
    assert worker.process_waiting_mail(harness.services, limit=8) == len(SENDERS)
    assert commits[0] == 1 + len(SENDERS)  # the guard's, then each mail's
    mails = _mails(harness)
    assert all(mails[i].state is InboundState.PROCESSED and mails[i].attempts == 1 for i in ids)
    assert len(harness.new_mail()) == len(SENDERS)
    assert worker.process_waiting_mail(harness.services, limit=8) == 0


def test_a_senders_later_mail_is_not_held_with_the_first(harness: Harness) -> None:
    first = harness.send("ann@example.net", "VERSION\n", subject="first")
    bob = harness.send("bob@example.net", "VERSION\n")
    second = harness.send("ann@example.net", "VERSION\n", subject="second")
    assert worker.process_waiting_mail(harness.services, limit=8) == 2  # ann's first and bob's
    mails = _mails(harness)
    assert mails[first].state is InboundState.PROCESSED and mails[bob].state is InboundState.PROCESSED
    assert mails[second].state is InboundState.RECEIVED and mails[second].attempts == 0
    assert worker.process_waiting_mail(harness.services, limit=8) == 1
    subjects = [str(m["Subject"]) for m in harness.new_mail() if "ann@" in str(m["To"])]
    assert len(subjects) == 2 and "first" in subjects[0] and "second" in subjects[1]


def test_a_held_mail_is_not_charged_an_attempt_when_the_worker_stops(harness: Harness) -> None:
    ids = [harness.send(sender, "VERSION\n") for sender in SENDERS[:3]]
    assert worker.process_waiting_mail(harness.services, limit=8, stop=lambda: True) == 1
    mails = _mails(harness)
    assert mails[ids[0]].state is InboundState.PROCESSED and mails[ids[0]].attempts == 1
    # the next one's attempt was counted in the first mail's commit (it was about to be processed)
    assert mails[ids[1]].attempts == 1 and mails[ids[1]].state is InboundState.RECEIVED
    assert mails[ids[2]].attempts == 0 and mails[ids[2]].state is InboundState.RECEIVED
    assert worker.process_waiting_mail(harness.services, limit=8) == 0  # held until the hold runs out
    harness.clock.advance(worker.CLAIM_LEASE)
    assert worker.process_waiting_mail(harness.services, limit=8) == 2
    mails = _mails(harness)
    assert [mails[i].attempts for i in ids] == [1, 2, 1]
    assert all(mails[i].state is InboundState.PROCESSED for i in ids)


def test_a_failing_mail_costs_itself_only_and_the_next_is_counted_apart(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = worker.run_commands

    def fails_for_poison(session: worker.MailSession, parsed: object) -> None:
        if session.decoded.subject == "poison":
            raise RuntimeError("a bug")
        real(session, parsed)  # type: ignore[arg-type]

    monkeypatch.setattr(worker, "run_commands", fails_for_poison)
    poison = harness.send("ann@example.net", "VERSION\n", subject="poison")
    others = [harness.send(sender, "VERSION\n") for sender in SENDERS[:2]]
    assert worker.process_waiting_mail(harness.services, limit=8) == 3
    mails = _mails(harness)
    assert mails[poison].state is InboundState.FAILED and mails[poison].attempts == 1
    assert all(mails[i].state is InboundState.PROCESSED and mails[i].attempts == 1 for i in others)
