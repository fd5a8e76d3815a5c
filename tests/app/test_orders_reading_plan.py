"""An order mail reads the orders in force through their partial indexes, on both engines
(issue 14): never through superseded versions or past phases, so its cost does not grow with
the game's history. The test fails if the reading stops using them."""

from __future__ import annotations

import re

import pytest

from judge.app.game_state.order_sheets import open_phase_and_orders, seat_orders
from judge.core.phase import Phase
from tests.app.conftest import Harness
from tests.app.orders_helpers import address, start_game
from tests.query_plans import query_plan, statements_sent

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def test_the_orders_in_force_are_read_through_their_partial_indexes(harness: Harness) -> None:
    game = start_game(harness)
    for _ in range(3):  # superseded versions, as after a few order mails
        harness.send(address("FRANCE"), game.signon("FRANCE") + "A Par H\nA Mar H\nF Bre H\n")
        harness.send(address("RUSSIA"), game.signon("RUSSIA") + "A Mos H\nA War H\n")
        harness.drain()
    db = harness.db
    reading = statements_sent(db.engine, lambda statement: "seat_orders_rows" in statement)
    with reading as statements, db.unit_of_work() as uow:
        stored = uow.games.require(game.name)
        seat = next(seat for seat in stored.seats if seat.power == "FRANCE")
        found = open_phase_and_orders(uow, stored, seat)
        alone = seat_orders(uow, stored, seat, Phase.parse("S1901M"))
    assert found is not None and found.orders is not None and found.orders.current is not None
    assert found.orders.submitted == {"FRANCE", "RUSSIA"} and found.orders.newest_version == 3
    assert alone.current == found.orders.current
    assert len(statements) == 2
    for statement, parameters in statements:
        plan = query_plan(db.engine, statement, parameters)
        # Every read of the orders in force goes through one of the partial indexes (which
        # one is the planner's choice); only the newest version's look-up (alias "versions",
        # which must see superseded versions too) reads another index.
        reads = [line for line in plan.splitlines() if re.search(r"\b(on|SEARCH|SCAN) orders\b(?! versions)", line)]
        assert len(reads) == 2, plan
        assert all(re.search(r"ix_orders_(current|ahead)", line) for line in reads), plan

