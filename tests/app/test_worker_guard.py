"""The per-mail guard: whatever fails while one mail is handled, the worker goes on.

Every test goes through the real worker (``process_next_mail``) with one step
forced to fail, on each engine. What must hold: the mail's changes are rolled
back, the mail is marked failed with its error and attempts, the keeper is
alarmed (one mail an hour), the mail is tried again and, after
``mail_max_attempts`` tries, quarantined and its sender told; nothing raises
out of the worker; each sender's mail stays in order.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from email.message import EmailMessage

import pytest

from judge.app.mail_in import worker
from judge.app.mail_out import outbox
from judge.app.mail_out.alarms import ALARM_INTERVAL
from judge.app.session.services import Services
from judge.db.enums import InboundState
from judge.db.models import InboundMail
from judge.db.repositories.mail import InboundMailRepository
from tests.app.conftest import JUDGE, Harness, text
from tests.app.orders_helpers import address, start_game

KEEPER = "keeper@example.org"


def _broken(*_args: object, **_kwargs: object) -> None:
    raise RuntimeError("a bug somewhere")


def _mail(harness: Harness, mail_id: int) -> InboundMail:
    with harness.db.unit_of_work(readonly=True) as uow:
        mail = uow.mail_in.get(mail_id)
        uow.session.expunge(mail)
        return mail


def _to(messages: list[EmailMessage], who: str) -> list[EmailMessage]:
    return [m for m in messages if who in str(m["To"])]


def _retry_time(harness: Harness) -> None:
    """Let the back-off (or a lease) run out."""
    harness.clock.advance(worker.RETRY_AFTER * 10 + worker.CLAIM_LEASE)


@pytest.mark.parametrize(
    ("where", "name"),
    [
        (worker, "triage"),  # decoding and the loop guard
        (worker, "parse_mail"),  # reading the commands
        (worker, "run_commands"),  # the handlers
        (worker, "header_block"),  # composing the reply
        (worker, "_queue_reply"),  # queueing it
    ],
)
def test_a_failing_step_costs_the_mail_only_and_it_is_quarantined_after_three_tries(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, where: object, name: str
) -> None:
    game = start_game(harness)
    harness.new_mail()
    before = game.state()
    monkeypatch.setattr(where, name, _broken)
    mail_id = harness.send(address("FRANCE"), game.signon("FRANCE") + "A PAR - BUR\n")

    assert harness.drain() == 1
    first = harness.new_mail()
    assert [str(m["To"]) for m in first] == [KEEPER]
    assert "inbound mail" in text(first[0]) and "RuntimeError: a bug somewhere" in text(first[0])
    failed = _mail(harness, mail_id)
    assert failed.state is InboundState.FAILED and failed.attempts == 1
    assert "RuntimeError: a bug somewhere" in (failed.error or "")
    assert game.state() == before

    _retry_time(harness)
    assert harness.drain() == 1
    assert harness.new_mail() == []  # the second alarm within the hour is held back
    assert _mail(harness, mail_id).attempts == 2

    _retry_time(harness)
    assert harness.drain() == 1
    quarantined = _mail(harness, mail_id)
    assert quarantined.state is InboundState.QUARANTINED and quarantined.attempts == 3
    [notice] = _to(harness.new_mail(), address("FRANCE"))
    assert "could not process your mail" in text(notice) and "Nothing in it was carried out" in text(notice)
    _retry_time(harness)
    assert harness.drain() == 0  # never retried by itself
    assert game.state() == before


def test_the_number_of_tries_is_a_setting(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    harness.services = dataclasses.replace(
        harness.services, config=dataclasses.replace(harness.services.config, mail_max_attempts=1)
    )
    monkeypatch.setattr(worker, "run_commands", _broken)
    mail_id = harness.send("ann@example.net", "VERSION\n")
    assert harness.drain() == 1
    assert _mail(harness, mail_id).state is InboundState.QUARANTINED
    assert sorted(str(m["To"]) for m in harness.new_mail()) == ["ann@example.net", KEEPER]


def test_a_senders_later_mail_waits_for_the_failing_one_others_do_not(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = worker.run_commands

    def fails_for_ann(session: worker.MailSession, parsed: object) -> None:
        if session.decoded.subject == "poison":
            raise RuntimeError("a bug")
        real(session, parsed)  # type: ignore[arg-type]

    monkeypatch.setattr(worker, "run_commands", fails_for_ann)
    poison = harness.send("ann@example.net", "VERSION\n", subject="poison")
    later = harness.send("ann@example.net", "VERSION\n", subject="later")
    bob = harness.send("bob@example.net", "VERSION\n")
    assert harness.drain() == 2  # ann's poison (failed) and bob's; ann's later mail waits
    assert _mail(harness, bob).state is InboundState.PROCESSED
    assert _mail(harness, later).state is InboundState.RECEIVED
    for _ in range(2):
        _retry_time(harness)
        harness.drain()
    assert _mail(harness, poison).state is InboundState.QUARANTINED
    assert _mail(harness, later).state is InboundState.PROCESSED
    replies = _to(harness.new_mail(), "ann@example.net")
    assert len(replies) == 2 and "could not process" in text(replies[0])
    assert "Diplomacy email judge" in text(replies[1])  # in order: the notice, then the answer


def test_when_no_notice_can_be_composed_it_is_noted_and_the_worker_goes_on(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Composing the reply, the alarm and the notice all fail (today's non-ASCII address case)."""
    harness.services = dataclasses.replace(
        harness.services, config=dataclasses.replace(harness.services.config, mail_max_attempts=1)
    )
    monkeypatch.setattr(outbox, "queue", _broken)
    mail_id = harness.send("ann@example.net", "VERSION\n")
    assert worker.process_next_mail(harness.services) is True
    mail = _mail(harness, mail_id)
    assert mail.state is InboundState.QUARANTINED
    assert "no alarm could be queued" in (mail.error or "")
    assert "the sender could not be told" in (mail.error or "")
    monkeypatch.undo()
    reply = harness.exchange("bob@example.net", "VERSION\n")
    assert "Diplomacy email judge" in text(reply)


