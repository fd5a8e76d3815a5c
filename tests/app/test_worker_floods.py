"""The flood limiter keeps its memory in the database: a restart forgets no flood.

A sender past the limit is answered once, then dropped quietly; the same
holds after the judge restarts (new Services, new limiter), and for a sender
that rotates its From address behind one envelope sender.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from judge.app.server import build_services
from judge.app.services import Services
from judge.app.worker import process_next_mail
from judge.db.enums import InboundState
from tests.app.conftest import JUDGE, Harness


def _limited(harness: Harness, limit: int) -> Services:
    """A judge's services as `judge serve` builds them, with a flood limit of ``limit`` an hour."""
    config = dataclasses.replace(
        harness.services.config, rate_limit_messages=limit, rate_limit_window=timedelta(hours=1)
    )
    return build_services(config, harness.db, harness.clock)


def _store(harness: Harness, header_from: str, envelope: str, n: int) -> int:
    raw = (
        f"From: {header_from}\r\nTo: {JUDGE}\r\nSubject: s{n}\r\nMessage-ID: <f{n}@test>\r\n\r\nVERSION\r\n"
    ).encode()
    return harness.db.store_inbound_mail(raw, envelope, [JUDGE], harness.clock.now())


def _states(harness: Harness, ids: list[int]) -> list[InboundState]:
    with harness.db.unit_of_work(readonly=True) as uow:
        return [uow.mail_in.get(i).state for i in ids]


def _run(services: Services) -> None:
    while process_next_mail(services):
        pass


def test_a_restart_does_not_reset_the_flood_limiter(harness: Harness) -> None:
    services = _limited(harness, 3)
    ids = []
    for n in range(4):
        ids.append(_store(harness, "flood@example.net", "flood@example.net", n))
        harness.clock.advance(minutes=1)
    _run(services)
    replies = harness.new_mail()
    assert len(replies) == 4  # three answers and the one warning
    assert "too many mails" in replies[-1].get_body(("plain",)).get_content()  # type: ignore[union-attr]

    restarted = _limited(harness, 3)  # a new process: new Services, new limiter
    ids.append(_store(harness, "flood@example.net", "flood@example.net", 5))
    _run(restarted)
    assert harness.new_mail() == []  # still in the flood: dropped quietly
    assert _states(harness, ids)[3:] == [InboundState.IGNORED, InboundState.IGNORED]

    harness.clock.advance(hours=1, minutes=5)  # a quiet hour ends the flood
    _store(harness, "flood@example.net", "flood@example.net", 6)
    _run(_limited(harness, 3))
    assert len(harness.new_mail()) == 1


def test_rotating_the_from_address_behind_one_envelope_sender_is_one_flood(harness: Harness) -> None:
    services = _limited(harness, 3)
    for n in range(8):
        _store(harness, f"guess{n}@example.net", "bot@example.net", n)
    _run(services)
    assert len(harness.new_mail()) == 4  # three answered, one warned, four dropped


def test_a_flood_from_one_sender_does_not_silence_another(harness: Harness) -> None:
    services = _limited(harness, 2)
    for n in range(5):
        _store(harness, "flood@example.net", "flood@example.net", n)
    bob = _store(harness, "bob@example.net", "bob@example.net", 9)
    _run(services)
    assert _states(harness, [bob]) == [InboundState.PROCESSED]
