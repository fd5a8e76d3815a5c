"""The worker: one mail, one transaction, one reply that says what was understood."""

from __future__ import annotations

import dataclasses

import pytest

from judge.app.mail_in import worker
from judge.db.enums import InboundState
from tests.app.conftest import Harness, text
from tests.app.orders_helpers import address, plain, start_game


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


# --- what the per-mail fast path must keep true --------------------------------------------


def test_a_failing_mail_is_marked_failed_not_processed_and_changes_nothing(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker marks a mail processed before running it (one UPDATE); a failure must undo that."""
    game = start_game(harness)
    harness.new_mail()
    before = game.state()

    def broken(session: object, parsed: object) -> None:
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(worker, "run_commands", broken)
    harness.send(address("FRANCE"), game.signon("FRANCE") + "A PAR - BUR\n")
    assert harness.drain() == 1
    [alarm] = harness.new_mail()  # the keeper hears of it; the sender waits for the retries
    assert str(alarm["To"]) == "keeper@example.org"
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.mail_in.count(InboundState.FAILED) == 1
        assert uow.mail_in.count(InboundState.PROCESSED) == 0
    assert game.state() == before


def test_a_player_writing_from_a_second_address_of_theirs_is_no_impersonator(harness: Harness) -> None:
    """The sender's addresses are read with the sender: all of them, not just the one written from."""
    game = start_game(harness)
    with harness.db.unit_of_work() as uow:
        france = uow.people.by_address(address("FRANCE"))
        assert france is not None
        uow.people.add_address(france, "france.home@example.net", harness.clock.now())
    reply = harness.exchange("france.home@example.net", game.signon("FRANCE") + "A PAR - BUR\n")
    body = plain(reply)
    assert "Signed on as France in game 'demo'." in body
    assert "not the one registered" not in body
    assert str(reply["To"]) == "france.home@example.net"
    assert not [m for m in harness.others if "keeper@example.org" in str(m["To"])]


def test_pending_orders_of_earlier_mails_are_acknowledged_until_cleared_in_the_same_mail(
    harness: Harness,
) -> None:
    """The acknowledgement shows the later-phase orders kept before, as they stand at the mail's end."""
    game = start_game(harness)
    game.orders_text("FRANCE", "PHASE Fall 1901 Movement\nA BUR - MUN\n")
    body = game.orders_text("FRANCE", "A PAR - BUR\n")
    assert "----- Pending orders:\nMovement orders for Fall of 1901.\n  A BUR - MUN" in body
    body = game.orders_text("FRANCE", "PHASE Fall 1902 Movement\nA MUN - BER\nCLEAR\nPHASE Spring 1902 Movement\nA MAR - SPA\n")
    assert "A BUR - MUN" not in body and "A MUN - BER" not in body
    assert "Movement orders for Spring of 1902.\n  A MAR - SPA" in body
    body = game.orders_text("ENGLAND", "F LON - NTH\n")
    assert "Pending orders" not in body  # another power's kept orders are not England's


OPENING_ORDERS = {
    "AUSTRIA": "A VIE - GAL\nA BUD - SER\nF TRI - ALB\n",
    "ENGLAND": "F LON - NTH\nF EDI - NWG\nA LVP - YOR\n",
    "FRANCE": "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO\n",
    "GERMANY": "A MUN - RUH\nA BER - KIE\nF KIE - DEN\n",
    "ITALY": "A VEN H\nA ROM - APU\nF NAP - ION\n",
    "RUSSIA": "A MOS - UKR\nA WAR - GAL\nF SEV - BLA\nF STP/SC - BOT\n",
    "TURKEY": "A CON - BUL\nA SMY - CON\nF ANK - BLA\n",
}


def test_the_scheduler_is_woken_exactly_when_a_mail_moves_a_due_time(harness: Harness) -> None:
    """Waking it after every mail cost a scheduler transaction per mail for nothing."""
    game = start_game(harness)
    woken: list[int] = []
    services = dataclasses.replace(harness.services, on_schedule=lambda: woken.append(1))

    def due_at() -> object:
        with harness.db.unit_of_work(readonly=True) as uow:
            return game.game(uow).next_due_at

    harness.send(address("FRANCE"), "VERSION\n")
    assert worker.process_next_mail(services) and woken == []
    moved = []
    for power, orders in OPENING_ORDERS.items():
        before, count = due_at(), len(woken)
        harness.send(address(power), game.signon(power) + orders)
        assert worker.process_next_mail(services)
        assert (len(woken) > count) == (due_at() != before), power
        moved.append(due_at() != before)
    assert moved[-1]  # the last orders make the phase due for early processing
