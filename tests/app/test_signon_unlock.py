"""A forger of a player's address guesses as little as a stranger, and never locks the player out.

A mail speaks for its sender, its ``Reply-To`` else its ``From`` address, and every answer goes
there: a forger of the player's address reads nothing the judge answers. Who may use an unlock
code: a sign-on from one of the power's player's own addresses (a master's for ``M``), with the
code mailed to that address, once. What it reveals, to whom: the code goes in a mail of its own
to that address and nowhere else; the reply to the sign-on is the wrong-password answer, as for
anyone shut out. How many codes: one waits at a
time per power. How many guesses a day the best-placed attacker gets: counted at the end.
"""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest

from judge.app.people.throttle import DAY
from judge.config import (
    DEFAULT_SIGNON_FIRST_LOCKOUT_MINUTES,
    DEFAULT_SIGNON_POWER_FAILURES,
    DEFAULT_SIGNON_POWER_FAILURES_PER_DAY,
    DEFAULT_SIGNON_SENDER_FAILURES,
)
from judge.db.repositories.seats import SeatRepository
from tests.app.conftest import Harness
from tests.app.games_helpers import read
from tests.app.orders_helpers import MASTER, address, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

INVALID = "Invalid password or power, or no such game. The rest of this mail was not read."
FRANCE = address("FRANCE")
FORGER = "forger@evil.example"
CODE = re.compile(r"^SIGNON ([A-Z]demo) <password> ([A-Z0-9]{4}(?:-[A-Z0-9]{4}){3})$", re.M)


def _forge(harness: Harness, line: str, as_address: str = FRANCE) -> str:
    """A mail in the player's name (his address as From, the envelope the forger's): what the
    judge answers, to that address. Each is a new mail (its own Message-ID): the same mail
    delivered again would be a duplicate, carried out once."""
    harness.db.store_inbound_mail(
        (f"From: {as_address}\r\nTo: judge@example.org\r\nSubject: x\r\n"
         f"Message-ID: <{uuid.uuid4().hex}@evil.example>\r\n\r\n"  # each forged mail its own
         f"{line}\r\n").encode(),
        FORGER, ["judge@example.org"], harness.clock.now(),
    )  # fmt: skip
    harness.drain()
    fresh = harness.new_mail()
    replies = [m for m in fresh if as_address in str(m["To"]) and m["In-Reply-To"]]
    assert len(replies) == 1
    return read(replies[0])


def _lock_france(harness: Harness) -> None:
    for _n in range(DEFAULT_SIGNON_POWER_FAILURES):
        assert INVALID in _forge(harness, "SIGNON Fdemo guess")


def _locked_with_a_code(harness: Harness) -> str:
    """A started game, France locked, and the code its player was mailed for a refused sign-on."""
    start_game(harness)
    _lock_france(harness)
    _forge(harness, "SIGNON Fdemo pwfrance")
    return _code(harness)


def _unlock_mails(harness: Harness) -> list[tuple[str, str]]:
    return [(str(m["To"]), read(m)) for m in harness.outbox() if "Sign-on Unlock" in str(m["Subject"])]


def _code(harness: Harness, to: str = FRANCE) -> str:
    found = [CODE.search(body) for recipient, body in _unlock_mails(harness) if recipient == to]
    assert found and found[-1] is not None
    return found[-1].group(2)


def test_a_forger_of_the_player_s_address_is_locked_out_like_anyone(harness: Harness) -> None:
    start_game(harness)
    _lock_france(harness)
    # Even the right password, from the player's own address: refused unchecked.
    assert INVALID in _forge(harness, "SIGNON Fdemo pwfrance")


