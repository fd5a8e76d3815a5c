"""The Renaissance game in the judge's flow (issue 33): reached through its game hooks only.

The variant is not offered yet (CREATE and SIGNON refuse it), so these tests give a formed game
the scenario's name before its start, as a master's tool would, and check what the flow does
with it through :class:`judge.app.machiavelli.machiavelli_hooks.MachiavelliHooks`.
"""

from __future__ import annotations

import random
from zoneinfo import ZoneInfo

from judge.app.game_state.boards import from_json
from judge.app.games.lifecycle import start_game
from judge.app.hooks.game_hooks import MACHIAVELLI, hooks_for
from judge.app.machiavelli.stored_phase import opening_json
from judge.core.machiavelli.board import load_board
from tests.app.conftest import Harness
from tests.app.games_helpers import form_game


def test_the_start_opens_the_scenarios_first_phase_with_its_garrisons_and_treasuries(
    harness: Harness,
) -> None:
    board = load_board()
    form_game(harness, players=2)
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        game.variant = "machiavelli"
        assert hooks_for(game) is MACHIAVELLI
        started = start_game(uow, game, harness.clock.now(), random.Random(7), zone=ZoneInfo("UTC"))
        assert len(started.powers) == 2 and set(started.powers.values()) <= set(
            board.game_map.powers
        )
        assert len(started.dummies) == len(board.game_map.powers) - 2
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        record = uow.phases.current(game)
        assert record is not None
        kept = dict(record.position_before)
        assert record.name == str(board.first_phase) == "W1453A"
        assert game.deadline_at is not None
    expected = opening_json(board)
    assert kept == expected  # the garrisons and every power's treasury, as the core keeps them
    assert kept["garrisons"] and set(kept["treasuries"]) == set(board.game_map.powers)
    assert from_json(kept).phase == board.first_phase


def test_an_ordinary_game_still_opens_with_its_maps_board(harness: Harness) -> None:
    form_game(harness, players=2)
    with harness.db.unit_of_work() as uow:
        game = uow.games.require("demo")
        start_game(uow, game, harness.clock.now(), random.Random(7), zone=ZoneInfo("UTC"))
    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.phases.current(uow.games.require("demo"))
        assert record is not None and record.name == "S1901M"
        assert (
            "garrisons" not in record.position_before and len(record.position_before["units"]) == 22
        )
