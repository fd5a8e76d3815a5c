"""The worker's hot-path writes and reads in Core (issue 14): the same rows and checks as the ORM's.

``OrderRepository.submit_row`` and ``OutboxRepository.enqueue_each`` write with Core statements
instead of an ORM object and a flush; they must store what ``submit``/``enqueue`` store, supersede
the same version, and refuse the same text the flush's check refuses. ``SeatRepository.of_game``
may load a game's seats without their players; a later call that wants them gets them all in one
query, with their addresses.
"""

from __future__ import annotations

import json

import pytest
from sqlalchemy import event, select

from judge.db import Database
from judge.db.enums import OrderBlockKind
from judge.db.errors import InvalidTextError, TextTooLongError
from judge.db.models import OrderSubmission, OutboundMail
from judge.db.repositories.mail import ReaderMail
from tests.db.helpers import T0, at, game_with_seats, position


def _versions(database: Database, power: str) -> list[tuple[int, str, list[str], bool]]:
    with database.unit_of_work(readonly=True) as uow:
        rows = uow.session.scalars(
            select(OrderSubmission).where(OrderSubmission.power == power).order_by(OrderSubmission.version)
        )
        return [(row.version, row.text, list(row.canonical), row.superseded_at is None) for row in rows]


def test_submit_row_stores_a_version_and_supersedes_the_one_in_force(database: Database) -> None:
    with database.unit_of_work() as uow:
        game, (england, *_) = game_with_seats(uow)
        first = uow.orders.submit(game, england, "S1901M", "F LON - NTH", ["F LON - NTH"], at(1))
    with database.unit_of_work() as uow:
        game = uow.games.require("demo")
        england = uow.seats.by_power(game, "E")
        assert england is not None
        current = uow.orders.current(game, "S1901M")["E"]
        assert current.id == first.id
        uow.orders.submit_row(
            game, england, "S1901M", "F LON - ENG\nA LVP H", ["F LON - ENG", "A LVP H"], at(2),
            current_id=current.id, newest_version=1, kind=OrderBlockKind.CONDITIONAL,
        )  # fmt: skip
        assert current.superseded_at == at(2)  # the session's object reads as the row now is
        assert current not in uow.session.dirty  # and has nothing left to flush
        now_in_force = uow.orders.current(game, "S1901M")["E"]
        assert now_in_force.version == 2 and now_in_force.kind is OrderBlockKind.CONDITIONAL
        assert now_in_force.submitted_at == at(2) and now_in_force.seat_id == england.id
    assert _versions(database, "E") == [
        (1, "F LON - NTH", ["F LON - NTH"], False),
        (2, "F LON - ENG\nA LVP H", ["F LON - ENG", "A LVP H"], True),
    ]


def test_submit_row_without_orders_in_force_starts_at_version_one(database: Database) -> None:
    with database.unit_of_work() as uow:
        game, (england, *_) = game_with_seats(uow)
        uow.orders.submit_row(game, england, "S1901M", "F LON H", ["F LON H"], at(1), current_id=None, newest_version=0)
    assert _versions(database, "E") == [(1, "F LON H", ["F LON H"], True)]


def test_submit_row_refuses_what_the_flush_refuses(database: Database) -> None:
    with pytest.raises(InvalidTextError, match=r"orders\.canonical"), database.unit_of_work() as uow:
        game, (england, *_) = game_with_seats(uow)
        uow.orders.submit_row(
            game, england, "S1901M", "F LON - NTH", ["F LON\x00 - NTH"], at(1), current_id=None, newest_version=0
        )
    with pytest.raises(InvalidTextError, match=r"orders\.text"), database.unit_of_work() as uow:
        game, (england, *_) = game_with_seats(uow)
        uow.orders.submit_row(
            game, england, "S1901M", "F LON\x00", ["F LON H"], at(1), current_id=None, newest_version=0
        )
    with pytest.raises(TextTooLongError), database.unit_of_work() as uow:
        game, (england, *_) = game_with_seats(uow)
        uow.orders.submit_row(game, england, "S1901MXYZ", "F LON H", ["F LON H"], at(1), current_id=None, newest_version=0)
    with database.unit_of_work(readonly=True) as uow:
        assert uow.games.by_name("demo") is None  # each unit of work was rolled back whole


