"""The audit trail: every setting change (who, when, old, new) and every sign-on from a new address."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from judge.db.enums import AuditKind
from judge.db.models.base import ADDRESS_LENGTH, Base
from judge.db.types import StrEnumType


class AuditEvent(Base):
    """One thing worth being able to explain later.

    Game and person references survive the deletion of what they point to
    (SET NULL): the trail outlives the game. ``old_value``/``new_value`` are
    JSON so a setting of any type is recorded as it was.
    """

    __tablename__ = "audit_events"
    __table_args__ = (Index(None, "game_id", "at"), Index(None, "person_id", "at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime]
    kind: Mapped[AuditKind] = mapped_column(StrEnumType(AuditKind))
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), default=None
    )
    person_id: Mapped[int | None] = mapped_column(
        ForeignKey("people.id", ondelete="SET NULL"), default=None
    )
    actor: Mapped[str] = mapped_column(String(ADDRESS_LENGTH), default="")
    setting: Mapped[str | None] = mapped_column(String(64), default=None)
    old_value: Mapped[Any] = mapped_column(JSON(none_as_null=True), nullable=True, default=None)
    new_value: Mapped[Any] = mapped_column(JSON(none_as_null=True), nullable=True, default=None)
    detail: Mapped[str | None] = mapped_column(Text, default=None)
