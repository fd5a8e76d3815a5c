"""Who gets a game's results, and in which language: one query for players, masters and observers.

Processing a phase mails the results to every player still in the game
(eliminated ones too; in a council game each member who may read them,
:mod:`judge.app.audience.council_members`), every master and every observer, each in the
language they read (:func:`judge.app.session.readers.reader_language`). Loading that
through the ORM's relationships costs a query per kind of reader and per
person; this reads it all in one ``UNION ALL``: one row per (reader,
address) with the reader's language settings.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from sqlalchemy import (
    Boolean,
    Integer,
    Select,
    bindparam,
    func,
    literal,
    null,
    select,
    union_all,
)
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import BindParameter

from judge.app.audience.council_members import read_by_councils, seat_readers
from judge.app.session.readers import ACTIVE, DEFAULT_LANGUAGE, LANGUAGE_CHOSEN, game_language
from judge.db.database import UnitOfWork
from judge.db.enums import SeatStatus
from judge.db.models import Game, GameMaster, GameObserver, Person, PersonAddress, Seat

_SEAT, _MASTER, _OBSERVER = 0, 1, 2


def language_of(language: str | None, extra: Mapping[str, Any] | None, game: Game) -> str:
    """:func:`judge.app.session.readers.reader_language` on a person's columns (None: nobody known)."""
    if language is not None and (bool((extra or {}).get(LANGUAGE_CHOSEN)) or language != DEFAULT_LANGUAGE):
        return language
    return game_language(game) or language or DEFAULT_LANGUAGE


class ResultsReader(NamedTuple):
    """How one address reads the results: its language and the ``Timezone:`` of its registration
    (empty: none; :func:`judge.app.session.readers.reader_zone` decides the zone)."""

    language: str
    time_zone: str
    power: str | None = None
    """The power this reader plays (a seat's player or council member), else None."""
    master: bool = False
    """Whether this reader is one of the game's masters."""
    observer: bool = False
    """Whether this reader is one of the game's observers."""


def read_audiences(uow: UnitOfWork, game_ids: Iterable[int]) -> dict[int, list[Any]]:
    """The rows :func:`results_audience` makes its readers of, for several games in one query
    (the scheduler's batch of due games): {game id: its rows}."""
    ids = sorted(set(game_ids))
    found: dict[int, list[Any]] = {game_id: [] for game_id in ids}
    if ids:
        for row in uow.session.execute(_audience_query(), {"game_ids": ids}):
            found[row.game].append(row)
    return found


def masters_of(rows: Iterable[Any]) -> list[int]:
    """The people who master the game, among its audience's rows (:func:`read_audiences`)."""
    return sorted({row.person for row in rows if row.kind == _MASTER and row.person is not None})


def results_audience(uow: UnitOfWork, game: Game, rows: Sequence[Any] | None = None) -> dict[str, ResultsReader]:
    """{address: reader} of everyone who gets the game's results, in the order mail goes out.

    Players first (seats in order; a seat's report address when it has one,
    else its player's primary address, else their first), then masters
    (primary or first address), then observers (their address; the
    language of the person who has that address, if any). An address met
    twice keeps its first reader's language.

    ``rows``: the game's rows as read ahead (:func:`read_audiences`) in this transaction, by
    the scheduler for its batch: who reads the results is not what processing changes (the
    seats' statuses, which it does change, are taken from the seats themselves).
    """
    if rows is None:
        rows = read_audiences(uow, [game.id])[game.id]

    readers: dict[tuple[int, int], list[Any]] = {}
    for row in rows:
        readers.setdefault((row.kind, row.key), []).append(row)
    statuses = {seat.id: seat.status for seat in game.seats}
    powers = {seat.id: seat.power for seat in game.seats}
    councils = read_by_councils(game)
    audience: dict[str, ResultsReader] = {}
    for (kind, _key), lines in readers.items():
        first = lines[0]
        reader = ResultsReader(
            language_of(first.language, first.extra, game), first.time_zone or "",
            powers.get(_key) if kind == _SEAT else None, kind == _MASTER, kind == _OBSERVER,
        )  # fmt: skip
        if kind == _SEAT:
            status = statuses.get(_key) or SeatStatus(first.status)  # as changed in this transaction
            if status not in ACTIVE and status is not SeatStatus.ELIMINATED:
                continue
            if councils:  # each member of the council alone, in his language (councils.audience)
                seat = next(s for s in game.seats if s.id == _key)
                for member in seat_readers(game, seat):
                    audience.setdefault(
                        member.address, ResultsReader(member.language, member.time_zone, seat.power)
                    )
                continue
            if first.report:
                addresses = [a for a in str(first.report).split(",") if a]
            else:
                addresses = _primary(lines)
        elif kind == _MASTER:
            addresses = _primary(lines)
        else:
            addresses = [first.address] if first.address else []
        for address in addresses:
            audience.setdefault(address, reader)
    return audience


