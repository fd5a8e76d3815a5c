"""Dedication: points and turns for punctual and late players, abandonment and civil disorder, shown and enforced.

The Judge's default points (+3 on time, -1 late, -49 abandoned, -100 civil
disorder) charged by the scheduler in rated games only; WHOIS and LIST show
the record; SET DEDICATION / ONTIMERAT refuse takeovers below the game's
threshold.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from judge.db.enums import SeatStatus
from tests.app.conftest import Harness
from tests.app.deadlines_helpers import (
    Record,
    advance_to,
    all_but,
    body,
    late_count,
    record_of,
    run_scheduler,
    seat_status,
    send_orders,
    times,
)
from tests.app.games_helpers import register
from tests.app.identity_helpers import set_record
from tests.app.orders_helpers import MASTER, POWERS, StartedGame, address, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

NOTHING = Record(0, 0, 0, 0, 0, 0)


def _late_turkey_to_civil_disorder(game: StartedGame) -> None:
    send_orders(game, all_but("TURKEY"))
    t = times(game)
    advance_to(game.harness, t.deadline)
    run_scheduler(game.harness)
    advance_to(game.harness, t.grace)
    run_scheduler(game.harness)


def test_punctual_players_of_a_rated_game_earn_three_points_and_a_turn_on_time(harness: Harness) -> None:
    game = start_game(harness)
    advance_to(harness, times(game).start)
    send_orders(game)
    advance_to(harness, harness.clock.now() + timedelta(minutes=30))
    run_scheduler(harness)
    assert game.state()["phase"] == "F1901M"
    for power in POWERS:
        assert record_of(harness, address(power)) == Record(3, 1, 1, 0, 0, 0), power
    assert record_of(harness, MASTER) == NOTHING


def test_a_late_power_loses_fifty_points_when_abandoned_and_a_hundred_more_in_civil_disorder(harness: Harness) -> None:
    game = start_game(harness, settings={"nmr": True})
    _late_turkey_to_civil_disorder(game)
    assert game.state()["phase"] == "F1901M"
    assert record_of(harness, address("TURKEY")) == Record(-1 - 49 - 100, 1, 0, 1, 1, 1)
    # The others were punctual: +3 once, at the first late notice (no second +3 at the late processing).
    assert record_of(harness, address("FRANCE")) == Record(3, 1, 1, 0, 0, 0)


def test_a_no_nmr_game_charges_the_abandonment_but_no_civil_disorder(harness: Harness) -> None:
    game = start_game(harness)
    _late_turkey_to_civil_disorder(game)
    assert game.state()["phase"] == "S1901M"
    assert seat_status(game, "TURKEY") is SeatStatus.ABANDONED
    assert record_of(harness, address("TURKEY")) == Record(-50, 0, 0, 0, 1, 0)
    advance_to(harness, times(game).grace + timedelta(days=5))
    run_scheduler(harness)  # replacement notices, no further charge
    assert record_of(harness, address("TURKEY")) == Record(-50, 0, 0, 0, 1, 0)


def test_an_unrated_game_leaves_every_record_alone(harness: Harness) -> None:
    game = start_game(harness, settings={"nmr": True, "rated": False})
    _late_turkey_to_civil_disorder(game)
    assert game.state()["phase"] == "F1901M"
    for power in POWERS:
        assert record_of(harness, address(power)) == NOTHING, power


def test_whois_and_list_show_the_record_the_clock_kept(harness: Harness) -> None:
    game = start_game(harness, settings={"nmr": True})
    _late_turkey_to_civil_disorder(game)
    whois = body(harness.exchange(address("FRANCE"), "WHOIS turkey\n"))
    assert "Dedication: -150 points.\n" in whois
    assert "Turns due: 1, on time: 0, late: 1.\n" in whois
    assert "abandoned: 1, civil disorders: 1" in whois
    assert "On-time ratio: 0.00" in whois
    listing = body(harness.exchange(address("FRANCE"), "LIST demo\n"))
    turkey_row = next(line.split() for line in listing.splitlines() if line.strip().startswith("Turkey "))
    assert turkey_row == ["Turkey", "CD", "3", "3", "1", "-150", address("TURKEY")]  # late count 1, dedication


def test_a_takeover_below_the_game_s_dedication_threshold_is_refused(harness: Harness) -> None:
    game = start_game(harness)
    reply = game.master("SET DEDICATION -5\n")
    assert "> SET DEDICATION -5" in body(reply)
    _late_turkey_to_civil_disorder(game)
    assert seat_status(game, "TURKEY") is SeatStatus.ABANDONED
    register(harness, "slacker@example.org")
    set_record(harness, "slacker@example.org", dedication=-20)
    refused = body(harness.exchange("slacker@example.org", "SIGNON Tdemo pw\n"))
    assert "Game 'demo' requires a dedication of at least -5; yours is -20." in refused
    assert seat_status(game, "TURKEY") is SeatStatus.ABANDONED
    register(harness, "keen@example.org")
    taken = body(harness.exchange("keen@example.org", "SIGNON Tdemo pw\n"))
    assert "You have taken over Turkey" in taken
    assert seat_status(game, "TURKEY") is SeatStatus.PLAYING


@pytest.mark.engine_sql
def test_a_takeover_below_the_on_time_ratio_is_refused(harness: Harness) -> None:
    game = start_game(harness)
    game.master("SET ONTIMERAT 0.5\n")
    _late_turkey_to_civil_disorder(game)
    register(harness, "tardy@example.org")
    set_record(harness, "tardy@example.org", turns_due=4, turns_on_time=1)
    refused = body(harness.exchange("tardy@example.org", "SIGNON Tdemo pw\n"))
    assert "requires an on-time ratio of at least 0.50; yours is 0.25." in refused
    assert seat_status(game, "TURKEY") is SeatStatus.ABANDONED


# ------------------------------------------------------------------ every processed phase counts (issue 24)


def test_a_master_s_process_before_the_deadline_counts_the_turn_and_marks_the_missing_power_late(
    harness: Harness,
) -> None:
    game = start_game(harness)
    send_orders(game, all_but("TURKEY"))
    assert harness.clock.now() < times(game).deadline
    game.master("PROCESS\n")
    assert game.state()["phase"] == "F1901M"
    for power in all_but("TURKEY"):
        assert record_of(harness, address(power)) == Record(3, 1, 1, 0, 0, 0), power
    assert record_of(harness, address("TURKEY")) == Record(-1, 1, 0, 1, 0, 0)
    assert late_count(game, "TURKEY") == 1
    assert late_count(game, "FRANCE") == 0
    assert record_of(harness, MASTER) == NOTHING


def test_a_master_s_process_after_the_late_notice_charges_nobody_twice(harness: Harness) -> None:
    game = start_game(harness)
    send_orders(game, all_but("TURKEY"))
    advance_to(harness, times(game).deadline)
    run_scheduler(harness)  # the first late notice: Turkey -1, the punctual +3, Turkey's late count 1
    advance_to(harness, harness.clock.now() + timedelta(hours=5))
    game.master("PROCESS\n")
    assert game.state()["phase"] == "F1901M"
    assert record_of(harness, address("FRANCE")) == Record(3, 1, 1, 0, 0, 0)
    assert record_of(harness, address("TURKEY")) == Record(-1, 1, 0, 1, 0, 0)
    assert late_count(game, "TURKEY") == 1


def test_every_phase_the_master_processes_is_a_turn_and_each_missed_one_is_late(harness: Harness) -> None:
    game = start_game(harness)
    send_orders(game, all_but("TURKEY"))
    phases = []
    for _ in range(9):
        phases.append(game.state()["phase"])
        game.master("PROCESS\n")
    # Nobody gains or loses a centre: the winters owe nothing, the six movement phases are turns due.
    assert phases == ["S1901M", "F1901M", "W1901A", "S1902M", "F1902M", "W1902A", "S1903M", "F1903M", "W1903A"]
    # Turkey never ordered: six turns due, six late, -1 each; France ordered the first phase only.
    assert record_of(harness, address("TURKEY")) == Record(-6, 6, 0, 6, 0, 0)
    assert late_count(game, "TURKEY") == 6
    assert record_of(harness, address("FRANCE")) == Record(3 - 5, 6, 1, 5, 0, 0)
    assert late_count(game, "FRANCE") == 5


def test_the_scheduler_and_the_master_count_alike(harness: Harness) -> None:
    game = start_game(harness)
    send_orders(game, all_but("TURKEY"))
    advance_to(harness, times(game).deadline)
    run_scheduler(harness)  # late notice
    send_orders(game, ["TURKEY"])
    advance_to(harness, harness.clock.now() + timedelta(minutes=1))
    run_scheduler(harness)  # late orders complete the set: processed at once
    assert game.state()["phase"] == "F1901M"
    assert record_of(harness, address("TURKEY")) == Record(-1, 1, 0, 1, 0, 0)
    assert record_of(harness, address("FRANCE")) == Record(3, 1, 1, 0, 0, 0)
    game.master("PROCESS\n")  # F1901M: nobody ordered
    assert record_of(harness, address("TURKEY")) == Record(-2, 2, 0, 2, 0, 0)
    assert record_of(harness, address("FRANCE")) == Record(2, 2, 1, 1, 0, 0)
    assert late_count(game, "TURKEY") == 2


def test_a_prediction_counts_nothing(harness: Harness) -> None:
    game = start_game(harness)
    send_orders(game, all_but("TURKEY"))
    game.master("PREDICT\n")
    assert game.state()["phase"] == "S1901M"
    assert record_of(harness, address("TURKEY")) == NOTHING
    assert late_count(game, "TURKEY") == 0
