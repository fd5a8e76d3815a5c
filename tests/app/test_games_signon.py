"""Power, master and observer sign-ons; wrong ones say nothing about what was wrong; the impersonation alarm."""

from __future__ import annotations

import pytest

from judge.db.enums import AuditKind
from tests.app.conftest import Harness
from tests.app.games_helpers import form_game, powers_of, read, register, snapshot
from tests.app.identity_helpers import add_address

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

LETTER = {"AUSTRIA": "A", "ENGLAND": "E", "FRANCE": "F", "GERMANY": "G", "ITALY": "I", "RUSSIA": "R", "TURKEY": "T"}


@pytest.fixture
def started(harness: Harness) -> list[str]:
    """A started game 'demo' whose player n has password pwn; p0 plays France."""
    addresses = form_game(harness, preferences={0: "F", 1: "E"})
    harness.new_mail()
    return addresses


def test_power_signon_with_the_right_password(harness: Harness, started: list[str]) -> None:
    reply = harness.exchange(started[0], "SIGNON Fdemo pw0\n")
    body = read(reply)
    assert "> SIGNON Fdemo pw0" in body
    assert "Signed on as France in game 'demo'." in body
    assert ":: Judge: XPY  Game: demo  Variant: Standard" in body
    assert reply["Subject"].startswith("Re: XPY:demo - S1901M")
    assert str(reply["To"]) == started[0]
    assert harness.others == []


def test_signon_letters_and_game_names_ignore_case(harness: Harness, started: list[str]) -> None:
    assert "Signed on as France" in read(harness.exchange(started[0], "signon fDEMO pw0\n"))


@pytest.mark.parametrize(
    "line",
    [
        "SIGNON Fdemo wrong",  # wrong password
        "SIGNON Edemo pw0",  # someone else's power with one's own password
        "SIGNON Fnosuch pw0",  # no such game
        "SIGNON Xdemo pw0",  # no such power
    ],
)
def test_a_wrong_signon_gives_one_answer_and_stops_reading(
    harness: Harness, started: list[str], line: str
) -> None:
    before = snapshot(harness, "demo")
    reply = harness.exchange(started[0], f"{line}\nVERSION\n")
    body = read(reply)
    assert "Invalid password or power, or no such game. The rest of this mail was not read." in body
    assert "Diplomacy email judge" not in body
    assert "[Error Flag]" in reply["Subject"]
    assert "Game:" not in body  # not signed on
    assert snapshot(harness, "demo") == before


def test_a_signon_to_a_forming_game_by_letter_is_invalid(harness: Harness) -> None:
    register(harness, "alice@example.net")
    harness.exchange("alice@example.net", "CREATE ?demo pw\n")
    body = read(harness.exchange("alice@example.net", "SIGNON Fdemo pw\n"))
    assert "Invalid password or power" in body


def test_impersonation_is_accepted_but_copied_to_the_player_and_alarmed(
    harness: Harness, started: list[str]
) -> None:
    reply = harness.exchange("intruder@example.org", "SIGNON Fdemo pw0\n")
    body = read(reply)
    assert "Signed on as France in game 'demo'." in body
    assert "This address is not the one registered for this player" in body
    assert "IAMALSO" in body  # the intruder's address is unknown to the judge
    [copy] = harness.copies  # the player's copy, a mail of its own: neither sees the other's address
    assert (str(reply["To"]), str(copy["To"]), read(copy)) == ("intruder@example.org", started[0], body)
    alarm = [m for m in harness.others if str(m["To"]) == "keeper@example.org"]
    assert len(alarm) == 1
    assert alarm[0]["Subject"] == "XPY:demo - S1901M Sign-on Alarm"
    assert read(alarm[0]) == (
        "Sign-on alarm in game 'demo': intruder@example.org signed on as France with the right "
        f"password, but the player of record is {started[0]}.\n"
    )
    with harness.db.unit_of_work(readonly=True) as uow:
        events = uow.audit.for_game(uow.games.require("demo"), kind=AuditKind.NEW_ADDRESS)
        assert [e.actor for e in events] == ["intruder@example.org"]


def test_another_registered_player_gets_no_iamalso_hint(harness: Harness, started: list[str]) -> None:
    body = read(harness.exchange(started[1], "SIGNON Fdemo pw0\n"))
    assert "This address is not the one registered for this player" in body
    assert "IAMALSO" not in body


def test_the_players_report_address_is_not_an_impersonation(harness: Harness, started: list[str]) -> None:
    add_address(harness, started[0], "work@example.com")
    harness.exchange(started[0], "SIGNON Fdemo pw0\nSET ADDRESS work@example.com\n")
    reply = harness.exchange("work@example.com", "SIGNON Fdemo pw0\n")
    assert "not the one registered" not in read(reply)
    assert not [m for m in harness.others if str(m["To"]) == "keeper@example.org"]


def test_master_signon(harness: Harness, started: list[str]) -> None:
    register(harness, "gm@example.net")
    with harness.db.unit_of_work() as uow:
        person = uow.people.by_address("gm@example.net")
        assert person is not None
        uow.games.add_master(uow.games.require("demo"), person, "mpw", harness.clock.now())
    assert "Signed on as master of game 'demo'." in read(harness.exchange("gm@example.net", "SIGNON Mdemo mpw\n"))
    body = read(harness.exchange("gm@example.net", "SIGNON Mdemo nope\n"))
    assert "Invalid password or power, or no such game." in body


def test_master_signon_without_masters_is_invalid(harness: Harness, started: list[str]) -> None:
    assert "Invalid password or power" in read(harness.exchange(started[0], "SIGNON Mdemo pw0\n"))


@pytest.mark.parametrize("line", ["OBSERVE demo look", "WATCH demo look", "SIGNON Odemo look"])
def test_observers_need_no_registration(harness: Harness, started: list[str], line: str) -> None:
    body = read(harness.exchange("fan@example.org", f"{line}\n"))
    assert "You are now an observer of game 'demo'." in body
    assert snapshot(harness, "demo").observers == ["fan@example.org"]
    again = read(harness.exchange("fan@example.org", f"{line}\n"))
    assert "Signed on as an observer of game 'demo'." in again
    other = read(harness.exchange("fan@example.org", "OBSERVE demo another\n"))
    assert "You are now an observer of game 'demo'." in other  # a new password, a new observer
    assert snapshot(harness, "demo").observers == ["fan@example.org", "fan@example.org"]


def test_observing_an_unknown_game(harness: Harness) -> None:
    body = read(harness.exchange("fan@example.org", "OBSERVE nosuch look\nVERSION\n"))
    assert "There is no game called 'nosuch'. The rest of this mail was not read." in body
    assert "Diplomacy email judge" not in body


def test_observers_get_the_game_starting_mail(harness: Harness) -> None:
    form_game(harness, players=6)
    harness.exchange("fan@example.org", "OBSERVE demo look\n")
    register(harness, "p6@example.net")
    harness.exchange("p6@example.net", "SIGNON ?demo pw6\n")
    mail = next(m for m in harness.others if str(m["To"]) == "fan@example.org")
    body = read(mail)
    assert body.startswith("Game 'demo' has started.\n\nThe powers have been assigned as follows:")
    assert "You are playing" not in body


def test_letters_follow_the_deal(harness: Harness, started: list[str]) -> None:
    for address, power in powers_of(harness, "demo").items():
        n = started.index(address)
        body = read(harness.exchange(address, f"SIGNON {LETTER[power]}demo pw{n}\n"))
        assert f"Signed on as {power.title()} in game 'demo'." in body
