"""The operator's tools: `judge mail list|show|retry|skip` (audited) and retention (`judge db purge`).

Mail is put through the real worker (failing where a test needs it), then the
command line is run against the same database, on each engine.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta

import pytest
from sqlalchemy import select

from judge.app.console.housekeeping import purge_if_due, purge_mail
from judge.app.mail_in import worker
from judge.cli import main
from judge.db.enums import AuditKind, InboundState, OutboundState
from judge.db.models import AuditEvent, OrderSubmission, OutboundMail
from tests.app.conftest import Harness
from tests.app.orders_helpers import address, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def _broken(*_args: object) -> None:
    raise RuntimeError("a bug in a handler")


def _one_try(harness: Harness) -> None:
    harness.services = dataclasses.replace(
        harness.services, config=dataclasses.replace(harness.services.config, mail_max_attempts=1)
    )


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _state(harness: Harness, mail_id: int) -> tuple[InboundState, int]:
    with harness.db.unit_of_work(readonly=True) as uow:
        mail = uow.mail_in.get(mail_id)
        return mail.state, mail.attempts


def _audit(harness: Harness) -> list[AuditEvent]:
    with harness.db.unit_of_work(readonly=True) as uow:
        events = list(uow.session.scalars(select(AuditEvent).where(AuditEvent.kind == AuditKind.MAIL)))
        uow.session.expunge_all()
        return events


@pytest.mark.engine_sql
def test_list_show_retry_and_skip(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = harness.db.url
    _one_try(harness)
    monkeypatch.setattr(worker, "run_commands", _broken)
    bad = harness.send("ann@example.net", "VERSION\n", subject="poison")
    other = harness.send("bob@example.net", "VERSION\n", subject="also poison")
    harness.drain()
    monkeypatch.undo()
    fine = harness.send("cy@example.net", "VERSION\n", subject="fine")
    harness.drain()

    status, out, _ = _cli(capsys, "mail", "--url", url, "list", "--quarantined")
    assert status == 0
    assert f"{bad:>6}  quarantined" in out and "poison" in out and "RuntimeError" in out
    assert "fine" not in out
    status, out, _ = _cli(capsys, "mail", "--url", url, "list", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["id"], r["state"]) for r in rows] == [
        (fine, "processed"), (other, "quarantined"), (bad, "quarantined")
    ]

    status, out, _ = _cli(capsys, "mail", "--url", url, "show", str(bad))
    assert status == 0
    assert f"mail {bad}: quarantined, 1 attempt(s)" in out
    assert "error: RuntimeError: a bug in a handler" in out
    assert "Subject: poison" in out and "----- body (decoded)\nVERSION" in out

    status, out, _ = _cli(capsys, "mail", "--url", url, "retry", str(bad), "--as", "alice")
    assert status == 0 and "quarantined -> received" in out and "audited as alice" in out
    assert _state(harness, bad) == (InboundState.RECEIVED, 0)
    harness.drain()
    assert _state(harness, bad) == (InboundState.PROCESSED, 1)

    monkeypatch.setattr("getpass.getuser", lambda: "unix-bob")
    status, out, _ = _cli(capsys, "mail", "--url", url, "skip", str(other))
    assert status == 0 and _state(harness, other)[0] is InboundState.SKIPPED
    status, _, err = _cli(capsys, "mail", "--url", url, "retry", str(fine))
    assert status == 1 and "carry its commands out twice" in err
    assert _state(harness, fine)[0] is InboundState.PROCESSED
    status, _, err = _cli(capsys, "mail", "--url", url, "show", "999999")
    assert status == 1 and "there is no mail 999999" in err

    events = _audit(harness)
    assert [(e.actor, e.old_value, e.new_value) for e in events] == [
        ("alice", "quarantined", "received"), ("unix-bob", "quarantined", "skipped")
    ]
    assert events[0].detail is not None and f"judge mail retry {bad}" in events[0].detail


def test_show_does_not_let_a_mail_drive_the_terminal(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    mail_id = harness.send("ann@example.net", "VERSION\x1b[2J\n", subject="x\x1b]0;owned\x07")
    status, out, _ = _cli(capsys, "mail", "--url", harness.db.url, "show", str(mail_id))
    assert status == 0 and "\x1b" not in out and "\x07" not in out
    assert "x?]0;owned?" in out and "VERSION" in out


def test_every_mail_command_has_help_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    for words in (["mail"], ["mail", "list"], ["mail", "show"], ["mail", "retry"], ["mail", "skip"],
                  ["db", "purge"]):
        with pytest.raises(SystemExit) as exit_:
            main([*words, "--help"])
        assert exit_.value.code == 0
        assert "example" in capsys.readouterr().out, words


@pytest.mark.engine_sql
def test_purge_deletes_mail_done_with_and_keeps_what_points_at_it(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = start_game(harness)
    orders = harness.send(address("FRANCE"), game.signon("FRANCE") + "A PAR - BUR\n")
    harness.drain()
    _one_try(harness)
    monkeypatch.setattr(worker, "run_commands", _broken)
    quarantined = harness.send("ann@example.net", "VERSION\n")
    harness.drain()
    monkeypatch.undo()
    with harness.db.unit_of_work() as uow:
        everything = list(uow.session.scalars(select(OutboundMail)))
        [reply] = [m for m in everything if m.in_reply_to_id == orders]
        for mail in everything:
            if mail is not reply:
                uow.outbox.mark_sent(mail, harness.clock.now())
        pending = reply.id  # the reply to the orders is not delivered yet: it stays

    status, out, _ = _cli(capsys, "db", "--url", harness.db.url, "purge", "--older-than", "3650")
    assert status == 0 and "0 inbound and 0 outbound mails deleted" in out
    status, out, _ = _cli(capsys, "db", "--url", harness.db.url, "purge", "--older-than", "0")
    assert status == 0
    with harness.db.unit_of_work(readonly=True) as uow:
        left = {m.id: m.state for m in uow.mail_in.listing()}
        assert left == {quarantined: InboundState.QUARANTINED}  # failed mail stays until handled
        [kept_reply] = uow.session.scalars(select(OutboundMail))
        assert kept_reply.id == pending and kept_reply.in_reply_to_id is None  # its mail is gone
        assert uow.outbox.count(OutboundState.PENDING) == 1
        kept = list(uow.session.scalars(select(OrderSubmission)))
        assert kept and all(s.mail_in_id is None for s in kept)  # the orders outlive their mail
    assert orders not in left


def test_serve_purges_once_a_day_per_the_setting(harness: Harness) -> None:
    harness.send("ann@example.net", "VERSION\n")
    harness.drain()
    services = dataclasses.replace(
        harness.services, config=dataclasses.replace(harness.services.config, retention_days=2)
    )
    assert purge_if_due(services) is not None  # nothing old yet, but the day's run happened
    with harness.db.unit_of_work(readonly=True) as uow:
        assert len(uow.mail_in.listing()) == 1
    harness.clock.advance(timedelta(days=3))
    harness.send("bob@example.net", "VERSION\n")
    harness.drain()
    report = purge_if_due(services)
    assert report is not None and report.inbound == 1
    harness.clock.advance(timedelta(hours=12))
    assert purge_if_due(services) is None  # once a day
    never = dataclasses.replace(services, config=dataclasses.replace(services.config, retention_days=0))
    harness.clock.advance(timedelta(days=30))
    assert purge_if_due(never) is None
    with harness.db.unit_of_work(readonly=True) as uow:
        assert len(uow.mail_in.listing()) == 1
    with harness.db.unit_of_work() as uow:
        assert purge_mail(uow, harness.clock.now() - timedelta(days=31)).inbound == 0
        assert purge_mail(uow, harness.clock.now()).inbound == 1


def test_judge_serve_worker_role_purges_old_mail(harness: Harness) -> None:
    import asyncio

    from judge.app.runtime.judge_server import JudgeServer, Role, ServerTuning

    harness.send("ann@example.net", "VERSION\n")
    harness.drain()
    harness.clock.advance(timedelta(days=91))

    def left() -> int:
        with harness.db.unit_of_work(readonly=True) as uow:
            return len(uow.mail_in.listing())

    async def run() -> None:
        tuning = ServerTuning(worker_poll_seconds=0.05, shutdown_grace_seconds=5)
        async with JudgeServer(harness.services, roles={Role.WORKER}, tuning=tuning):
            for _ in range(400):
                if left() == 0:
                    return
                await asyncio.sleep(0.05)

    asyncio.run(run())
    assert left() == 0
