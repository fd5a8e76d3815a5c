"""Orders: every submission kept, the newest per power and phase is the one that counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from judge.db.enums import OrderBlockKind
from judge.db.models import Game, OrderSubmission, Seat
from judge.db.models.base import PHASE_LENGTH, POWER_LENGTH
from judge.db.one_parameter_in import in_parameter
from judge.db.validation import check_json, check_text


class OrderRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def submit(
        self,
        game: Game,
        seat: Seat,
        phase: str,
        text: str,
        canonical: Sequence[str],
        now: datetime,
        *,
        kind: OrderBlockKind = OrderBlockKind.CURRENT,
        mail_in_id: int | None = None,
        submitted_by_id: int | None = None,
        order_values: Sequence[dict[str, Any]] | None = None,
    ) -> OrderSubmission:
        """Store a new version of ``seat``'s orders for ``phase``; earlier versions are superseded.

        ``text`` is what the player sent (for a PHASE or IF block, the whole
        block); ``canonical`` the orders in the judge's notation; ``order_values`` the same
        orders as values, one per item, when every item is a plain order (else None). The
        (game, epoch, phase, power, version) key is unique, so two racing
        submissions cannot both become the same version: one transaction fails.
        """
        if seat.power is None:
            raise ValueError("a seat without a power cannot submit orders")
        # The newest version is the only one that can still be current: every
        # submission supersedes all before it, and CLEAR supersedes them all.
        latest = self._latest(game, seat, phase)
        if latest is not None and latest.superseded_at is None:
            latest.superseded_at = now
        version = latest.version + 1 if latest is not None else 1
        return self._add_version(
            game, seat, phase, text, canonical, now, version, kind, mail_in_id, submitted_by_id, order_values
        )

    def submit_row(
        self,
        game: Game,
        seat: Seat,
        phase: str,
        text: str,
        canonical: Sequence[str],
        now: datetime,
        *,
        current_id: int | None,
        newest_version: int,
        kind: OrderBlockKind = OrderBlockKind.CURRENT,
        mail_in_id: int | None = None,
        submitted_by_id: int | None = None,
        order_values: Sequence[dict[str, Any]] | None = None,
    ) -> None:
        """:meth:`submit` for the worker's hot path, in Core statements: the version
        in force superseded with an UPDATE, the new one stored with an INSERT, no ORM object made
        and no flush (issue 14: the object and its flush cost more than the statements).

        ``current_id`` (the version in force, or None) and ``newest_version``: read by the caller
        in this transaction, under the game's lock (no second read). The version in
        force is superseded unless its row already is (the row says so, not an object: a
        savepoint rolled back since, PREDICT's, may have undone an earlier UPDATE); an object of
        the session for it, if any, reads ``superseded_at`` again when next asked. The (game,
        epoch, phase, power, version) key is unique as before: a racing submission fails its
        transaction. The row's text is checked as the flush would check it
        (:mod:`judge.db.validation`).
        """
        if seat.power is None:
            raise ValueError("a seat without a power cannot submit orders")
        lines = list(canonical)
        check_text("orders", "power", seat.power, POWER_LENGTH)
        check_text("orders", "phase", phase, PHASE_LENGTH)
        check_text("orders", "text", text, None)
        check_json("orders", "canonical", lines)
        values = None if order_values is None else list(order_values)
        if values is not None:
            check_json("orders", "order_values", values)
        connection = self.session.connection()
        if current_id is not None:
            connection.execute(_SUPERSEDE, {"sup_id": current_id, "sup_at": now})
            loaded = self.session.identity_map.get(identity_key(OrderSubmission, current_id))
            if loaded is not None:
                self.session.expire(loaded, ["superseded_at"])
        connection.execute(
            _INSERT,
            {
                "game_id": game.id, "seat_id": seat.id, "power": seat.power, "phase": phase, "epoch": game.epoch,
                "version": newest_version + 1, "kind": kind, "text": text, "canonical": lines, "submitted_at": now,
                "mail_in_id": mail_in_id, "submitted_by_id": submitted_by_id, "superseded_at": None,
                "order_values": values,
            },
        )  # fmt: skip

    def _latest(self, game: Game, seat: Seat, phase: str) -> OrderSubmission | None:
        return self.session.scalars(
            select(OrderSubmission)
            .where(
                OrderSubmission.game_id == game.id,
                OrderSubmission.epoch == game.epoch,
                OrderSubmission.phase == phase,
                OrderSubmission.power == seat.power,
            )
            .order_by(OrderSubmission.version.desc())
            .limit(1)
        ).one_or_none()

    def _add_version(
        self, game: Game, seat: Seat, phase: str, text: str, canonical: Sequence[str], now: datetime,
        version: int, kind: OrderBlockKind, mail_in_id: int | None,
        submitted_by_id: int | None, order_values: Sequence[dict[str, Any]] | None = None,
    ) -> OrderSubmission:
        submission = OrderSubmission(
            game_id=game.id,
            seat_id=seat.id,
            power=seat.power,
            phase=phase,
            epoch=game.epoch,
            version=version,
            kind=kind,
            text=text,
            canonical=list(canonical),
            order_values=None if order_values is None else list(order_values),
            submitted_at=now,
            mail_in_id=mail_in_id,
            submitted_by_id=submitted_by_id,
        )
        self.session.add(submission)
        self.session.flush()
        return submission

    def current(self, game: Game, phase: str) -> dict[str, OrderSubmission]:
        """The orders that count for ``phase``: {power: newest submission}."""
        rows = self.session.scalars(
            select(OrderSubmission).where(
                OrderSubmission.game_id == game.id,
                OrderSubmission.epoch == game.epoch,
                OrderSubmission.phase == phase,
                OrderSubmission.superseded_at.is_(None),
            )
        )
        return {row.power: row for row in rows}

    def current_by_phase(self, game: Game, phases: Sequence[str]) -> dict[str, dict[str, OrderSubmission]]:
        """:meth:`current` for several phases in one query: {phase: {power: newest submission}}."""
        found: dict[str, dict[str, OrderSubmission]] = {phase: {} for phase in phases}
        rows = self.session.scalars(_CURRENT_BY_PHASE, {"game_id": game.id, "epoch": game.epoch, "phases": list(phases)})
        for row in rows:
            found[row.phase][row.power] = row
        return found

    def current_by_game_and_phase(
        self, phases: Mapping[Game, Sequence[str]]
    ) -> dict[int, dict[str, dict[str, OrderSubmission]]]:
        """:meth:`current_by_phase` for several games in one query: {game id: {phase: {power: newest
        submission}}}, each game's orders those of its own timeline (epoch) and phases."""
        found: dict[int, dict[str, dict[str, OrderSubmission]]] = {game.id: {phase: {} for phase in names} for game, names in phases.items()}
        if not found:
            return {}
        epochs = {game.id: game.epoch for game in phases}
        names = sorted({name for these in phases.values() for name in these})
        rows = self.session.scalars(_CURRENT_BY_GAME_AND_PHASE, {"game_ids": sorted(found), "phases": names})
        for row in rows:
            by_phase = found[row.game_id]
            if row.epoch == epochs[row.game_id] and row.phase in by_phase:
                by_phase[row.phase][row.power] = row
        return found

    def versions(self, game: Game, phase: str, power: str) -> list[OrderSubmission]:
        """Every submission of ``power`` for ``phase`` in this timeline, oldest first."""
        return list(
            self.session.scalars(
                select(OrderSubmission)
                .where(
                    OrderSubmission.game_id == game.id,
                    OrderSubmission.epoch == game.epoch,
                    OrderSubmission.phase == phase,
                    OrderSubmission.power == power,
                )
                .order_by(OrderSubmission.version)
            )
        )

    def pending_future(self, game: Game, seat: Seat, *, after_phase: str) -> list[OrderSubmission]:
        """The seat's current future-phase and conditional blocks for phases other than ``after_phase``."""
        return list(
            self.session.scalars(
                select(OrderSubmission)
                .where(
                    OrderSubmission.game_id == game.id,
                    OrderSubmission.epoch == game.epoch,
                    OrderSubmission.seat_id == seat.id,
                    OrderSubmission.phase != after_phase,
                    OrderSubmission.kind != OrderBlockKind.CURRENT,
                    OrderSubmission.superseded_at.is_(None),
                )
                .order_by(OrderSubmission.phase, OrderSubmission.id)
            )
        )

    def clear_future(self, game: Game, seat: Seat, now: datetime) -> int:
        """CLEAR: drop the seat's pending future-phase blocks (kept as superseded)."""
        result = self.session.execute(
            update(OrderSubmission)
            .where(
                OrderSubmission.game_id == game.id,
                OrderSubmission.epoch == game.epoch,
                OrderSubmission.seat_id == seat.id,
                OrderSubmission.kind != OrderBlockKind.CURRENT,
                OrderSubmission.superseded_at.is_(None),
            )
            .values(superseded_at=now)
        )
        return int(result.rowcount)  # type: ignore[attr-defined]


_CURRENT_BY_PHASE = select(OrderSubmission).where(
    OrderSubmission.game_id == bindparam("game_id"),
    OrderSubmission.epoch == bindparam("epoch"),
    OrderSubmission.phase.in_(bindparam("phases", expanding=True)),
    OrderSubmission.superseded_at.is_(None),
)
"""The orders that count for several phases of a game (built once: read at every processing)."""
_CURRENT_BY_GAME_AND_PHASE = select(OrderSubmission).where(
    in_parameter(OrderSubmission.game_id, "game_ids"),
    in_parameter(OrderSubmission.phase, "phases"),
    OrderSubmission.superseded_at.is_(None),
)
"""The orders that count for several phases of several games (built once: a batch of due games)."""

_ORDERS = cast(Table, OrderSubmission.__table__)
_SUPERSEDE = (
    update(_ORDERS)
    .where(_ORDERS.c.id == bindparam("sup_id"), _ORDERS.c.superseded_at.is_(None))
    .values(superseded_at=bindparam("sup_at", type_=_ORDERS.c.superseded_at.type))
)
"""A version superseded (:meth:`OrderRepository.submit_row`), built once."""
_INSERT = insert(_ORDERS)
"""A new version (:meth:`OrderRepository.submit_row`), built once."""
