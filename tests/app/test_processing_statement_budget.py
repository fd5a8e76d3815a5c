"""The SQL statements of processing one due phase: a budget, counted with an engine event listener.

Issue 14: a due game cost 42 statements (nine single-row outbox INSERTs, the
open phase read five times, the clock computed twice, the audience loaded
piecemeal). Statement counts are deterministic, so the budget is a proper
test: it fails when a change adds round trips to the scheduler's hot path.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event

from judge.app.phases.guarded_scheduler import process_due
from judge.db.enums import PhaseState
from judge.db.models import OutboundMail, PhaseRecord
from tests.app import orders_helpers
from tests.app.conftest import Harness
from tests.app.orders_helpers import POWERS, start_game

BUDGET_PER_GAME = 13
"""Statements for claiming, processing and re-planning one due game (BEGIN/COMMIT not counted);
15 before issue 28's batch reading and writing."""
ROUND_END = 1
"""The scheduler's round ends with one claim that finds nothing more due."""
BATCH_SHARED = 11
"""Statements a batch of due games shares: the claim (the games, their seats, their schedules),
the reading ahead (open phases, their orders, draw votes, the results' readers, absences), the
writing together (the games' rows, the players' dedication credits, the results mails)."""
IN_A_BATCH = 2
"""Statements per game in a batch: its phase marked processed, its next phase opened (one INSERT
for the batch where the engine batches them: PostgreSQL); 12 a game before issue 28, with the
claim alone shared."""

OPENINGS = {
    "AUSTRIA": "A VIE - GAL\nA BUD - SER\nF TRI - ALB\n",
    "ENGLAND": "F LON - NTH\nF EDI - NWG\nA LVP - YOR\n",
    "FRANCE": "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO\n",
    "GERMANY": "A BER - KIE\nA MUN - BUR\nF KIE - DEN\n",
    "ITALY": "A ROM - APU\nA VEN H\nF NAP - ION\n",
    "RUSSIA": "A WAR - GAL\nA MOS - UKR\nF SEV - BLA\nF STP/SC - BOT\n",
    "TURKEY": "F ANK - BLA\nA CON - BUL\nA SMY - ARM\n",
}


@contextmanager
def counted(harness: Harness) -> Iterator[list[str]]:
    """Every SQL statement the engine executes inside the block (executemany counts once)."""
    statements: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    engine = harness.db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", note)


def due_game_with_all_orders(harness: Harness, name: str = "demo") -> None:
    game = start_game(harness, name)
    harness.clock.advance(hours=13)  # past the phase's start
    for power, body in OPENINGS.items():
        game.orders(power, body)
    harness.clock.advance(minutes=30)  # the delay after the last orders


def test_processing_one_due_phase_stays_within_the_statement_budget(harness: Harness) -> None:
    due_game_with_all_orders(harness)
    with harness.db.unit_of_work(readonly=True) as uow:
        queued_before = uow.session.query(OutboundMail).count()
    with counted(harness) as statements:
        assert process_due(harness.services) == 1
    with harness.db.unit_of_work(readonly=True) as uow:
        queued = uow.session.query(OutboundMail).count() - queued_before
        phases = [(p.name, p.state) for p in uow.session.query(PhaseRecord)]
    assert ("S1901M", PhaseState.PROCESSED) in phases  # the work was done
    assert queued == len(POWERS) + 2  # seven players, the master, the observer
    work = [s for s in statements if s.split()[0].upper() not in ("BEGIN", "COMMIT", "ROLLBACK")]
    assert len(work) <= BUDGET_PER_GAME + ROUND_END, "\n".join(work)


def test_games_due_together_share_the_claim_and_the_commit(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three games due at once are claimed together and handled in one transaction: the claim is
    counted once for the three (judge.app.phases.guarded_scheduler.BATCH)."""
    for name in ("one", "two", "three"):
        # Each game its own seven players (an address belongs to one person).
        monkeypatch.setattr(orders_helpers, "address", lambda power, n=name: f"{power.lower()}.{n}@example.net")
        game = start_game(harness, name, with_master=False, with_observer=False)
        for power, body in OPENINGS.items():
            game.orders(power, body)
    harness.clock.advance(hours=13, minutes=30)
    with counted(harness) as statements:
        assert process_due(harness.services) == 3
    with harness.db.unit_of_work(readonly=True) as uow:
        processed = [p.game_id for p in uow.session.query(PhaseRecord) if p.state is PhaseState.PROCESSED]
    assert len(processed) == 3
    work = [s for s in statements if s.split()[0].upper() not in ("BEGIN", "COMMIT", "ROLLBACK")]
    claims = [s for s in work if s.startswith("SELECT games.") and " LIMIT " in " ".join(s.split()).upper()]
    assert len(claims) == 2  # one claim for the three games, and the round's last (finding nothing)
    assert len(work) <= BATCH_SHARED + 3 * IN_A_BATCH + ROUND_END, "\n".join(work)
