"""Phases: open one, record its processing, read the history, roll back.

A phase row holds the position before it (JSON) and, once processed, the
orders as received and as adjudicated, the results and the position after:
any past position can be rebuilt and ROLLBACK needs nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, Text, bindparam, func, select, update
from sqlalchemy import cast as sql_cast
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, defer
from sqlalchemy.orm.attributes import set_committed_value

from judge.db.driver_statements import execute_fixed
from judge.db.enums import AuditKind, PhaseState
from judge.db.errors import NotFoundError, StaleStateError
from judge.db.models import AuditEvent, Game, OrderSubmission, PhaseRecord
from judge.db.one_parameter_in import in_parameter


class PhaseRepository:
    def __init__(self, session: Session) -> None:
        self.session = session
        self._holding = False
        """:meth:`flush_opened` leaves the flush to :meth:`flush_held` (:meth:`hold`)."""

    def hold(self) -> None:
        """From now on :meth:`flush_opened` writes nothing: :meth:`flush_held` flushes the phases
        opened meanwhile, with everything else pending, at once (the scheduler's batch of due
        games: their new phases in one INSERT, their games' rows in one round of UPDATEs)."""
        self._holding = True

    def flush_held(self) -> None:
        """Stop holding and flush, a duplicate turn turned into StaleStateError (:meth:`flush_opened`)."""
        self._holding = False
        self._flush_checked("a game's next turn was opened by someone else")

    def open(
        self,
        game: Game,
        name: str,
        position: Mapping[str, Any],
        now: datetime,
        *,
        deadline_at: datetime | None = None,
    ) -> PhaseRecord:
        """Open the next phase of ``game`` (turn = last turn of this timeline + 1).

        Raises StaleStateError if another process opened it first (the
        unique (game, epoch, turn) constraint); the caller's unit of work
        must then be abandoned.
        """
        last_turn = self.session.scalar(
            select(func.max(PhaseRecord.turn)).where(
                PhaseRecord.game_id == game.id, PhaseRecord.state != PhaseState.ROLLED_BACK
            )
        )
        return self._insert(game, (last_turn or 0) + 1, name, position, now, deadline_at)

    def open_after(
        self,
        game: Game,
        previous: PhaseRecord,
        name: str,
        position: Mapping[str, Any],
        now: datetime,
        *,
        deadline_at: datetime | None = None,
    ) -> PhaseRecord:
        """Open the phase after ``previous`` (the open phase just processed, the timeline's last turn).

        For processing, which holds the game's row lock: no query for the
        last turn and no flush here (the row goes in with the rest of the
        transaction's changes). A duplicate turn fails at that flush with
        the unique (game, epoch, turn) constraint; the unit of work is then
        abandoned (see :meth:`flush_opened`).
        """
        record = PhaseRecord(
            game_id=game.id,
            epoch=game.epoch,
            turn=previous.turn + 1,
            name=name,
            opened_at=now,
            deadline_at=deadline_at,
            position_before=dict(position),
        )
        game.current_phase = name
        self.session.add(record)
        return record

    def drop_held(self) -> None:
        """Stop holding, flushing nothing (the transaction is rolled back)."""
        self._holding = False

    def flush_opened(self, game: Game) -> None:
        """Flush, turning a duplicate turn (someone else opened it) into StaleStateError; nothing
        while the flush is held (:meth:`hold`)."""
        if not self._holding:
            self._flush_checked(f"the next turn of {game.name} was opened by someone else")

    def _flush_checked(self, stale: str) -> None:
        try:
            self.session.flush()
        except IntegrityError as error:
            raise StaleStateError(stale) from error

    def _insert(
        self,
        game: Game,
        turn: int,
        name: str,
        position: Mapping[str, Any],
        now: datetime,
        deadline_at: datetime | None,
    ) -> PhaseRecord:
        record = PhaseRecord(
            game_id=game.id,
            epoch=game.epoch,
            turn=turn,
            name=name,
            opened_at=now,
            deadline_at=deadline_at,
            position_before=dict(position),
        )
        game.current_phase = name
        self.session.add(record)
        try:
            with self.session.begin_nested():
                self.session.flush()
        except IntegrityError as error:
            raise StaleStateError(
                f"turn {turn} of {game.name} was opened by someone else"
            ) from error
        return record

    def current(self, game: Game) -> PhaseRecord | None:
        """The open phase of the game, if any."""
        return self.session.scalars(_OPEN_PHASE, {"game_id": game.id}).one_or_none()

    def current_of(self, games: Sequence[Game]) -> dict[int, PhaseRecord]:
        """:meth:`current` for several games in one query: {game id: its open phase} (a game
        without one left out)."""
        found: dict[int, PhaseRecord] = {}
        if games:
            for record in self.session.scalars(_OPEN_PHASES, {"game_ids": sorted({game.id for game in games})}):
                if record.game_id not in found or record.turn > found[record.game_id].turn:
                    found[record.game_id] = record
        return found

    def open_board(self, game: Game) -> tuple[int, int, str] | None:
        """:meth:`current` for the worker's hot path: the open phase's id, turn and position (its
        ``position_before`` as the JSON text stored), or None; no ORM object, and the JSON left for
        the caller to read, which can keep its reading of a text it has seen (issue 14).

        Changes of this session are flushed first, as the ORM's own query would (a phase opened
        earlier in the mail, a master's PROCESS, is then found)."""
        self.session.flush()
        row = self.session.connection().execute(_OPEN_BOARD, {"board_game": game.id}).one_or_none()
        return None if row is None else (int(row[0]), int(row[1]), str(row[2]))

    def record_processing(
        self,
        phase: PhaseRecord,
        *,
        orders_received: Mapping[str, Any],
        orders_adjudicated: Mapping[str, Any],
        results: Mapping[str, Any],
        position_after: Mapping[str, Any],
        processed_at: datetime,
        processing_ms: int,
    ) -> None:
        """Mark an open phase processed with everything needed to explain and redo it.

        Raises StaleStateError if it is not open any more: someone else processed
        or rolled it back since it was read (the caller should hold the game lock).
        One conditional UPDATE both checks and writes (no re-read of the state);
        it goes out at once, ahead of the transaction's pending ORM changes. The
        JSON is the judge's own (built from stored, checked rows), so it is not
        walked again by the flush-time text check.
        """
        values: dict[str, Any] = {
            "orders_received": dict(orders_received),
            "orders_adjudicated": dict(orders_adjudicated),
            "results": dict(results),
            "position_after": dict(position_after),
            "processed_at": processed_at,
            "processing_ms": processing_ms,
            "state": PhaseState.PROCESSED,
        }
        # One statement checks and writes: only a phase still open is marked processed. Fixed, it
        # runs as a prepared statement on PostgreSQL (judge.db.driver_statements), once a processing.
        done = execute_fixed(
            self.session.connection(), _RECORD_PROCESSING,
            {"phase_id": phase.id, **{f"new_{key}": value for key, value in values.items()}},
        )  # fmt: skip
        if done != 1:
            raise StaleStateError(f"phase {phase.name} is no longer open")
        for key, value in values.items():
            set_committed_value(phase, key, value)

    def history(self, game: Game, *, boards: bool = True) -> list[PhaseRecord]:
        """The phases of the current timeline, oldest first.

        ``boards=False`` leaves the JSON columns (positions, orders, results) to be read when
        first used: a reader who lists the phases (the web pages) reads only those it shows.
        """
        query = (
            select(PhaseRecord)
            .where(PhaseRecord.game_id == game.id, PhaseRecord.state != PhaseState.ROLLED_BACK)
            .order_by(PhaseRecord.turn)
        )
        if not boards:
            query = query.options(
                defer(PhaseRecord.position_before), defer(PhaseRecord.orders_received),
                defer(PhaseRecord.orders_adjudicated), defer(PhaseRecord.results), defer(PhaseRecord.position_after),
            )  # fmt: skip
        return list(self.session.scalars(query))

    def by_turn(self, game: Game, turn: int) -> PhaseRecord:
        record = self.session.scalars(
            select(PhaseRecord).where(
                PhaseRecord.game_id == game.id,
                PhaseRecord.turn == turn,
                PhaseRecord.state != PhaseState.ROLLED_BACK,
            )
        ).one_or_none()
        if record is None:
            raise NotFoundError("turn", turn)
        return record

    def rollback(self, game: Game, to_turn: int, now: datetime, *, actor: str = "") -> PhaseRecord:
        """ROLLBACK: reopen turn ``to_turn`` from its starting position.

        Later phases (and the reopened one's old row) are kept, marked rolled
        back; the game's epoch moves on, so orders of the abandoned timeline no
        longer count. Returns the newly opened phase.
        """
        target = self.by_turn(game, to_turn)
        later = self.session.scalars(
            select(PhaseRecord).where(
                PhaseRecord.game_id == game.id,
                PhaseRecord.turn >= to_turn,
                PhaseRecord.state != PhaseState.ROLLED_BACK,
            )
        )
        for record in later:
            record.state = PhaseState.ROLLED_BACK
            record.rolled_back_at = now
        game.epoch += 1
        self.session.add(
            AuditEvent(
                at=now,
                kind=AuditKind.ROLLBACK,
                game_id=game.id,
                actor=actor,
                setting="phase",
                old_value=game.current_phase,
                new_value=target.name,
            )
        )
        self.session.flush()
        return self._insert(game, to_turn, target.name, target.position_before, now, None)

    def orders_of(self, phase: PhaseRecord) -> list[OrderSubmission]:
        """The current order submissions for this phase (newest version per power)."""
        return list(
            self.session.scalars(
                select(OrderSubmission)
                .where(
                    OrderSubmission.game_id == phase.game_id,
                    OrderSubmission.epoch == phase.epoch,
                    OrderSubmission.phase == phase.name,
                    OrderSubmission.superseded_at.is_(None),
                )
                .order_by(OrderSubmission.power)
            )
        )


_OPEN_PHASE = (
    select(PhaseRecord)
    .where(PhaseRecord.game_id == bindparam("game_id"), PhaseRecord.state == PhaseState.OPEN)
    .order_by(PhaseRecord.turn.desc())
    .limit(1)
)
"""The open phase of a game (built once: read at every order mail and every processing)."""
_OPEN_PHASES = select(PhaseRecord).where(
    in_parameter(PhaseRecord.game_id, "game_ids"), PhaseRecord.state == PhaseState.OPEN
)
"""The open phases of several games (built once: a batch of due games)."""

_PHASES = cast(Table, PhaseRecord.__table__)
_OPEN_BOARD = (
    select(_PHASES.c.id, _PHASES.c.turn, sql_cast(_PHASES.c.position_before, Text))
    .where(_PHASES.c.game_id == bindparam("board_game"), _PHASES.c.state == PhaseState.OPEN.value)
    .order_by(_PHASES.c.turn.desc())
    .limit(1)
)
""":meth:`PhaseRepository.open_board`'s query (built once): the position as the text stored."""
_PROCESSED_COLUMNS = (
    "orders_received", "orders_adjudicated", "results", "position_after", "processed_at", "processing_ms", "state",
)  # fmt: skip
_RECORD_PROCESSING = (
    update(_PHASES)
    .where(_PHASES.c.id == bindparam("phase_id"), _PHASES.c.state == PhaseState.OPEN.value)
    .values({_PHASES.c[name]: bindparam(f"new_{name}", type_=_PHASES.c[name].type) for name in _PROCESSED_COLUMNS})
)
""":meth:`PhaseRepository.record_processing`'s conditional UPDATE (built once: every processing)."""
