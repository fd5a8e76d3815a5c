"""What happens in a game: phases with their positions and results, orders, press, votes, diaries."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from judge.db.enums import DrawVoteKind, OrderBlockKind, PhaseState, PressKind
from judge.db.models.base import ADDRESS_LENGTH, PHASE_LENGTH, POWER_LENGTH, Base
from judge.db.models.games import Game, Seat
from judge.db.types import StrEnumType

_IN_FORCE = text("superseded_at IS NULL")
_AHEAD = text("superseded_at IS NULL AND kind <> 'current'")
"""A block for a later phase or an IF block, in force (OrderBlockKind.CURRENT is 'current')."""


class PhaseRecord(Base):
    """One phase of a game, from its opening to its processing.

    Positions are JSON documents in the ``judge adjudicate`` format (variant,
    phase, units, centers, dislodged, standoffs), never pickles, so they can be
    read by any tool and by later versions of the judge. ``turn`` numbers
    phases from 1 (S1901M) as ROLLBACK does; ``(game, epoch, turn)`` is
    unique, which is the database's own guarantee that a phase is processed
    once per timeline even if two judge processes race.
    """

    __tablename__ = "phases"
    __table_args__ = (UniqueConstraint("game_id", "epoch", "turn"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    epoch: Mapped[int] = mapped_column(default=0)
    turn: Mapped[int]
    name: Mapped[str] = mapped_column(String(PHASE_LENGTH))
    state: Mapped[PhaseState] = mapped_column(StrEnumType(PhaseState), default=PhaseState.OPEN)
    opened_at: Mapped[datetime]
    deadline_at: Mapped[datetime | None] = mapped_column(default=None)
    position_before: Mapped[dict[str, Any]]
    orders_received: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    orders_adjudicated: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    results: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    position_after: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    processed_at: Mapped[datetime | None] = mapped_column(default=None)
    processing_ms: Mapped[int | None] = mapped_column(default=None)
    rolled_back_at: Mapped[datetime | None] = mapped_column(default=None)

    game: Mapped[Game] = relationship()


class OrderSubmission(Base):
    """One version of one power's orders for one phase, as sent and in canonical form.

    Every submission is kept; the newest version of a (game, power, phase,
    epoch) is the current one and earlier ones get ``superseded_at``. ``text``
    holds the lines exactly as the player sent them (a whole PHASE or IF/ELSE
    block for future and conditional orders, evaluated when that phase opens);
    ``canonical`` the judge's reading of them, one order per item; ``order_values`` the same
    orders as values (:mod:`judge.core.order_json`, one per item) when every item is a plain
    order of the phase in play, so the sheet is read back without reading its text (None for
    IF blocks, preference lists, PHASE blocks kept for later, and versions stored before).
    """

    __tablename__ = "orders"
    __table_args__ = (
        UniqueConstraint("game_id", "epoch", "phase", "power", "version"),
        Index(None, "game_id", "phase", "superseded_at"),
        # The orders in force, read at every order mail (judge.app.game_state.order_sheets.seat_orders): every
        # power's for a phase, and a seat's blocks for later phases. Partial, so that reading
        # them never goes through superseded versions or past phases (issue 14).
        Index("ix_orders_current", "game_id", "epoch", "phase", sqlite_where=_IN_FORCE, postgresql_where=_IN_FORCE),
        Index("ix_orders_ahead", "seat_id", sqlite_where=_AHEAD, postgresql_where=_AHEAD),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    power: Mapped[str] = mapped_column(String(POWER_LENGTH))
    phase: Mapped[str] = mapped_column(String(PHASE_LENGTH))
    epoch: Mapped[int] = mapped_column(default=0)
    version: Mapped[int]
    kind: Mapped[OrderBlockKind] = mapped_column(
        StrEnumType(OrderBlockKind), default=OrderBlockKind.CURRENT
    )
    text: Mapped[str] = mapped_column(Text)
    canonical: Mapped[list[str]] = mapped_column(default=list)
    order_values: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON(none_as_null=True), default=None)
    submitted_at: Mapped[datetime]
    submitted_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("people.id", ondelete="SET NULL"), default=None
    )
    mail_in_id: Mapped[int | None] = mapped_column(
        ForeignKey("mail_in.id", ondelete="SET NULL"), default=None
    )
    superseded_at: Mapped[datetime | None] = mapped_column(default=None)

    seat: Mapped[Seat] = relationship()


class PressMessage(Base):
    """A press message, broadcast, postal press or judge notice, with who may see what.

    ``recipients`` are the powers (or ``M`` master, ``O`` observers) that get
    it; ``shown_recipients`` what they are told it was sent to when faked;
    ``grey`` hides the sender. The master's copy uses the true fields.
    ``sender_member_role`` and ``sender_member_rank``: in a council game, the seat in his council
    of the member who wrote (``general``/``ambassador`` and the rank), as his readers were told it,
    so that HISTORY rebuilds their header without naming his address (None: not a member's
    press, or a message stored before the column existed).
    """

    __tablename__ = "press"
    __table_args__ = (Index(None, "game_id", "sent_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str | None] = mapped_column(String(PHASE_LENGTH), default=None)
    kind: Mapped[PressKind] = mapped_column(StrEnumType(PressKind), default=PressKind.PRESS)
    sender_seat_id: Mapped[int | None] = mapped_column(
        ForeignKey("seats.id", ondelete="SET NULL"), default=None
    )
    sender_role: Mapped[str] = mapped_column(
        String(16), default="power"
    )  # power/master/observer/judge
    sender_power: Mapped[str | None] = mapped_column(String(POWER_LENGTH), default=None)
    sender_address: Mapped[str | None] = mapped_column(String(ADDRESS_LENGTH), default=None)
    sender_member_role: Mapped[str | None] = mapped_column(String(16), default=None)
    sender_member_rank: Mapped[int | None] = mapped_column(default=None)
    recipients: Mapped[list[str]] = mapped_column(default=list)
    shown_recipients: Mapped[list[str] | None] = mapped_column(default=None)
    grey: Mapped[bool] = mapped_column(default=False)
    body: Mapped[str] = mapped_column(Text)
    sent_at: Mapped[datetime]
    mail_in_id: Mapped[int | None] = mapped_column(
        ForeignKey("mail_in.id", ondelete="SET NULL"), default=None
    )


class DrawVote(Base):
    """A power's standing draw or concession vote; votes last one phase (cleared at processing)."""

    __tablename__ = "draw_votes"
    __table_args__ = (UniqueConstraint("game_id", "seat_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str] = mapped_column(String(PHASE_LENGTH))
    kind: Mapped[DrawVoteKind] = mapped_column(StrEnumType(DrawVoteKind))
    powers: Mapped[str] = mapped_column(String(64), default="")  # letters, as in SET DRAW AEF
    cast_at: Mapped[datetime]


class DiaryEntry(Base):
    """A DIARY RECORD entry: private until the game ends, then published."""

    __tablename__ = "diary_entries"
    __table_args__ = (Index(None, "game_id", "seat_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat_id: Mapped[int | None] = mapped_column(
        ForeignKey("seats.id", ondelete="SET NULL"), default=None
    )
    person_id: Mapped[int | None] = mapped_column(
        ForeignKey("people.id", ondelete="SET NULL"), default=None
    )
    phase: Mapped[str | None] = mapped_column(String(PHASE_LENGTH), default=None)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime]
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)
