"""Before and after the deadline: reminders, late notices, abandonment, civil disorder, restarts.

A seven-player game on the fake clock; the scheduler is woken as the running
judge would be, and the tests read the mail it queued.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from judge.app.phases.guarded_scheduler import process_due
from judge.app.session.services import Services
from judge.db.enums import SeatStatus
from judge.timekeeping.clock import FakeClock
from tests.app.conftest import Harness
from tests.app.deadlines_helpers import (
    EVERYONE,
    advance_to,
    all_but,
    body,
    hours,
    late_count,
    mail,
    run_scheduler,
    seat_status,
    send_orders,
    subjects,
    times,
)
from tests.app.games_helpers import register
from tests.app.orders_helpers import MASTER, OBSERVER, address, start_game

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only

LATE_SUBJECT = "[You are late!] XPY:demo - S1901M Late Notice: T"
NOTICE_SUBJECT = "XPY:demo - S1901M Late Notice: T"


def test_the_reminder_goes_eight_hours_before_the_deadline_to_players_whose_orders_are_incomplete(
    harness: Harness,
) -> None:
    game = start_game(harness)
    send_orders(game, all_but("TURKEY", "ITALY"))
    game.orders("ITALY", "A ROM - APU\n")
    harness.new_mail()
    deadline = times(game).deadline
    advance_to(harness, deadline - hours(8) - timedelta(minutes=1))
    run_scheduler(harness)
    assert harness.new_mail() == []
    advance_to(harness, deadline - hours(8))
    run_scheduler(harness)
    sent = harness.new_mail()
    assert subjects(sent) == [
        (address("ITALY"), "XPY:demo - S1901M Reminder"),
        (address("TURKEY"), "XPY:demo - S1901M Reminder"),
    ]
    by_to = {str(m["To"]): body(m) for m in sent}
    assert by_to[address("ITALY")] == (
        "Reminder: the deadline for S1901M in game 'demo' is Monday 30 November 2026, 23:30 UTC, in 8 hours.\n"
        "The orders of Italy are not complete yet.\n\n"
        "Orders received so far:\n"
        "  A ROM - APU\n"
    )
    assert by_to[address("TURKEY")].endswith("No orders have been received for Turkey.\n")
    advance_to(harness, deadline - hours(1))
    run_scheduler(harness)
    assert harness.new_mail() == []  # once per phase


def test_the_late_power_is_told_first_then_everyone_else_then_the_late_power_daily(harness: Harness) -> None:
    game = start_game(harness)
    send_orders(game, all_but("TURKEY"))
    harness.new_mail()
    t = times(game)
    advance_to(harness, t.deadline)
    run_scheduler(harness)
    sent = harness.new_mail()
    late = [m for m in sent if str(m["Subject"]) == LATE_SUBJECT]
    others = [m for m in sent if str(m["Subject"]) == NOTICE_SUBJECT]
    assert [str(m["To"]) for m in late] == [address("TURKEY")]
    assert body(late[0]) == (
        "Game 'demo': the deadline for S1901M was Monday 30 November 2026, 23:30 UTC, "
        "and the orders of Turkey are not complete.\n"
        "Please send them now. If they are not complete by Monday 7 December 2026, 22:30 UTC, "
        "the power will be abandoned.\n"
    )
    told = {a.strip() for m in others for a in str(m["To"]).split(",")}
    assert told == EVERYONE - {address("TURKEY")}
    assert body(others[0]) == (
        "Game 'demo' is waiting for the orders of Turkey for S1901M (deadline Monday 30 November 2026, 23:30 UTC).\n"
    )
    assert late_count(game, "TURKEY") == 1
    advance_to(harness, t.deadline + hours(23))
    run_scheduler(harness)
    assert harness.new_mail() == []
    advance_to(harness, t.deadline + hours(24))
    run_scheduler(harness)
    assert subjects(harness.new_mail()) == [(address("TURKEY"), LATE_SUBJECT)]
    assert late_count(game, "TURKEY") == 1  # counted once per phase
    assert game.state()["phase"] == "S1901M"


def test_orders_completed_after_the_deadline_are_processed_at_once(harness: Harness) -> None:
    game = start_game(harness)
    send_orders(game, all_but("TURKEY"))
    t = times(game)
    advance_to(harness, t.deadline + hours(2))
    run_scheduler(harness)
    send_orders(game, ["TURKEY"])
    assert times(game).next_due == harness.clock.now()
    run_scheduler(harness)
    assert game.state()["phase"] == "F1901M"


def test_a_no_nmr_game_abandons_the_late_power_at_grace_then_waits_for_a_replacement(harness: Harness) -> None:
    game = start_game(harness)
    send_orders(game, all_but("TURKEY"))
    t = times(game)
    advance_to(harness, t.deadline)
    run_scheduler(harness)
    harness.new_mail()
    advance_to(harness, t.grace)
    run_scheduler(harness)
    abandoned = mail(harness, "Abandoned: T")
    told = {a.strip() for m in abandoned.values() for a in str(m["To"]).split(",")}
    assert told == EVERYONE - {address("TURKEY")}
    assert body(next(iter(abandoned.values()))) == (
        "Abandoned in game 'demo': Turkey. The orders for S1901M did not arrive in time.\n"
        "Anyone registered who does not play in this game may take it over with SIGNON Tdemo and any password.\n"
        "The game will wait for a new player before this phase is processed.\n"
    )
    assert seat_status(game, "TURKEY") is SeatStatus.ABANDONED
    assert game.state()["phase"] == "S1901M"

    advance_to(harness, t.grace + hours(48))
    run_scheduler(harness)
    waiting = mail(harness, "XPY:demo - S1901M Waiting for Replacements: T")
    assert {a.strip() for m in waiting.values() for a in str(m["To"]).split(",")} == EVERYONE - {address("TURKEY")}
    assert game.state()["phase"] == "S1901M"

    register(harness, "newcomer@example.org")
    reply = harness.exchange("newcomer@example.org", "SIGNON Tdemo newpw\n")
    assert "You have taken over Turkey" in body(reply)
    assert seat_status(game, "TURKEY") is SeatStatus.PLAYING
    fresh = times(game)
    assert fresh.deadline > harness.clock.now()
    harness.exchange("newcomer@example.org", "SIGNON Tdemo newpw\nF ANK - BLA\nA CON - BUL\nA SMY - ARM\n")
    advance_to(harness, fresh.deadline)
    run_scheduler(harness)  # everyone has WAIT after a takeover: processed at the new deadline
    assert game.state()["phase"] == "F1901M"


def test_an_nmr_game_processes_at_grace_with_the_late_power_in_civil_disorder_and_no_longer_waits_for_it(
    harness: Harness,
) -> None:
    game = start_game(harness, settings={"nmr": True})
    send_orders(game, all_but("TURKEY"))
    t = times(game)
    advance_to(harness, t.deadline)
    run_scheduler(harness)
    late = mail(harness, LATE_SUBJECT)
    # One sentence, each date once, in the order things happen (issue 24: two sentences read as two deadlines).
    assert body(late[address("TURKEY")]).endswith(
        "Please send them now. If they are not complete by Sunday 6 December 2026, 22:30 UTC, the power will be "
        "abandoned (open to takeover); if it still has no complete orders at the end of the grace period, "
        "Monday 7 December 2026, 22:30 UTC, the phase will be processed with it in civil disorder.\n"
    )
    advance_to(harness, t.grace - hours(24))
    run_scheduler(harness)
    abandoned = mail(harness, "Abandoned: T")
    assert body(next(iter(abandoned.values()))).endswith(
        "If nobody takes it over by Monday 7 December 2026, 22:30 UTC, "
        "the phase will be processed with the power in civil disorder.\n"
    )
    assert game.state()["phase"] == "S1901M"
    advance_to(harness, t.grace)
    run_scheduler(harness)
    assert game.state()["phase"] == "F1901M"
    assert seat_status(game, "TURKEY") is SeatStatus.CIVIL_DISORDER
    results = mail(harness, "XPY:demo - S1901M Results")
    assert "Turkey:  Fleet Ankara, No Order Processed.\n" in body(results[address("RUSSIA")])
    # Next phase: a power in civil disorder holds nothing up.
    fall = times(game)
    advance_to(harness, fall.start)
    for power, orders in {
        "AUSTRIA": "A VIE H\nA SER H\nF ALB H\n", "ENGLAND": "F NTH H\nF NWG H\nA YOR H\n",
        "FRANCE": "A BUR H\nA MAR H\nF MAO H\n", "GERMANY": "A KIE H\nA MUN H\nF DEN H\n",
        "ITALY": "A APU H\nA VEN H\nF ION H\n", "RUSSIA": "A WAR H\nA UKR H\nF BLA H\nF BOT H\n",
    }.items():  # fmt: skip
        game.orders(power, orders)
    assert times(game).next_due == harness.clock.now() + timedelta(minutes=30)
    advance_to(harness, harness.clock.now() + timedelta(minutes=30))
    run_scheduler(harness)
    assert game.state()["phase"] == "W1901A"


def test_a_quiet_game_tells_players_and_observers_that_someone_is_late_but_not_who(harness: Harness) -> None:
    game = start_game(harness, settings={"quiet": True})
    send_orders(game, all_but("TURKEY"))
    harness.new_mail()
    advance_to(harness, times(game).deadline)
    run_scheduler(harness)
    sent = harness.new_mail()
    by_subject: dict[str, set[str]] = {}
    for m in sent:
        by_subject.setdefault(str(m["Subject"]), set()).update(a.strip() for a in str(m["To"]).split(","))
    assert by_subject == {
        LATE_SUBJECT: {address("TURKEY")},
        NOTICE_SUBJECT: {MASTER},
        "XPY:demo - S1901M Late Notice: ?": EVERYONE - {address("TURKEY"), MASTER},
    }
    anonymous = next(m for m in sent if str(m["Subject"]).endswith(": ?"))
    assert "Turkey" not in body(anonymous)
    assert any(str(m["To"]) == OBSERVER for m in sent if str(m["Subject"]).endswith(": ?"))


def test_grace_running_out_while_the_judge_is_down_is_caught_up_once_after_the_restart(harness: Harness) -> None:
    game = start_game(harness, settings={"nmr": True})
    send_orders(game, all_but("TURKEY"))
    harness.new_mail()
    t = times(game)
    # The judge stops before the deadline and comes back two days after the end of grace:
    # a new process (new Services, new clock) on the same database.
    later = FakeClock(t.grace + hours(48))
    restarted = Services(db=harness.db, config=harness.services.config, clock=later)
    assert process_due(restarted) == 1
    assert process_due(restarted) == 0
    sent = harness.new_mail()
    kinds = {str(m["Subject"]) for m in sent}
    assert kinds == {LATE_SUBJECT, "XPY:demo - S1901M Abandoned: T", NOTICE_SUBJECT, "XPY:demo - S1901M Results"}
    assert [str(m["To"]) for m in sent if str(m["Subject"]) == LATE_SUBJECT] == [address("TURKEY")]
    assert game.state()["phase"] == "F1901M"
    assert seat_status(game, "TURKEY") is SeatStatus.CIVIL_DISORDER


def test_a_reminder_sent_close_to_the_deadline_counts_minutes_not_zero_hours(harness: Harness) -> None:
    """Issue 13: a reminder that goes out late (the judge was down, a deadline set close) said "in 0 hours"."""
    game = start_game(harness)
    send_orders(game, all_but("TURKEY"))
    harness.new_mail()
    deadline = times(game).deadline
    advance_to(harness, deadline - timedelta(minutes=20))
    run_scheduler(harness)
    [reminder] = harness.new_mail()
    assert body(reminder).startswith(
        "Reminder: the deadline for S1901M in game 'demo' is Monday 30 November 2026, 23:30 UTC, in 20 minutes.\n"
    )


def test_a_reminder_one_minute_before_the_deadline_says_one_minute(harness: Harness) -> None:
    game = start_game(harness)
    send_orders(game, all_but("TURKEY"))
    harness.new_mail()
    deadline = times(game).deadline
    advance_to(harness, deadline - timedelta(seconds=50))
    run_scheduler(harness)
    [reminder] = harness.new_mail()
    assert body(reminder).startswith(
        "Reminder: the deadline for S1901M in game 'demo' is Monday 30 November 2026, 23:30 UTC, in 1 minute.\n"
    )


def test_an_nmr_game_with_a_grace_under_a_day_tells_the_late_power_only_the_end_of_grace(harness: Harness) -> None:
    game = start_game(harness, settings={"nmr": True})
    t = times(game)
    game.master(f"SET GRACE {(t.deadline + hours(12)).isoformat()}\n")
    send_orders(game, all_but("TURKEY"))
    advance_to(harness, t.deadline)
    harness.new_mail()
    run_scheduler(harness)
    late = body(mail(harness, LATE_SUBJECT)[address("TURKEY")])
    assert late.endswith(
        "Please send them now: the power is open to takeover, and if its orders are not complete by the end of "
        "the grace period, Tuesday 1 December 2026, 11:30 UTC, the phase will be processed with it in civil "
        "disorder.\n"
    )
    assert "Monday 30 November 2026, 23:30 UTC, the power will be abandoned" not in late
