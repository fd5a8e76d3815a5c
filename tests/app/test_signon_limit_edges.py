"""The ten-failures-per-sender limit, one rule for every sign-on path, pinned at its edges.

Every path a password is checked on goes through one gate (:func:`judge.app.people.throttle.refused`):
a power's sign-on, a master's, a player signing on again to his own seat with ``SIGNON ?game``,
and a sign-on naming no game or power at all (counted, never checked). The failures counted
come from all of these paths; the limit is tried, with the right password, on each path that
has one: one failure below the limit (checked, signs on), at it and one past it (refused with the
wrong-password answer), and one second before / at the end of the window (a failure counts for
exactly :data:`judge.app.people.throttle.WINDOW`).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from judge.app.people.throttle import WINDOW
from judge.config import DEFAULT_SIGNON_POWER_FAILURES as POWER_LIMIT
from judge.config import DEFAULT_SIGNON_SENDER_FAILURES as SENDER_LIMIT
from tests.app.conftest import Harness
from tests.app.games_helpers import read
from tests.app.orders_helpers import address, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

INVALID = "Invalid password or power, or no such game. The rest of this mail was not read."
SENDER = address("FRANCE")

# The failures, each from one path, in turn; none reaches a power's own limit (POWER_LIMIT).
FAILING = (
    "SIGNON Edemo wrong",  # a power's sign-on
    "SIGNON Mdemo wrong",  # a master's sign-on
    "SIGNON Fnowhere wrong",  # no such game
    "SIGNON ?demo wrong",  # the player's own seat again
    "SIGNON Gdemo wrong",
    "SIGNON Zdemo wrong",  # no such power
)

# Each path with a password to check: the right one, and what the reply says when it is checked.
CHECKS = {
    "power": ("SIGNON Fdemo pwfrance", "Signed on as France in game 'demo'."),
    "master": ("SIGNON Mdemo masterpw", "Signed on as master of game 'demo'."),
    "rejoin": ("SIGNON ?demo pwfrance", "Signed on as France in game 'demo'."),
}


def _fail(harness: Harness, count: int) -> None:
    for n in range(count):
        assert INVALID in read(harness.exchange(SENDER, FAILING[n % len(FAILING)] + "\n"))


def _try(harness: Harness, path: str) -> str:
    line, _signed_on = CHECKS[path]
    return read(harness.exchange(SENDER, line + "\n"))


def test_no_power_reaches_its_own_limit_in_these_tests() -> None:
    for line in set(FAILING):
        assert sum(1 for n in range(SENDER_LIMIT + 1) if FAILING[n % len(FAILING)] == line) < POWER_LIMIT


@pytest.mark.parametrize("path", sorted(CHECKS))
def test_one_failure_below_the_limit_the_password_is_checked(harness: Harness, path: str) -> None:
    start_game(harness)
    _fail(harness, SENDER_LIMIT - 1)
    assert CHECKS[path][1] in _try(harness, path)


@pytest.mark.parametrize("path", sorted(CHECKS))
@pytest.mark.parametrize("failures", [SENDER_LIMIT, SENDER_LIMIT + 1])
def test_at_the_limit_and_past_it_even_the_right_password_is_refused(
    harness: Harness, path: str, failures: int
) -> None:
    start_game(harness)
    _fail(harness, failures)
    reply = _try(harness, path)
    assert INVALID in reply
    assert CHECKS[path][1] not in reply


@pytest.mark.parametrize("path", sorted(CHECKS))
def test_a_failure_counts_until_one_second_before_the_window_ends(harness: Harness, path: str) -> None:
    start_game(harness)
    _fail(harness, SENDER_LIMIT)
    harness.clock.advance(WINDOW - timedelta(seconds=1))
    assert INVALID in _try(harness, path)


@pytest.mark.parametrize("path", sorted(CHECKS))
def test_at_the_window_s_end_the_failures_no_longer_count(harness: Harness, path: str) -> None:
    start_game(harness)
    _fail(harness, SENDER_LIMIT)
    harness.clock.advance(WINDOW)
    assert CHECKS[path][1] in _try(harness, path)
