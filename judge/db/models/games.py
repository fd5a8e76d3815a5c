"""Games, their settings and deadline schedules, and who sits at them (seats, masters, observers)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from judge.core.phase import PhaseType
from judge.db.enums import GameState, SeatStatus
from judge.db.models.base import (
    ADDRESS_LENGTH,
    GAME_NAME_LENGTH,
    HASH_LENGTH,
    PHASE_LENGTH,
    POWER_LENGTH,
    Base,
)
from judge.db.models.people import Person
from judge.db.types import StrEnumType


class Game(Base):
    """One game and every setting a ``SET`` can change.

    Settings the Judge knows are typed columns with the stock defaults of the
    classic Judge; ``extra_settings`` holds the long tail (variant-specific
    options) so a new one needs no migration. ``next_due_at`` is the single,
    indexed answer to "when must the judge next look at this game?" (deadline,
    grace, reminder, early processing): the scheduler claims games by it.
    ``epoch`` counts ROLLBACKs, so phases and orders of an abandoned timeline
    are kept but never mistaken for current ones.
    """

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(GAME_NAME_LENGTH), unique=True)
    variant: Mapped[str] = mapped_column(String(64), default="standard")
    rule_options: Mapped[list[str]] = mapped_column(default=list)
    state: Mapped[GameState] = mapped_column(StrEnumType(GameState), default=GameState.FORMING)
    created_at: Mapped[datetime]
    started_at: Mapped[datetime | None] = mapped_column(default=None)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    current_phase: Mapped[str | None] = mapped_column(String(PHASE_LENGTH), default=None)
    epoch: Mapped[int] = mapped_column(default=0)

    # Timing of the current phase, and the one column the scheduler reads.
    deadline_at: Mapped[datetime | None] = mapped_column(default=None)
    grace_at: Mapped[datetime | None] = mapped_column(default=None)
    earliest_at: Mapped[datetime | None] = mapped_column(default=None)  # SET START
    next_due_at: Mapped[datetime | None] = mapped_column(default=None, index=True)
    paused_at: Mapped[datetime | None] = mapped_column(default=None)
    last_processed_at: Mapped[datetime | None] = mapped_column(default=None)
    failed_attempts: Mapped[int] = mapped_column(default=0)

    # Press.
    press_mode: Mapped[str] = mapped_column(String(16), default="white")
    partial_press: Mapped[bool] = mapped_column(default=True)
    fake_press: Mapped[str] = mapped_column(String(24), default="none")
    observer_press: Mapped[str] = mapped_column(String(8), default="any")
    watch_all_press: Mapped[bool] = mapped_column(default=False)
    blank_press: Mapped[bool] = mapped_column(default=False)
    minor_press: Mapped[bool] = mapped_column(default=True)
    postal_press: Mapped[bool] = mapped_column(default=False)
    touch_press: Mapped[bool] = mapped_column(default=False)
    late_press: Mapped[bool] = mapped_column(default=True)
    grace_press: Mapped[bool] = mapped_column(default=True)
    must_order: Mapped[bool] = mapped_column(default=False)

    # Lateness and endings.
    nmr: Mapped[bool] = mapped_column(default=False)
    dias: Mapped[bool] = mapped_column(default=True)
    concessions: Mapped[bool] = mapped_column(default=True)
    strict_grace: Mapped[bool] = mapped_column(default=False)
    strict_wait: Mapped[bool] = mapped_column(default=False)
    late_count: Mapped[bool] = mapped_column(default=False)
    max_absence_days: Mapped[int] = mapped_column(default=15)
    manual_process: Mapped[bool] = mapped_column(default=False)
    manual_start: Mapped[bool] = mapped_column(default=False)
    players_may_resume: Mapped[bool] = mapped_column(default=True)

    # Who may join.
    access: Mapped[str] = mapped_column(String(16), default="any")
    level: Mapped[str] = mapped_column(String(16), default="any")
    min_dedication: Mapped[int] = mapped_column(default=-10000)
    min_ontime_ratio: Mapped[float] = mapped_column(default=0.0)
    max_resignation_ratio: Mapped[float] = mapped_column(default=1.0)
    approval: Mapped[bool] = mapped_column(default=False)
    allowed_players: Mapped[list[str]] = mapped_column(default=list)
    denied_players: Mapped[list[str]] = mapped_column(default=list)

    # Conduct and visibility.
    moderated: Mapped[bool] = mapped_column(default=False)
    rated: Mapped[bool] = mapped_column(default=True)
    listed: Mapped[bool] = mapped_column(default=True)  # the Judge lists a game unless SET NOLIST
    quiet: Mapped[bool] = mapped_column(default=False)
    show_setter: Mapped[bool] = mapped_column(default=True)
    reveal: Mapped[bool] = mapped_column(default=True)
    secret: Mapped[bool] = mapped_column(default=False)

    # Shape of the game.
    players_count: Mapped[int | None] = mapped_column(default=None)  # None: one per power
    assignment: Mapped[str] = mapped_column(String(16), default="prflist")
    winning_centers: Mapped[int] = mapped_column(default=18)
    proxy: Mapped[bool] = mapped_column(default=False)
    build_centres: Mapped[str] = mapped_column(String(8), default="home")
    any_disband: Mapped[bool] = mapped_column(default=False)
    auto_disband: Mapped[bool] = mapped_column(default=False)
    comment: Mapped[str] = mapped_column(String(80), default="")
    comment_full: Mapped[str] = mapped_column(Text, default="")
    extra_settings: Mapped[dict[str, Any]] = mapped_column(default=dict)

    schedules: Mapped[list[DeadlineSchedule]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="DeadlineSchedule.phase_type"
    )
    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="Seat.id"
    )
    masters: Mapped[list[GameMaster]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="GameMaster.id"
    )
    observers: Mapped[list[GameObserver]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="GameObserver.id"
    )

    def schedule(self, phase_type: PhaseType) -> DeadlineSchedule | None:
        for schedule in self.schedules:
            if schedule.phase_type == phase_type:
                return schedule
        return None


class DeadlineSchedule(Base):
    """``SET MOVES|RETREATS|ADJUSTS CLOCK|MIN|NEXT|GRACE|DELAY|DAYS`` for one kind of phase.

    ``clock_minutes`` is minutes after midnight (None: no fixed clock); the
    others are hours; ``days`` is the Judge's seven-letter pattern (``-MTWTF-``).
    """

    __tablename__ = "deadline_schedules"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    phase_type: Mapped[PhaseType] = mapped_column(StrEnumType(PhaseType, 1), primary_key=True)
    clock_minutes: Mapped[int | None] = mapped_column(default=None)
    min_hours: Mapped[float] = mapped_column(default=0.0)
    next_hours: Mapped[float] = mapped_column(default=23.0)
    grace_hours: Mapped[float] = mapped_column(default=71.0)
    delay_hours: Mapped[float] = mapped_column(default=0.5)
    days: Mapped[str] = mapped_column(String(7), default="-MTWTF-")

    game: Mapped[Game] = relationship(back_populates="schedules")


class Seat(Base):
    """A power of a game and who holds it now.

    ``power`` is None while the game is forming (joined, not yet assigned).
    The password is an argon2id hash, never the password. ``tenures`` records
    who played the power when (joins and takeovers).
    """

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[str | None] = mapped_column(String(POWER_LENGTH), default=None)
    person_id: Mapped[int | None] = mapped_column(
        ForeignKey("people.id", ondelete="SET NULL"), index=True, default=None
    )
    password_hash: Mapped[str | None] = mapped_column(String(HASH_LENGTH), default=None)
    status: Mapped[SeatStatus] = mapped_column(StrEnumType(SeatStatus), default=SeatStatus.WAITING)
    wait: Mapped[bool] = mapped_column(default=False)
    preferences: Mapped[str] = mapped_column(String(64), default="")
    report_address: Mapped[str] = mapped_column(String(2 * ADDRESS_LENGTH + 1), default="")
    late_count: Mapped[int] = mapped_column(default=0)
    joined_at: Mapped[datetime]

    game: Mapped[Game] = relationship(back_populates="seats")
    person: Mapped[Person | None] = relationship()
    tenures: Mapped[list[SeatTenure]] = relationship(
        back_populates="seat", cascade="all, delete-orphan", order_by="SeatTenure.id"
    )


class SeatTenure(Base):
    """One person's time at a seat: from which phase and instant to which (None: still there)."""

    __tablename__ = "seat_tenures"

    id: Mapped[int] = mapped_column(primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    person_id: Mapped[int | None] = mapped_column(
        ForeignKey("people.id", ondelete="SET NULL"), index=True, default=None
    )
    how: Mapped[str] = mapped_column(String(16), default="join")  # join, takeover, admin
    started_at: Mapped[datetime]
    started_phase: Mapped[str | None] = mapped_column(String(PHASE_LENGTH), default=None)
    ended_at: Mapped[datetime | None] = mapped_column(default=None)
    ended_phase: Mapped[str | None] = mapped_column(String(PHASE_LENGTH), default=None)

    seat: Mapped[Seat] = relationship(back_populates="tenures")
    person: Mapped[Person | None] = relationship()


class GameMaster(Base):
    """A master of a game (creator, BECOME MASTER or PROMOTE), with the password to sign on as ``m``."""

    __tablename__ = "game_masters"
    __table_args__ = (UniqueConstraint("game_id", "person_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"), index=True)
    password_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    since: Mapped[datetime]

    game: Mapped[Game] = relationship(back_populates="masters")
    person: Mapped[Person] = relationship()


class GameObserver(Base):
    """An observer: an address and a password (the Judge needs no registration to observe)."""

    __tablename__ = "game_observers"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    address: Mapped[str] = mapped_column(String(ADDRESS_LENGTH))
    person_id: Mapped[int | None] = mapped_column(
        ForeignKey("people.id", ondelete="SET NULL"), index=True, default=None
    )
    password_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    receives_broadcasts: Mapped[bool] = mapped_column(default=True)
    since: Mapped[datetime]
    held_for_bounces: Mapped[bool] = mapped_column(default=False, server_default=false())
    """The address bounces (judge.app.mail_out.bounces): no mail about the game goes to it until a mail
    from it comes to the judge."""

    game: Mapped[Game] = relationship(back_populates="observers")
    person: Mapped[Person | None] = relationship()