def _primary(lines: list[Any]) -> list[str]:
    """The primary address among a person's rows, else the first (as :func:`judge.app.session.readers.person_address`)."""
    addresses = [(line.address, line.is_primary) for line in lines if line.address is not None]
    if not addresses:
        return []
    primary = [address for address, is_primary in addresses if is_primary]
    return [primary[0] if primary else addresses[0][0]]


@functools.cache
def _audience_query() -> Select[Any]:
    """The audiences' UNION ALL, built once (``:game_ids`` bound at each run): building it anew,
    with its aliases, cost more than running it. One row per reader and address, with the
    reader's game and person."""
    game_ids: BindParameter[int] = bindparam("game_ids", expanding=True)
    seat_address = aliased(PersonAddress)
    seats = (
        select(
            Seat.game_id.label("game"), literal(_SEAT, Integer).label("kind"), Seat.id.label("key"),
            Seat.status.label("status"), Seat.report_address.label("report"), Seat.person_id.label("person"),
            Person.language, Person.extra, Person.time_zone,
            seat_address.address.label("address"), seat_address.is_primary, seat_address.id.label("address_id"),
        )
        .select_from(Seat)
        .outerjoin(Person, Person.id == Seat.person_id)
        .outerjoin(seat_address, seat_address.person_id == Person.id)
        .where(Seat.game_id.in_(game_ids))
    )  # fmt: skip
    master_person = aliased(Person)
    master_address = aliased(PersonAddress)
    masters = (
        select(
            GameMaster.game_id, literal(_MASTER, Integer), GameMaster.id, null(), null(), GameMaster.person_id,
            master_person.language, master_person.extra, master_person.time_zone,
            master_address.address, master_address.is_primary, master_address.id,
        )
        .select_from(GameMaster)
        .join(master_person, master_person.id == GameMaster.person_id)
        .outerjoin(master_address, master_address.person_id == master_person.id)
        .where(GameMaster.game_id.in_(game_ids))
    )  # fmt: skip
    observer_person = aliased(Person)
    known = aliased(PersonAddress)
    by_address = select(known.person_id).where(known.address == GameObserver.address).scalar_subquery()
    observers = (
        select(
            GameObserver.game_id, literal(_OBSERVER, Integer), GameObserver.id, null(), null(), observer_person.id,
            observer_person.language, observer_person.extra, observer_person.time_zone, GameObserver.address,
            literal(True, Boolean), literal(0, Integer),
        )
        .select_from(GameObserver)
        .outerjoin(observer_person, observer_person.id == func.coalesce(GameObserver.person_id, by_address))
        .where(GameObserver.game_id.in_(game_ids), GameObserver.held_for_bounces.is_(False))  # its address bounces
    )  # fmt: skip
    everyone = union_all(seats, masters, observers).subquery()
    return select(everyone).order_by(everyone.c.game, everyone.c.kind, everyone.c.key, everyone.c.address_id)

