"""Queueing mail in the database outbox, and the adapter the sender drains it with.

Everything the judge sends goes through the outbox table inside the same
transaction as the change that caused it, so a reply is never sent for a
change that was rolled back, nor lost for one that was committed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from judge.app.services import Services
from judge.db.database import UnitOfWork
from judge.db.enums import OutboundState
from judge.db.models import OutboundMail
from judge.mail.addresses import AddressError, canonical_address, printable
from judge.mail.compose import AutoSubmitted, render, render_reply
from judge.mail.outbound import OutgoingMail

log = logging.getLogger(__name__)

ALARM_HEADER = "X-Judge-Alarm"
"""Marks the judge's mail to its keeper about a mail it could not deliver. Such a mail that
cannot be delivered itself raises no further alarm: an unreachable keeper gets no loop."""


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


class TransactionalOutbox:
    """The sender's view of the outbox where every step is its own committed transaction.

    What makes delivery at most once per crash (see
    :class:`judge.mail.outbound.Outbox`): the claim commits the counted
    attempt and a lease (the next attempt time) before the relay sees the
    mail; "sent" is committed as soon as the relay accepted it. On
    PostgreSQL the claim skips rows another sender has locked, and the lease
    keeps them away from it afterwards. A mail given up on is kept, marked
    failed, and the judgekeeper told by one mail.
    """

    def __init__(self, services: Services) -> None:
        self.services = services

    def claim_next(self, now: datetime, lease: Callable[[int], datetime]) -> OutgoingMail | None:
        with self.services.db.unit_of_work() as uow:
            rows = uow.outbox.claim_due(now, 1)
            if not rows:
                return None
            row = rows[0]
            row.attempts += 1
            row.next_attempt_at = lease(row.attempts)
            uow.session.flush()
            return OutgoingMail(row.id, bytes(row.message), tuple(row.recipients), row.attempts)

    def mark_sent(self, id: int, now: datetime, refused: Mapping[str, str]) -> None:
        with self.services.db.unit_of_work() as uow:
            row = self._row(uow, id)
            row.state = OutboundState.SENT
            row.sent_at = now
            row.next_attempt_at = None
            row.last_error = f"not delivered to: {_refusals(refused)}" if refused else None

    def mark_retry(self, id: int, next_attempt: datetime, error: str) -> None:
        with self.services.db.unit_of_work() as uow:
            row = self._row(uow, id)
            row.next_attempt_at = next_attempt
            row.last_error = error

    def mark_failed(self, id: int, error: str, now: datetime) -> None:
        with self.services.db.unit_of_work() as uow:
            row = self._row(uow, id)
            row.state = OutboundState.FAILED
            row.next_attempt_at = None
            row.last_error = error
            log.warning("outbox mail %s to %s failed: %s", id, list(row.recipients), error)
            alarm_keeper(uow, self.services, row, error, now)
        self.services.on_outbox()

    @staticmethod
    def _row(uow: UnitOfWork, id: int) -> OutboundMail:
        row = uow.session.get(OutboundMail, id)
        if row is None:
            raise LookupError(f"outbox mail {id} is gone")
        return row


def alarm_keeper(
    uow: UnitOfWork, services: Services, failed: OutboundMail, error: str, now: datetime
) -> bool:
    """Queue one mail to the judgekeeper about an outgoing mail given up on; True if queued.

    No alarm about an alarm (the keeper's address may be what fails), none
    when the failed mail was for the keeper alone, none without a keeper.
    """
    keeper = services.config.admin
    if not keeper:
        return False
    if is_alarm(failed.message):
        log.error("an alarm to the judgekeeper could not be delivered either: %s", error)
        return False
    try:
        if {canonical_address(r) for r in failed.recipients} <= {canonical_address(keeper)}:
            return False
    except AddressError:
        pass
    subject = _failed_subject(failed.message)
    body = (
        f"The judge gave up delivering outgoing mail {failed.id} "
        f"after {failed.attempts} attempt(s).\n\n"
        f"To: {', '.join(printable(r) for r in failed.recipients)}\n"
        f"Subject: {subject}\n"
        f"Queued at: {failed.created_at.isoformat()}\n"
        f"Reason: {printable(error, 1000)}\n\n"
        "The mail is kept in the outbox, marked failed. No further alarm is sent "
        "if this one cannot be delivered.\n"
    )
    queue(
        uow, services, [keeper], f"{services.config.code}: mail {failed.id} not delivered", body,
        now, extra_headers=[(ALARM_HEADER, "delivery-failure")],
    )  # fmt: skip
    return True


def is_alarm(message: bytes) -> bool:
    """Whether ``message`` (wire form) is one of the judge's alarms to its keeper."""
    head = message.split(b"\r\n\r\n", 1)[0].lower()
    return f"\r\n{ALARM_HEADER.lower()}:".encode() in b"\r\n" + head


def _failed_subject(message: bytes) -> str:
    head = message.split(b"\r\n\r\n", 1)[0].decode("utf-8", "replace")
    for line in head.split("\r\n"):
        if line.lower().startswith("subject:"):
            return printable(line[len("subject:") :].strip(), 200)
    return "(none)"


def _refusals(refused: Mapping[str, str]) -> str:
    return "; ".join(f"{printable(address)} ({reason})" for address, reason in refused.items())
