"""Dedication: points and turns for punctual and late players, abandonment and civil disorder, shown and enforced.

The Judge's default points (+3 on time, -1 late, -49 abandoned, -100 civil
disorder) charged by the scheduler in rated games only; WHOIS and LIST show
the record; SET DEDICATION / ONTIMERAT refuse takeovers below the game's
threshold.
"""

from __future__ import annotations

from datetime import timedelta

from judge.db.enums import SeatStatus
from tests.app.conftest import Harness
from tests.app.deadlines_helpers import (
    Record,
    advance_to,
    all_but,
    body,
    record_of,
    run_scheduler,
    seat_status,
    send_orders,
    times,
)
from tests.app.games_helpers import register
from tests.app.identity_helpers import set_record
from tests.app.orders_helpers import MASTER, POWERS, StartedGame, address, start_game

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


def test_a_takeover_below_the_on_time_ratio_is_refused(harness: Harness) -> None:
    game = start_game(harness)
    game.master("SET ONTIMERAT 0.5\n")
    _late_turkey_to_civil_disorder(game)
    register(harness, "tardy@example.org")
    set_record(harness, "tardy@example.org", turns_due=4, turns_on_time=1)
    refused = body(harness.exchange("tardy@example.org", "SIGNON Tdemo pw\n"))
    assert "requires an on-time ratio of at least 0.50; yours is 0.25." in refused
    assert seat_status(game, "TURKEY") is SeatStatus.ABANDONED
