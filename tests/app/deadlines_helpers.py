"""Helpers for the deadline and lateness tests: a game's times, its mail by subject, scheduler rounds.

The games are the orders tests' seven-player Standard game
(:func:`tests.app.orders_helpers.start_game`); time moves with the harness's
FakeClock and the scheduler runs with :func:`judge.app.phases.guarded_scheduler.process_due`,
as the running judge would on waking.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from email.message import EmailMessage
from zoneinfo import ZoneInfo

from judge.app.phases.guarded_scheduler import process_due
from judge.db.enums import SeatStatus
from judge.db.models import Person
from tests.app.conftest import Harness
from tests.app.orders_helpers import MASTER, OBSERVER, POWERS, StartedGame, address, plain
from tests.app.test_processing_results import OPENINGS

EVERYONE = frozenset({*(address(p) for p in POWERS), MASTER, OBSERVER})


@dataclass(frozen=True)
class Times:
    deadline: datetime
    grace: datetime
    start: datetime
    next_due: datetime | None
    paused: datetime | None


def times(game: StartedGame) -> Times:
    with game.harness.db.unit_of_work(readonly=True) as uow:
        row = game.game(uow)
        assert row.deadline_at is not None and row.grace_at is not None and row.earliest_at is not None
        return Times(row.deadline_at, row.grace_at, row.earliest_at, row.next_due_at, row.paused_at)


def in_zone(harness: Harness, zone: str) -> None:
    """The judge's time zone for the rest of the test (deadlines are computed and shown in it)."""
    harness.services.config = replace(harness.services.config, timezone=ZoneInfo(zone))


def run_scheduler(harness: Harness) -> int:
    """One wake-up of the scheduler at the clock's time; the mail it queued is left for ``mail``."""
    return process_due(harness.services)


def advance_to(harness: Harness, when: datetime) -> None:
    harness.clock.set(when)


def mail(harness: Harness, event: str) -> dict[str, EmailMessage]:
    """New mail (since the last call of ``harness.new_mail``) whose subject ends with ``event``, by recipient."""
    return {str(m["To"]): m for m in harness.new_mail() if str(m["Subject"]).endswith(event)}


def announced(harness: Harness, event: str) -> dict[str, EmailMessage]:
    """The mail other than the reply that the last ``harness.exchange`` queued, subject ending ``event``."""
    return {str(m["To"]): m for m in harness.others if str(m["Subject"]).endswith(event)}


def subjects(messages: list[EmailMessage]) -> list[tuple[str, str]]:
    return sorted((str(m["To"]), str(m["Subject"])) for m in messages)


def body(message: EmailMessage) -> str:
    return plain(message)


def seat_status(game: StartedGame, power: str) -> SeatStatus:
    with game.harness.db.unit_of_work(readonly=True) as uow:
        return next(s.status for s in game.game(uow).seats if s.power == power)


def late_count(game: StartedGame, power: str) -> int:
    with game.harness.db.unit_of_work(readonly=True) as uow:
        return next(s.late_count for s in game.game(uow).seats if s.power == power)


@dataclass(frozen=True)
class Record:
    dedication: int
    turns_due: int
    turns_on_time: int
    turns_late: int
    abandonments: int
    civil_disorders: int


def record_of(harness: Harness, who: str) -> Record:
    with harness.db.unit_of_work(readonly=True) as uow:
        person: Person | None = uow.people.by_address(who)
        assert person is not None
        return Record(person.dedication, person.turns_due, person.turns_on_time, person.turns_late,
                      person.abandonments, person.civil_disorders)  # fmt: skip


def send_orders(game: StartedGame, powers: tuple[str, ...] | list[str] = POWERS) -> None:
    """The opening orders of ``powers`` (complete orders, no error)."""
    for power in powers:
        game.orders(power, OPENINGS[power])


def all_but(*left_out: str) -> list[str]:
    return [p for p in POWERS if p not in left_out]


def hours(n: float) -> timedelta:
    return timedelta(hours=n)


def process_spring_early(game: StartedGame) -> datetime:
    """Spring 1901 processed half an hour after its start (a deadline set just after it); returns when.

    The master's SET DEADLINE puts the old deadline before the processing, so
    the next deadline is computed from the schedule alone.
    """
    t = times(game)
    game.master(f"SET DEADLINE {(t.start + timedelta(hours=1)).isoformat()}\n")
    advance_to(game.harness, t.start)
    send_orders(game)
    advance_to(game.harness, t.start + timedelta(minutes=30))
    run_scheduler(game.harness)
    assert game.state()["phase"] == "F1901M"
    return t.start + timedelta(minutes=30)
