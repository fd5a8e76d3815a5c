"""Due games handled together (issue 28): what the batch reads ahead and writes together is each
game's own.

The scheduler reads a batch's open phases, orders, draw votes, results readers and absences in
one query each for all its games, and writes their new phases and results mails together at
the end (judge.app.phases.scheduler.read_ahead, judge.app.phases.planning.BatchReads,
UnitOfWork.together). These tests give three games due at once different votes, readers and
absences, and check each game got what is its own.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from judge.app.phases.guarded_scheduler import process_due
from judge.db.enums import DrawVoteKind, PhaseState
from judge.db.models import DrawVote, OutboundMail, PhaseRecord
from tests.app import orders_helpers
from tests.app.conftest import Harness
from tests.app.orders_helpers import OBSERVER, POWERS, start_game
from tests.app.test_processing_statement_budget import OPENINGS

NAMES = ("one", "two", "three")


def _address(power: str, name: str) -> str:
    return f"{power.lower()}.{name}@example.net"


def _three_due_games(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in NAMES:
        monkeypatch.setattr(orders_helpers, "address", lambda power, n=name: _address(power, n))
        game = start_game(harness, name, with_master=name == "two", with_observer=name == "three")
        for power, body in OPENINGS.items():
            game.orders(power, body)
    harness.clock.advance(hours=13, minutes=30)


def test_a_batch_clears_the_votes_of_its_games_that_have_some(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    _three_due_games(harness, monkeypatch)
    with harness.db.unit_of_work() as uow:
        for name in ("one", "three"):
            game = uow.games.by_name(name)
            assert game is not None
            uow.press.vote(game, game.seats[0], DrawVoteKind.DRAW, harness.clock.now())
    assert process_due(harness.services) == 3
    with harness.db.unit_of_work(readonly=True) as uow:
        assert uow.session.query(DrawVote).count() == 0
        processed = uow.session.query(PhaseRecord).filter_by(state=PhaseState.PROCESSED).count()
    assert processed == 3


def test_each_game_of_a_batch_mails_its_own_readers(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    _three_due_games(harness, monkeypatch)
    with harness.db.unit_of_work(readonly=True) as uow:
        ids = {name: game.id for name in NAMES if (game := uow.games.by_name(name)) is not None}
    assert process_due(harness.services) == 3
    with harness.db.unit_of_work(readonly=True) as uow:
        mails = uow.session.query(OutboundMail).filter(OutboundMail.map_phase_id.is_not(None)).all()  # the results
    by_game = {name: sorted(m.recipients[0] for m in mails if m.game_id == ids[name]) for name in NAMES}
    players = {name: sorted(_address(power, name) for power in POWERS) for name in NAMES}
    assert by_game["one"] == players["one"]
    assert by_game["two"] == sorted([*players["two"], orders_helpers.MASTER])
    assert by_game["three"] == sorted([*players["three"], OBSERVER])


def test_an_absence_moves_only_its_own_games_deadline_in_a_batch(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    _three_due_games(harness, monkeypatch)
    now = harness.clock.now()
    with harness.db.unit_of_work() as uow:
        person = uow.people.by_address(_address("FRANCE", "two"))
        assert person is not None
        uow.people.add_absence(person, now, now + timedelta(days=10), now)
    assert process_due(harness.services) == 3
    with harness.db.unit_of_work(readonly=True) as uow:
        deadlines = {}
        for name in NAMES:
            game = uow.games.by_name(name)
            assert game is not None and game.current_phase == "F1901M"
            deadlines[name] = game.deadline_at
    assert deadlines["one"] == deadlines["three"]
    assert deadlines["two"] is not None and deadlines["one"] is not None
    assert deadlines["two"] > deadlines["one"]


def test_each_player_of_a_batch_is_credited_once_for_the_phase(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch adds its dedication credits up and writes them at its end: each player's turn is
    counted once, on time, in every game of the batch."""
    _three_due_games(harness, monkeypatch)
    assert process_due(harness.services) == 3
    with harness.db.unit_of_work(readonly=True) as uow:
        for name in NAMES:
            for power in POWERS:
                person = uow.people.by_address(_address(power, name))
                assert person is not None
                assert (person.turns_due, person.turns_on_time, person.turns_late) == (1, 1, 0), (name, power)


def test_the_outbound_role_is_woken_once_a_batchs_results_are_committed(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The results go as soon as they are committed, not at the sender's next poll: the scheduler
    rings ``on_outbox`` (a NOTIFY when the outbound role runs in another process) after each
    committed batch, when the mails are there to be claimed, and not when nothing was due."""
    _three_due_games(harness, monkeypatch)
    queued_when_woken: list[int] = []

    def woken() -> None:
        with harness.db.unit_of_work(readonly=True) as uow:
            queued_when_woken.append(uow.session.query(OutboundMail).filter(OutboundMail.map_phase_id.is_not(None)).count())

    services = dataclasses.replace(harness.services, on_outbox=woken)
    assert process_due(services) == 3
    assert queued_when_woken == [3 * len(POWERS) + 2]  # one batch: every player, a master, an observer
    assert process_due(services) == 0
    assert len(queued_when_woken) == 1