def test_enqueue_each_queues_the_same_rows_as_enqueue_one_reader_each(database: Database) -> None:
    with database.unit_of_work() as uow:
        game, _seats = game_with_seats(uow)
        uow.outbox.enqueue("ann@example.org", b"one", T0, mail_from="judge@example.org", game_id=game.id)
        assert uow.outbox.enqueue_each(
            [ReaderMail("ann@example.org", b"two")], T0, mail_from="judge@example.org", game_id=game.id
        ) == 1
        assert uow.outbox.enqueue_each(
            [ReaderMail("bob@example.org", b"three"), ReaderMail("cy@example.org", b"four")],
            T0, mail_from="judge@example.org", game_id=game.id,
        ) == 2  # fmt: skip
        assert uow.outbox.enqueue_each([], T0, mail_from="judge@example.org") == 0
        with pytest.raises(ValueError):
            uow.outbox.enqueue_each([ReaderMail("", b"x")], T0, mail_from="judge@example.org")
    with database.unit_of_work(readonly=True) as uow:
        one, *others = uow.session.scalars(select(OutboundMail).order_by(OutboundMail.id))
        columns = [c.key for c in OutboundMail.__table__.columns if c.key not in ("id", "message", "recipients")]
        for other in others:
            assert {key: getattr(other, key) for key in columns} == {key: getattr(one, key) for key in columns}
        assert [(bytes(m.message), m.recipients) for m in others] == [
            (b"two", ["ann@example.org"]), (b"three", ["bob@example.org"]), (b"four", ["cy@example.org"])
        ]  # fmt: skip
        assert [m.id for m in uow.outbox.claim_due(at(1))] == [one.id, *(m.id for m in others)]


def test_enqueue_each_refuses_what_the_flush_refuses(database: Database) -> None:
    with pytest.raises(InvalidTextError, match=r"mail_out\.recipients"), database.unit_of_work() as uow:
        uow.outbox.enqueue_each([ReaderMail("ann\x00@example.org", b"x")], T0, mail_from="judge@example.org")
    with pytest.raises(TextTooLongError), database.unit_of_work() as uow:
        uow.outbox.enqueue_each([ReaderMail("ann@example.org", b"x")], T0, mail_from="j" * 400 + "@example.org")


def test_seats_loaded_bare_get_their_players_in_one_query_when_wanted(database: Database) -> None:
    with database.unit_of_work() as uow:
        game_with_seats(uow)
    with database.unit_of_work() as uow:
        statements: list[str] = []

        def count(*args: object) -> None:
            statements.append(str(args[2]))

        event.listen(database.engine, "before_cursor_execute", count)
        try:
            game = uow.games.require("demo")
            before = len(statements)
            england = uow.seats.by_power(game, "E", players=False)
            assert england is not None and "person" not in england.__dict__
            assert len(statements) == before + 1
            assert uow.seats.by_power(game, "F", players=False) is not None  # no second query
            assert len(statements) == before + 1
            seats = uow.seats.of_game(game)  # the players now: one query for all
            assert len(statements) == before + 2
            addresses = [[a.address for a in seat.person.addresses] for seat in seats if seat.person is not None]
            assert addresses == [["e@example.org"], ["f@example.org"], ["g@example.org"]]
            uow.seats.of_game(game)
            assert len(statements) == before + 2  # loaded once
        finally:
            event.remove(database.engine, "before_cursor_execute", count)


