"""Several judge processes on one database: every due phase processed once, every results mail sent once.

Real processes (spawned, each with its own :class:`Database` and
connections) run the scheduler's :func:`process_due` at the same instant on
a hundred games that all fall due together. PostgreSQL shares them out with
``FOR UPDATE SKIP LOCKED`` (three processes); SQLite serialises the write
transactions (two processes). Afterwards each game has exactly one
processed Spring 1901 and one open Fall 1901, and each of its nine readers
(seven players, the master, an observer) exactly one results mail.

Also here: :func:`judge.app.phases.planning.plan` locks the game row before
reading the orders, so two players' last orders arriving in two processes
at once still trigger early processing (PostgreSQL, where the two
transactions really overlap).
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

from sqlalchemy import select

from judge.app.game_state import order_sheets as kept
from judge.app.game_state.boards import opening_position, to_json
from judge.app.phases.guarded_scheduler import process_due
from judge.app.phases.planning import plan
from judge.app.session.services import Services
from judge.config import Config, load_config
from judge.core.phase import Phase
from judge.core.variants import load_map
from judge.db import Database
from judge.db.enums import GameState, PhaseState
from judge.db.models import Game, OutboundMail, PhaseRecord
from judge.db.repositories import Registration
from tests.conftest import TEST_PASSWORDS

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
DUE = T0 + timedelta(hours=1)
GAMES = 100
OPENINGS = {
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
    "GERMANY": ["A BER - KIE", "A MUN - BUR", "F KIE - DEN"],
    "ITALY": ["A ROM - APU", "A VEN H", "F NAP - ION"],
    "RUSSIA": ["A WAR - GAL", "A MOS - UKR", "F SEV - BLA", "F STP/SC - BOT"],
    "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY - ARM"],
}


class FixedClock:
    """Every process sees the same instant: the games are all due at it."""

    def __init__(self, when: datetime) -> None:
        self.when = when

    def now(self) -> datetime:
        return self.when


def _settings(url: str, data_dir: Path) -> dict[str, str]:
    return {"JUDGE_DATABASE_URL": url, "JUDGE_DATA_DIR": str(data_dir), "JUDGE_CODE": "XPY",
            "JUDGE_ADDRESS": "judge@example.org", "JUDGE_RATE_LIMIT_MESSAGES": "0"}  # fmt: skip


def _services(db: Database, config: Config, when: datetime) -> Services:
    return Services(db=db, config=config, clock=FixedClock(when))


def seed(services: Services, games: int, *, powers_with_orders: tuple[str, ...] = tuple(OPENINGS)) -> None:
    """``games`` started games, S1901M open since T0 with its start at T0; orders of ``powers_with_orders``."""
    the_map = load_map("standard")
    phase = Phase.parse("S1901M")
    with services.db.unit_of_work() as uow:
        for n in range(games):
            game = uow.games.create(f"g{n}", T0)
            for power, lines in OPENINGS.items():
                person = uow.people.register(
                    Registration(name=power.title(), site="Home", country="France"), f"{power.lower()}{n}@example.net", T0
                )
                seat = uow.seats.join(game, person, "pw", T0, power=power, phase=str(phase))
                if power in powers_with_orders:
                    kept.store(uow, game, seat, phase, kept.OrderSheet.read(lines, the_map, phase.type), T0, future=False)
            master = uow.people.register(Registration(name="M", site="Home", country="France"), f"m{n}@example.net", T0)
            uow.games.add_master(game, master, "pw", T0)
            uow.games.add_observer(game, f"o{n}@example.net", "pw", T0)
            uow.phases.open(game, str(phase), to_json(opening_position(the_map)), T0, deadline_at=T0 + timedelta(days=3))
            game.state = GameState.ACTIVE
            game.deadline_at, game.grace_at, game.earliest_at = T0 + timedelta(days=3), T0 + timedelta(days=6), T0
            plan(uow, services, game, T0)


def scheduler_process(url: str, settings: dict[str, str], barrier: Any, results: Any) -> None:
    """One judge process: its own database engine; one scheduler round at the due instant."""
    db = Database(url, passwords=TEST_PASSWORDS)
    try:
        services = _services(db, load_config(settings), DUE)
        barrier.wait(timeout=120)
        results.put(process_due(services))
    except BaseException as error:
        results.put(f"error: {error!r}")
    finally:
        db.dispose()


def _run_processes(url: str, settings: dict[str, str], count: int) -> list[Any]:
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(count)
    results = context.Queue()
    processes = [
        context.Process(target=scheduler_process, args=(url, settings, barrier, results)) for _ in range(count)
    ]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=600) for _ in processes]
    for process in processes:
        process.join(timeout=120)
        assert process.exitcode == 0
    return outcomes


def test_judge_processes_sharing_a_database_process_each_due_phase_once(
    database_url: str, tmp_path: Path
) -> None:
    settings = _settings(database_url, tmp_path)
    database = Database(database_url, passwords=TEST_PASSWORDS)
    try:
        seed(_services(database, load_config(settings), T0), GAMES)
        count = 3 if database.dialect == "postgresql" else 2
        outcomes = _run_processes(database_url, settings, count)
        assert all(isinstance(handled, int) for handled in outcomes), outcomes
        assert sum(outcomes) == GAMES  # each game claimed by exactly one process
        with database.unit_of_work(readonly=True) as uow:
            phases = Counter(
                (row.game_id, row.name, row.state) for row in uow.session.scalars(select(PhaseRecord))
            )
            game_ids = list(uow.session.scalars(select(Game.id)))
            assert len(game_ids) == GAMES
            for game_id in game_ids:
                assert phases[(game_id, "S1901M", PhaseState.PROCESSED)] == 1
                assert phases[(game_id, "F1901M", PhaseState.OPEN)] == 1
            assert sum(phases.values()) == 2 * GAMES
            results: Counter[tuple[str, str]] = Counter()
            for row in uow.session.scalars(select(OutboundMail)):
                message = message_from_bytes(row.message, policy=policy.default)
                subject = str(message["Subject"])
                if subject.endswith("S1901M Results"):
                    for recipient in row.recipients:
                        results[(subject, recipient)] += 1
        assert len(results) == GAMES * 9  # seven players, the master and the observer of each game
        assert set(results.values()) == {1}  # one results mail each, never two
        for n in (0, GAMES - 1):
            assert results[(f"XPY:g{n} - S1901M Results", f"france{n}@example.net")] == 1
    finally:
        database.dispose()


def test_two_players_last_orders_planned_at_once_in_two_transactions_both_count(
    postgres_database_url: str, tmp_path: Path
) -> None:
    settings = _settings(postgres_database_url, tmp_path)
    config = load_config(settings)
    first = Database(postgres_database_url, passwords=TEST_PASSWORDS)
    second = Database(postgres_database_url, passwords=TEST_PASSWORDS)
    the_map = load_map("standard")
    phase = Phase.parse("S1901M")
    try:
        seed(_services(first, config, T0), 1, powers_with_orders=tuple(OPENINGS)[:5])
        planning = threading.Event()
        problems: list[BaseException] = []

        def last_orders(db: Database, power: str, before_plan: threading.Event | None) -> None:
            services = _services(db, config, T0)
            with db.unit_of_work() as uow:
                game = uow.games.require("g0")
                seat = uow.seats.by_power(game, power)
                assert seat is not None
                sheet = kept.OrderSheet.read(OPENINGS[power], the_map, phase.type)
                if before_plan is not None:
                    before_plan.set()
                # (PostgreSQL's foreign-key check on the new orders row already waits for the other
                # transaction's row lock; without it, both would plan on what they alone can see.)
                kept.store(uow, game, seat, phase, sheet, T0, future=False)
                plan(uow, services, game, T0)
                if before_plan is None:
                    # Hold this transaction open while the other one plans: without the row lock it
                    # would read the orders without these ones.
                    assert planning.wait(timeout=30)
                    time.sleep(0.5)

        def in_thread() -> None:
            try:
                last_orders(second, "TURKEY", planning)
            except BaseException as error:  # pragma: no cover - reported below
                problems.append(error)

        worker = threading.Thread(target=in_thread)
        holder = threading.Thread(target=lambda: last_orders(first, "RUSSIA", None))
        holder.start()
        time.sleep(0.2)  # the holder has planned (and holds the row) before the other begins
        worker.start()
        holder.join(timeout=60)
        worker.join(timeout=60)
        assert not problems, problems
        with first.unit_of_work(readonly=True) as uow:
            game = uow.games.require("g0")
            assert game.next_due_at == T0 + timedelta(minutes=30)  # early processing, delay after the orders
    finally:
        first.dispose()
        second.dispose()
