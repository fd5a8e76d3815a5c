"""A mail that signs on to a game holds the game's row lock; clock settings re-plan the game.

Two mails for one game must not interleave (each rewrites parts of the game's
``extra_settings``): the sign-on locks the game's row before anything of the
game is read, so on PostgreSQL the second mail waits for the first to commit.
"""

from __future__ import annotations

import pytest

from judge.db.repositories.games import GameRepository
from tests.app.conftest import Harness
from tests.app.masters_helpers import as_master, as_power, moderated_game, state_of


@pytest.fixture
def locks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    taken: list[int] = []
    real = GameRepository.lock

    def spy(self: GameRepository, game_id: int):  # type: ignore[no-untyped-def]
        taken.append(game_id)
        return real(self, game_id)

    monkeypatch.setattr(GameRepository, "lock", spy)
    return taken


def test_every_kind_of_sign_on_locks_the_game_before_acting(harness: Harness, locks: list[int]) -> None:
    moderated_game(harness)
    game_id = state_of(harness).columns["id"]
    locks.clear()
    as_power(harness, "FRANCE", "A PAR H\n")
    assert locks and locks[0] == game_id
    locks.clear()
    as_master(harness, "SET COMMENT a quiet game\n")
    assert locks and locks[0] == game_id
    locks.clear()
    harness.exchange("watcher@example.net", "OBSERVE modo seeall\n")
    assert locks and locks[0] == game_id


def test_joining_a_forming_game_locks_it(harness: Harness, locks: list[int]) -> None:
    moderated_game(harness, players=2)
    game_id = state_of(harness).columns["id"]
    from tests.app.games_helpers import register

    register(harness, "late@example.net")
    locks.clear()
    harness.exchange("late@example.net", "SIGNON ?modo latepw\n")
    assert locks and locks[0] == game_id


def test_clock_flags_re_plan_the_game(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    import judge.app.phases.planning as planning

    moderated_game(harness)
    planned: list[str] = []
    real = planning.phase_clock  # plan reads the game's clock first: the spy sees every plan

    def spy(uow, game, opened=None):  # type: ignore[no-untyped-def]
        planned.append(game.name)
        return real(uow, game, opened)

    monkeypatch.setattr(planning, "phase_clock", spy)
    as_master(harness, "SET NMR\n")
    assert planned == ["modo"]
    planned.clear()
    as_master(harness, "SET MANUAL PROCESS\n")
    assert planned == ["modo"]
    planned.clear()
    as_master(harness, "SET COMMENT nothing to do with time\n")
    assert planned == []
