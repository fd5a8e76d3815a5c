"""SET DEADLINE / GRACE / START: the current phase's times moved by hand, announced, re-planned; refusals."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.app.conftest import Harness
from tests.app.deadlines_helpers import (
    EVERYONE,
    advance_to,
    announced,
    body,
    hours,
    run_scheduler,
    send_orders,
    times,
)
from tests.app.orders_helpers import MASTER, OBSERVER, StartedGame, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def _snapshot(game: StartedGame) -> tuple[object, ...]:
    t = times(game)
    return (t.deadline, t.grace, t.start, t.next_due, game.state()["phase"])


def test_the_master_sets_a_later_deadline_and_everyone_is_told(harness: Harness) -> None:
    game = start_game(harness, settings={"moderated": True})
    harness.new_mail()
    reply = body(game.master("SET DEADLINE Fri Dec 4 2026 20:00\n"))
    assert (
        "> SET DEADLINE Fri Dec 4 2026 20:00\n"
        "Deadline: Friday 4 December 2026, 20:00 UTC\n"
        "End of the grace period: Friday 11 December 2026, 19:00 UTC\n"
        "Earliest processing: Monday 23 November 2026, 21:00 UTC\n"
    ) in reply
    t = times(game)
    assert t.deadline == datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
    assert t.grace == datetime(2026, 12, 11, 19, 0, tzinfo=UTC)  # deadline + 167 h, a Friday
    assert t.next_due == t.deadline - hours(8)  # the reminder
    told = announced(harness, "XPY:demo - S1901M Deadline Adjustment")
    assert {a.strip() for m in told.values() for a in str(m["To"]).split(",")} == EVERYONE - {MASTER}
    assert body(next(iter(told.values()))) == (
        "The master has changed the times of S1901M in game 'demo':\n\n"
        "Deadline: Friday 4 December 2026, 20:00 UTC\n"
        "End of the grace period: Friday 11 December 2026, 19:00 UTC\n"
        "Earliest processing: Monday 23 November 2026, 21:00 UTC\n"
    )


def test_an_iso_date_with_seconds_and_an_offset_is_read_exactly(harness: Harness) -> None:
    game = start_game(harness)
    game.master("SET DEADLINE 2026-12-01T10:15:30+01:00\n")
    assert times(game).deadline == datetime(2026, 12, 1, 9, 15, 30, tzinfo=UTC)


def test_an_earlier_deadline_brings_processing_forward_when_every_player_waits(harness: Harness) -> None:
    game = start_game(harness)
    advance_to(harness, times(game).start)
    send_orders(game)
    for power in ("FRANCE", "ENGLAND"):
        game.orders(power, "SET WAIT\n")
    assert game.state()["phase"] == "S1901M"
    assert times(game).next_due == times(game).deadline  # WAIT: processed at the deadline
    soon = harness.clock.now() + hours(2)
    game.master(f"SET DEADLINE {soon.isoformat()}\n")
    assert times(game).next_due == soon
    advance_to(harness, soon)
    run_scheduler(harness)
    assert game.state()["phase"] == "F1901M"


def test_set_grace_and_set_start(harness: Harness) -> None:
    game = start_game(harness)
    before = times(game)
    game.master("SET GRACE 2026-12-20T12:00:00Z\n")
    assert times(game).grace == datetime(2026, 12, 20, 12, 0, tzinfo=UTC)
    assert times(game).deadline == before.deadline
    assert announced(harness, "XPY:demo - S1901M Grace Adjustment")
    # START past the deadline moves the deadline with it.
    game.master("SET START 2026-12-02T08:00:00Z\n")
    after = times(game)
    assert after.start == after.deadline == datetime(2026, 12, 2, 8, 0, tzinfo=UTC)


def test_a_player_of_an_unmoderated_game_may_set_the_deadline(harness: Harness) -> None:
    game = start_game(harness)
    reply = body(game.orders("FRANCE", "SET DEADLINE Wed Dec 2 2026 23:30\n"))
    assert "Deadline: Wednesday 2 December 2026, 23:30 UTC" in reply
    told = announced(harness, "Deadline Adjustment")
    assert "France has changed the times of S1901M in game 'demo':" in body(next(iter(told.values())))


def test_a_date_without_a_time_takes_the_phase_s_clock(harness: Harness) -> None:
    game = start_game(harness)
    game.master("SET DEADLINE Dec 3 2026\n")
    assert times(game).deadline == datetime(2026, 12, 3, 23, 30, tzinfo=UTC)  # clock 1410


@pytest.mark.parametrize(
    ("who", "line", "refusal"),
    [
        ("player", "SET DEADLINE Fri 20:00", "Game 'demo' is moderated: only the master may do that."),
        ("observer", "SET DEADLINE Fri 20:00", "Game 'demo' is moderated: only the master may do that."),
        ("observer of an unmoderated game", "SET START Fri 20:00", "Observers cannot do that: only the players and the master."),
        ("master", "SET DEADLINE Jan 3 2020 10:00", "The date 'Jan 3 2020 10:00' (Friday 3 January 2020, 10:00 UTC) is in the past."),
        ("master", "SET DEADLINE Mon Dec 4 2026 10:00", "Cannot read the date 'Mon Dec 4 2026 10:00'. Write it as Fri 23:30"),
        ("master", "SET GRACE 2026-11-24T00:00:00Z", "The grace period cannot end before the deadline (Monday 30 November 2026, 23:30 UTC)"),
        ("master", "SET DEADLINE Aug 1 20:00", "more than 120 days ahead"),
    ],
)  # fmt: skip
def test_refusals_change_nothing(harness: Harness, who: str, line: str, refusal: str) -> None:
    game = start_game(harness, settings={"moderated": "unmoderated" not in who})
    before = _snapshot(game)
    harness.new_mail()
    if who == "player":
        reply = game.orders("FRANCE", line + "\n")
    elif who.startswith("observer"):
        reply = harness.exchange(OBSERVER, f"OBSERVE demo watchpw\n{line}\n")
    else:
        reply = game.master(line + "\n")
    assert refusal in body(reply)
    assert _snapshot(game) == before
    assert not [m for m in harness.new_mail() if "Adjustment" in str(m["Subject"])]


def test_a_game_that_has_not_started_has_no_deadline_to_move(harness: Harness) -> None:
    from tests.app.games_helpers import form_game

    form_game(harness, "young", players=2)
    reply = body(harness.exchange("p1@example.net", "SIGNON ?young pw1\nSET DEADLINE Fri 20:00\n"))
    assert "Game 'young' has no phase being played: there is no deadline to move." in reply


def test_no_signon_no_deadline(harness: Harness) -> None:
    from tests.app.games_helpers import register

    register(harness, "loner@example.org")
    reply = body(harness.exchange("loner@example.org", "SET DEADLINE Fri 20:00\n"))
    assert "SET DEADLINE needs a SIGNON to a game first." in reply


def test_a_time_already_past_today_says_plainly_that_tomorrow_was_taken(harness: Harness) -> None:
    """Issue 13: SET START 13:51 sent at 13:51:50 became tomorrow 13:51 without a word."""
    game = start_game(harness)
    advance_to(harness, datetime(2026, 11, 23, 13, 51, 50, tzinfo=UTC))
    reply = body(game.master("SET START 13:51\n"))
    assert (
        "> SET START 13:51\n"
        "'13:51' has already passed today: the same time tomorrow, Tuesday 24 November 2026, 13:51 UTC, was taken.\n"
    ) in reply
    assert times(game).start == datetime(2026, 11, 24, 13, 51, tzinfo=UTC)
    later_today = body(game.master("SET START 20:00\n"))
    assert "already passed" not in later_today
