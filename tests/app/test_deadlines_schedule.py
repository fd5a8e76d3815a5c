"""SET MOVE|RETREAT|ADJUST: the schedule of future deadlines, with week days, afternoons and daylight saving.

Each test processes Spring 1901 early (every power's orders in) and reads
the deadline the judge computed for Fall 1901 from the game's schedule, in
the judge's time zone.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.app.conftest import Harness
from tests.app.deadlines_helpers import (
    EVERYONE,
    advance_to,
    announced,
    body,
    in_zone,
    mail,
    process_spring_early,
    send_orders,
    times,
)
from tests.app.orders_helpers import MASTER, address, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_set_move_is_announced_with_old_and_new_values_and_shapes_the_next_deadline(harness: Harness) -> None:
    game = start_game(harness, settings={"moderated": True})
    before = times(game)
    reply = body(game.master("SET MOVE CLOCK 1200 NEXT 48 DAYS -----F-\n"))
    assert (
        "> SET MOVE CLOCK 1200 NEXT 48 DAYS -----F-\n"
        "Movement schedule: clock 1200 min 12.00 next 48.00 grace 167.00 delay 0.50 days -----F- "
        "(was clock 1410 min 12.00 next 71.00 grace 167.00 delay 0.50 days -MTWTF-).\n"
        "The current deadline does not change; the new values apply to the deadlines computed from now on.\n"
    ) in reply
    assert times(game).deadline == before.deadline
    change = announced(harness, "XPY:demo - S1901M Parameter Change")
    assert {a.strip() for m in change.values() for a in str(m["To"]).split(",")} == EVERYONE - {MASTER}
    text = body(next(iter(change.values())))
    assert (
        "  Movement schedule: clock 1410 min 12.00 next 71.00 grace 167.00 delay 0.50 days -MTWTF- -> "
        "clock 1200 min 12.00 next 48.00 grace 167.00 delay 0.50 days -----F-\n"
    ) in text
    assert "  Move    clock 1200 min 12.00 next 48.00 grace 167.00 delay 0.50 days -----F-\n" in text
    processed = process_spring_early(game)
    assert processed == datetime(2026, 11, 23, 21, 30, tzinfo=UTC)  # a Monday
    fall = times(game)
    # +48 h is Wednesday 21:30; the clock (1200 minutes: 20:00) takes it to Thursday 20:00; only Friday is allowed.
    assert fall.deadline == datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
    # The new phase's own grace (issue 13): deadline + 167 h, Friday Dec 4 19:00, not the spring's.
    assert fall.grace == datetime(2026, 12, 4, 19, 0, tzinfo=UTC) != before.grace
    results = mail(harness, "XPY:demo - S1901M Results")
    assert "Friday 27 November 2026, 20:00 UTC" in body(results[address("FRANCE")])


@pytest.mark.parametrize(
    ("days", "expected"),
    [
        ("-MTWTF-", datetime(2026, 11, 30, 10, 0, tzinfo=UTC)),  # Monday morning allowed
        ("-mTWTF-", datetime(2026, 12, 1, 10, 0, tzinfo=UTC)),  # Monday only after noon: Tuesday's clock
    ],
)
def test_a_lower_case_day_allows_a_deadline_only_in_the_afternoon(
    harness: Harness, days: str, expected: datetime
) -> None:
    game = start_game(harness)
    game.master(f"SET MOVE CLOCK 600 NEXT 156 DAYS {days}\n")
    process_spring_early(game)  # Monday 21:30 + 156 h = Monday 09:30
    assert times(game).deadline == expected


def test_deadlines_keep_the_wall_clock_across_the_change_to_summer_time(harness: Harness) -> None:
    in_zone(harness, "Europe/Paris")
    advance_to(harness, datetime(2027, 3, 25, 0, 0, tzinfo=UTC))  # Thursday; clocks go forward on Sunday 28
    game = start_game(harness)
    process_spring_early(game)  # Thursday 12:30 UTC (13:30 CET)
    fall = times(game)
    # +71 h is Sunday 13:30 CEST; 23:30 that Sunday is not allowed (-MTWTF-): Monday 23:30 CEST = 21:30 UTC.
    assert fall.deadline == datetime(2027, 3, 29, 21, 30, tzinfo=UTC)
    results = mail(harness, "XPY:demo - S1901M Results")
    assert "Monday 29 March 2027, 23:30 CEST (Europe/Paris), that is 21:30 UTC" in body(results[address("FRANCE")])


@pytest.mark.engine_sql
def test_an_nmr_game_warns_about_a_grace_shorter_than_a_day_and_a_half(harness: Harness) -> None:
    game = start_game(harness, settings={"nmr": True})
    reply = body(game.master("SET RETREAT GRACE 24\n"))
    assert (
        "Warning: this is an NMR game and the grace is shorter than 36 hours: a late power may go into "
        "civil disorder before it has had a full day's notice.\n"
    ) in reply


@pytest.mark.parametrize(
    ("line", "refusal"),
    [
        ("SET MOVE DAYS -------", "'-------' cannot be used for DAYS: give seven characters from Sunday to Saturday"),
        ("SET MOVE CLOCK 600 DAYS -mtwtf-", "'-mtwtf-' cannot be used for DAYS"),
        ("SET ADJUST NEXT 9999", "'9999' cannot be used for NEXT: give a number of hours from 0 to 8784"),
        ("SET MOVE CLOCK 25:00", "'25:00' cannot be used for CLOCK: give minutes after midnight"),
    ],
)
def test_bad_values_are_refused_and_nothing_changes(harness: Harness, line: str, refusal: str) -> None:
    game = start_game(harness)
    reply = body(game.master(line + "\n"))
    assert refusal in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        assert game.game(uow).schedules == []
    assert not announced(harness, "Parameter Change")


def test_a_player_of_a_moderated_game_may_not_change_the_schedule(harness: Harness) -> None:
    game = start_game(harness, settings={"moderated": True})
    reply = body(game.orders("FRANCE", "SET MOVE NEXT 24\n"))
    assert "Game 'demo' is moderated: only the master may do that." in reply
    with harness.db.unit_of_work(readonly=True) as uow:
        assert game.game(uow).schedules == []


def test_a_shorter_delay_applies_at_once_to_early_processing(harness: Harness) -> None:
    game = start_game(harness)
    advance_to(harness, times(game).start)
    send_orders(game)
    assert times(game).next_due == harness.clock.now() + timedelta(minutes=30)
    game.master("SET MOVE DELAY 0.1\n")
    assert times(game).next_due == harness.clock.now() + timedelta(minutes=6)
