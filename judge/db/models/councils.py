"""Councils (issue 17, seed 003): a power held by several players, their elections and trials.

A council game keeps its options in ``games.extra_settings["councils"]``
(``size``, ``years``, ``election_hours``, ``release_grace_hours``,
``enabled``), so no table holds settings. The tables here record who sits
on which council and in which role, who is secretly a spy (``true_power``,
never shown to anyone but the spy and the master before the end), the
yearly and early elections with their votes, and accusations of treason.

Every table has an ``extra`` JSON column so a later rule can keep a detail
without a migration. Roles, kinds, states and outcomes are short strings
(the values are listed on each column) rather than enums, because two
helpers extend them independently.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from judge.db.models.base import HASH_LENGTH, POWER_LENGTH, Base

ROLE_LENGTH = 16
STATE_LENGTH = 16
OUTCOME_LENGTH = 32


class CouncilMember(Base):
    """One player's place on one power's council.

    ``role`` is ``"general"`` or ``"ambassador"``; ``rank`` is 0 for the
    General, 1 for the first Ambassador, 2 for the second, and so on.
    ``true_power`` is None for a loyal member and, for a spy, the power the
    spy really plays for. ``status`` is ``"active"``, ``"accused"``,
    ``"arrested"``, ``"left"`` or ``"eliminated"``. ``password_hash`` is the
    member's own sign-on password (argon2id hash, never the password).
    ``onr_count`` counts the orders this member failed to release as General.
    """

    __tablename__ = "council_members"
    __table_args__ = (Index(None, "game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(POWER_LENGTH))
    person_id: Mapped[int | None] = mapped_column(
        ForeignKey("people.id", ondelete="SET NULL"), index=True, default=None
    )
    role: Mapped[str] = mapped_column(String(ROLE_LENGTH), default="ambassador")
    rank: Mapped[int] = mapped_column(default=1)
    true_power: Mapped[str | None] = mapped_column(String(POWER_LENGTH), default=None)
    status: Mapped[str] = mapped_column(String(STATE_LENGTH), default="active")
    joined_at: Mapped[datetime]
    left_at: Mapped[datetime | None] = mapped_column(default=None)
    onr_count: Mapped[int] = mapped_column(default=0)
    password_hash: Mapped[str | None] = mapped_column(String(HASH_LENGTH), default=None)
    extra: Mapped[dict[str, Any]] = mapped_column(default=dict)


class CouncilElection(Base):
    """One election of a council's General.

    ``kind``: ``"first"`` (before the first turn), ``"regular"`` (each year
    between the fall retreats and the adjustments) or ``"early"`` (a
    substitute after a missed release). ``state``: ``"open"``, ``"closed"``
    or ``"cancelled"``. ``outcome``: ``"elected"``, ``"re-elected-tie"``,
    ``"civil-disorder-tie"`` or ``"cancelled"`` once decided.
    """

    __tablename__ = "council_elections"
    __table_args__ = (Index(None, "game_id", "power", "year"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(POWER_LENGTH))
    year: Mapped[int]
    kind: Mapped[str] = mapped_column(String(STATE_LENGTH), default="regular")
    opened_at: Mapped[datetime]
    deadline_at: Mapped[datetime]
    closed_at: Mapped[datetime | None] = mapped_column(default=None)
    state: Mapped[str] = mapped_column(String(STATE_LENGTH), default="open")
    winner_member_id: Mapped[int | None] = mapped_column(
        ForeignKey("council_members.id", ondelete="SET NULL"), default=None
    )
    outcome: Mapped[str | None] = mapped_column(String(OUTCOME_LENGTH), default=None)
    extra: Mapped[dict[str, Any]] = mapped_column(default=dict)


class CouncilVote(Base):
    """One member's ballot in one election: a candidate, or None to abstain.

    An abstaining voter may cast an anonymous influence vote in another
    power's election (``influence_election_id``), counted there only to
    break a tie.
    """

    __tablename__ = "council_votes"
    __table_args__ = (UniqueConstraint("election_id", "voter_member_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    election_id: Mapped[int] = mapped_column(ForeignKey("council_elections.id", ondelete="CASCADE"))
    voter_member_id: Mapped[int] = mapped_column(
        ForeignKey("council_members.id", ondelete="CASCADE")
    )
    candidate_member_id: Mapped[int | None] = mapped_column(
        ForeignKey("council_members.id", ondelete="SET NULL"), default=None
    )
    influence_election_id: Mapped[int | None] = mapped_column(
        ForeignKey("council_elections.id", ondelete="SET NULL"), default=None, index=True
    )
    cast_at: Mapped[datetime]
    extra: Mapped[dict[str, Any]] = mapped_column(default=dict)


class CouncilAccusation(Base):
    """Two council members accusing their second Ambassador of treason.

    ``accuser_member_ids`` lists the accusers' member ids; ``state`` is
    ``"open"``, ``"withdrawn"`` (an accuser changed his mind: rehabilitated),
    ``"upheld"`` or ``"escaped"``.
    """

    __tablename__ = "council_accusations"
    __table_args__ = (Index(None, "game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(POWER_LENGTH))
    accused_member_id: Mapped[int] = mapped_column(
        ForeignKey("council_members.id", ondelete="CASCADE"), index=True
    )
    accuser_member_ids: Mapped[list[int]] = mapped_column(JSON(none_as_null=True), default=list)
    opened_at: Mapped[datetime]
    state: Mapped[str] = mapped_column(String(STATE_LENGTH), default="open")
    closed_at: Mapped[datetime | None] = mapped_column(default=None)
    extra: Mapped[dict[str, Any]] = mapped_column(default=dict)
