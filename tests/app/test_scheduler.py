"""The scheduler: due games processed once, at the right time, from what the database says."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from judge.app.phases.guarded_scheduler import process_due, run_scheduler
from judge.app.phases.scheduler import earliest_due
from judge.db.enums import SeatStatus
from tests.app.conftest import Harness
from tests.app.orders_helpers import POWERS, StartedGame, plain, start_game
from tests.app.test_processing_results import OPENINGS, results_mail, send_all


def seat_status(game: StartedGame, power: str) -> SeatStatus:
    with game.harness.db.unit_of_work(readonly=True) as uow:
        return next(s.status for s in game.game(uow).seats if s.power == power)


def deadline_and_grace(game: StartedGame) -> tuple[timedelta, timedelta]:
    with game.harness.db.unit_of_work(readonly=True) as uow:
        g = game.game(uow)
        assert g.deadline_at is not None and g.grace_at is not None
        now = game.harness.clock.now()
        return g.deadline_at - now, g.grace_at - now


def test_missing_orders_keep_the_phase_open_past_its_deadline_in_a_no_nmr_game(harness: Harness) -> None:
    game = start_game(harness)
    without_turkey = {p: o for p, o in OPENINGS.items() if p != "TURKEY"}
    send_all(game, without_turkey)
    to_deadline, to_grace = deadline_and_grace(game)
    harness.clock.advance(to_deadline + timedelta(minutes=1))
    process_due(harness.services)
    assert game.state()["phase"] == "S1901M"
    assert seat_status(game, "TURKEY") is SeatStatus.PLAYING
    harness.clock.advance(to_grace - to_deadline)
    process_due(harness.services)
    assert game.state()["phase"] == "S1901M"  # NoNMR: waits for a replacement
    assert seat_status(game, "TURKEY") is SeatStatus.ABANDONED
    assert results_mail(harness, "S1901M") == {}


def test_an_nmr_game_processes_at_the_end_of_grace_with_the_late_power_in_civil_disorder(harness: Harness) -> None:
    game = start_game(harness, settings={"nmr": True})
    send_all(game, {p: o for p, o in OPENINGS.items() if p != "TURKEY"})
    _deadline, to_grace = deadline_and_grace(game)
    harness.clock.advance(to_grace)
    process_due(harness.services)
    assert game.state()["phases"] == [("S1901M", "processed"), ("F1901M", "open")]
    assert seat_status(game, "TURKEY") is SeatStatus.CIVIL_DISORDER
    body = plain(results_mail(harness, "S1901M")["russia@example.net"])
    assert "Turkey:  Fleet Ankara, No Order Processed.\n" in body
    assert "Russia:  Fleet Sevastopol -> Black Sea.\n" in body


def test_wait_holds_processing_until_the_deadline(harness: Harness) -> None:
    game = start_game(harness)
    harness.clock.advance(hours=13)
    send_all(game, OPENINGS)
    game.orders("FRANCE", "SET WAIT\n")
    harness.clock.advance(hours=1)
    process_due(harness.services)
    assert game.state()["phase"] == "S1901M"
    to_deadline, _grace = deadline_and_grace(game)
    harness.clock.advance(to_deadline)
    process_due(harness.services)
    assert game.state()["phase"] == "F1901M"
    with harness.db.unit_of_work(readonly=True) as uow:
        assert not any(seat.wait for seat in game.game(uow).seats)  # cleared at processing


def test_an_error_flag_holds_early_processing_until_a_clean_mail(harness: Harness) -> None:
    game = start_game(harness)
    harness.clock.advance(hours=13)
    orders = dict(OPENINGS)
    orders["FRANCE"] += "A PAR - MOS\n"
    send_all(game, orders)
    harness.clock.advance(hours=2)
    process_due(harness.services)
    assert game.state()["phase"] == "S1901M"
    game.orders("FRANCE", "A PAR - BUR\n")
    harness.clock.advance(minutes=30)
    process_due(harness.services)
    assert game.state()["phase"] == "F1901M"


def test_the_due_time_lives_in_the_database_and_nothing_is_done_twice(harness: Harness) -> None:
    game = start_game(harness)
    harness.clock.advance(hours=13)
    send_all(game, OPENINGS)
    due = earliest_due(harness.services)
    assert due == harness.clock.now() + timedelta(minutes=30)
    harness.clock.advance(minutes=30)
    assert process_due(harness.services) == 1
    assert process_due(harness.services) == 0
    assert len(results_mail(harness, "S1901M")) == len(POWERS) + 2
    assert game.state()["phases"] == [("S1901M", "processed"), ("F1901M", "open")]
    assert earliest_due(harness.services) is not None


def test_run_scheduler_processes_a_due_game_then_sleeps_until_stopped(harness: Harness) -> None:
    game = start_game(harness)
    harness.clock.advance(hours=13)
    send_all(game, OPENINGS)
    harness.clock.advance(hours=1)

    async def scenario() -> None:
        stop, wake = asyncio.Event(), asyncio.Event()
        task = asyncio.create_task(run_scheduler(harness.services, stop, wake, max_sleep=0.05))
        for _ in range(200):
            await asyncio.sleep(0.02)
            if game.state()["phase"] == "F1901M":
                break
        stop.set()
        await asyncio.wait_for(task, timeout=5)

    asyncio.run(scenario())
    assert game.state()["phase"] == "F1901M"


def test_a_clean_mail_without_orders_clears_the_error_flag(harness: Harness) -> None:
    """Issue 13: the guide says the flag stays "until a mail without errors arrives"; any such mail."""
    game = start_game(harness)
    harness.clock.advance(hours=13)
    orders = dict(OPENINGS)
    orders["FRANCE"] += "A PAR - MOS\n"
    send_all(game, orders)
    harness.clock.advance(hours=2)
    process_due(harness.services)
    assert game.state()["phase"] == "S1901M"
    reply = game.orders("FRANCE", "")
    assert "[Error Flag]" not in str(reply["Subject"])
    harness.clock.advance(minutes=30)
    process_due(harness.services)
    assert game.state()["phase"] == "F1901M"




def test_a_retreat_phase_has_its_own_end_of_grace(harness: Harness) -> None:
    """Issue 13: the end of grace shown never moved, even in a retreat phase with a different grace.

    A phase processed early keeps the deadline of the phase before (the
    calendar is not shortened), but its grace is its own: the retreat's 71
    hours from that deadline, not the movement's week.
    """
    from tests.app.test_processing_results import fall_position

    game = start_game(harness, position=fall_position())
    moved_grace = deadline_and_grace(game)
    game.orders("ITALY", "A VEN - TRI\nA TYR S A VEN - TRI\nF NAP H\n")
    game.orders("AUSTRIA", "F TRI H\nA VIE H\nA BUD H\n")
    game.master("PROCESS\n")
    assert game.state()["phase"] == "F1901R"
    deadline, grace = deadline_and_grace(game)
    assert deadline == moved_grace[0]  # never earlier than the deadline before
    assert grace - deadline < timedelta(hours=72)  # the retreat grace, not the movement's week
    assert grace < moved_grace[1]
