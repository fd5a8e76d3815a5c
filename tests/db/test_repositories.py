"""The repository layer on every engine: what is stored is what is read back."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from judge.core.phase import PhaseType
from judge.db import Database
from judge.db.enums import (
    AuditKind,
    DrawVoteKind,
    GameState,
    OrderBlockKind,
    PhaseState,
    PressKind,
    SeatStatus,
)
from judge.db.errors import DuplicateError, NotFoundError, StaleStateError
from judge.db.models import Game
from judge.db.repositories import Registration
from tests.db.helpers import T0, at, game_with_seats, person, position


def test_register_and_find_by_any_address(database: Database) -> None:
    with database.unit_of_work() as uow:
        registration = Registration(
            name="Ann Example",
            phone="+33 1 23 45 67 89",
            site="Paris",
            country="France",
            level="expert",
            birth_date=date(1970, 5, 17),
            time_zone="Europe/Paris",
            language="fr",
            extra={"Hobby": "maps"},
        )
        ann = uow.people.register(registration, "Ann@Example.ORG", T0)
        uow.people.add_address(ann, "<ann@work.example>", at(1))
        ann_id = ann.id
    with database.unit_of_work(readonly=True) as uow:
        found = uow.people.by_address("ann@work.example")
        assert found is not None and found.id == ann_id
        assert found.birth_date == date(1970, 5, 17)
        assert found.extra == {"Hobby": "maps"}
        assert found.primary_address == "ann@example.org"
        assert [a.address for a in found.addresses] == ["ann@example.org", "ann@work.example"]
        assert found.registered_at == T0 and found.registered_at.tzinfo is not None
        assert uow.people.by_address("nobody@example.org") is None


def test_an_address_belongs_to_one_person(database: Database) -> None:
    with database.unit_of_work() as uow:
        ann = person(uow, "ann@example.org")
        bob = person(uow, "bob@example.org", "Bob")
        assert uow.people.add_address(ann, "ANN@example.org", T0).person_id == ann.id  # idempotent
        with pytest.raises(DuplicateError):
            uow.people.add_address(bob, "ann@example.org", T0)
        with pytest.raises(DuplicateError):
            person(uow, "bob@example.org", "Bob again")


def test_update_registration_reports_changes(database: Database) -> None:
    with database.unit_of_work() as uow:
        ann = person(uow)
        changes = uow.people.update_registration(ann, {"site": "Lyon", "country": "France"}, at(5))
        assert changes == {"site": ("Home", "Lyon")}
        assert ann.updated_at == at(5)
        with pytest.raises(ValueError, match="not registration fields"):
            uow.people.update_registration(ann, {"dedication": 5}, at(5))


def test_dedication_counters_add_up(database: Database) -> None:
    with database.unit_of_work() as uow:
        ann_id = person(uow).id
    for _ in range(3):
        with database.unit_of_work() as uow:
            ann = uow.people.get(ann_id)
            uow.people.add_to_record(ann, dedication=3, turns_due=1, turns_on_time=1)
    with database.unit_of_work() as uow:
        ann = uow.people.get(ann_id)
        uow.people.add_to_record(ann, dedication=-49, abandonments=1)
        assert (ann.dedication, ann.turns_due, ann.turns_on_time, ann.abandonments) == (
            -40,
            3,
            3,
            1,
        )
        with pytest.raises(ValueError):
            uow.people.add_to_record(ann, name=1)
        with pytest.raises(NotFoundError):
            uow.people.get(ann_id + 1000)


def test_absences(database: Database) -> None:
    with database.unit_of_work() as uow:
        ann = person(uow)
        game = uow.games.create("abs", T0)
        uow.people.add_absence(ann, at(60), at(120), T0, game=game)
        uow.people.add_absence(ann, at(600), at(700), T0)
        other = uow.games.create("other", T0)
        uow.people.add_absence(ann, at(800), at(900), T0, game=other)
        assert len(uow.people.absences(ann, game=game)) == 2
        assert len(uow.people.absences(ann, ending_after=at(200))) == 2
        with pytest.raises(ValueError):
            uow.people.add_absence(ann, at(10), at(5), T0)
        assert uow.people.purge_absences(at(200)) == 1


def test_game_settings_and_audit(database: Database) -> None:
    with database.unit_of_work() as uow:
        ann = person(uow)
        game = uow.games.create("Demo", T0, rule_options=["gunboat"], settings={"nmr": True})
        assert game.name == "demo" and game.state is GameState.FORMING
        assert (game.press_mode, game.dias, game.winning_centers, game.nmr) == (
            "white",
            True,
            18,
            True,
        )
        event = uow.games.change_setting(
            game, "press_mode", "grey", at(1), actor="ann@example.org", person=ann
        )
        assert event is not None and (event.old_value, event.new_value) == ("white", "grey")
        assert uow.games.change_setting(game, "press_mode", "grey", at(2), actor="x") is None
        uow.games.change_setting(game, "deadline_at", at(600), at(3), actor="master")
        uow.games.change_setting(game, "extra:storms", True, at(4), actor="master")
        with pytest.raises(ValueError, match="unknown game setting"):
            uow.games.change_setting(game, "epoch", 3, at(5), actor="x")
        with pytest.raises(DuplicateError):
            uow.games.create("DEMO", T0)
        with pytest.raises(ValueError, match="not game settings"):
            uow.games.create("g2", T0, settings={"bogus": 1})
        game_id = game.id
    with database.unit_of_work(readonly=True) as uow:
        game = uow.games.get(game_id)
        assert uow.games.require("demo").id == game_id
        assert game.press_mode == "grey" and game.deadline_at == at(600)
        assert game.extra_settings == {"storms": True}
        assert game.rule_options == ["gunboat"]
        trail = uow.audit.for_game(game, kind=AuditKind.SETTING)
        assert [(e.setting, e.new_value) for e in trail] == [
            ("press_mode", "grey"),
            ("deadline_at", at(600).isoformat()),
            ("extra:storms", True),
        ]
        assert trail[0].person_id is not None and trail[0].actor == "ann@example.org"
        with pytest.raises(NotFoundError):
            uow.games.require("nope")


def test_schedules(database: Database) -> None:
    with database.unit_of_work() as uow:
        game = uow.games.create("sched", T0)
        uow.games.set_schedule(
            game,
            PhaseType.MOVEMENT,
            clock_minutes=1410,
            min_hours=12,
            next_hours=71,
            grace_hours=167,
            days="-MTWTF-",
        )
        uow.games.set_schedule(game, PhaseType.RETREAT, next_hours=23)
        uow.games.set_schedule(game, PhaseType.MOVEMENT, next_hours=72)
        with pytest.raises(ValueError):
            uow.games.set_schedule(game, PhaseType.ADJUSTMENT, bogus=1)
        game_id = game.id
    with database.unit_of_work(readonly=True) as uow:
        game = uow.games.get(game_id)
        moves = game.schedule(PhaseType.MOVEMENT)
        assert moves is not None and (moves.clock_minutes, moves.next_hours, moves.grace_hours) == (
            1410,
            72,
            167,
        )
        assert game.schedule(PhaseType.ADJUSTMENT) is None
        assert len(game.schedules) == 2


def test_seats_passwords_and_takeover(database: Database) -> None:
    with database.unit_of_work() as uow:
        game, (england, france, _germany) = game_with_seats(uow)
        assert england.password_hash is not None and "pwE" not in england.password_hash
        assert uow.seats.check_password(england, "pwE")
        assert not uow.seats.check_password(england, "pwe")
        assert not uow.seats.check_password(england, "pwF")
        with pytest.raises(DuplicateError):
            uow.seats.join(game, None, "x", T0, power="E")
        with pytest.raises(DuplicateError):
            uow.seats.join(game, france.person, "x", T0)
        uow.seats.leave(france, at(10), SeatStatus.ABANDONED, phase="F1901M")
        newcomer = person(uow, "new@example.org", "New")
        uow.seats.take_over(
            france, newcomer, "fresh", at(20), phase="F1901M", actor="new@example.org"
        )
        france_id, newcomer_id = france.id, newcomer.id
    with database.unit_of_work() as uow:
        game = uow.games.require("demo")
        france = uow.seats.by_power(game, "F")
        assert france is not None and france.id == france_id
        assert france.status is SeatStatus.PLAYING and france.wait
        assert uow.seats.check_password(france, "fresh") and not uow.seats.check_password(
            france, "pwF"
        )
        history = uow.seats.history(france)
        assert [(t.how, t.ended_phase) for t in history] == [("join", "F1901M"), ("takeover", None)]
        assert history[1].person_id == newcomer_id and history[0].ended_at == at(10)
        assert [e.kind for e in uow.audit.for_game(game)] == [AuditKind.TAKEOVER]
        assert uow.seats.of_person(game, uow.people.get(newcomer_id)) is not None


def test_forming_game_assigns_powers(database: Database) -> None:
    with database.unit_of_work() as uow:
        game = uow.games.create("forming", T0)
        seat = uow.seats.join(game, person(uow), "pw", T0, preferences="FEG")
        assert seat.power is None and seat.status is SeatStatus.WAITING
        other = uow.seats.join(game, person(uow, "b@example.org", "B"), "pw", T0)
        uow.seats.assign(seat, "F", at(1), phase="S1901M")
        with pytest.raises(DuplicateError):
            uow.seats.assign(other, "F", at(1))
        assert seat.status is SeatStatus.PLAYING and len(seat.tenures) == 1


def test_masters_and_observers(database: Database) -> None:
    with database.unit_of_work() as uow:
        game = uow.games.create("watched", T0)
        ann = person(uow)
        master = uow.games.add_master(game, ann, "mpw", T0)
        with pytest.raises(DuplicateError):
            uow.games.add_master(game, ann, "again", T0)
        assert uow.games.check_master_password(master, "mpw")
        assert not uow.games.check_master_password(master, "MPW")
        uow.games.add_observer(game, "Watcher@example.org", "one", T0)
        uow.games.add_observer(game, "watcher@example.org", "two", T0)
        found = uow.games.find_observer(game, "WATCHER@example.org", "two")
        assert found is not None and found.address == "watcher@example.org"
        assert uow.games.find_observer(game, "watcher@example.org", "three") is None
        assert len(game.observers) == 2


def test_phases_record_and_rollback(database: Database) -> None:
    with database.unit_of_work() as uow:
        game, _ = game_with_seats(uow)
        first = uow.phases.open(game, "S1901M", position("S1901M"), T0, deadline_at=at(60))
        assert first.turn == 1 and game.current_phase == "S1901M"
        uow.phases.record_processing(
            first,
            orders_received={"France": ["a par-bur"]},
            orders_adjudicated={"France": ["A PAR - BUR"]},
            results={"France": ["A PAR - BUR"]},
            position_after=position("F1901M"),
            processed_at=at(61),
            processing_ms=12,
        )
        with pytest.raises(StaleStateError):
            uow.phases.record_processing(
                first,
                orders_received={},
                orders_adjudicated={},
                results={},
                position_after={},
                processed_at=at(62),
                processing_ms=1,
            )
        second = uow.phases.open(game, "F1901M", position("F1901M"), at(61))
        assert second.turn == 2
        game_id = game.id
    with database.unit_of_work() as uow:
        game = uow.games.get(game_id)
        assert [p.name for p in uow.phases.history(game)] == ["S1901M", "F1901M"]
        current = uow.phases.current(game)
        assert current is not None and current.name == "F1901M"
        done = uow.phases.by_turn(game, 1)
        assert done.position_after == position("F1901M") and done.processing_ms == 12
        assert done.orders_adjudicated == {"France": ["A PAR - BUR"]}
        reopened = uow.phases.rollback(game, 1, at(100), actor="master")
        assert reopened.turn == 1 and reopened.epoch == 1 and reopened.state is PhaseState.OPEN
        assert reopened.position_before == position("S1901M")
        assert game.current_phase == "S1901M"
        assert [p.name for p in uow.phases.history(game)] == ["S1901M"]
        with pytest.raises(NotFoundError):
            uow.phases.by_turn(game, 2)
        assert [e.kind for e in uow.audit.for_game(game)] == [AuditKind.ROLLBACK]


def test_orders_keep_every_version(database: Database) -> None:
    with database.unit_of_work() as uow:
        game, (england, france, _) = game_with_seats(uow)
        uow.orders.submit(game, france, "S1901M", "a par-bur", ["A PAR - BUR"], at(1))
        uow.orders.submit(
            game, france, "S1901M", "a par-pic\nf bre-mao", ["A PAR - PIC", "F BRE - MAO"], at(2)
        )
        uow.orders.submit(game, england, "S1901M", "f lon-nth", ["F LON - NTH"], at(3))
        uow.orders.submit(
            game,
            france,
            "F1901M",
            "PHASE F1901M\nIF A BUR THEN\nA BUR-MUN\nENDIF",
            [],
            at(4),
            kind=OrderBlockKind.CONDITIONAL,
        )
        game_id = game.id
    with database.unit_of_work() as uow:
        game = uow.games.get(game_id)
        current = uow.orders.current(game, "S1901M")
        assert sorted(current) == ["E", "F"]
        assert (
            current["F"].canonical == ["A PAR - PIC", "F BRE - MAO"] and current["F"].version == 2
        )
        assert current["F"].text == "a par-pic\nf bre-mao" and current["F"].submitted_at == at(2)
        versions = uow.orders.versions(game, "S1901M", "F")
        assert [(v.version, v.superseded_at) for v in versions] == [(1, at(2)), (2, None)]
        france = uow.seats.by_power(game, "F")
        assert france is not None
        future = uow.orders.pending_future(game, france, after_phase="S1901M")
        assert [f.phase for f in future] == ["F1901M"] and future[
            0
        ].kind is OrderBlockKind.CONDITIONAL
        assert uow.orders.clear_future(game, france, at(5)) == 1
        assert uow.orders.pending_future(game, france, after_phase="S1901M") == []
        phase = uow.phases.open(game, "S1901M", position(), at(6))
        assert {o.power for o in uow.phases.orders_of(phase)} == {"E", "F"}


def test_orders_of_a_rolled_back_timeline_do_not_count(database: Database) -> None:
    with database.unit_of_work() as uow:
        game, (_, france, _) = game_with_seats(uow)
        uow.phases.open(game, "S1901M", position(), T0)
        uow.orders.submit(game, france, "S1901M", "a par-bur", ["A PAR - BUR"], at(1))
        uow.phases.rollback(game, 1, at(2))
        assert uow.orders.current(game, "S1901M") == {}
        uow.orders.submit(game, france, "S1901M", "a par-pic", ["A PAR - PIC"], at(3))
        assert uow.orders.current(game, "S1901M")["F"].version == 1


def test_press_votes_and_diary(database: Database) -> None:
    with database.unit_of_work() as uow:
        game, (england, france, germany) = game_with_seats(uow)
        game.current_phase = "S1901M"
        uow.press.post(
            game,
            "Hello all",
            at(1),
            kind=PressKind.BROADCAST,
            sender_seat=france,
            recipients=["E", "F", "G"],
        )
        uow.press.post(
            game,
            "Psst",
            at(2),
            sender_seat=england,
            recipients=["F"],
            shown_recipients=["E", "F", "G"],
            grey=True,
        )
        messages = uow.press.for_game(game)
        assert [(m.kind, m.sender_power, m.body, m.grey) for m in messages] == [
            (PressKind.BROADCAST, "F", "Hello all", False),
            (PressKind.PRESS, "E", "Psst", True),
        ]
        assert messages[1].shown_recipients == ["E", "F", "G"] and messages[0].phase == "S1901M"
        assert [m.body for m in uow.press.for_game(game, since=at(2))] == ["Psst"]
        uow.press.vote(game, england, DrawVoteKind.DRAW, at(3))
        uow.press.vote(game, england, DrawVoteKind.DRAW, at(4), powers="EF")
        uow.press.vote(game, france, DrawVoteKind.CONCEDE, at(4), powers="G")
        votes = uow.press.votes(game)
        assert [(v.kind, v.powers) for v in votes] == [
            (DrawVoteKind.DRAW, "EF"),
            (DrawVoteKind.CONCEDE, "G"),
        ]
        uow.press.withdraw_vote(game, france)
        assert len(uow.press.votes(game)) == 1
        assert uow.press.clear_votes(game) == 1
        entry = uow.press.add_diary(game, "I will betray England", at(5), seat=france)
        uow.press.add_diary(game, "Germany's thoughts", at(6), seat=germany)
        assert [e.body for e in uow.press.diary(game, seat=france)] == ["I will betray England"]
        with pytest.raises(NotFoundError):
            uow.press.delete_diary(entry.id, germany, at(7))
        uow.press.delete_diary(entry.id, france, at(7))
        assert [e.body for e in uow.press.diary(game)] == ["Germany's thoughts"]


def test_new_address_audit(database: Database) -> None:
    with database.unit_of_work() as uow:
        ann = person(uow)
        uow.audit.record_new_address(
            "ann@elsewhere.example", at(1), person=ann, detail="SIGNON fdemo"
        )
        events = uow.audit.for_person(ann)
        assert [(e.kind, e.actor, e.detail) for e in events] == [
            (AuditKind.NEW_ADDRESS, "ann@elsewhere.example", "SIGNON fdemo")
        ]


def test_deleting_a_game_keeps_its_audit_trail(database: Database) -> None:
    with database.unit_of_work() as uow:
        game, _ = game_with_seats(uow)
        uow.phases.open(game, "S1901M", position(), T0)
        uow.games.change_setting(game, "nmr", True, at(1), actor="m")
        uow.games.delete(game)
    with database.unit_of_work(readonly=True) as uow:
        assert uow.games.by_name("demo") is None
        assert uow.session.query(Game).count() == 0


def test_a_failed_unit_of_work_leaves_nothing(database: Database) -> None:
    with pytest.raises(RuntimeError), database.unit_of_work() as uow:
        uow.games.create("ghost", T0)
        raise RuntimeError("boom")
    with database.unit_of_work(readonly=True) as uow:
        assert uow.games.by_name("ghost") is None


def test_due_games(database: Database) -> None:
    with database.unit_of_work() as uow:
        early = uow.games.create("early", T0)
        late = uow.games.create("late", T0)
        uow.games.create("idle", T0)
        uow.games.set_next_due(early, at(10))
        uow.games.set_next_due(late, at(20))
        assert uow.games.earliest_due() == at(10)
    with database.unit_of_work() as uow:
        assert uow.games.claim_due(at(5)) is None
        claimed = uow.games.claim_due(at(30))
        assert claimed is not None and claimed.name == "early"
        uow.games.set_next_due(claimed, None)
    with database.unit_of_work() as uow:
        claimed = uow.games.claim_due(at(30))
        assert claimed is not None and claimed.name == "late"
        assert uow.games.lock(claimed.id) is claimed
        with pytest.raises(NotFoundError):
            uow.games.lock(claimed.id + 100)
        assert [g.name for g in uow.games.list(states=[GameState.FORMING])] == [
            "early",
            "idle",
            "late",
        ]
        assert len(uow.games.list(listed_only=True)) == 3  # listed unless SET NOLIST
        claimed.listed = False
        assert len(uow.games.list(listed_only=True)) == 2


def test_times_come_back_in_utc(database: Database) -> None:
    from datetime import timezone

    paris = timezone(timedelta(hours=1))
    with database.unit_of_work() as uow:
        game = uow.games.create("tz", T0)
        game.deadline_at = T0.astimezone(paris)
    with database.unit_of_work(readonly=True) as uow:
        deadline = uow.games.require("tz").deadline_at
        assert deadline == T0 and deadline is not None and deadline.utcoffset() == timedelta(0)
