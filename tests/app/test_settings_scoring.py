"""SET SCORING: a master picks how a finished game is scored, before the start."""

from __future__ import annotations

import pytest

from judge.app.game_state.scoring import SYSTEMS
from judge.lang.set_options import OPTIONS, Choice
from tests.app.conftest import Harness
from tests.app.masters_helpers import as_master, moderated_game, read, state_of

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_the_reader_offers_exactly_the_judges_scoring_systems() -> None:
    offered = {m.value for m in OPTIONS.values() if isinstance(m, Choice) and m.option == "SCORING"}
    assert {value.lower() for value in offered} == set(SYSTEMS)


def test_a_master_sets_the_scoring_system_before_the_start(harness: Harness) -> None:
    moderated_game(harness, players=2)
    body = read(as_master(harness, "SET SCORING SUM-OF-SQUARES\n"))
    assert "Scoring: " in body
    assert state_of(harness).columns["extra_settings"]["scoring"] == "sum-of-squares"
    read(as_master(harness, "SET SCORING C-DIPLO\n"))
    assert state_of(harness).columns["extra_settings"]["scoring"] == "c-diplo"


def test_the_scoring_system_cannot_change_once_the_game_has_started(harness: Harness) -> None:
    moderated_game(harness)
    before = state_of(harness).columns["extra_settings"].get("scoring")
    reply = as_master(harness, "SET SCORING C-DIPLO\n")
    assert "[Error Flag]" in reply["Subject"]
    assert state_of(harness).columns["extra_settings"].get("scoring") == before
