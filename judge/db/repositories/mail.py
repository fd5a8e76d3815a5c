"""Mail in and mail out: the durable queues between SMTP and the judge's work.

Inbound: the SMTP server stores the raw bytes and commits before answering
250; a worker claims the oldest unprocessed mail of a sender whose earlier
mail is done, processes it and marks it in the same transaction as its effects.
Outbound: replies are enqueued in the transaction that produced them and a
sender drains the due ones, with retries at times the caller chooses.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from judge.db.enums import InboundState, OutboundState
from judge.db.errors import NotFoundError
from judge.db.models import InboundMail, OutboundMail


def sender_key(mail_from: str) -> str:
    """What orders a sender's mail: the envelope sender, trimmed and lower case ('' for bounces)."""
    return mail_from.strip().strip("<>").strip().lower()


class InboundMailRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def store(
        self,
        raw: bytes,
        mail_from: str,
        rcpt_tos: Iterable[str],
        received_at: datetime,
        peer: str = "",
    ) -> InboundMail:
        """Keep a received mail exactly as it came (bytes are never decoded here)."""
        mail = InboundMail(
            raw=bytes(raw),
            mail_from=mail_from,
            rcpt_tos=list(rcpt_tos),
            received_at=received_at,
            peer=peer,
            sender_key=sender_key(mail_from),
        )
        self.session.add(mail)
        self.session.flush()
        return mail

    def get(self, mail_id: int) -> InboundMail:
        mail = self.session.get(InboundMail, mail_id)
        if mail is None:
            raise NotFoundError("mail", mail_id)
        return mail

    def claim_next(self) -> InboundMail | None:
        """The oldest received mail that is its sender's oldest one still unprocessed, locked.

        PostgreSQL: ``FOR UPDATE SKIP LOCKED``: a mail another worker holds is
        skipped, and so is every later mail from the same sender (it is not
        that sender's oldest), so one sender's mails run in order while
        different senders run in parallel. SQLite: the write lock of the unit
        of work serialises workers. Process the mail, then
        :meth:`mark_processed`, in the same unit of work.
        """
        earlier = aliased(InboundMail)
        oldest_of_sender = (
            select(func.min(earlier.id))
            .where(
                earlier.sender_key == InboundMail.sender_key,
                earlier.state == InboundState.RECEIVED,
            )
            .scalar_subquery()
        )
        mail = self.session.scalars(
            select(InboundMail)
            .where(InboundMail.state == InboundState.RECEIVED, InboundMail.id == oldest_of_sender)
            .order_by(InboundMail.id)
            .limit(1)
            .with_for_update(skip_locked=True)
            .execution_options(populate_existing=True)
        ).one_or_none()
        if mail is not None:
            mail.attempts += 1
        return mail

    def mark_processed(self, mail: InboundMail, now: datetime) -> None:
        mail.state = InboundState.PROCESSED
        mail.processed_at = now
        mail.error = None
        self.session.flush()

    def mark_ignored(self, mail: InboundMail, reason: str, now: datetime) -> None:
        """Stored but never answered (mail loops, floods, bounces)."""
        mail.state = InboundState.IGNORED
        mail.processed_at = now
        mail.error = reason
        self.session.flush()

    def mark_failed(self, mail_id: int, error: str, now: datetime) -> None:
        """Record that processing failed; call in a fresh unit of work after the failed one rolled back."""
        mail = self.get(mail_id)
        mail.state = InboundState.FAILED
        mail.attempts += 1
        mail.processed_at = now
        mail.error = error
        self.session.flush()

    def requeue(self, mail_id: int) -> None:
        """Put a failed mail back in the queue (after a fix), keeping its attempt count."""
        mail = self.get(mail_id)
        mail.state = InboundState.RECEIVED
        mail.processed_at = None
        self.session.flush()

    def count(self, state: InboundState) -> int:
        return int(
            self.session.scalar(
                select(func.count()).select_from(InboundMail).where(InboundMail.state == state)
            )
            or 0
        )


class OutboxRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def enqueue(
        self,
        recipients: Iterable[str],
        message: bytes,
        now: datetime,
        *,
        mail_from: str,
        game_id: int | None = None,
        in_reply_to_id: int | None = None,
        not_before: datetime | None = None,
    ) -> OutboundMail:
        """Queue a whole message (headers and body, as bytes) for ``recipients``."""
        targets = list(recipients)
        if not targets:
            raise ValueError("a message needs at least one recipient")
        mail = OutboundMail(
            created_at=now,
            mail_from=mail_from,
            recipients=targets,
            message=bytes(message),
            next_attempt_at=not_before or now,
            game_id=game_id,
            in_reply_to_id=in_reply_to_id,
        )
        self.session.add(mail)
        self.session.flush()
        return mail

    def claim_due(self, now: datetime, limit: int = 20) -> list[OutboundMail]:
        """Pending messages due at ``now``, oldest first, locked (skipping those another sender holds)."""
        return list(
            self.session.scalars(
                select(OutboundMail)
                .where(
                    OutboundMail.state == OutboundState.PENDING,
                    OutboundMail.next_attempt_at <= now,
                )
                .order_by(OutboundMail.next_attempt_at, OutboundMail.id)
                .limit(limit)
                .with_for_update(skip_locked=True)
                .execution_options(populate_existing=True)
            )
        )

    def mark_sent(self, mail: OutboundMail, now: datetime) -> None:
        mail.state = OutboundState.SENT
        mail.attempts += 1
        mail.sent_at = now
        mail.next_attempt_at = None
        mail.last_error = None
        self.session.flush()

    def retry_later(self, mail: OutboundMail, error: str, next_attempt_at: datetime) -> None:
        """A temporary failure: try again at ``next_attempt_at`` (the caller's back-off)."""
        mail.attempts += 1
        mail.last_error = error
        mail.next_attempt_at = next_attempt_at
        self.session.flush()

    def give_up(self, mail: OutboundMail, error: str) -> None:
        """A permanent failure, or too many attempts: keep the message, stop trying."""
        mail.state = OutboundState.FAILED
        mail.attempts += 1
        mail.last_error = error
        mail.next_attempt_at = None
        self.session.flush()

    def earliest_due(self) -> datetime | None:
        """When the sender should next wake up."""
        return self.session.scalar(
            select(func.min(OutboundMail.next_attempt_at)).where(
                OutboundMail.state == OutboundState.PENDING
            )
        )

    def count(self, state: OutboundState) -> int:
        return int(
            self.session.scalar(
                select(func.count()).select_from(OutboundMail).where(OutboundMail.state == state)
            )
            or 0
        )
