"""Games: creation, look-up, settings (with their audit trail), schedules, and locking.

Two ways to lock a game row, for two jobs:

- :meth:`GameRepository.claim_due` — the scheduler's "give me one game whose
  ``next_due_at`` has passed that nobody else is working on"
  (``FOR UPDATE SKIP LOCKED`` on PostgreSQL);
- :meth:`GameRepository.lock` — "I am about to process this game's phase; wait
  for anyone else who is" (``FOR UPDATE``).

On SQLite both rely on the unit of work's ``BEGIN IMMEDIATE``: the whole
database is locked for writing, which is coarser but just as safe.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.orm import Session, selectinload

from judge.core.phase import PhaseType
from judge.db.enums import AuditKind, GameState
from judge.db.errors import DuplicateError, NotFoundError
from judge.db.models import AuditEvent, DeadlineSchedule, Game, GameMaster, GameObserver, Person
from judge.db.passwords import PasswordHashing
from judge.db.repositories.audit import json_value
from judge.db.repositories.people import normalise_address


@functools.cache
def _lock_by_name_statement() -> Select[tuple[Game]]:
    """:meth:`GameRepository.lock_by_name`'s query, built once (the worker's hot path)."""
    return select(Game).where(Game.name == bindparam("game_name")).with_for_update()


@functools.cache
def _claim_due_many_statement() -> Select[tuple[Game]]:
    """:meth:`GameRepository.claim_due_many`'s query, built once. The claimed games' seats and
    schedules, which handling a due game always reads, come with them in one query each for
    the whole batch (``selectinload``) instead of one lazy load each per game."""
    return (
        select(Game)
        .where(Game.next_due_at <= bindparam("now"))
        .order_by(Game.next_due_at, Game.id)
        .limit(bindparam("limit"))
        .with_for_update(skip_locked=True)
        .options(selectinload(Game.seats), selectinload(Game.schedules))
        .execution_options(populate_existing=True)
    )


_HELD_GAMES = "judge_held_games"
"""``Session.info`` key: the games whose row lock this transaction holds (see ``_held``)."""

# Columns of Game that are not settings: changed by the judge itself, never by SET.
_NOT_SETTINGS = frozenset(
    {
        "id",
        "name",
        "created_at",
        "started_at",
        "finished_at",
        "current_phase",
        "epoch",
        "next_due_at",
        "paused_at",
        "last_processed_at",
        "failed_attempts",
    }
)
SETTINGS: frozenset[str] = frozenset(
    column.key for column in Game.__table__.columns if column.key not in _NOT_SETTINGS
)
SCHEDULE_FIELDS = frozenset(
    {"clock_minutes", "min_hours", "next_hours", "grace_hours", "delay_hours", "days"}
)


def normalise_game_name(name: str) -> str:
    """Game names are case-insensitive for players; stored lower case."""
    return name.strip().lower()


class GameRepository:
    def __init__(self, session: Session, passwords: PasswordHashing) -> None:
        self.session = session
        self.passwords = passwords

    # -- creation and look-up -------------------------------------------------

    def create(
        self,
        name: str,
        now: datetime,
        *,
        variant: str = "standard",
        rule_options: Iterable[str] = (),
        settings: Mapping[str, Any] | None = None,
    ) -> Game:
        """A new forming game. Raises DuplicateError if the name is taken."""
        key = normalise_game_name(name)
        if self.by_name(key) is not None:
            raise DuplicateError("game", key)
        unknown = set(settings or {}) - SETTINGS
        if unknown:
            raise ValueError(f"not game settings: {', '.join(sorted(unknown))}")
        game = Game(
            name=key,
            variant=variant,
            rule_options=list(rule_options),
            created_at=now,
            **dict(settings or {}),
        )
        self.session.add(game)
        self.session.flush()
        return game

    def get(self, game_id: int) -> Game:
        game = self.session.get(Game, game_id)
        if game is None:
            raise NotFoundError("game", game_id)
        return game

    def by_name(self, name: str) -> Game | None:
        key = normalise_game_name(name)
        held = self._held().get(key)
        if held is not None and held.name == key:  # locked in this transaction: cannot have changed
            return held
        return self.session.scalars(select(Game).where(Game.name == key)).one_or_none()

    def lock_by_name(self, name: str) -> Game | None:
        """The game called ``name``, its row locked to the commit (as :meth:`lock`), in one query."""
        key = normalise_game_name(name)
        held = self._held().get(key)
        if held is not None and held.name == key:
            return held
        game = self.session.scalars(
            _lock_by_name_statement(), {"game_name": key}, execution_options={"populate_existing": True}
        ).one_or_none()
        if game is not None:
            self._hold(game)
        return game

    def _held(self) -> dict[str, Game]:
        """Games whose row this transaction locked outside any savepoint, by name.

        Such a lock lasts to the commit (only a savepoint's rollback gives a row lock
        back, hence the outside), so the row cannot change under us and a second
        :meth:`lock` or :meth:`by_name` of the game needs no query. The map lives in the
        session's ``info``, tied to the session's outermost transaction: it ends with it.
        """
        root = self.session.get_transaction()
        while root is not None and root.parent is not None:
            root = root.parent
        kept = self.session.info.get(_HELD_GAMES)
        if kept is None or kept[0] is not root:
            kept = (root, {})
            self.session.info[_HELD_GAMES] = kept
        held: dict[str, Game] = kept[1]
        return held

    def _hold(self, game: Game) -> None:
        if not self.session.in_nested_transaction():
            self._held()[game.name] = game

    def require(self, name: str) -> Game:
        game = self.by_name(name)
        if game is None:
            raise NotFoundError("game", normalise_game_name(name))
        return game

    def variants_in_play(self) -> list[str]:
        """The variants of the games not over (forming, active or paused), each once, sorted: the
        boards a sender may draw at the next deadline."""
        over = (GameState.FINISHED, GameState.TERMINATED)
        return list(self.session.scalars(select(Game.variant).where(Game.state.not_in(over)).distinct().order_by(Game.variant)))

    def list(
        self, *, states: Iterable[GameState] | None = None, listed_only: bool = False
    ) -> list[Game]:
        query = select(Game)
        if states is not None:
            query = query.where(Game.state.in_(list(states)))
        if listed_only:
            query = query.where(Game.listed.is_(True))
        return list(self.session.scalars(query.order_by(Game.name)))

    def delete(self, game: Game) -> None:
        self._held().pop(game.name, None)
        self.session.delete(game)
        self.session.flush()

    # -- settings ---------------------------------------------------------------

    def change_setting(
        self,
        game: Game,
        setting: str,
        value: Any,
        now: datetime,
        *,
        actor: str,
        person: Person | None = None,
    ) -> AuditEvent | None:
        """Set one setting and record who changed it from what to what.

        Returns the audit event, or None if the value was already that (no
        change, nothing recorded). Settings not known as columns go to
        ``extra_settings`` only if named ``extra:<name>``.
        """
        if setting.startswith("extra:"):
            key = setting.removeprefix("extra:")
            old = game.extra_settings.get(key)
            if old == value:
                return None
            game.extra_settings = {**game.extra_settings, key: value}
        elif setting in SETTINGS:
            old = getattr(game, setting)
            if old == value:
                return None
            setattr(game, setting, value)
        else:
            raise ValueError(f"unknown game setting {setting!r}")
        event = AuditEvent(
            at=now,
            kind=AuditKind.SETTING,
            game_id=game.id,
            person_id=person.id if person is not None else None,
            actor=actor,
            setting=setting,
            old_value=json_value(old),
            new_value=json_value(value),
        )
        self.session.add(event)
        self.session.flush()
        return event

    def set_schedule(self, game: Game, phase_type: PhaseType, **fields: Any) -> DeadlineSchedule:
        """Create or change the deadline schedule of one kind of phase."""
        unknown = set(fields) - SCHEDULE_FIELDS
        if unknown:
            raise ValueError(f"not schedule fields: {', '.join(sorted(unknown))}")
        schedule = game.schedule(phase_type)
        if schedule is None:
            schedule = DeadlineSchedule(phase_type=phase_type)
            game.schedules.append(schedule)
        for key, value in fields.items():
            setattr(schedule, key, value)
        self.session.flush()
        return schedule

    # -- what is due, and locks ------------------------------------------------------

    def set_next_due(self, game: Game, when: datetime | None) -> None:
        """When the scheduler must next look at ``game`` (None: nothing pending)."""
        game.next_due_at = when
        self.session.flush()

    def earliest_due(self) -> datetime | None:
        """The earliest ``next_due_at`` of all games: when the scheduler should wake up."""
        return self.session.scalar(select(func.min(Game.next_due_at)))

    def claim_due(self, now: datetime) -> Game | None:
        """One game due at ``now`` that no other transaction holds, locked until commit.

        PostgreSQL: ``FOR UPDATE SKIP LOCKED``, so parallel schedulers share
        the due games. SQLite: the unit of work already holds the write lock.
        The caller processes the game and moves ``next_due_at`` in the same
        unit of work; a second claimer then no longer sees it as due.
        """
        claimed = self.claim_due_many(now, 1)
        return claimed[0] if claimed else None

    def claim_due_many(self, now: datetime, limit: int) -> tuple[Game, ...]:
        """Up to ``limit`` games due at ``now`` that no other transaction holds, as :meth:`claim_due`
        (with their seats and schedules)."""
        return tuple(self.session.scalars(_claim_due_many_statement(), {"now": now, "limit": limit}))

    def lock(self, game_id: int) -> Game:
        """The game's row, locked (waiting for other holders), re-read after the wait."""
        for held in self._held().values():
            if held.id == game_id:
                return held
        game = self.session.scalars(
            select(Game)
            .where(Game.id == game_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        ).one_or_none()
        if game is None:
            raise NotFoundError("game", game_id)
        self._hold(game)
        return game

    # -- masters and observers ---------------------------------------------------------

    def add_master(self, game: Game, person: Person, password: str, now: datetime) -> GameMaster:
        for master in game.masters:
            if master.person_id == person.id:
                raise DuplicateError("master", person.id)
        master = GameMaster(person=person, password_hash=self.passwords.hash(password), since=now)
        game.masters.append(master)
        self.session.flush()
        return master

    def remove_master(self, master: GameMaster) -> None:
        self.session.delete(master)
        self.session.flush()

    def add_observer(
        self,
        game: Game,
        address: str,
        password: str,
        now: datetime,
        *,
        person: Person | None = None,
    ) -> GameObserver:
        observer = GameObserver(
            address=normalise_address(address),
            person_id=person.id if person is not None else None,
            password_hash=self.passwords.hash(password),
            since=now,
        )
        game.observers.append(observer)
        self.session.flush()
        return observer

    def find_observer(self, game: Game, address: str, password: str) -> GameObserver | None:
        """The observer signing on with this address and password (the Judge: new password, new observer)."""
        key = normalise_address(address)
        for observer in game.observers:
            if observer.address == key and self.passwords.verify(observer.password_hash, password):
                return observer
        return None

    def check_master_password(self, master: GameMaster, password: str) -> bool:
        ok = self.passwords.verify(master.password_hash, password)
        if ok and self.passwords.needs_rehash(master.password_hash):
            master.password_hash = self.passwords.hash(password)
        return ok
