"""People: the REGISTER form, every address they write from, their record and absences."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from judge.db.models.base import ADDRESS_LENGTH, NAME_LENGTH, Base

if TYPE_CHECKING:
    from judge.db.models.games import Game


class Person(Base):
    """A registered player (or master). The Judge's REGISTER keywords are columns;
    keywords it did not know are kept in ``extra`` rather than dropped.

    The dedication counters are the Judge's reliability record (points, turns
    due, on time, late, abandonments, civil disorders), updated by the phase
    processing with atomic increments.
    """

    __tablename__ = "people"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    phone: Mapped[str] = mapped_column(String(64), default="")
    site: Mapped[str] = mapped_column(String(NAME_LENGTH), default="")
    site_id: Mapped[int | None] = mapped_column(default=None)
    postal_address: Mapped[str] = mapped_column(String(500), default="")
    country: Mapped[str] = mapped_column(String(100), default="")
    level: Mapped[str] = mapped_column(String(16), default="amateur")
    birth_date: Mapped[date | None] = mapped_column(default=None)
    sex: Mapped[str] = mapped_column(String(16), default="")
    time_zone: Mapped[str] = mapped_column(String(64), default="")
    language: Mapped[str] = mapped_column(String(16), default="en")
    wants_package: Mapped[bool] = mapped_column(default=False)
    extra: Mapped[dict[str, Any]] = mapped_column(default=dict)
    registered_at: Mapped[datetime]
    updated_at: Mapped[datetime]

    dedication: Mapped[int] = mapped_column(default=0)
    turns_due: Mapped[int] = mapped_column(default=0)
    turns_on_time: Mapped[int] = mapped_column(default=0)
    turns_late: Mapped[int] = mapped_column(default=0)
    games_started: Mapped[int] = mapped_column(default=0)
    takeovers: Mapped[int] = mapped_column(default=0)
    abandonments: Mapped[int] = mapped_column(default=0)
    civil_disorders: Mapped[int] = mapped_column(default=0)
    resignations: Mapped[int] = mapped_column(default=0)

    addresses: Mapped[list[PersonAddress]] = relationship(
        back_populates="person", cascade="all, delete-orphan", order_by="PersonAddress.id"
    )
    absences: Mapped[list[Absence]] = relationship(
        back_populates="person", cascade="all, delete-orphan", order_by="Absence.starts_at"
    )

    @property
    def primary_address(self) -> str | None:
        for address in self.addresses:
            if address.is_primary:
                return address.address
        return self.addresses[0].address if self.addresses else None


class PersonAddress(Base):
    """One address a person writes from (the registration's, then each IAMALSO).

    Stored lower-cased: mail systems treat addresses case-insensitively in
    practice, and one person per address is what makes sign-on checks work.
    """

    __tablename__ = "person_addresses"

    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"), index=True)
    address: Mapped[str] = mapped_column(String(ADDRESS_LENGTH), unique=True)
    is_primary: Mapped[bool] = mapped_column(default=False)
    added_at: Mapped[datetime]

    person: Mapped[Person] = relationship(back_populates="addresses")


class Absence(Base):
    """A declared absence (SET ABSENCE): deadlines computed inside it are pushed past it.

    ``game_id`` is the game it was declared in (None: all of the person's games).
    """

    __tablename__ = "absences"
    __table_args__ = (Index(None, "person_id", "ends_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"))
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), index=True, default=None
    )
    starts_at: Mapped[datetime]
    ends_at: Mapped[datetime]
    set_by_master: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime]

    person: Mapped[Person] = relationship(back_populates="absences")
    game: Mapped[Game | None] = relationship()
