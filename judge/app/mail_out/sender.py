"""The outbound sender's view of the outbox: every step its own commit, so a crash resends at
most the mail in flight; a mail given up on is kept failed and the judgekeeper told.

What makes delivery at most once per crash (see :class:`judge.mail.outbound.Outbox`):
the claim commits the counted attempt and a lease (the next attempt time)
before the relay sees the mail, and "sent" is committed as soon as the relay
accepted it. On PostgreSQL the claim skips rows another sender has locked,
and the lease keeps them away from it afterwards.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import datetime

from judge.app.mail_out.alarms import alarm_keeper
from judge.app.mail_out.list_headers import list_headers
from judge.app.mail_out.results_maps import ResultsPictures
from judge.app.session.services import Services
from judge.db.database import UnitOfWork
from judge.db.enums import OutboundState
from judge.db.models import OutboundMail
from judge.db.repositories.mail import ClaimedMail
from judge.mail.addresses import AddressError, canonical_address, printable
from judge.mail.compose import with_attachment
from judge.mail.outbound import OutgoingMail

log = logging.getLogger(__name__)

DELIVERY_FAILED = "alarm:outbound"
"""The kind of the keeper's alarm about outgoing mail given up on (at most one an hour)."""


class TransactionalOutbox:
    """:class:`judge.mail.outbound.Outbox` on the database, one transaction per step."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.pictures = ResultsPictures()
        self.signer = services.dkim  # read now: a key that cannot sign stops the start, not each mail

    def claim_next(self, now: datetime, lease: Callable[[int], datetime]) -> OutgoingMail | None:
        with self.services.db.unit_of_work() as uow:
            claimed = uow.outbox.claim_one_row(now, lease)
        return self._deliverable(claimed)

    def mark_sent_and_claim_next(
        self, id: int, now: datetime, refused: Mapping[str, str], lease: Callable[[int], datetime]
    ) -> OutgoingMail | None:
        """:meth:`mark_sent` and :meth:`claim_next` in one commit (issue 14: one commit per mail
        sent instead of two): "sent" is committed as soon as the relay accepted (this is called
        then), and the next mail's attempt and lease before the relay sees it."""
        with self.services.db.unit_of_work() as uow:
            uow.outbox.mark_sent_row(id, now, _sent_error(refused))
            claimed = uow.outbox.claim_one_row(now, lease)
        return self._deliverable(claimed)

    def _deliverable(
        self, claimed: ClaimedMail | None
    ) -> OutgoingMail | None:
        if claimed is None:
            return None
        id, message, recipients, attempts, map_phase_id, map_language, game_id = claimed
        if map_phase_id is not None:
            # The results' map, drawn now (after the claim's commit, in a read-only transaction), not
            # when the phase was processed; a mail whose picture cannot be drawn goes out as text.
            message = deliverable_message(self.services, self.pictures, message, map_phase_id, map_language or "en")
        if game_id is not None and len(recipients) == 1:  # List-Id, and an observer's List-Unsubscribe
            message = list_headers(self.services, game_id, recipients[0]) + message
        if self.signer is not None:  # signed last: the signature covers the bytes the relay gets
            message = self.signer.sign(message)
        return OutgoingMail(id, message, tuple(recipients), attempts, self._envelope_sender(id, recipients))

    def _envelope_sender(self, id: int, recipients: list[str]) -> str | None:
        """The mail's VERP address (judge.mail.verp): a bounce to it names this mail and its one
        reader. None (the relay's own, the judge's address) for a row of several readers, which
        the outbox no longer writes."""
        if len(recipients) != 1:
            return None
        return self.services.verp.envelope_sender(id, recipients[0])

    def mark_sent(self, id: int, now: datetime, refused: Mapping[str, str]) -> None:
        with self.services.db.unit_of_work() as uow:
            uow.outbox.mark_sent_row(id, now, _sent_error(refused))

    def mark_retry(self, id: int, next_attempt: datetime, error: str) -> None:
        with self.services.db.unit_of_work() as uow:
            row = _row(uow, id)
            row.next_attempt_at = next_attempt
            row.last_error = error

    def mark_failed(self, id: int, error: str, now: datetime) -> None:
        with self.services.db.unit_of_work() as uow:
            row = _row(uow, id)
            row.state = OutboundState.FAILED
            row.next_attempt_at = None
            row.last_error = error
            log.warning("outbox mail %s to %s failed: %s", id, list(row.recipients), error)
            try:
                with uow.session.begin_nested():  # a failing alarm must not undo the mark
                    alarm_failed_delivery(uow, self.services, row, error, now)
            except Exception:
                log.exception("could not queue the alarm about outbox mail %s", id)
        self.services.on_outbox()


