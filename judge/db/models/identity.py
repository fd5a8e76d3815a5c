"""Who may act and read for whom: proofs of address ownership, sign-on failures, takeover requests.

* :class:`AddressClaim`: a change that waits for a mail from the address it
  concerns (IAMALSO, a REGISTER naming someone's address). Only the token's
  hash is kept; the token itself exists only in the mail sent to that address.
* :class:`SignonFailure` and :class:`SignonLockout`: failed sign-ons, kept in
  the database so that a restart does not forgive a password guesser;
  :class:`SignonUnlock`: the code that lets a power's own player through.
* :class:`TakeoverRequest`: a newcomer's takeover of a power in a moderated
  game, waiting for the master's APPROVE or REFUSE.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from judge.db.models.base import ADDRESS_LENGTH, HASH_LENGTH, POWER_LENGTH, Base


class AddressClaim(Base):
    """A change to a registration that only a mail from ``confirm_address`` can carry out.

    ``kind`` says what the confirmation does (``iamalso``: link
    ``requester`` to ``person``; ``register``: link it and apply the form
    kept in ``payload``). ``attempts`` counts wrong CONFIRMs from
    ``confirm_address`` while the claim waits; a used, expired or
    exhausted claim does nothing.
    """

    __tablename__ = "address_claims"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    confirm_address: Mapped[str] = mapped_column(String(ADDRESS_LENGTH), index=True)
    requester: Mapped[str] = mapped_column(String(ADDRESS_LENGTH), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"), index=True)
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(index=True)
    expires_at: Mapped[datetime]
    attempts: Mapped[int] = mapped_column(default=0)
    used_at: Mapped[datetime | None] = mapped_column(default=None)


class WhoisLookup(Base):
    """WHOIS showed ``sender`` ``shown`` registrations at ``at``: the per-sender daily bound's count."""

    __tablename__ = "whois_lookups"
    __table_args__ = (Index(None, "sender", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    sender: Mapped[str] = mapped_column(String(ADDRESS_LENGTH))
    at: Mapped[datetime] = mapped_column(index=True)
    shown: Mapped[int]


class SignonFailure(Base):
    """One refused sign-on: who tried (``sender``), and which game and power when they exist."""

    __tablename__ = "signon_failures"
    __table_args__ = (Index(None, "game_id", "power", "at"), Index(None, "sender", "at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime]
    sender: Mapped[str] = mapped_column(String(ADDRESS_LENGTH))
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), default=None
    )
    power: Mapped[str | None] = mapped_column(String(POWER_LENGTH), default=None)


class SignonLockout(Base):
    """Sign-ons to one power refused until ``until`` (its player's own addresses excepted).

    ``strikes`` counts the lockouts of this power so far: each one lasts
    twice as long as the one before.
    """

    __tablename__ = "signon_lockouts"
    __table_args__ = (Index(None, "game_id", "power", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(POWER_LENGTH))
    started_at: Mapped[datetime]
    until: Mapped[datetime]
    strikes: Mapped[int] = mapped_column(default=1)


class SignonUnlock(Base):
    """A one-time code that lets a power's own player through its lockout (or his address's).

    Mailed to an address of the power's player that tried to sign on while shut out (a forger
    of that address never reads it); sent back with the sign-on from one of the player's
    addresses, it passes the throttle once. ``power`` is the power's name or ``master``. Only
    the code's hash is kept.
    """

    __tablename__ = "signon_unlocks"
    __table_args__ = (Index(None, "game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(POWER_LENGTH))
    token_hash: Mapped[str] = mapped_column(String(64))
    address: Mapped[str] = mapped_column(String(ADDRESS_LENGTH))
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None] = mapped_column(default=None)


class TakeoverRequest(Base):
    """A newcomer asks to take a power over in a moderated game; the master decides.

    The password the newcomer gave is kept hashed, to become the power's
    if the master approves. ``decision``: empty while pending, then
    ``approved``, ``refused`` or ``withdrawn`` (the power was no longer open).
    """

    __tablename__ = "takeover_requests"
    __table_args__ = (Index(None, "game_id", "power"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(POWER_LENGTH))
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id", ondelete="CASCADE"), index=True)
    requester: Mapped[str] = mapped_column(String(ADDRESS_LENGTH))
    password_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    requested_at: Mapped[datetime]
    decided_at: Mapped[datetime | None] = mapped_column(default=None)
    decision: Mapped[str] = mapped_column(String(16), default="")
