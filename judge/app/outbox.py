"""Queueing mail in the database outbox, and the adapter the sender drains it with.

Everything the judge sends goes through the outbox table inside the same
transaction as the change that caused it, so a reply is never sent for a
change that was rolled back, nor lost for one that was committed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from judge.app.services import Services
from judge.db.database import UnitOfWork
from judge.db.models import OutboundMail
from judge.mail.compose import AutoSubmitted, render, render_reply
from judge.mail.outbound import OutgoingMail


def queue(
    uow: UnitOfWork,
    services: Services,
    to: Sequence[str],
    subject: str,
    body: str,
    now: datetime,
    *,
    game_id: int | None = None,
    reply_to_message_id: str | None = None,
    references: Sequence[str] = (),
    in_reply_to_mail_id: int | None = None,
) -> None:
    """Render one mail and put it in the outbox (a reply when it answers a message id)."""
    recipients = [address for address in dict.fromkeys(to) if address]
    if not recipients:
        return
    identity = services.identity
    if reply_to_message_id is not None or in_reply_to_mail_id is not None:
        message = render_reply(
            identity, recipients, subject, body, now=now,
            original_message_id=reply_to_message_id, original_references=references,
        )
    else:
        message = render(
            identity, recipients, subject, body, now=now, auto_submitted=AutoSubmitted.GENERATED
        )
    uow.outbox.enqueue(
        recipients, message, now, mail_from=identity.address, game_id=game_id,
        in_reply_to_id=in_reply_to_mail_id,
    )


@dataclass
class DatabaseOutbox:
    """The mail sender's view of the outbox table, for :func:`judge.mail.outbound.drain_once`.

    Used inside one unit of work: claimed rows stay locked while they are sent,
    so two senders never send one mail twice.
    """

    uow: UnitOfWork

    def __post_init__(self) -> None:
        self._claimed: dict[int, OutboundMail] = {}

    def claim_due(self, now: datetime, limit: int) -> list[OutgoingMail]:
        rows = self.uow.outbox.claim_due(now, limit)
        self._claimed = {row.id: row for row in rows}
        return [OutgoingMail(row.id, row.message, tuple(row.recipients), row.attempts) for row in rows]

    def mark_sent(self, id: int, now: datetime) -> None:
        self.uow.outbox.mark_sent(self._claimed[id], now)

    def mark_retry(self, id: int, next_attempt: datetime, error: str) -> None:
        self.uow.outbox.retry_later(self._claimed[id], error, next_attempt)

    def mark_failed(self, id: int, error: str) -> None:
        self.uow.outbox.give_up(self._claimed[id], error)
