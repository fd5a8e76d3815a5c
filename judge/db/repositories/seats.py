"""Seats: joining, power assignment, passwords, status, who played a power when; takeover
requests awaiting a master, and the record of failed sign-ons (kept here so a restart forgets none)."""

from __future__ import annotations

import functools
from datetime import datetime, timedelta

from sqlalchemy import Select, bindparam, delete, func, select
from sqlalchemy.orm import Session, joinedload
from sqlalchemy.orm.attributes import set_committed_value

from judge.db.enums import AuditKind, SeatStatus
from judge.db.errors import DuplicateError
from judge.db.models import (
    AuditEvent,
    Game,
    Person,
    Seat,
    SeatTenure,
    SignonFailure,
    SignonLockout,
    SignonUnlock,
    TakeoverRequest,
)
from judge.db.passwords import PasswordHashing


class SeatRepository:
    def __init__(self, session: Session, passwords: PasswordHashing) -> None:
        self.session = session
        self.passwords = passwords

    def join(
        self,
        game: Game,
        person: Person | None,
        password: str,
        now: datetime,
        *,
        power: str | None = None,
        preferences: str = "",
        phase: str | None = None,
    ) -> Seat:
        """A seat for ``person`` in ``game``: waiting for a power, or holding ``power``.

        Raises DuplicateError if the person already sits in the game (one seat
        per game) or the power is taken.
        """
        if person is not None and any(s.person_id == person.id for s in game.seats):
            raise DuplicateError("player in game", person.id)
        if power is not None and self.by_power(game, power) is not None:
            raise DuplicateError("power", power)
        seat = Seat(
            person=person,
            power=power,
            password_hash=self.passwords.hash(password),
            status=SeatStatus.PLAYING if power is not None else SeatStatus.WAITING,
            preferences=preferences,
            joined_at=now,
        )
        game.seats.append(seat)
        if power is not None:
            seat.tenures.append(
                SeatTenure(person=person, how="join", started_at=now, started_phase=phase)
            )
        self.session.flush()
        return seat

    def assign(self, seat: Seat, power: str, now: datetime, *, phase: str | None = None) -> None:
        """Give a waiting seat its power (at game start); opens its first tenure."""
        if self.by_power(seat.game, power) not in (None, seat):
            raise DuplicateError("power", power)
        seat.power = power
        seat.status = SeatStatus.PLAYING
        seat.tenures.append(
            SeatTenure(person=seat.person, how="join", started_at=now, started_phase=phase)
        )
        self.session.flush()

    def by_power(self, game: Game, power: str, *, players: bool = True) -> Seat | None:
        """The seat playing ``power``, from the game's seats (one query loads them all, once per
        transaction: a sign-on, its order checks and the scheduler's plan all read them).
        ``players``: as :meth:`of_game`."""
        found = [seat for seat in self.of_game(game, players=players) if seat.power == power]
        return found[0] if found else None

    def of_game(self, game: Game, *, players: bool = True) -> list[Seat]:
        """``game.seats``, loaded (when not yet) with their players and the players' addresses in
        one query: a sign-on compares addresses, press and broadcasts address every player.

        ``players=False``: the seats alone, when the caller reads no player but the one it
        signed on as, who is the sender, already in the session (issue 14: a mail that only
        gives orders; making every player's objects was most of the sign-on's CPU). A later
        call that wants the players loads them then, all in one query (no lazy load per seat).
        """
        if "seats" not in game.__dict__ and game.id is not None and game not in self.session.new:
            if players:
                seats = list(self.session.scalars(_seats_statement(), {"seats_game": game.id}).unique())
                self._bare().discard(game.id)
            else:
                seats = list(self.session.scalars(_bare_seats_statement(), {"seats_game": game.id}))
                self._bare().add(game.id)
            set_committed_value(game, "seats", seats)
        elif players and game.id in self.session.info.get(_BARE_SEATS, ()):
            self._load_players(game)
        return list(game.seats)

    def by_power_and_throttle(
        self, game: Game, power: str, sender: str, since: datetime, *, players: bool = True
    ) -> tuple[Seat | None, tuple[int, datetime | None] | None]:
        """:meth:`by_power`, and :meth:`failures_and_lockout` for ``sender`` and ``power`` read in
        the same query when the seats are loaded now (issue 14: a power's sign-on asks both; one
        statement less). The second is None when the seats were loaded already (or the game
        has none): then ask :meth:`failures_and_lockout`."""
        if "seats" in game.__dict__ or game.id is None or game in self.session.new:
            return self.by_power(game, power, players=players), None
        statement = _seats_throttle_statement(players=players)
        result = self.session.execute(
            statement,
            {"seats_game": game.id, "th_sender": sender, "th_since": since, "th_game": game.id, "th_power": power},
        )
        rows = result.unique().all() if players else result.all()
        seats = [row[0] for row in rows]
        if players:
            self._bare().discard(game.id)
        else:
            self._bare().add(game.id)
        set_committed_value(game, "seats", seats)
        found = [seat for seat in seats if seat.power == power]
        throttle = (int(rows[0][1] or 0), rows[0][2]) if rows else None
        return (found[0] if found else None), throttle

    def _bare(self) -> set[int]:
        """The games whose seats this transaction loaded without their players."""
        bare: set[int] = self.session.info.setdefault(_BARE_SEATS, set())
        return bare

    def _load_players(self, game: Game) -> None:
        """The players of seats loaded bare, with their addresses, in one query."""
        self._bare().discard(game.id)
        seats = [seat for seat in game.seats if "person" not in seat.__dict__]
        ids = sorted({seat.person_id for seat in seats if seat.person_id is not None})
        people = {person.id: person for person in self.session.scalars(_players_statement(), {"player_ids": ids}).unique()} if ids else {}
        for seat in seats:
            set_committed_value(seat, "person", people.get(seat.person_id) if seat.person_id is not None else None)

    def of_person(self, game: Game, person: Person) -> Seat | None:
        return self.session.scalars(
            select(Seat).where(Seat.game_id == game.id, Seat.person_id == person.id)
        ).one_or_none()

    def for_person(self, person: Person) -> list[Seat]:
        """Every seat the person holds now, in every game."""
        return list(
            self.session.scalars(select(Seat).where(Seat.person_id == person.id).order_by(Seat.id))
        )

    def check_password(self, seat: Seat, password: str) -> bool:
        """Whether ``password`` opens the seat; upgrades an outdated hash on success."""
        if seat.password_hash is None:
            return False
        ok = self.passwords.verify(seat.password_hash, password)
        if ok and self.passwords.needs_rehash(seat.password_hash):
            seat.password_hash = self.passwords.hash(password)
            self.session.flush()
        return ok

    def set_password(self, seat: Seat, password: str) -> None:
        seat.password_hash = self.passwords.hash(password)
        self.session.flush()

    def set_status(self, seat: Seat, status: SeatStatus) -> None:
        seat.status = status
        self.session.flush()

    def take_over(
        self,
        seat: Seat,
        person: Person,
        password: str,
        now: datetime,
        *,
        phase: str | None = None,
        actor: str = "",
    ) -> None:
        """``person`` takes the (abandoned or CD) seat over: new tenure, new password, WAIT set."""
        if seat.person_id == person.id:
            raise DuplicateError("player at seat", person.id)
        for tenure in seat.tenures:
            if tenure.ended_at is None:
                tenure.ended_at = now
                tenure.ended_phase = phase
        seat.person = person
        seat.password_hash = self.passwords.hash(password)
        seat.status = SeatStatus.PLAYING
        seat.wait = True
        seat.tenures.append(
            SeatTenure(person=person, how="takeover", started_at=now, started_phase=phase)
        )
        self.session.add(
            AuditEvent(
                at=now,
                kind=AuditKind.TAKEOVER,
                game_id=seat.game_id,
                person_id=person.id,
                actor=actor,
                setting="power",
                new_value=seat.power,
            )
        )
        self.session.flush()

    def leave(
        self, seat: Seat, now: datetime, status: SeatStatus, *, phase: str | None = None
    ) -> None:
        """The player goes (resigned, abandoned...): the tenure ends, the seat stays with its power."""
        for tenure in seat.tenures:
            if tenure.ended_at is None:
                tenure.ended_at = now
                tenure.ended_phase = phase
        seat.status = status
        self.session.flush()

    def history(self, seat: Seat) -> list[SeatTenure]:
        return list(seat.tenures)

    # -- takeover requests (judge.app.people.takeover) ------------------------------------------------

    def request_takeover(
        self, game: Game, power: str, person: Person, requester: str, password: str, now: datetime
    ) -> TakeoverRequest:
        """A newcomer's takeover waiting for the master; the password is kept hashed."""
        request = TakeoverRequest(
            game_id=game.id,
            power=power,
            person_id=person.id,
            requester=requester,
            password_hash=self.passwords.hash(password),
            requested_at=now,
        )
        self.session.add(request)
        self.session.flush()
        return request

    def pending_takeover(self, game: Game, power: str) -> TakeoverRequest | None:
        """The takeover of ``power`` waiting for the master's decision (at most one at a time)."""
        return self.session.scalars(
            select(TakeoverRequest)
            .where(
                TakeoverRequest.game_id == game.id,
                TakeoverRequest.power == power,
                TakeoverRequest.decision == "",
            )
            .order_by(TakeoverRequest.id)
        ).first()

    def decide_takeover(self, request: TakeoverRequest, decision: str, now: datetime) -> None:
        request.decision = decision
        request.decided_at = now
        self.session.flush()

    # -- failed sign-ons (judge.app.people.throttle) ---------------------------------------------------

    def record_failure(
        self, sender: str, now: datetime, *, game: Game | None = None, power: str | None = None
    ) -> None:
        self.session.add(
            SignonFailure(
                at=now, sender=sender, game_id=game.id if game is not None else None, power=power
            )
        )
        self.session.flush()

    def failures_for_power(self, game: Game, power: str, since: datetime) -> int:
        """Failed sign-ons to ``power`` of ``game`` after ``since`` (a failure at ``since`` itself
        has left the window)."""
        return int(
            self.session.scalar(
                select(func.count(SignonFailure.id)).where(
                    SignonFailure.game_id == game.id,
                    SignonFailure.power == power,
                    SignonFailure.at > since,
                )
            )
            or 0
        )

    def failures_and_lockout(
        self, sender: str, since: datetime, game: Game | None, power: str | None
    ) -> tuple[int, datetime | None]:
        """The failed sign-ons from ``sender`` after ``since`` (in every game), and the ``until``
        of :meth:`lockout` of ``power`` (None without a game or power), in one query: every
        sign-on asks both."""
        row = self.session.execute(
            _throttle_statement(),
            {
                "th_sender": sender, "th_since": since,
                "th_game": game.id if game is not None and power is not None else None,
                "th_power": power,
            },
        ).one()  # fmt: skip
        return int(row[0] or 0), row[1]

    def lockout(self, game: Game, power: str) -> SignonLockout | None:
        return self.session.scalars(
            select(SignonLockout).where(SignonLockout.game_id == game.id, SignonLockout.power == power)
        ).one_or_none()

    def lock(
        self, game: Game, power: str, now: datetime, base: timedelta, longest: timedelta
    ) -> SignonLockout:
        """Lock sign-ons to ``power`` from ``now``: ``base``, doubled for each earlier lockout, at most ``longest``."""
        found = self.lockout(game, power)
        strikes = 1 if found is None else found.strikes + 1
        until = now + min(base * (2 ** (strikes - 1)), longest)
        if found is None:
            found = SignonLockout(game_id=game.id, power=power, started_at=now, until=until, strikes=1)
            self.session.add(found)
        else:
            found.started_at, found.until, found.strikes = now, until, strikes
        self.session.flush()
        return found

    def unlock_waiting(self, game: Game, power: str, now: datetime) -> SignonUnlock | None:
        """The unlock code of ``power`` mailed and not used yet, if it has not expired."""
        return self.session.scalars(
            select(SignonUnlock).where(
                SignonUnlock.game_id == game.id, SignonUnlock.power == power,
                SignonUnlock.used_at.is_(None), SignonUnlock.expires_at > now,
            )
        ).first()  # fmt: skip

    def add_unlock(
        self, game: Game, power: str, token_hash: str, address: str, now: datetime, lifetime: timedelta
    ) -> SignonUnlock:
        unlock = SignonUnlock(
            game_id=game.id, power=power, token_hash=token_hash, address=address,
            created_at=now, expires_at=now + lifetime,
        )  # fmt: skip
        self.session.add(unlock)
        self.session.flush()
        return unlock

    def purge_unlocks(self, before: datetime) -> int:
        """Forget unlock codes that expired before ``before``."""
        result = self.session.execute(delete(SignonUnlock).where(SignonUnlock.expires_at < before))
        return int(result.rowcount)  # type: ignore[attr-defined]

    def purge_failures(self, before: datetime) -> int:
        """Forget failed sign-ons older than ``before`` (the counts only look an hour back)."""
        result = self.session.execute(delete(SignonFailure).where(SignonFailure.at < before))
        return int(result.rowcount)  # type: ignore[attr-defined]


