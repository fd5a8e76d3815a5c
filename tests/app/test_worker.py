"""The worker: one mail, one transaction, one reply that says what was understood."""

from __future__ import annotations

from judge.db.enums import InboundState
from tests.app.conftest import Harness, text


def test_version_is_answered_with_the_line_echoed(harness: Harness) -> None:
    reply = harness.exchange("alice@example.net", "VERSION\n")
    body = text(reply)
    assert "> VERSION" in body
    assert "Diplomacy email judge, version" in body
    assert reply["Subject"].startswith("Re: XPY")
    assert reply["Auto-Submitted"] == "auto-replied"
    assert reply["In-Reply-To"] == "<m1@test>"


def test_unreadable_lines_are_reported_and_flag_the_subject(harness: Harness) -> None:
    reply = harness.exchange("alice@example.net", "VERSION\nfrobnicate the judge\n")
    body = text(reply)
    assert "> frobnicate the judge" in body
    assert "[Error Flag]" in reply["Subject"]


def test_a_mail_with_nothing_in_it_gets_a_hint(harness: Harness) -> None:
    reply = harness.exchange("alice@example.net", "\n\n")
    assert "HELP" in text(reply)


def test_loops_are_stored_and_never_answered(harness: Harness) -> None:
    harness.send("robot@example.net", "VERSION\n", headers="Auto-Submitted: auto-replied\r\n")
    harness.send("robot@example.net", "VERSION\n", headers="Precedence: bulk\r\n")
    assert harness.drain() == 2
    assert harness.new_mail() == []
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.mail_in.count(InboundState.IGNORED) == 2


def test_signoff_stops_reading(harness: Harness) -> None:
    reply = harness.exchange("alice@example.net", "SIGNOFF\nVERSION\n")
    assert "Diplomacy email judge" not in text(reply)


def test_every_mail_is_processed_exactly_once(harness: Harness) -> None:
    for n in range(3):
        harness.send(f"p{n}@example.net", "VERSION\n")
    assert harness.drain() == 3
    assert harness.drain() == 0
    assert len(harness.new_mail()) == 3
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.mail_in.count(InboundState.PROCESSED) == 3