def deliverable_message(
    services: Services, pictures: ResultsPictures, message: bytes, map_phase_id: int | None, language: str = "en"
) -> bytes:
    """The outbox message as it goes out: with its phase's map, in ``language``, attached when it asks for one."""
    if map_phase_id is None:
        return message
    try:
        with services.db.unit_of_work(readonly=True) as uow:
            picture = pictures.picture(uow, map_phase_id, language)
    except Exception:  # a picture never keeps the results' text from going out
        log.exception("could not read phase %s to draw its map", map_phase_id)
        return message
    return message if picture is None else with_attachment(message, picture)


def _row(uow: UnitOfWork, id: int) -> OutboundMail:
    row = uow.session.get(OutboundMail, id)
    if row is None:
        raise LookupError(f"outbox mail {id} is gone")
    return row


def alarm_failed_delivery(
    uow: UnitOfWork, services: Services, failed: OutboundMail, error: str, now: datetime
) -> bool:
    """Tell the judgekeeper about an outgoing mail given up on; True if an alarm was queued.

    At most one such alarm an hour (:func:`judge.app.mail_out.alarms.alarm_keeper`,
    the next one counts those held back). None when the failed mail was for
    the keeper alone: that is how an alarm whose delivery fails (the keeper's
    address may be what fails) never raises an alarm about itself.
    """
    keeper = services.config.admin
    if not keeper or _for_keeper_alone(failed.recipients, keeper):
        log.error("mail %s to the judgekeeper could not be delivered: %s", failed.id, error)
        return False
    body = (
        f"The judge gave up delivering outgoing mail {failed.id} "
        f"after {failed.attempts} attempt(s).\n\n"
        f"To: {', '.join(printable(r) for r in failed.recipients)}\n"
        f"Subject: {_subject_of(failed.message)}\n"
        f"Queued at: {failed.created_at.isoformat()}\n"
        f"Reason: {printable(error, 1000)}\n\n"
        "The mail is kept in the outbox (mail_out), marked failed.\n"
    )
    return alarm_keeper(
        uow, services, DELIVERY_FAILED, f"mail {failed.id} not delivered", body, now
    )


def _for_keeper_alone(recipients: list[str], keeper: str) -> bool:
    try:
        keeper_address = canonical_address(keeper)
    except AddressError:
        keeper_address = keeper.lower()
    for recipient in recipients:
        try:
            if canonical_address(recipient) != keeper_address:
                return False
        except AddressError:
            return False
    return True


def _subject_of(message: bytes) -> str:
    head = message.split(b"\r\n\r\n", 1)[0].decode("utf-8", "replace")
    for line in head.split("\r\n"):
        if line.lower().startswith("subject:"):
            return printable(line[len("subject:") :].strip(), 200)
    return "(none)"


def _sent_error(refused: Mapping[str, str]) -> str | None:
    return f"not delivered to: {_refusals(refused)}" if refused else None


def _refusals(refused: Mapping[str, str]) -> str:
    return "; ".join(f"{printable(address)} ({reason})" for address, reason in refused.items())
