"""Queueing mail in the database outbox, and the adapter the sender drains it with.

Everything the judge sends goes through the outbox table inside the same
transaction as the change that caused it, so a reply is never sent for a
change that was rolled back, nor lost for one that was committed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, insert

from judge.app.services import Services
from judge.db.database import UnitOfWork
from judge.db.enums import OutboundState
from judge.db.models import OutboundMail
from judge.mail.addresses import AddressError, canonical_address, printable
from judge.mail.compose import Attachment, AutoSubmitted, SharedMail, render, render_reply

log = logging.getLogger(__name__)


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
    extra_headers: Sequence[tuple[str, str]] = (),
    attachment: Attachment | None = None,
) -> None:
    """Render one mail and put it in the outbox (a reply when it answers a message id).

    ``attachment`` (a map) makes it multipart/mixed; the text stays whole.

    Recipients are canonicalised (IDNA domains); one that is no usable
    address is left out with a log line, and a mail left with nobody is not
    queued: nothing here raises on an address.
    """
    recipients = usable_recipients(to)
    if not recipients:
        return
    identity = services.identity
    if reply_to_message_id is not None or in_reply_to_mail_id is not None:
        message = render_reply(
            identity,
            recipients,
            subject,
            body,
            now=now,
            original_message_id=reply_to_message_id,
            original_references=references,
            attachment=attachment,
        )
    else:
        message = render(
            identity, recipients, subject, body, now=now, auto_submitted=AutoSubmitted.GENERATED,
            extra_headers=extra_headers, attachment=attachment,
        )  # fmt: skip
    uow.outbox.enqueue_row(  # Core: no ORM object made and flushed per mail (issue 14)
        recipients,
        message,
        now,
        mail_from=identity.address,
        game_id=game_id,
        in_reply_to_id=in_reply_to_mail_id,
    )


@dataclass(frozen=True, slots=True)
class Letter:
    """One mail of a batch for :func:`queue_many`: its recipients, subject and body."""

    to: Sequence[str]
    subject: str
    body: str
    attachment: Attachment | None = None
    """A file sent with the text, or none."""
    map_phase_id: int | None = None
    """The processed phase whose map the sender attaches when it delivers the mail (the results'
    picture, drawn at delivery so the processing transaction stays short), or none."""


def queue_many(
    uow: UnitOfWork, services: Services, letters: Sequence[Letter], now: datetime, *, game_id: int | None = None
) -> int:
    """Render mails and put them all in the outbox with one multi-row INSERT; returns how many.

    For what one event sends to many readers (a phase's results: one mail
    per player, master and observer): one statement instead of one INSERT
    and flush per mail. Recipients are handled as :func:`queue` does; the
    mails are generated ones (``Auto-Submitted: auto-generated``), not replies.
    """
    identity = services.identity
    rows: list[dict[str, Any]] = []
    shared: dict[tuple[str, str], SharedMail] = {}  # one text to many readers: written once
    for letter in letters:
        recipients = usable_recipients(letter.to)
        if not recipients:
            continue
        if letter.attachment is None:
            mail = shared.get((letter.subject, letter.body))
            if mail is None:
                mail = shared[letter.subject, letter.body] = SharedMail(
                    identity, letter.subject, letter.body, now=now, auto_submitted=AutoSubmitted.GENERATED
                )
            message = mail.to(recipients)
        else:
            message = render(
                identity, recipients, letter.subject, letter.body, now=now,
                auto_submitted=AutoSubmitted.GENERATED, attachment=letter.attachment,
            )  # fmt: skip
        rows.append(
            {
                "created_at": now, "mail_from": identity.address, "recipients": recipients,
                "message": bytes(message), "state": OutboundState.PENDING, "attempts": 0,
                "next_attempt_at": now, "last_error": None, "sent_at": None, "game_id": game_id,
                "in_reply_to_id": None, "map_phase_id": letter.map_phase_id,
            }
        )  # fmt: skip
    if rows:
        # One statement with its parameter sets: SQLAlchemy's "insertmanyvalues" sends it as one
        # INSERT ... VALUES (...), (...) RETURNING id on both engines (RETURNING asks for that batching),
        # and the statement, unlike one built with .values(rows), is compiled once and cached.
        uow.session.execute(_INSERT_RETURNING_ID, rows).all()
    return len(rows)


_TABLE = cast(Table, OutboundMail.__table__)
_INSERT_RETURNING_ID = insert(_TABLE).returning(_TABLE.c.id)


def usable_recipients(to: Sequence[str]) -> list[str]:
    """``to`` canonicalised, without repeats; unusable addresses left out (and logged)."""
    recipients: list[str] = []
    for address in to:
        if not address or not address.strip():
            continue
        try:
            canonical = canonical_address(address)
        except AddressError as error:
            log.warning("not queueing mail for %s: %s", printable(address), error.reason)
            continue
        if canonical not in recipients:
            recipients.append(canonical)
    return recipients
