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
import threading
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from sqlalchemy import Connection

from judge.app.mail_out.alarms import alarm_keeper
from judge.app.mail_out.list_headers import list_headers, list_headers_on
from judge.app.mail_out.results_maps import ResultsPictures
from judge.app.session.services import Services
from judge.db.database import UnitOfWork
from judge.db.engine import writer
from judge.db.enums import OutboundState
from judge.db.models import OutboundMail
from judge.db.repositories.mail import ClaimedMail, claim_rows_on, mark_sent_on, release_rows_on
from judge.mail.addresses import AddressError, canonical_address, printable
from judge.mail.compose import Attachment, with_attachment
from judge.mail.outbound import OutgoingMail

log = logging.getLogger(__name__)

DELIVERY_FAILED = "alarm:outbound"
"""The kind of the keeper's alarm about outgoing mail given up on (at most one an hour)."""


class SharedPictures(ResultsPictures):
    """:class:`ResultsPictures` shared by the senders of one process (``outbound_connections``):
    one of them draws a phase's picture in a language, the others wait for it and take it kept.
    Drawing holds the interpreter anyway: drawing one picture at a time costs the senders nothing."""

    def __init__(self, keep: int = 32) -> None:
        super().__init__(keep)
        self._lock = threading.Lock()

    def picture(self, uow: UnitOfWork, phase_id: int, language: str = "en") -> Attachment | None:
        with self._lock:
            return super().picture(uow, phase_id, language)


class TransactionalOutbox:
    """:class:`judge.mail.outbound.BatchOutbox` on the database, one transaction per step.

    ``pictures``: the maps kept, shared with the process's other senders (:class:`SharedPictures`)."""

    def __init__(self, services: Services, pictures: ResultsPictures | None = None) -> None:
        self.services = services
        self.pictures = pictures if pictures is not None else ResultsPictures()
        self.signer = services.dkim  # read now: a key that cannot sign stops the start, not each mail
        engine = services.db.engine
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT") if engine.dialect.name == "postgresql" else None
        self._marking: Connection | None = None
        """The autocommit connection marking the current batch's mails sent (PostgreSQL): the one
        that claimed them, turned to autocommit once the claim committed, so checked out (and
        pinged) once a batch for the claim and the marks; given back once every mail of the batch
        has its outcome (or is given back), and at the next claim."""
        self._unsettled: set[int] = set()
        """The current batch's mails without an outcome yet."""

    def claim_next(self, now: datetime, lease: Callable[[int], datetime]) -> OutgoingMail | None:
        claimed = self.claim_batch(now, lease, 1)
        return claimed[0] if claimed else None

    def claim_batch(self, now: datetime, lease: Callable[[int], datetime], limit: int) -> list[OutgoingMail]:
        """Up to ``limit`` mails claimed in one commit (issue 28: a deadline storm's thousands of
        results mails), then made ready to go (map, list headers, signature) in one read."""
        self._give_back_marking()
        connection = writer(self.services.db.engine).connect()
        kept = False
        try:
            with connection.begin():
                claimed = claim_rows_on(connection, now, lease, limit)
                # The list headers read before the claim commits, in its transaction: no second
                # transaction (and connection) a batch. A failing read undoes the claim: nothing is sent.
                games = {(row[6], row[2][0]) for row in claimed if row[6] is not None and len(row[2]) == 1}
                headers = list_headers_on(connection, self.services, games) if games else {}
            if claimed and self._autocommit is not None:  # its connection, committed, marks them sent
                self._marking, kept = connection.execution_options(isolation_level="AUTOCOMMIT"), True
        finally:
            if not kept:
                connection.close()
        if not claimed:
            return []
        self._unsettled = {row[0] for row in claimed}
        return self._deliverable(claimed, headers)

    def release(self, ids: Sequence[int]) -> None:
        self._settled(*ids)
        with writer(self.services.db.engine).begin() as connection:
            release_rows_on(connection, ids, self.services.clock.now())

    def _deliverable(self, claimed: list[ClaimedMail], headers: Mapping[tuple[int, str], bytes]) -> list[OutgoingMail]:
        """The claimed rows as they go out, with ``headers`` (the batch's list headers, read by the
        claim) and their maps, read in one read-only transaction after the claim's commit."""
        maps = {(row[4], row[5] or "en") for row in claimed if row[4] is not None}
        pictures: dict[tuple[int, str], Attachment | None] = {}
        try:
            if maps:
                with self.services.db.unit_of_work(readonly=True) as uow:
                    for phase_id, language in sorted(maps):
                        pictures[(phase_id, language)] = self.pictures.picture(uow, phase_id, language)
        except Exception:  # mails whose picture was not read read it on their own below
            log.exception("could not read the outbox batch's maps at once")
        ready: list[OutgoingMail] = []
        for id, message, recipients, attempts, map_phase_id, map_language, game_id in claimed:
            if game_id is not None and len(recipients) == 1:  # List-Id, an observer's List-Unsubscribe
                found = headers.get((game_id, recipients[0]))
                message = (list_headers(self.services, game_id, recipients[0]) if found is None else found) + message
            if map_phase_id is not None:
                # The results' map, drawn now, not when the phase was processed; a mail whose
                # picture cannot be drawn goes out as text. Attached after the list headers went
                # on top (the same bytes): the text is copied for them, not the text and the map.
                key = (map_phase_id, map_language or "en")
                if key in pictures:
                    picture = pictures[key]
                    message = message if picture is None else with_attachment(message, picture)
                else:
                    message = deliverable_message(self.services, self.pictures, message, *key)
            if self.signer is not None:  # signed last: the signature covers the bytes the relay gets
                message = self.signer.sign(message)
            ready.append(OutgoingMail(id, message, tuple(recipients), attempts, self._envelope_sender(id, recipients)))
        return ready

    def _envelope_sender(self, id: int, recipients: list[str]) -> str | None:
        """The mail's VERP address (judge.mail.verp): a bounce to it names this mail and its one
        reader. None (the relay's own, the judge's address) for a row of several readers, which
        the outbox no longer writes."""
        if len(recipients) != 1:
            return None
        return self.services.verp.envelope_sender(id, recipients[0])

    def mark_sent(self, id: int, now: datetime, refused: Mapping[str, str]) -> None:
        """Committed as soon as the relay accepted the mail, before the next one is sent. On
        PostgreSQL one statement in autocommit, committed when it returns (no BEGIN and COMMIT
        round trips); SQLite's transactions begin by the engine's own BEGIN, so a transaction there."""
        if self._autocommit is None:
            with writer(self.services.db.engine).begin() as connection:
                mark_sent_on(connection, id, now, _sent_error(refused))
            return
        if self._marking is None:
            self._marking = self._autocommit.connect()
        try:
            mark_sent_on(self._marking, id, now, _sent_error(refused))
        except Exception:
            self._give_back_marking()  # a broken connection is not used again
            raise
        self._settled(id)

    def _settled(self, *ids: int) -> None:
        self._unsettled.difference_update(ids)
        if not self._unsettled:
            self._give_back_marking()

    def _give_back_marking(self) -> None:
        marking, self._marking = self._marking, None
        if marking is not None:
            marking.close()

    def mark_retry(self, id: int, next_attempt: datetime, error: str) -> None:
        self._settled(id)
        with self.services.db.unit_of_work() as uow:
            row = _row(uow, id)
            row.next_attempt_at = next_attempt
            row.last_error = error

    def mark_failed(self, id: int, error: str, now: datetime) -> None:
        self._settled(id)
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
