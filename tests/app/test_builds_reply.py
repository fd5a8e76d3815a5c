"""Issue 13: the reply in a builds phase speaks of builds and removals, not of units' orders."""

from __future__ import annotations

import pytest

from judge.app.phases.guarded_scheduler import process_due
from tests.app.conftest import Harness
from tests.app.orders_helpers import start_game
from tests.app.test_processing_results import fall_position

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_a_builds_reply_with_an_error_speaks_of_builds_not_units(harness: Harness) -> None:
    game = start_game(harness, position=fall_position())
    game.orders("ITALY", "A VEN - TRI\nA TYR S A VEN - TRI\nF NAP H\n")
    game.orders("AUSTRIA", "F TRI H\nA VIE H\nA BUD H\n")
    game.master("PROCESS\n")
    game.orders("AUSTRIA", "F TRI - ALB\n")
    harness.clock.advance(minutes=30)
    assert process_due(harness.services) == 1
    assert game.state()["phase"] == "W1901A"
    text = game.orders_text("ITALY", "BUILD A ROM\nA PAR - BUR\n")
    assert "Every build or removal is given, but this mail had errors" in text
    assert "Every unit has an order" not in text