@functools.cache
def _seats_statement() -> Select[tuple[Seat]]:
    """:meth:`SeatRepository.of_game`'s query, built once (the worker's hot path)."""
    return (
        select(Seat)
        .where(Seat.game_id == bindparam("seats_game"))
        .order_by(Seat.id)
        .options(joinedload(Seat.person).joinedload(Person.addresses))
    )


@functools.cache
def _bare_seats_statement() -> Select[tuple[Seat]]:
    """:meth:`SeatRepository.of_game`'s query without the players, built once."""
    return select(Seat).where(Seat.game_id == bindparam("seats_game")).order_by(Seat.id)


@functools.cache
def _players_statement() -> Select[tuple[Person]]:
    """The players of seats loaded bare (:meth:`SeatRepository.of_game`), with their addresses."""
    return (
        select(Person)
        .where(Person.id.in_(bindparam("player_ids", expanding=True)))
        .options(joinedload(Person.addresses))
    )


@functools.cache
def _seats_throttle_statement(*, players: bool) -> Select[tuple[Seat, int, datetime | None]]:
    """:meth:`SeatRepository.by_power_and_throttle`'s query, built once: the seats (with their
    players or not) and, on every row, the throttle's two figures (uncorrelated scalar
    subqueries: both engines work them out once)."""
    seats = _seats_statement() if players else _bare_seats_statement()
    failures, until = _throttle_statement().selected_columns
    return seats.add_columns(failures, until)


_BARE_SEATS = "judge_bare_seats"
"""``Session.info`` key: ids of the games whose seats this transaction loaded without their players."""


@functools.cache
def _throttle_statement() -> Select[tuple[int, datetime | None]]:
    """:meth:`SeatRepository.failures_and_lockout`'s query, built once (every power sign-on)."""
    failures = (
        select(func.count(SignonFailure.id))
        .where(
            SignonFailure.sender == bindparam("th_sender"),
            SignonFailure.at > bindparam("th_since", type_=SignonFailure.__table__.c.at.type),
        )
        .scalar_subquery()
    )
    until = (
        select(SignonLockout.until)
        .where(SignonLockout.game_id == bindparam("th_game"), SignonLockout.power == bindparam("th_power"))
        .scalar_subquery()
    )
    return select(failures, until)