def test_the_player_gets_a_code_at_his_address_and_the_forger_never_sees_it(harness: Harness) -> None:
    start_game(harness)
    _lock_france(harness)
    reply = _forge(harness, "SIGNON Fdemo pwfrance")
    assert INVALID in reply
    code = _code(harness)
    assert code not in reply
    assert [str(m["To"]) for m in harness.outbox() if code in m.as_string()] == [FRANCE]
    assert all(FORGER not in str(m["To"]) for m in harness.outbox())
    body = _unlock_mails(harness)[0][1]
    assert "A sign-on as France in game 'demo' came from this address while sign-ons there are refused" in body


def test_the_code_lets_the_player_through_once(harness: Harness) -> None:
    code = _locked_with_a_code(harness)
    reply = read(harness.exchange(FRANCE, f"SIGNON Fdemo pwfrance {code}\n"))
    assert "Signed on as France in game 'demo'." in reply
    assert INVALID in read(harness.exchange(FRANCE, f"SIGNON Fdemo pwfrance {code}\n"))


def test_the_code_does_not_open_a_wrong_password(harness: Harness) -> None:
    code = _locked_with_a_code(harness)
    assert INVALID in read(harness.exchange(FRANCE, f"SIGNON Fdemo wrong {code}\n"))


def test_the_code_works_only_from_the_player_s_addresses(harness: Harness) -> None:
    code = _locked_with_a_code(harness)
    assert INVALID in read(harness.exchange("friend@example.net", f"SIGNON Fdemo pwfrance {code}\n"))
    assert "Signed on as France" in read(harness.exchange(FRANCE, f"SIGNON Fdemo pwfrance {code}\n"))


def test_a_made_up_code_passes_nothing(harness: Harness) -> None:
    start_game(harness)
    _lock_france(harness)
    _forge(harness, "SIGNON Fdemo pwfrance")
    assert INVALID in read(harness.exchange(FRANCE, "SIGNON Fdemo pwfrance AAAA-BBBB-CCCC-DDDD\n"))


def test_one_code_waits_at_a_time_so_a_forger_cannot_flood_the_player(harness: Harness) -> None:
    start_game(harness)
    _lock_france(harness)
    for _n in range(5):
        _forge(harness, "SIGNON Fdemo pwfrance")
    assert len(_unlock_mails(harness)) == 1
    code = _code(harness)
    read(harness.exchange(FRANCE, f"SIGNON Fdemo pwfrance {code}\n"))  # used: the next is mailed
    _forge(harness, "SIGNON Fdemo pwfrance")
    assert len(_unlock_mails(harness)) == 2


def test_the_player_shut_out_by_failures_forged_in_his_name_elsewhere_gets_through(harness: Harness) -> None:
    start_game(harness)
    for n in range(DEFAULT_SIGNON_SENDER_FAILURES):
        assert INVALID in _forge(harness, f"SIGNON Fnowhere{n} guess")
    assert INVALID in _forge(harness, "SIGNON Fdemo pwfrance")
    code = _code(harness)
    assert "Signed on as France" in read(harness.exchange(FRANCE, f"SIGNON Fdemo pwfrance {code}\n"))


def test_a_master_locked_out_gets_his_code_too(harness: Harness) -> None:
    start_game(harness)
    for _n in range(DEFAULT_SIGNON_POWER_FAILURES):
        assert INVALID in _forge(harness, "SIGNON Mdemo guess", MASTER)
    assert INVALID in _forge(harness, "SIGNON Mdemo masterpw", MASTER)
    code = _code(harness, MASTER)
    assert "Signed on as master" in read(harness.exchange(MASTER, f"SIGNON Mdemo masterpw {code}\n"))