def test_a_failure_while_recording_the_failure_does_not_stop_the_worker(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Today this escaped and stopped `judge serve`; the mail is retried when its lease runs out."""
    monkeypatch.setattr(worker, "run_commands", _broken)
    monkeypatch.setattr(InboundMailRepository, "mark_failed", _broken)
    mail_id = harness.send("ann@example.net", "VERSION\n")
    assert worker.process_next_mail(harness.services) is True
    assert _mail(harness, mail_id).attempts == 1
    assert harness.drain() == 0  # held by its lease
    for tries in (2, 3):
        _retry_time(harness)
        assert harness.drain() == 1
        assert _mail(harness, mail_id).attempts == tries
    _retry_time(harness)
    assert harness.drain() == 1  # the fourth take finds three tries and quarantines it
    assert _mail(harness, mail_id).state is InboundState.QUARANTINED


class Killed(BaseException):
    """What a process that dies mid-mail looks like from inside: nothing catches it."""


def test_a_mail_that_kills_the_process_is_quarantined_after_three_restarts(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    def dies(*_args: object, **_kwargs: object) -> None:
        raise Killed

    monkeypatch.setattr(worker, "_process", dies)
    mail_id = harness.send("ann@example.net", "VERSION\n")
    for tries in (1, 2, 3):
        restarted = Services(db=harness.db, config=harness.services.config, clock=harness.clock)
        with pytest.raises(Killed):
            worker.process_next_mail(restarted)
        mail = _mail(harness, mail_id)
        assert mail.attempts == tries and mail.state is InboundState.RECEIVED  # counted before processing
        harness.clock.advance(worker.CLAIM_LEASE)
    restarted = Services(db=harness.db, config=harness.services.config, clock=harness.clock)
    assert worker.process_next_mail(restarted) is True  # quarantined, not processed: nothing raises
    mail = _mail(harness, mail_id)
    assert mail.state is InboundState.QUARANTINED and mail.attempts == 3
    assert "stopped while processing" in (mail.error or "")
    told = harness.new_mail()
    assert _to(told, "ann@example.net") and _to(told, KEEPER)
    assert worker.process_next_mail(restarted) is False


def test_alarms_are_one_an_hour_and_survive_a_restart(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness.services = dataclasses.replace(
        harness.services, config=dataclasses.replace(harness.services.config, mail_max_attempts=1)
    )
    monkeypatch.setattr(worker, "run_commands", _broken)
    for n in range(5):
        harness.send(f"p{n}@example.net", "VERSION\n")
    assert harness.drain() == 5
    assert len(_to(harness.new_mail(), KEEPER)) == 1
    harness.clock.advance(worker.CLAIM_LEASE)
    restarted = Services(db=harness.db, config=harness.services.config, clock=harness.clock)
    harness.send("p9@example.net", "VERSION\n")
    assert worker.process_next_mail(restarted)
    assert _to(harness.new_mail(), KEEPER) == []
    harness.clock.advance(ALARM_INTERVAL)
    harness.send("p10@example.net", "VERSION\n")
    assert worker.process_next_mail(restarted)
    [alarm] = _to(harness.new_mail(), KEEPER)
    assert "5 more alarm(s) of this kind were held back" in text(alarm)


@pytest.mark.parametrize(
    "sender",
    [
        "x@例子.example",
        "用户@example.org",
        "=?utf-8?q?Evil=0D=0ABcc=3A_victim=40evil.example?= <bad@example.org>",
    ],
)
def test_hostile_senders_never_raise_out_of_the_worker(harness: Harness, sender: str) -> None:
    """Today a non-ASCII address raised while composing, again while recording, and stopped the judge."""
    raw = (
        f"From: {sender}\r\nReply-To: b@bücher.example\r\nTo: {JUDGE}\r\nSubject: hi\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\nVERSION\r\n"
    ).encode()
    mail_id = harness.db.store_inbound_mail(raw, "bad@example.org", [JUDGE], harness.clock.now())
    for _ in range(4):
        while worker.process_next_mail(harness.services):
            pass
        _retry_time(harness)
    assert _mail(harness, mail_id).state in (
        InboundState.PROCESSED, InboundState.IGNORED, InboundState.QUARANTINED
    )
    reply = harness.exchange("ann@example.net", "VERSION\n")
    assert "Diplomacy email judge" in text(reply)


def test_the_worker_role_runs_the_daily_purge_when_idle(harness: Harness) -> None:
    """`judge serve`'s worker purges old mail once the queue is empty (retention_days)."""
    import asyncio

    from judge.app.console.housekeeping import DailyPurge

    harness.send("ann@example.net", "VERSION\n")
    harness.drain()
    harness.clock.advance(timedelta(days=91))
    stop, wake = asyncio.Event(), asyncio.Event()
    purge = DailyPurge(harness.services)

    def idle() -> None:
        purge()
        stop.set()

    async def run() -> None:
        await asyncio.wait_for(worker.run_worker(harness.services, stop, wake, on_idle=idle), 30)

    asyncio.run(run())
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.mail_in.listing() == []


@pytest.mark.engine_blind  # the worker's loop: the same on either engine
def test_a_mail_that_arrives_while_the_worker_looks_is_answered_without_waiting_for_the_poll(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The door's wake-up during the worker's look at the queue (or its idle purge) is not lost:
    the worker looks again at once rather than after ``idle_seconds`` (an hour here)."""
    import asyncio

    stop, wake = asyncio.Event(), asyncio.Event()
    looks: list[bool] = []
    real = worker.process_waiting_mail
    loop: list[asyncio.AbstractEventLoop] = []

    def looking(*args: object, **kwargs: object) -> bool:
        worked = real(*args, **kwargs)  # type: ignore[arg-type]
        looks.append(worked)
        if len(looks) == 1:  # the queue was empty when read; a mail comes in, the door wakes the worker
            harness.send("ann@example.net", "VERSION\n")
            loop[0].call_soon_threadsafe(wake.set)
        return worked

    def idle() -> None:
        if len(looks) >= 2:
            stop.set()

    async def run() -> None:
        loop.append(asyncio.get_running_loop())
        await asyncio.wait_for(worker.run_worker(harness.services, stop, wake, idle_seconds=3600, on_idle=idle), 60)

    monkeypatch.setattr(worker, "process_waiting_mail", looking)
    asyncio.run(run())
    assert looks[:2] == [False, True]  # nothing at the first look; the mail at the second, woken
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.mail_in.count(InboundState.PROCESSED) == 1
