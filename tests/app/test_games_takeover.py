"""RESIGN, and the takeover of an open power (the Judge's way of replacing a player)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from judge.app.phases.guarded_scheduler import process_due
from judge.db.enums import AuditKind, SeatStatus
from judge.db.models import TakeoverRequest
from tests.app.conftest import Harness, one_text
from tests.app.games_helpers import form_game, read, register, snapshot
from tests.app.orders_helpers import MASTER
from tests.app.orders_helpers import address as power_address
from tests.app.orders_helpers import start_game as start_standard

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


@pytest.fixture
def started(harness: Harness) -> list[str]:
    addresses = form_game(harness, preferences={0: "F", 1: "E"})
    harness.new_mail()
    return addresses


def _status(harness: Harness, power: str) -> tuple[str | None, str]:
    for address, seat_power, status in snapshot(harness, "demo").seats:
        if seat_power == power:
            return address, status
    raise AssertionError(power)


def test_resign_opens_the_power_and_tells_the_game(harness: Harness, started: list[str]) -> None:
    harness.exchange("fan@example.org", "OBSERVE demo look\n")
    reply = harness.exchange(started[0], "SIGNON Fdemo pw0\nRESIGN\n")
    body = read(reply)
    assert "You have resigned from game 'demo': France is now open for anyone to take over." in body
    assert _status(harness, "FRANCE") == (started[0], "resigned")
    notices = [one_text([m for m in harness.others if m["Subject"] == "XPY:demo - S1901M Resignation: France"])]
    to = {a.strip() for a in str(notices[0]["To"]).split(",")}
    assert to == {*started[1:], "fan@example.org"}
    assert read(notices[0]) == (
        "France has resigned from game 'demo'. Anyone registered who is not in the game "
        "may take it over with: SIGNON Fdemo password\n"
    )
    with harness.db.unit_of_work(readonly=True) as uow:
        person = uow.people.by_address(started[0])
        assert person is not None and person.resignations == 1


def test_nothing_after_resign_is_read(harness: Harness, started: list[str]) -> None:
    body = read(harness.exchange(started[0], "SIGNON Fdemo pw0\nRESIGN\nVERSION\n"))
    assert "RESIGN must be the last command of a mail: the lines after it were not read." in body
    assert "Diplomacy email judge" not in body


def test_quiet_games_tell_only_the_masters(harness: Harness, started: list[str]) -> None:
    register(harness, "gm@example.net")
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        game.quiet = True
        person = uow.people.by_address("gm@example.net")
        assert person is not None
        uow.games.add_master(game, person, "mpw", harness.clock.now())
    harness.exchange(started[0], "SIGNON Fdemo pw0\nRESIGN\n")
    notices = [m for m in harness.others if "Resignation" in m["Subject"]]
    assert [str(m["To"]) for m in notices] == ["gm@example.net"]


def test_resign_before_the_start_gives_the_seat_back(harness: Harness) -> None:
    register(harness, "a@example.net")
    register(harness, "b@example.net")
    harness.exchange("a@example.net", "CREATE ?demo pw\n")
    harness.exchange("b@example.net", "SIGNON ?demo pw\n")
    body = read(harness.exchange("b@example.net", "SIGNON ?demo pw\nRESIGN\n"))
    assert "You have left game 'demo'. Players still needed: 6." in body
    assert snapshot(harness, "demo").seats == [("a@example.net", None, "waiting")]


def test_a_master_cannot_resign(harness: Harness, started: list[str]) -> None:
    register(harness, "gm@example.net")
    with harness.db.unit_of_work() as uow:
        person = uow.people.by_address("gm@example.net")
        assert person is not None
        uow.games.add_master(uow.games.require("demo"), person, "mpw", harness.clock.now())
    body = read(harness.exchange("gm@example.net", "SIGNON Mdemo mpw\nRESIGN\n"))
    assert "A master leaves a game by EJECTing himself; RESIGN is for players." in body


def test_an_observer_who_resigns_stops_observing(harness: Harness, started: list[str]) -> None:
    harness.exchange("fan@example.org", "OBSERVE demo look\n")
    body = read(harness.exchange("fan@example.org", "OBSERVE demo look\nRESIGN\n"))
    assert "You no longer observe game 'demo'." in body
    assert snapshot(harness, "demo").observers == []


def test_resign_needs_a_signon(harness: Harness) -> None:
    assert "RESIGN needs a SIGNON first" in read(harness.exchange("x@example.net", "RESIGN\n"))


def test_takeover_of_a_resigned_power_with_any_password(harness: Harness, started: list[str]) -> None:
    harness.exchange(started[0], "SIGNON Fdemo pw0\nRESIGN\n")
    register(harness, "new@example.net")
    harness.clock.advance(timedelta(days=5))  # Saturday 09:00: + 71 h is Tuesday 08:00
    reply = harness.exchange("new@example.net", "SIGNON Fdemo fresh\n")
    body = read(reply)
    assert "You have taken over France in game 'demo'. The password you gave is now this power's." in body
    assert "WAIT is set for you" in body
    assert _status(harness, "FRANCE") == ("new@example.net", "playing")
    notices = [one_text([m for m in harness.others if m["Subject"] == "XPY:demo - S1901M New Player Signon: F"])]
    assert "new@example.net" not in str(notices[0]["To"])
    assert read(notices[0]).startswith(
        "France has been taken over by a new player (new@example.net) in game 'demo'.\n"
        "No power is left without a player: the new deadline is "
    )
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        seat = uow.seats.by_power(game, "FRANCE")
        assert seat is not None
        assert seat.wait
        assert uow.seats.check_password(seat, "fresh")
        assert not uow.seats.check_password(seat, "pw0")
        assert [t.how for t in seat.tenures] == ["join", "takeover"]
        assert [e.new_value for e in uow.audit.for_game(game, kind=AuditKind.TAKEOVER)] == ["FRANCE"]
        assert all(s.wait for s in game.seats if s.status is SeatStatus.PLAYING)
        # A fresh deadline, counted from the takeover and never earlier than the old one.
        assert game.deadline_at is not None
        assert game.deadline_at.replace(tzinfo=UTC) == datetime(2026, 12, 1, 23, 30, tzinfo=UTC)
        assert game.next_due_at is not None
        person = uow.people.by_address("new@example.net")
        assert person is not None and person.takeovers == 1


def test_takeover_with_other_powers_still_open_keeps_the_deadline(harness: Harness, started: list[str]) -> None:
    harness.exchange(started[0], "SIGNON Fdemo pw0\nRESIGN\n")
    harness.exchange(started[1], "SIGNON Edemo pw1\nRESIGN\n")
    with harness.db.unit_of_work(readonly=True) as uow:
        before = uow.games.require("demo").deadline_at
    register(harness, "new@example.net")
    harness.exchange("new@example.net", "SIGNON Fdemo fresh\n")
    notice = next(m for m in harness.others if "New Player Signon" in m["Subject"])
    assert "new deadline" not in read(notice)
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.games.require("demo").deadline_at == before


def test_join_on_a_started_game_takes_the_first_open_power(harness: Harness, started: list[str]) -> None:
    harness.exchange(started[0], "SIGNON Fdemo pw0\nRESIGN\n")
    register(harness, "new@example.net")
    body = read(harness.exchange("new@example.net", "SIGNON ?demo fresh\n"))
    assert "You have taken over France in game 'demo'." in body


def test_takeover_refusals_leave_the_power_open(harness: Harness, started: list[str]) -> None:
    harness.exchange(started[0], "SIGNON Fdemo pw0\nRESIGN\n")
    body = read(harness.exchange("stranger@example.org", "SIGNON Fdemo any\n"))
    assert "Only registered players may take over a power" in body
    body = read(harness.exchange(started[1], "SIGNON Fdemo any\n"))
    assert "You already play in game 'demo': one power per player." in body
    assert _status(harness, "FRANCE") == (started[0], "resigned")


def test_the_player_of_an_abandoned_power_comes_back_with_their_password(
    harness: Harness, started: list[str]
) -> None:
    with harness.db.unit_of_work() as uow:
        seat = uow.seats.by_power(uow.games.require("demo"), "FRANCE")
        assert seat is not None
        uow.seats.set_status(seat, SeatStatus.ABANDONED)
    body = read(harness.exchange(started[0], "SIGNON Fdemo pw0\n"))
    assert "Signed on as France in game 'demo'." in body
    assert "Welcome back: France is no longer left without a player." in body
    assert _status(harness, "FRANCE") == (started[0], "playing")


def test_a_low_dedication_cannot_take_over(harness: Harness, started: list[str]) -> None:
    harness.exchange(started[0], "SIGNON Fdemo pw0\nRESIGN\n")
    register(harness, "new@example.net")
    with harness.db.unit_of_work() as uow:
        uow.games.require("demo").min_dedication = 5
    body = read(harness.exchange("new@example.net", "SIGNON Fdemo fresh\n"))
    assert "Game 'demo' requires a dedication of at least 5; yours is 0." in body
    assert _status(harness, "FRANCE") == (started[0], "resigned")


def test_a_resigned_player_who_joins_again_gets_the_power_back(harness: Harness, started: list[str]) -> None:
    harness.exchange(started[0], "SIGNON Fdemo pw0\nRESIGN\n")
    body = read(harness.exchange(started[0], "SIGNON ?demo pw0\n"))
    assert "Signed on as France in game 'demo'." in body
    assert "Welcome back: France is no longer left without a player." in body
    assert _status(harness, "FRANCE") == (started[0], "playing")


# -- takeover as the rules mean it ----------------------------------------------------------------
#
# Who may take a power over: a registered newcomer, and only a power whose player has gone under the
# rules (resigned, ejected, abandoned at the end of grace). What a refused outsider learns: the answer
# of a wrong password, nothing more.

INVALID = "Invalid password or power, or no such game. The rest of this mail was not read."
OPENINGS_BUT_TURKEY = {
    "AUSTRIA": "A VIE H\nA BUD H\nF TRI H\n", "ENGLAND": "F LON H\nF EDI H\nA LVP H\n",
    "FRANCE": "A PAR H\nA MAR H\nF BRE H\n", "GERMANY": "A BER H\nA MUN H\nF KIE H\n",
    "ITALY": "A ROM H\nA VEN H\nF NAP H\n", "RUSSIA": "A MOS H\nA WAR H\nF SEV H\nF STP/SC H\n",
}  # fmt: skip


def _seat(harness: Harness, power: str) -> tuple[str | None, str]:
    with harness.db.unit_of_work(readonly=True) as uow:
        seat = uow.seats.by_power(uow.games.require("demo"), power)
        assert seat is not None
        return (seat.person.primary_address if seat.person else None), seat.status.value


def _miss_turkey_until_grace(harness: Harness, *, nmr: bool) -> None:
    """Everyone but Turkey orders; the clock runs to the end of grace, the scheduler as the judge would."""
    game = start_standard(harness, settings={"nmr": nmr})
    for power, orders in OPENINGS_BUT_TURKEY.items():
        game.orders(power, orders)
    with harness.db.unit_of_work(readonly=True) as uow:
        row = uow.games.require("demo")
        assert row.deadline_at is not None and row.grace_at is not None
        deadline, grace = row.deadline_at, row.grace_at
    for moment in (deadline, grace - timedelta(hours=24), grace):
        harness.clock.set(max(moment, harness.clock.now()))
        process_due(harness.services)
    harness.new_mail()


def test_a_power_in_civil_disorder_is_not_open_to_outsiders(harness: Harness) -> None:
    _miss_turkey_until_grace(harness, nmr=True)
    assert _seat(harness, "TURKEY") == (power_address("TURKEY"), "civil_disorder")
    register(harness, "outsider@example.net")
    reply = harness.exchange("outsider@example.net", "SIGNON Tdemo anything\n")
    assert "[Error Flag]" in reply["Subject"]
    assert INVALID in read(reply)
    assert _seat(harness, "TURKEY") == (power_address("TURKEY"), "civil_disorder")
    assert harness.others == []


def test_the_player_of_a_power_in_civil_disorder_signs_back_on_with_their_password(harness: Harness) -> None:
    _miss_turkey_until_grace(harness, nmr=True)
    reply = harness.exchange(power_address("TURKEY"), "SIGNON Tdemo pwturkey\n")
    body = read(reply)
    assert "Signed on as Turkey in game 'demo'." in body
    assert "Welcome back: Turkey is no longer left without a player." in body
    assert _seat(harness, "TURKEY") == (power_address("TURKEY"), "playing")


def test_an_abandoned_power_is_taken_over_and_its_player_told(harness: Harness) -> None:
    _miss_turkey_until_grace(harness, nmr=False)
    assert _seat(harness, "TURKEY") == (power_address("TURKEY"), "abandoned")
    register(harness, "new@example.net")
    reply = harness.exchange("new@example.net", "SIGNON Tdemo fresh\n")
    assert "You have taken over Turkey in game 'demo'." in read(reply)
    assert _seat(harness, "TURKEY") == ("new@example.net", "playing")
    told = one_text([m for m in harness.others if m["To"] == power_address("TURKEY") and "Takeover" in m["Subject"]])
    assert told["Subject"] == "XPY:demo - S1901M Takeover: T"
    assert read(told) == (
        "Turkey in game 'demo', which you played, has been taken over by a new player. "
        "Your password no longer opens it.\n"
    )
    with harness.db.unit_of_work(readonly=True) as uow:
        events = uow.audit.for_game(uow.games.require("demo"), kind=AuditKind.TAKEOVER)
        assert [(e.actor, e.new_value) for e in events] == [("new@example.net", "TURKEY")]


def _moderated_with_turkey_resigned(harness: Harness) -> None:
    game = start_standard(harness, settings={"moderated": True})
    game.orders("TURKEY", "RESIGN\n")
    register(harness, "new@example.net")
    harness.new_mail()


def test_in_a_moderated_game_a_takeover_waits_for_the_master(harness: Harness) -> None:
    _moderated_with_turkey_resigned(harness)
    reply = harness.exchange("new@example.net", "SIGNON Tdemo fresh\nSET PASSWORD other\n")
    body = read(reply)
    assert "[Error Flag]" not in reply["Subject"]
    assert (
        "Game 'demo' is moderated: your takeover of Turkey waits for its master's approval. You will "
        "be told by mail; if the master approves, the password you gave becomes the power's. The rest "
        "of this mail was not read."
    ) in body
    assert _seat(harness, "TURKEY") == (power_address("TURKEY"), "resigned")
    asked = one_text(harness.others)
    assert asked["To"] == MASTER and asked["Subject"] == "XPY:demo - S1901M Takeover Request: T"
    assert read(asked) == (
        "New <new@example.net> asks to take over Turkey in game 'demo'.\n"
        "Dedication 0, turns on time 0 of 0, civil disorders 0.\n"
        "Sign on as master and send APPROVE T or REFUSE T.\n"
    )
    again = harness.exchange("new@example.net", "SIGNON Tdemo fresh\n")
    assert "Your takeover of Turkey in game 'demo' already waits for the master's decision." in read(again)
    register(harness, "second@example.net")
    other = harness.exchange("second@example.net", "SIGNON Tdemo x\n")
    assert "A takeover of Turkey in game 'demo' already waits for the master's decision." in read(other)
    assert harness.others == []


def test_the_master_approves_and_everyone_concerned_is_told(harness: Harness) -> None:
    _moderated_with_turkey_resigned(harness)
    harness.exchange("new@example.net", "SIGNON Tdemo fresh\n")
    reply = harness.exchange(MASTER, "SIGNON Mdemo masterpw\nAPPROVE T\n")
    assert (
        "Approved: New <new@example.net> now plays Turkey; they, the previous player and the game "
        "have been told."
    ) in read(reply)
    assert _seat(harness, "TURKEY") == ("new@example.net", "playing")
    newcomer = [m for m in harness.others if m["To"] == "new@example.net"]
    assert [read(m) for m in newcomer] == [
        "The master of game 'demo' approved your takeover: you now play Turkey, with the password you "
        "gave. WAIT is set for you. Sign on with SIGNON Tdemo and that password.\n"
    ]
    assert any(m["To"] == power_address("TURKEY") and "Takeover: T" in m["Subject"] for m in harness.others)
    assert any("New Player Signon: T" in m["Subject"] for m in harness.others)
    assert "Signed on as Turkey" in read(harness.exchange("new@example.net", "SIGNON Tdemo fresh\n"))
    with harness.db.unit_of_work(readonly=True) as uow:
        events = uow.audit.for_game(uow.games.require("demo"), kind=AuditKind.TAKEOVER)
        assert [e.detail for e in events] == [
            "requested, waiting for the master", None, "approved by the master (new@example.net)",
        ]


def test_the_master_refuses_and_the_power_stays_open(harness: Harness) -> None:
    _moderated_with_turkey_resigned(harness)
    harness.exchange("new@example.net", "SIGNON Tdemo fresh\n")
    reply = harness.exchange(MASTER, "SIGNON Mdemo masterpw\nREFUSE turkey\n")
    assert "Refused: New <new@example.net> does not take over Turkey; they have been told." in read(reply)
    told = one_text(harness.others)
    assert told["To"] == "new@example.net"
    assert read(told) == "The master of game 'demo' refused your takeover of Turkey.\n"
    assert _seat(harness, "TURKEY") == (power_address("TURKEY"), "resigned")
    assert "No takeover of Turkey waits" in read(harness.exchange(MASTER, "SIGNON Mdemo masterpw\nAPPROVE T\n"))


def test_only_the_master_may_approve(harness: Harness) -> None:
    _moderated_with_turkey_resigned(harness)
    harness.exchange("new@example.net", "SIGNON Tdemo fresh\n")
    for sender, body in (
        (power_address("FRANCE"), "SIGNON Fdemo pwfrance\nAPPROVE T\n"),
        ("new@example.net", "APPROVE T\n"),
    ):
        reply = harness.exchange(sender, body)
        assert "APPROVE is for the master of a game" in read(reply)
    assert _seat(harness, "TURKEY") == (power_address("TURKEY"), "resigned")


def test_a_power_approved_in_advance_is_taken_over_at_once(harness: Harness) -> None:
    _moderated_with_turkey_resigned(harness)
    harness.exchange(MASTER, "SIGNON Mdemo masterpw\nSET APPROVED T\n")
    reply = harness.exchange("new@example.net", "SIGNON Tdemo fresh\n")
    assert "You have taken over Turkey in game 'demo'." in read(reply)


def test_a_request_whose_power_came_back_is_withdrawn(harness: Harness) -> None:
    _moderated_with_turkey_resigned(harness)
    harness.exchange("new@example.net", "SIGNON Tdemo fresh\n")
    harness.exchange(power_address("TURKEY"), "SIGNON Tdemo pwturkey\n")
    reply = harness.exchange(MASTER, "SIGNON Mdemo masterpw\nAPPROVE T\n")
    assert "Turkey is no longer open for takeover in game 'demo': the request is withdrawn." in read(reply)
    assert _seat(harness, "TURKEY") == (power_address("TURKEY"), "playing")


def test_the_master_opens_a_power_in_civil_disorder_by_ejecting_its_player(harness: Harness) -> None:
    _miss_turkey_until_grace(harness, nmr=True)
    reply = harness.exchange(MASTER, "SIGNON Mdemo masterpw\nEJECT T\n")
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    assert _seat(harness, "TURKEY") == (power_address("TURKEY"), "abandoned")
    register(harness, "new@example.net")
    assert "You have taken over Turkey" in read(harness.exchange("new@example.net", "SIGNON Tdemo fresh\n"))


@pytest.mark.engine_sql
def test_the_guides_quote_the_moderated_takeover_reply_as_the_judge_gives_it(harness: Harness) -> None:
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    game = start_standard(harness, settings={"moderated": True})
    game.orders("FRANCE", "RESIGN\n")
    for language, guide, newcomer in (("en", "player-guide.md", "new@example.net"), ("fr", "fr/guide-joueur.md", "neuf@example.net")):
        register(harness, newcomer, language=language)
        with harness.db.unit_of_work() as uow:  # a request at a time: clear the previous one
            for request in uow.session.query(TakeoverRequest).all():
                request.decision = "withdrawn"
        reply = harness.exchange(newcomer, "SIGNON Fdemo fresh\n")
        answer = read(reply).split("> SIGNON Fdemo fresh\n")[1].strip()
        assert f"> {answer}\n" in (docs / guide).read_text(encoding="utf-8"), (guide, answer)


def test_the_player_of_a_power_in_civil_disorder_still_hears_the_game(harness: Harness) -> None:
    _miss_turkey_until_grace(harness, nmr=True)
    harness.exchange(power_address("FRANCE"), "SIGNON Fdemo pwfrance\nRESIGN\n")
    register(harness, "new@example.net")
    harness.exchange("new@example.net", "SIGNON Fdemo fresh\n")
    announced = one_text([m for m in harness.others if "New Player Signon: F" in str(m["Subject"])])
    assert power_address("TURKEY") in str(announced["To"])