def test_a_code_still_works_after_another_power_is_sent_one(harness: Harness) -> None:
    """Offering a code clears only codes past their time: France's, mailed first, still lets its
    player through after the master is locked out and mailed his own."""
    code = _locked_with_a_code(harness)
    harness.clock.advance(timedelta(minutes=5))
    for _n in range(DEFAULT_SIGNON_POWER_FAILURES):
        assert INVALID in _forge(harness, "SIGNON Mdemo guess", MASTER)
    assert INVALID in _forge(harness, "SIGNON Mdemo masterpw", MASTER)
    assert _code(harness, MASTER) != code
    # Each mail names its own power's letter in the line to send back.
    lines = {to: CODE.search(body) for to, body in _unlock_mails(harness)}
    assert {to: m.group(1) for to, m in lines.items() if m is not None} == {FRANCE: "Fdemo", MASTER: "Mdemo"}
    assert "Signed on as France in game 'demo'." in read(harness.exchange(FRANCE, f"SIGNON Fdemo pwfrance {code}\n"))


def test_a_lockout_ends_at_its_time_to_the_second(harness: Harness) -> None:
    """Locked at the fifth failure for the first lockout's length: at that very second the player
    signs on again (and the failures, made a window ago, no longer count)."""
    start_game(harness)
    _lock_france(harness)
    harness.clock.advance(timedelta(minutes=DEFAULT_SIGNON_FIRST_LOCKOUT_MINUTES))
    assert "Signed on as France in game 'demo'." in read(harness.exchange(FRANCE, "SIGNON Fdemo pwfrance\n"))


def test_a_stranger_is_mailed_no_code(harness: Harness) -> None:
    start_game(harness)
    _lock_france(harness)
    assert INVALID in read(harness.exchange("friend@example.net", "SIGNON Fdemo pwfrance\n"))
    assert _unlock_mails(harness) == []


def test_a_player_pacing_under_the_hourly_limit_is_locked_by_the_daily_one(harness: Harness) -> None:
    start_game(harness)
    for n in range(DEFAULT_SIGNON_POWER_FAILURES_PER_DAY):
        assert INVALID in read(harness.exchange(f"robot{n}@example.net", "SIGNON Fdemo guess\n"))
        harness.clock.advance(minutes=20)  # three an hour: never the hourly limit
    assert INVALID in read(harness.exchange("friend@example.net", "SIGNON Fdemo pwfrance\n"))


@pytest.mark.parametrize("forged", [True, False])
def test_the_best_placed_attacker_gets_few_guesses_a_day(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, forged: bool
) -> None:
    """The attacker knows the rules and the lockouts (the worst case): he guesses whenever sign-ons
    are open, from the player's own address (forged) or a new address each time, and waits out
    each lockout. Counted: the passwords the judge actually checked."""
    start_game(harness)
    checked: list[object] = []
    check = SeatRepository.check_password

    def counting(self: SeatRepository, seat: object, password: str) -> bool:
        checked.append(harness.clock.now())
        return check(self, seat, password)  # type: ignore[arg-type]

    monkeypatch.setattr(SeatRepository, "check_password", counting)
    start = harness.clock.now()
    per_day: list[int] = []
    for day in (1, 2):
        while harness.clock.now() < start + day * DAY:
            sender = FRANCE if forged else f"stranger{len(checked)}-{harness.clock.now().timestamp()}@example.net"
            harness.exchange(sender, "SIGNON Fdemo guess\n")
            with harness.db.unit_of_work(readonly=True) as uow:
                lock = uow.seats.lockout(uow.games.require("demo"), "FRANCE")
                failures = uow.seats.failures_and_lockout(
                    FRANCE, harness.clock.now() - timedelta(hours=1), None, None
                )[0]
            now = harness.clock.now()
            if lock is not None and lock.until > now:
                harness.clock.advance(seconds=(lock.until - now).total_seconds())
            elif forged and failures >= DEFAULT_SIGNON_SENDER_FAILURES:
                harness.clock.advance(minutes=5)
            else:
                harness.clock.advance(seconds=1)
        per_day.append(sum(1 for at in checked if start + (day - 1) * DAY <= at < start + day * DAY))  # type: ignore[operator]
    print(f"guesses checked per day ({'forged address' if forged else 'strangers'}): {per_day}")
    assert per_day[0] <= 15
    assert per_day[1] <= DEFAULT_SIGNON_POWER_FAILURES
