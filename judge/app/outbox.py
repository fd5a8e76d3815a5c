"""Queueing mail in the database outbox, and the adapter the sender drains it with.

Everything the judge sends goes through the outbox table inside the same
transaction as the change that caused it, so a reply is never sent for a
change that was rolled back, nor lost for one that was committed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from judge.app.services import Services
from judge.db.database import UnitOfWork
from judge.mail.addresses import AddressError, canonical_address, printable
from judge.mail.compose import AutoSubmitted, render, render_reply

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
) -> None:
    """Render one mail and put it in the outbox (a reply when it answers a message id).

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
        )
    else:
        message = render(
            identity, recipients, subject, body, now=now, auto_submitted=AutoSubmitted.GENERATED,
            extra_headers=extra_headers,
        )  # fmt: skip
    uow.outbox.enqueue(
        recipients,
        message,
        now,
        mail_from=identity.address,
        game_id=game_id,
        in_reply_to_id=in_reply_to_mail_id,
    )


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