def test_open_board_reads_the_open_phase_and_its_position_as_stored(database: Database) -> None:
    with database.unit_of_work() as uow:
        game, _seats = game_with_seats(uow)
        assert uow.phases.open_board(game) is None
        first = uow.phases.open(game, "S1901M", position(), T0)
        phase_id, turn, stored = uow.phases.open_board(game) or (0, 0, "")
        assert (phase_id, turn) == (first.id, 1)
        assert json.loads(stored) == position()
        # A phase opened in this transaction and not flushed yet is found, as the ORM query would.
        uow.phases.record_processing(
            first, orders_received={}, orders_adjudicated={}, results={}, position_after=position("F1901M"),
            processed_at=at(1), processing_ms=1,
        )  # fmt: skip
        following = uow.phases.open_after(game, first, "F1901M", position("F1901M"), at(1))
        found = uow.phases.open_board(game)
        assert found is not None and found[:2] == (following.id, 2)
        assert json.loads(found[2]) == position("F1901M")


def test_the_throttle_read_with_the_seats_is_what_it_reads_alone(database: Database) -> None:
    from judge.db.models import SignonLockout

    with database.unit_of_work() as uow:
        game, _seats = game_with_seats(uow)
        for minute in (1, 2, 3):
            uow.seats.record_failure("x@example.org", at(minute), game=game, power="F")
        uow.seats.record_failure("x@example.org", at(-90), game=game, power="F")  # before the window
        uow.session.add(SignonLockout(game_id=game.id, power="F", started_at=at(1), until=at(60), strikes=1))
    for players in (True, False):
        for sender, power in (("x@example.org", "F"), ("y@example.org", "E")):
            with database.unit_of_work() as uow:
                game = uow.games.require("demo")
                alone = uow.seats.failures_and_lockout(sender, at(-30), game, power)
                seat, known = uow.seats.by_power_and_throttle(game, power, sender, at(-30), players=players)
                assert seat is not None and seat.power == power
                assert known == alone
                assert ("person" in seat.__dict__) is players
                # Loaded: the seats come from the session, the throttle is left to its own query.
                assert uow.seats.by_power_and_throttle(game, power, sender, at(-30), players=players) == (seat, None)
    with database.unit_of_work(readonly=True) as uow:
        game = uow.games.require("demo")
        assert uow.seats.failures_and_lockout("x@example.org", at(-30), game, "F") == (3, at(60))


def test_the_open_phase_read_with_a_seats_orders_is_what_each_reads_alone(database: Database) -> None:
    from judge.app.game_state import order_sheets as kept
    from judge.core.phase import Phase

    with database.unit_of_work() as uow:
        game, (england, france, _germany) = game_with_seats(uow)
        assert kept.open_phase_and_orders(uow, game, england) is None
        uow.phases.open(game, "S1901M", position(), T0)
        game.current_phase = "S1901M"
        uow.orders.submit(game, england, "S1901M", "F LON H", ["F LON H"], at(1))
        uow.orders.submit(game, england, "S1901M", "F LON - NTH", ["F LON - NTH"], at(2))
        uow.orders.submit(game, france, "S1901M", "A PAR H", ["A PAR H"], at(2))
        uow.orders.submit(game, england, "F1901M", "F NTH H", ["F NTH H"], at(3), kind=OrderBlockKind.FUTURE)
    with database.unit_of_work() as uow:
        game = uow.games.require("demo")
        for seat in uow.seats.of_game(game):
            both = kept.open_phase_and_orders(uow, game, seat)
            assert both is not None and both.orders is not None
            assert (both.turn, json.loads(both.position)) == (1, position())
            alone = kept.seat_orders(uow, game, seat, Phase.parse("S1901M"))
            assert both.orders == alone
        england = uow.seats.by_power(game, "E")
        assert england is not None
        stored = kept.seat_orders(uow, game, england, Phase.parse("S1901M"))
        assert stored.current is not None and stored.current.canonical == ("F LON - NTH",)
        assert stored.newest_version == 2 and stored.submitted == {"E", "F"}
        assert [(str(phase), row.canonical) for phase, row in stored.pending()] == [("F1901M", ("F NTH H",))]
        game.current_phase = "F1901M"  # not the open phase's name: the orders are left to seat_orders
        odd = kept.open_phase_and_orders(uow, game, england)
        assert odd is not None and odd.orders is None and odd.turn == 1
