"""SET PREFERENCE, SET PASSWORD, SET ADDRESS, SET WAIT/NOWAIT: who may, when, and what changes."""

from __future__ import annotations

import pytest

from judge.db.enums import AuditKind
from tests.app.conftest import Harness, one_text
from tests.app.games_helpers import form_game, read, register, snapshot
from tests.app.identity_helpers import add_address

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


@pytest.fixture
def started(harness: Harness) -> list[str]:
    addresses = form_game(harness, preferences={0: "F", 1: "E"})
    harness.new_mail()
    return addresses


def _seat(harness: Harness, power: str) -> dict[str, object]:
    with harness.db.unit_of_work(readonly=True) as uow:
        seat = uow.seats.by_power(uow.games.require("demo"), power)
        assert seat is not None
        return {"wait": seat.wait, "report_address": seat.report_address, "hash": seat.password_hash}


# -- SET PREFERENCE ----------------------------------------------------------------------------


def test_preferences_are_stored_in_short_form(harness: Harness) -> None:
    register(harness, "a@example.net")
    body = read(harness.exchange("a@example.net", "CREATE ?demo pw\nSET PREFERENCE f[ergti]a\n"))
    assert "Preference list set: France, England = Russia = Germany = Turkey = Italy, Austria." in body
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.games.require("demo").seats[0].preferences == "F[ERGTI]A"
    body = read(harness.exchange("a@example.net", "SIGNON ?demo pw\nSET PREFERENCE *\n"))
    assert "Preference list set: any power, at random." in body


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("SET PREFERENCE FXE", "Unknown power letter -> X (this variant has AEFGIRT)"),
        ("SET PREFERENCE F[EF]", "Power F appears twice in the preference list."),
    ],
)
def test_bad_preference_lists_are_refused(harness: Harness, line: str, message: str) -> None:
    register(harness, "a@example.net")
    harness.exchange("a@example.net", "CREATE ?demo pw\nSET PREFERENCE R\n")
    reply = harness.exchange("a@example.net", f"SIGNON ?demo pw\n{line}\n")
    assert message in read(reply)
    assert "[Error Flag]" in reply["Subject"]
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.games.require("demo").seats[0].preferences == "R"


def test_preferences_after_the_deal_are_refused(harness: Harness, started: list[str]) -> None:
    body = read(harness.exchange(started[0], "SIGNON Fdemo pw0\nSET PREFERENCE E\n"))
    assert "The powers have already been dealt" in body


def test_preferences_need_a_signon(harness: Harness) -> None:
    assert "SET PREFERENCE needs a SIGNON" in read(harness.exchange("x@example.net", "SET PREFERENCE F\n"))


# -- SET PASSWORD --------------------------------------------------------------------------------


def test_set_password_changes_the_seat_password(harness: Harness, started: list[str]) -> None:
    body = read(harness.exchange(started[0], "SIGNON Fdemo pw0\nSET PASSWORD better\n"))
    assert "Password changed." in body
    assert "better" not in str(_seat(harness, "FRANCE")["hash"])
    assert "Invalid password" in read(harness.exchange(started[0], "SIGNON Fdemo pw0\n"))
    assert "Signed on as France" in read(harness.exchange(started[0], "SIGNON Fdemo better\n"))
    assert harness.others == []  # not announced


def test_set_password_for_masters_and_observers(harness: Harness, started: list[str]) -> None:
    register(harness, "gm@example.net")
    with harness.db.unit_of_work() as uow:
        person = uow.people.by_address("gm@example.net")
        assert person is not None
        uow.games.add_master(uow.games.require("demo"), person, "mpw", harness.clock.now())
    harness.exchange("gm@example.net", "SIGNON Mdemo mpw\nSET PASSWORD newm\n")
    assert "Signed on as master" in read(harness.exchange("gm@example.net", "SIGNON Mdemo newm\n"))
    harness.exchange("fan@example.org", "OBSERVE demo look\nSET PASSWORD seen\n")
    assert "Signed on as an observer" in read(harness.exchange("fan@example.org", "OBSERVE demo seen\n"))
    assert snapshot(harness, "demo").observers == ["fan@example.org"]


def test_set_password_needs_a_signon(harness: Harness) -> None:
    assert "SET PASSWORD needs a SIGNON first" in read(harness.exchange("x@example.net", "SET PASSWORD a\n"))


