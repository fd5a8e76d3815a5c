"""Throttled guessing: failed sign-ons are counted in the database, per power and per sender.

Who is shut out: after 5 failures in an hour (or 10 in a day) for one power, every sender, the
power's own addresses included (anyone can forge them); after 10 failures in an hour from one
sender, that sender, in every game. What a shut-out sender learns: the answer of a wrong password,
even when the password is right. Who is told: the game's masters and the power's player, once per
lockout. How the player gets through: see tests/app/test_signon_unlock.py.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from judge.app.session.services import Services
from judge.config import DEFAULT_SIGNON_FIRST_LOCKOUT_MINUTES
from tests.app.conftest import Harness
from tests.app.games_helpers import read
from tests.app.orders_helpers import MASTER, address, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

INVALID = "Invalid password or power, or no such game. The rest of this mail was not read."
FRANCE = address("FRANCE")
FIRST_LOCKOUT = timedelta(minutes=DEFAULT_SIGNON_FIRST_LOCKOUT_MINUTES)


def _guess(harness: Harness, sender: str, password: str = "guess") -> str:
    reply = harness.exchange(sender, f"SIGNON Fdemo {password}\n")
    return read(reply)


def _five_failures(harness: Harness) -> None:
    for n in range(5):
        assert INVALID in _guess(harness, f"robot{n}@example.net")


def _lockout_mail(harness: Harness) -> list[tuple[str, str]]:
    return [(str(m["To"]), read(m)) for m in harness.others if "Sign-on Lockout" in str(m["Subject"])]


def test_after_five_failures_even_the_right_password_gets_the_wrong_password_answer(harness: Harness) -> None:
    start_game(harness)
    _five_failures(harness)
    reply = harness.exchange("robot9@example.net", "SIGNON Fdemo pwfrance\nSET PASSWORD mine\n")
    assert "[Error Flag]" in reply["Subject"]
    assert INVALID in read(reply)
    assert "Signed on" not in read(reply)
    with harness.db.unit_of_work(readonly=True) as uow:
        seat = uow.seats.by_power(uow.games.require("demo"), "FRANCE")
        assert seat is not None and uow.seats.check_password(seat, "pwfrance")


def test_the_player_s_own_address_is_locked_out_too(harness: Harness) -> None:
    start_game(harness)
    _five_failures(harness)
    assert INVALID in _guess(harness, FRANCE, "pwfrance")


def test_the_master_and_the_player_are_told_once_per_lockout(harness: Harness) -> None:
    start_game(harness)
    for n in range(4):
        _guess(harness, f"robot{n}@example.net")
        assert _lockout_mail(harness) == []
    _guess(harness, "robot4@example.net")
    told = dict(_lockout_mail(harness))
    assert set(told) == {MASTER, FRANCE}
    assert told[FRANCE] == (
        "Sign-ons as France in game 'demo' are refused until Mon Nov 23 2026 10:00:00 +0000: too many "
        "wrong passwords were given. The player can still sign on: a sign-on from one of his own "
        "addresses is mailed a one-time code that lets it through. If the password may be known, "
        "change it with SET PASSWORD.\n"
    )
    for n in range(5, 9):
        _guess(harness, f"robot{n}@example.net")
        assert _lockout_mail(harness) == []


def test_the_lockout_ends_and_the_next_one_lasts_twice_as_long(harness: Harness) -> None:
    start_game(harness)
    _five_failures(harness)
    harness.clock.advance(FIRST_LOCKOUT + timedelta(minutes=1))
    assert "Signed on as France" in _guess(harness, "friend@example.net", "pwfrance")
    _five_failures(harness)
    with harness.db.unit_of_work(readonly=True) as uow:
        lock = uow.seats.lockout(uow.games.require("demo"), "FRANCE")
        assert lock is not None
        assert lock.strikes == 2
        assert lock.until - lock.started_at == 2 * FIRST_LOCKOUT


def test_one_sender_is_shut_out_after_ten_failures_in_any_games(harness: Harness) -> None:
    start_game(harness)
    for n in range(10):
        assert INVALID in read(harness.exchange(FRANCE, f"SIGNON Fgame{n} guess\n"))
    assert INVALID in _guess(harness, FRANCE, "pwfrance")  # even their own power, even the right password
    harness.clock.advance(hours=1, minutes=1)
    assert "Signed on as France" in _guess(harness, FRANCE, "pwfrance")


def test_a_restart_forgets_nothing(harness: Harness) -> None:
    start_game(harness)
    _five_failures(harness)
    # A new process on the same database: new services, nothing kept in memory.
    harness.services = Services(db=harness.db, config=harness.services.config, clock=harness.clock)
    assert INVALID in _guess(harness, "robot9@example.net", "pwfrance")


def test_master_sign_ons_are_throttled_too(harness: Harness) -> None:
    start_game(harness)
    for n in range(5):
        assert INVALID in read(harness.exchange(f"robot{n}@example.net", "SIGNON Mdemo guess\n"))
    assert INVALID in read(harness.exchange("robot9@example.net", "SIGNON Mdemo masterpw\n"))
    assert INVALID in read(harness.exchange(MASTER, "SIGNON Mdemo masterpw\n"))


@pytest.mark.engine_sql
def test_failures_older_than_a_day_are_forgotten(harness: Harness) -> None:
    from judge.db.models import SignonFailure

    start_game(harness)
    _guess(harness, "robot0@example.net")
    harness.clock.advance(hours=25)
    _guess(harness, "robot1@example.net")
    with harness.db.unit_of_work(readonly=True) as uow:
        assert [row.sender for row in uow.session.query(SignonFailure).all()] == ["robot1@example.net"]


def test_the_lockout_mail_names_the_locked_power_by_its_letter(harness: Harness) -> None:
    """The subject says which power is locked: France's letter for France, M for the master."""
    start_game(harness)
    _five_failures(harness)  # the fifth failure's mail tells of the lockout
    france = [str(m["Subject"]) for m in harness.others if "Sign-on Lockout" in str(m["Subject"])]
    assert france and all(subject.endswith("Sign-on Lockout: F") for subject in france), france
    for n in range(5):
        harness.exchange(f"robot{n}@example.net", "SIGNON Mdemo guess\n")
    master = [str(m["Subject"]) for m in harness.others if "Sign-on Lockout" in str(m["Subject"])]
    assert master and all(subject.endswith("Sign-on Lockout: M") for subject in master), master
