"""``column IN (:list)`` written once (judge.db.one_parameter_in): the rows the list names on both
engines, whatever its length (empty too), one array parameter on PostgreSQL, the list spread on SQLite;
and the batch statements written with it (the absences read ahead, the credits written together)."""

from __future__ import annotations

from sqlalchemy import Connection, event, select

from judge.db import Database
from judge.db.models import Person
from judge.db.one_parameter_in import in_parameter
from judge.db.repositories.people import Registration
from tests.db.helpers import T0

_IDS = select(Person.id).where(in_parameter(Person.id, "ids")).order_by(Person.id)


def _people(database: Database, count: int) -> list[int]:
    with database.unit_of_work() as uow:
        return [uow.people.register(Registration(name=f"P{n}"), f"p{n}@example.org", T0).id for n in range(count)]


def test_the_rows_the_list_names_whatever_its_length(database: Database) -> None:
    ids = _people(database, 70)
    told: list[tuple[str, object]] = []

    def listener(_conn: Connection, _cursor: object, statement: str, parameters: object, *_args: object) -> None:
        told.append((statement, parameters))

    event.listen(database.engine, "before_cursor_execute", listener)
    try:
        with database.unit_of_work(readonly=True) as uow:
            for chosen in ([], ids[:1], ids[::2], [*ids, max(ids) + 1000]):
                assert list(uow.session.scalars(_IDS, {"ids": chosen})) == sorted(set(chosen) & set(ids))
    finally:
        event.remove(database.engine, "before_cursor_execute", listener)
    many = told[-1]
    if database.dialect == "postgresql":
        assert "ANY" in many[0] and len(dict(many[1])) == 1  # type: ignore[call-overload]
        assert len({statement for statement, _ in told}) == 1  # one text whatever the length
    else:
        assert " IN " in many[0] and len(many[1]) == len(ids) + 1  # type: ignore[arg-type]


def test_credits_written_together_reach_every_person_named(database: Database) -> None:
    ids = _people(database, 60)
    with database.unit_of_work() as uow:
        uow.people.hold_credits()
        uow.people.credit(ids[:55], {"turns_on_time": 1})
        uow.people.credit(ids[50:], {"turns_late": 2})
        uow.people.release_credits()
    with database.unit_of_work(readonly=True) as uow:
        counted = {p.id: (p.turns_on_time, p.turns_late) for p in uow.session.scalars(select(Person).where(Person.id.in_(ids)))}
    assert counted == {i: (1 if i in ids[:55] else 0, 2 if i in ids[50:] else 0) for i in ids}
