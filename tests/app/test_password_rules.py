"""New passwords: at least ``password_min_length`` characters, and not among the most common.

Run with the judge's default settings (the app harness relaxes them for its fixtures). Who is
refused: whoever chooses a new password (CREATE, SIGNON ?game joining, a takeover, SET PASSWORD
of a power or a master); the refusal names the rule and reveals nothing else. Existing passwords
are kept: a game's players sign on with theirs as before.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from judge.app.people.password_rules import is_common
from judge.app.session.services import Services
from judge.config import DEFAULT_PASSWORD_COMMON_REFUSED, DEFAULT_PASSWORD_MIN_LENGTH
from tests.app.conftest import Harness
from tests.app.games_helpers import read
from tests.app.identity_helpers import register_simply
from tests.app.orders_helpers import MASTER, address, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

SHORT = f"A new password needs at least {DEFAULT_PASSWORD_MIN_LENGTH} characters. Nothing was changed."
COMMON = (
    "This password is one of the most common ones, the first a guesser tries: choose another. "
    "Nothing was changed."
)
GOOD = "violet-tram-42"


@pytest.fixture
def strict(harness: Harness) -> Harness:
    """The harness with the judge's default password rules."""
    config = replace(
        harness.services.config,
        password_min_length=DEFAULT_PASSWORD_MIN_LENGTH,
        password_common_refused=DEFAULT_PASSWORD_COMMON_REFUSED,
    )
    harness.services = Services(db=harness.db, config=config, clock=harness.clock)
    return harness


def test_the_common_list_ranks_the_usual_suspects() -> None:
    assert is_common("password", 10) and is_common("PASSWORD", 10) and is_common("123456", 1)
    assert is_common("baseball", 20) and not is_common("baseball", 5)
    assert not is_common(GOOD, 30_000)


@pytest.mark.parametrize(
    ("password", "reason"),
    [("a", SHORT), ("1", SHORT), ("seven77", SHORT), ("password", COMMON), ("12345678", COMMON),
     ("Football", COMMON), ("baseball", COMMON)],
)  # fmt: skip
def test_create_refuses_a_weak_password(strict: Harness, password: str, reason: str) -> None:
    register_simply(strict, "creator@example.net", "Creator")
    reply = read(strict.exchange("creator@example.net", f"CREATE ?newgame {password}\n"))
    assert reason in reply
    with strict.db.unit_of_work(readonly=True) as uow:
        assert uow.games.by_name("newgame") is None


def test_create_with_a_good_password(strict: Harness) -> None:
    register_simply(strict, "creator@example.net", "Creator")
    reply = read(strict.exchange("creator@example.net", f"CREATE ?newgame {GOOD}\n"))
    assert SHORT not in reply and COMMON not in reply
    with strict.db.unit_of_work(readonly=True) as uow:
        assert uow.games.by_name("newgame") is not None


def test_joining_refuses_a_weak_password(strict: Harness) -> None:
    register_simply(strict, "creator@example.net", "Creator")
    register_simply(strict, "joiner@example.net", "Joiner")
    strict.exchange("creator@example.net", f"CREATE ?newgame {GOOD}\n")
    assert SHORT in read(strict.exchange("joiner@example.net", "SIGNON ?newgame pw\n"))
    assert COMMON in read(strict.exchange("joiner@example.net", "SIGNON ?newgame qwertyuiop\n"))
    assert "You have joined game 'newgame'" in read(strict.exchange("joiner@example.net", f"SIGNON ?newgame {GOOD}x\n"))


def test_set_password_refuses_a_weak_one_and_keeps_the_old(strict: Harness) -> None:
    start_game(strict)
    reply = read(strict.exchange(address("FRANCE"), "SIGNON Fdemo pwfrance\nSET PASSWORD abc\n"))
    assert SHORT in reply and "Password changed." not in reply
    reply = read(strict.exchange(address("FRANCE"), "SIGNON Fdemo pwfrance\nSET PASSWORD letmein1\n"))
    assert "Password changed." not in reply
    with strict.db.unit_of_work(readonly=True) as uow:
        seat = uow.seats.by_power(uow.games.require("demo"), "FRANCE")
        assert seat is not None and uow.seats.check_password(seat, "pwfrance")


def test_a_master_s_new_password_is_checked_too(strict: Harness) -> None:
    start_game(strict)
    reply = read(strict.exchange(MASTER, "SIGNON Mdemo masterpw\nSET PASSWORD iloveyou\n"))
    assert COMMON in reply


def test_existing_short_passwords_still_sign_on(strict: Harness) -> None:
    start_game(strict)  # pwitaly: seven characters, set before the rule
    assert "Signed on as Italy in game 'demo'." in read(strict.exchange(address("ITALY"), "SIGNON Idemo pwitaly\n"))


def test_no_password_is_common_when_the_rule_is_off() -> None:
    assert not is_common("password", 0)
