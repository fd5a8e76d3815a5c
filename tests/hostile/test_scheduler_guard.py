"""One broken game never stops the others: the scheduler's guard, tried with a game whose stored
position is garbage (a corrupt row, a bug in an old version, a hand edit gone wrong)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from judge.app.game_state.boards import FIRST_PHASE, opening_position, to_json
from judge.app.game_state.clock_store import phase_schedule
from judge.app.phases.guarded_scheduler import process_due
from judge.app.phases.planning import plan
from judge.app.phases.scheduler import RETRY_AFTER
from judge.core.variants import load_map
from judge.db.database import Database
from judge.db.enums import GameState
from judge.timekeeping.deadlines import next_phase_times
from tests.app.orders_helpers import POWERS, address, password
from tests.hostile.harness import World


def second_game(world: World, name: str) -> None:
    """Another started Standard game, played by the same seven people as ``demo``."""
    now = world.clock.now()
    with world.db.unit_of_work() as uow:
        game = uow.games.create(name, now, settings={})
        for power in POWERS:
            person = uow.people.by_address(address(power))
            assert person is not None
            uow.seats.join(game, person, password(power), now, power=power, phase=FIRST_PHASE)
        start = opening_position(load_map("standard"))
        times = next_phase_times(now, phase_schedule(game, start.phase.type), world.config.timezone, game_start=True)
        uow.phases.open(game, str(start.phase), to_json(start), now, deadline_at=times.deadline)
        game.state = GameState.ACTIVE
        game.started_at = now
        game.deadline_at, game.grace_at, game.earliest_at = times.deadline, times.grace, times.start
        plan(uow, world.services, game, now)


def corrupt_position(world: World, name: str) -> None:
    with world.db.unit_of_work() as uow:
        game = uow.games.require(name)
        record = uow.phases.current(game)
        assert record is not None
        record.position_before = '{"not": "a position"}'


def make_due(world: World, *names: str) -> None:
    with world.db.unit_of_work() as uow:
        for name in names:
            uow.games.set_next_due(uow.games.require(name), world.clock.now())


def due_and_failures(world: World, name: str) -> tuple[datetime | None, int]:
    with world.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require(name)
        return game.next_due_at, game.failed_attempts


def test_a_broken_game_is_backed_off_and_the_others_go_on(database: Database, tmp_path: Path) -> None:
    world = World(database, tmp_path)
    second_game(world, "other")
    corrupt_position(world, "demo")
    make_due(world, "demo", "other")
    now = world.clock.now()

    assert process_due(world.services) == 2  # never raises
    broken_due, broken_failures = due_and_failures(world, "demo")
    other_due, other_failures = due_and_failures(world, "other")
    assert (broken_due, broken_failures) == (now + RETRY_AFTER, 1)
    assert other_failures == 0 and (other_due is None or other_due > now)
    assert process_due(world.services) == 0  # the broken game waits its turn, it is not retried at once

    world.clock.advance(RETRY_AFTER)
    assert process_due(world.services) == 1
    assert due_and_failures(world, "demo") == (world.clock.now() + 2 * RETRY_AFTER, 2)  # backing off
