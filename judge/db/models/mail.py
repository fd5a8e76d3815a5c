"""Mail in (raw bytes exactly as received) and mail out (the outbox)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, LargeBinary, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from judge.db.enums import InboundState, OutboundState
from judge.db.models.base import ADDRESS_LENGTH, Base
from judge.db.types import StrEnumType

# RFC 5321 allows long paths; keep what arrived rather than cut it.
ENVELOPE_LENGTH = 1000

PENDING_CONDITION = text("state IN ('received', 'failed')")
"""Mail still to process, in SQL text: the partial indexes' condition (InboundState.RECEIVED
and FAILED; tests/db/test_mail_claim_plan.py checks it names exactly PENDING_STATES)."""


class InboundMail(Base):
    """A mail as the SMTP server received it: the bytes, the envelope, and what became of it.

    ``raw`` is binary, never decoded on the way in: a mail in a broken charset
    is still stored exactly and can be re-processed after a fix.
    ``sender_key`` (the lower-cased envelope sender) lets workers process
    each sender's mail in arrival order while different senders run in parallel.
    ``attempts`` is counted in a commit of its own *before* each try, so a mail
    that kills the process is still counted and, after enough tries,
    quarantined; ``next_attempt_at`` holds the mail back while a worker has it
    (a lease) or after a failure (a back-off), and with it its sender's later mail.
    """

    __tablename__ = "mail_in"
    __table_args__ = (
        # Partial indexes of the mail still to process (issue 14): on PostgreSQL every update
        # of a pending row leaves a dead entry in a full index on state, and a claim that
        # scanned the pending range (a bitmap scan, which never marks dead entries) grew
        # slower with every mail processed. These hold only pending rows, ordered by id, so
        # the claim walks them in order and the dead ones are marked and skipped. The claim
        # spells the same condition in SQL text (PENDING_CONDITION) so that both engines can
        # prove it implies the index's.
        Index("ix_mail_in_pending", "id", sqlite_where=PENDING_CONDITION, postgresql_where=PENDING_CONDITION),
        Index(
            "ix_mail_in_pending_sender", "sender_key", "id",
            sqlite_where=PENDING_CONDITION, postgresql_where=PENDING_CONDITION,
        ),
        # A mail taken for processing looks for an earlier delivery of itself (judge.mail.once).
        Index("ix_mail_in_once_key", "once_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    mail_from: Mapped[str] = mapped_column(String(ENVELOPE_LENGTH))
    rcpt_tos: Mapped[list[str]]
    received_at: Mapped[datetime]
    peer: Mapped[str] = mapped_column(String(255), default="")
    sender_key: Mapped[str] = mapped_column(String(ENVELOPE_LENGTH))
    state: Mapped[InboundState] = mapped_column(
        StrEnumType(InboundState), default=InboundState.RECEIVED
    )
    attempts: Mapped[int] = mapped_column(default=0)
    error: Mapped[str | None] = mapped_column(Text, default=None)
    processed_at: Mapped[datetime | None] = mapped_column(default=None)
    next_attempt_at: Mapped[datetime | None] = mapped_column(default=None)
    once_key: Mapped[str | None] = mapped_column(String(64), default=None)
    """What makes two deliveries the same mail (:func:`judge.mail.once.once_key`); None on mail
    stored before the key existed."""


class OutboundMail(Base):
    """A message waiting to be delivered, or delivered, or given up on.

    ``message`` is the whole message (headers and body) as bytes, ready for
    the relay; ``next_attempt_at`` is when the sender should try it (again).
    """

    __tablename__ = "mail_out"
    __table_args__ = (Index(None, "state", "next_attempt_at", "id"),)  # the claim's order (migration 0017)

    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[datetime]
    mail_from: Mapped[str] = mapped_column(String(ADDRESS_LENGTH))
    recipients: Mapped[list[str]]
    message: Mapped[bytes] = mapped_column(LargeBinary)
    state: Mapped[OutboundState] = mapped_column(
        StrEnumType(OutboundState), default=OutboundState.PENDING
    )
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(default=None)
    last_error: Mapped[str | None] = mapped_column(Text, default=None)
    sent_at: Mapped[datetime | None] = mapped_column(default=None)
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), index=True, default=None
    )
    in_reply_to_id: Mapped[int | None] = mapped_column(
        ForeignKey("mail_in.id", ondelete="SET NULL"), index=True, default=None
    )
    map_phase_id: Mapped[int | None] = mapped_column(ForeignKey("phases.id", ondelete="SET NULL"), default=None)
    """The processed phase whose map the sender attaches when it delivers this mail (a results
    mail whose reader wants the picture), drawn then rather than in the processing transaction."""
    map_language: Mapped[str | None] = mapped_column(String(8), default=None)
    """The language of that map (its reader's, as the mail's text): None is English."""
    bounced_at: Mapped[datetime | None] = mapped_column(default=None)
    """When a bounce for this mail came back to its VERP address (judge.app.mail_out.bounces); the first one."""
    bounce: Mapped[str | None] = mapped_column(Text, default=None)
    """What the bounce said: ``hard:``, ``soft:`` or ``none:`` and the server's words."""


class AddressBounces(Base):
    """An address's bounce score (judge.app.mail_out.bounces), kept by address so an observer who never
    registered has one too. No row: the address never bounced, or wrote to the judge since."""

    __tablename__ = "address_bounces"

    address: Mapped[str] = mapped_column(String(ADDRESS_LENGTH), primary_key=True)
    """Lower case, as the outbox row's reader."""
    score: Mapped[float] = mapped_column(default=0.0)
    scored_at: Mapped[datetime | None] = mapped_column(default=None)
    """When a bounce last added to the score (at most once a day; the score decays from then)."""
    last_bounce_at: Mapped[datetime]
    last_mail_id: Mapped[int | None] = mapped_column(default=None)
    """The outbox mail that bounced last (its row may have been purged since)."""
    last_reason: Mapped[str] = mapped_column(Text, default="")
    bounces: Mapped[int] = mapped_column(default=0)
    """Bounces that came back for the address (every one, scored or not)."""
    bouncing_since: Mapped[datetime | None] = mapped_column(default=None)
    """When the score reached the threshold: the owner and the masters were told then, once."""


class SenderFlood(Base):
    """What the flood limiter remembers of one sender (an address, or an envelope sender).

    Kept in the database so a restart, or a second judge process, does not
    forget a flood: ``arrivals`` holds the times of the sender's last mails
    (at most the limit, as ISO texts), ``warned`` whether this flood was
    already answered once.
    """

    __tablename__ = "sender_floods"
    __table_args__ = (Index(None, "last_at"),)

    key: Mapped[str] = mapped_column(String(ENVELOPE_LENGTH), primary_key=True)
    arrivals: Mapped[list[str]]
    warned: Mapped[bool] = mapped_column(default=False)
    last_at: Mapped[datetime]


class Throttle(Base):
    """When something that must not happen too often last happened: an alarm to the
    judgekeeper ("alarm:mail"), the daily purge ("purge"). ``suppressed`` counts
    the events held back since the last one that went out."""

    __tablename__ = "throttles"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    last_at: Mapped[datetime]
    suppressed: Mapped[int] = mapped_column(default=0)