# -- SET ADDRESS --------------------------------------------------------------------------------------


def test_set_address_redirects_the_games_mail_and_is_announced(harness: Harness, started: list[str]) -> None:
    add_address(harness, started[0], "work@example.com")
    add_address(harness, started[0], "home@example.com")
    harness.new_mail()
    reply = harness.exchange(started[0], "SIGNON Fdemo pw0\nSET ADDRESS Work@Example.com,home@example.com\n")
    assert "Mail about game 'demo' will now go to work@example.com, home@example.com." in read(reply)
    assert [str(m["To"]) for m in [reply, *harness.copies]] == [started[0], "work@example.com", "home@example.com"]
    assert all(read(copy) == read(reply) for copy in harness.copies)  # one mail each, the same reply
    assert _seat(harness, "FRANCE")["report_address"] == "work@example.com,home@example.com"
    notice = [one_text([m for m in harness.others if m["Subject"] == "XPY:demo - S1901M Player Address Change: F"])]
    assert read(notice[0]) == "The address of France in game 'demo' is now work@example.com, home@example.com.\n"
    assert started[0] not in str(notice[0]["To"])
    with harness.db.unit_of_work(readonly=True) as uow:
        events = uow.audit.for_game(uow.games.require("demo"), kind=AuditKind.SETTING)
        assert [(e.setting, e.new_value) for e in events] == [
            ("report_address", "work@example.com,home@example.com")
        ]


def test_set_address_alone_means_the_senders_address(harness: Harness, started: list[str]) -> None:
    harness.exchange(started[0], "SIGNON Fdemo pw0\nSET ADDRESS\n")
    assert _seat(harness, "FRANCE")["report_address"] == started[0]


def test_gunboat_address_changes_are_not_announced(harness: Harness) -> None:
    for n in range(7):
        register(harness, f"p{n}@example.net")
    harness.exchange("p0@example.net", "CREATE ?gb pw0 standard gunboat\nSET PREFERENCE F\n")
    for n in range(1, 7):
        harness.exchange(f"p{n}@example.net", f"SIGNON ?gb pw{n} standard gunboat\n")
    harness.new_mail()
    harness.exchange("p0@example.net", "SIGNON Fgb pw0\nSET ADDRESS w@example.com\n")
    assert harness.others == []


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("SET ADDRESS not-an-address", "This is not a mail address: not-an-address"),
        ("SET ADDRESS a@x.org,b@x.org,c@x.org", "SET ADDRESS takes at most two addresses"),
    ],
)
def test_bad_addresses_are_refused(harness: Harness, started: list[str], line: str, message: str) -> None:
    reply = harness.exchange(started[0], f"SIGNON Fdemo pw0\n{line}\n")
    assert message in read(reply)
    assert _seat(harness, "FRANCE")["report_address"] == ""
    assert harness.others == []


def test_observers_cannot_set_an_address(harness: Harness, started: list[str]) -> None:
    body = read(harness.exchange("fan@example.org", "OBSERVE demo look\nSET ADDRESS a@example.org\n"))
    assert "SET ADDRESS is for a player signed on to a game." in body


# -- SET WAIT / NOWAIT ------------------------------------------------------------------------------


def test_wait_and_nowait(harness: Harness, started: list[str]) -> None:
    body = read(harness.exchange(started[0], "SIGNON Fdemo pw0\nSET WAIT\n"))
    assert "WAIT set: the phase will not be processed before its deadline." in body
    assert _seat(harness, "FRANCE")["wait"] is True
    assert _seat(harness, "ENGLAND")["wait"] is False
    body = read(harness.exchange(started[0], "SIGNON Fdemo pw0\nSET NOWAIT\n"))
    assert "WAIT cleared" in body
    assert _seat(harness, "FRANCE")["wait"] is False


def test_wait_before_the_start_is_refused(harness: Harness) -> None:
    register(harness, "a@example.net")
    body = read(harness.exchange("a@example.net", "CREATE ?demo pw\nSET WAIT\n"))
    assert "SET WAIT and SET NOWAIT are for a player signed on to a power." in body


def test_observers_cannot_wait(harness: Harness, started: list[str]) -> None:
    body = read(harness.exchange("fan@example.org", "OBSERVE demo look\nSET WAIT\n"))
    assert "SET WAIT and SET NOWAIT are for a player signed on to a power." in body
