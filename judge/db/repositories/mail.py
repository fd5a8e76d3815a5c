"""Mail in and mail out: the durable queues between SMTP and the judge's work.

Inbound: the SMTP server stores the raw bytes and commits before answering
250; a worker claims the oldest unprocessed mail of a sender whose earlier
mail is done, processes it and marks it in the same transaction as its effects.
Outbound: replies are enqueued in the transaction that produced them and a
sender drains the due ones, with retries at times the caller chooses.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from sqlalchemy import (
    Connection,
    Select,
    String,
    Table,
    Update,
    bindparam,
    delete,
    func,
    insert,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import InstrumentedAttribute, Session, aliased
from sqlalchemy.sql.elements import BindParameter, ColumnElement

from judge.db.driver_statements import execute_fixed
from judge.db.enums import InboundState, OutboundState
from judge.db.errors import NotFoundError
from judge.db.models import InboundMail, OutboundMail
from judge.db.models.base import ADDRESS_LENGTH
from judge.db.models.mail import AddressBounces, SenderFlood, Throttle
from judge.db.validation import check_json, check_text
from judge.mail.once import once_key

PENDING_STATES = (InboundState.RECEIVED, InboundState.FAILED)
"""Inbound mail still to be processed: new, or failed fewer times than the limit."""
PURGEABLE_INBOUND = (InboundState.PROCESSED, InboundState.IGNORED, InboundState.SKIPPED, InboundState.DUPLICATE)
"""Inbound mail that is done with; failed and quarantined mail stays until the operator acts."""


def _pending(state: ColumnElement[InboundState] | InstrumentedAttribute[InboundState]) -> ColumnElement[bool]:
    """``state`` is one of :data:`PENDING_STATES`, the states written into the SQL rather than
    bound: the claim's condition must imply the partial indexes' (``PENDING_CONDITION``,
    judge/db/models/mail.py), and neither engine can prove that of bound values."""
    return state.in_([literal_column(f"'{state_.value}'") for state_ in PENDING_STATES])


def sender_key(mail_from: str) -> str:
    """What orders a sender's mail: the envelope sender, trimmed and lower case ('' for bounces)."""
    return mail_from.strip().strip("<>").strip().lower()


_INBOUND = cast(Table, InboundMail.__table__)
_STORE_INBOUND = insert(_INBOUND).returning(_INBOUND.c.id, sort_by_parameter_order=True)
_ENVELOPE_LIMIT = cast(String, _INBOUND.c.mail_from.type).length
_PEER_LIMIT = cast(String, _INBOUND.c.peer.type).length


def _inbound_row(
    raw: bytes, mail_from: str, rcpt_tos: Iterable[str], received_at: datetime, peer: str
) -> dict[str, object]:
    recipients = list(rcpt_tos)
    check_text("mail_in", "mail_from", mail_from, _ENVELOPE_LIMIT)
    check_text("mail_in", "peer", peer, _PEER_LIMIT)
    check_json("mail_in", "rcpt_tos", recipients)
    key = sender_key(mail_from)
    return {
        "raw": bytes(raw), "mail_from": mail_from, "rcpt_tos": recipients,
        "received_at": received_at, "peer": peer, "sender_key": key,
        "state": InboundState.RECEIVED, "attempts": 0, "error": None,
        "processed_at": None, "next_attempt_at": None, "once_key": once_key(raw, mail_from),
    }  # fmt: skip


ClaimedMail = tuple[int, bytes, list[str], int, int | None, str | None, int | None]
"""An outbox row the sender claimed: id, message, recipients, attempts, map phase, map language, game."""


@dataclass(frozen=True, slots=True)
class StartedMail:
    """A mail taken for processing (:meth:`InboundMailRepository.start_processing`)."""

    raw: bytes
    mail_from: str
    rcpt_tos: list[str]
    original: int | None
    """An earlier delivery of the same mail, carried out already (this one is a duplicate)."""
    sender_bounced: bool
    """The envelope sender has a bounce score (a mail from it clears it)."""


class InboundMailRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def store_many(
        self, mails: Sequence[tuple[bytes, str, Iterable[str], datetime, str]]
    ) -> list[int]:
        """Keep received mails exactly as they came (bytes are never decoded here); their ids,
        in the order given.

        ``mails``: (raw, envelope sender, envelope recipients, received at, peer) each. One
        INSERT ... RETURNING for them all (the door's group commit stores the mails that
        arrived together), checked as the ORM's flush would check them
        (:mod:`judge.db.validation`): the door's hot path, a statement and no unit of work.
        """
        rows = [_inbound_row(*mail) for mail in mails]
        if not rows:
            return []
        return list(self.session.execute(_STORE_INBOUND, rows).scalars())

    def get(self, mail_id: int) -> InboundMail:
        mail = self.session.get(InboundMail, mail_id)
        if mail is None:
            raise NotFoundError("mail", mail_id)
        return mail

    def _oldest_of_sender(self) -> object:
        """The id of the row's sender's oldest mail still to process (held back or not)."""
        earlier = aliased(InboundMail)
        return (
            select(func.min(earlier.id))
            .where(earlier.sender_key == InboundMail.sender_key, _pending(earlier.state))
            .scalar_subquery()
        )

    def claim_next(self, now: datetime | None = None) -> InboundMail | None:
        """The oldest mail to process that is its sender's oldest one still pending, locked.

        PostgreSQL: ``FOR UPDATE SKIP LOCKED``: a mail another worker holds is
        skipped, and so is every later mail from the same sender (it is not
        that sender's oldest), so one sender's mails run in order while
        different senders run in parallel. SQLite: the write lock of the unit
        of work serialises workers. A mail held back (``next_attempt_at`` after
        ``now``: another worker's lease, or a back-off after a failure) is not
        claimed, and holds back its sender's later mail. Counts one attempt.
        """
        query = select(InboundMail).where(
            _pending(InboundMail.state), InboundMail.id == self._oldest_of_sender()
        )
        if now is not None:
            query = query.where(
                or_(InboundMail.next_attempt_at.is_(None), InboundMail.next_attempt_at <= now)
            )
        mail = self.session.scalars(
            query.order_by(InboundMail.id)
            .limit(1)
            .with_for_update(skip_locked=True)
            .execution_options(populate_existing=True)
        ).one_or_none()
        if mail is not None:
            mail.attempts += 1
        return mail

    def take_next(self, now: datetime, lease_until: datetime) -> InboundMail | None:
        """Claim the next mail for a try and hold it until ``lease_until``; commit right after.

        The attempt is counted in this short transaction, *before* the mail is
        processed: a mail that kills the process is counted all the same. The
        lease keeps other workers off it while it is processed (and, after a
        crash, until the lease runs out).
        """
        return self.session.scalars(
            _take_statement(),
            {"take_now": now, "take_lease": lease_until},
            execution_options={"populate_existing": True, "synchronize_session": False},
        ).one_or_none()

    def take_next_row(self, now: datetime, lease_until: datetime) -> tuple[int, int, str | None] | None:
        """:meth:`take_next` for the worker's hot path: the mail's id, attempts and last error
        only (no ORM object: the mail is read again, locked, by :meth:`start_processing`)."""
        return take_next_row_on(self.session.connection(), now, lease_until)

    def lease_more(self, now: datetime, lease_until: datetime, limit: int) -> list[int]:
        """Hold up to ``limit`` more mails for this worker, each its sender's oldest still
        pending and not held back, oldest first, in the guard's transaction (after
        :meth:`take_next_row`, whose mail, now held, holds back its sender's later mail).

        Their attempts are not counted here: each is counted just before the mail is
        processed (:meth:`count_attempt`, in the commit of the mail processed before it), so
        a crash never charges an attempt to a mail that was only held.
        """
        return lease_more_on(self.session.connection(), now, lease_until, limit)

    def count_attempt(self, mail_id: int, lease_until: datetime) -> tuple[int, str | None] | None:
        """Count one attempt at a held mail and renew its hold; its attempts and last error, or
        None when it is no longer pending (another worker finished it after the hold ran out)."""
        row = self.session.connection().execute(
            _count_statement(), {"count_id": mail_id, "count_lease": lease_until}
        ).one_or_none()
        return None if row is None else (int(row[0]), row[1])

    def lock_taken(self, mail_id: int) -> InboundMail | None:
        """The mail taken with :meth:`take_next`, locked for processing; None if it was done meanwhile.

        Waits for another holder (a worker that took it after a lease ran out)
        and reads the row again after the wait, so a mail is never processed twice.
        """
        return self.session.scalars(
            select(InboundMail)
            .where(InboundMail.id == mail_id, InboundMail.state.in_(PENDING_STATES))
            .with_for_update()
            .execution_options(populate_existing=True)
        ).one_or_none()

    def start_processing(self, mail_id: int, now: datetime, once_since: datetime) -> StartedMail | None:
        """Mark a taken mail processed and return its raw bytes, its envelope, the id of an
        earlier delivery of the same mail carried out after ``once_since`` (None: it is the
        first), and whether its envelope sender has a bounce score (judge.app.mail_out.bounces: a mail
        from an address clears it), in one statement.

        The worker's hot path: :meth:`lock_taken` and :meth:`mark_processed` in one
        ``UPDATE ... RETURNING``. The UPDATE locks the row to the commit (PostgreSQL waits
        for another holder and checks the state again after the wait), so a mail another
        worker finished meanwhile gives None and is never processed twice. Nobody sees the
        mark before the commit, which also commits everything the mail does. Two deliveries
        of one mail have the same envelope sender, so the same worker takes them in turn: the
        second is started only once the first committed, and finds it.
        """
        row = self.session.connection().execute(
            _start_statement(), {"start_id": mail_id, "start_now": now, "start_once_since": once_since}
        ).one_or_none()
        if row is None:
            return None
        return StartedMail(bytes(row[0]), str(row[1]), list(row[2] or []), row[3], row[4] is not None)

    def mark_duplicate(self, mail_id: int, original: int, now: datetime) -> None:
        """Kept, never carried out: a second delivery of mail ``original``."""
        mail = self.get(mail_id)
        mail.state = InboundState.DUPLICATE
        mail.processed_at = now
        mail.error = f"a second delivery of mail {original}, carried out already"
        mail.next_attempt_at = None
        self.session.flush()

    def mark_processed(self, mail: InboundMail, now: datetime) -> None:
        mail.state = InboundState.PROCESSED
        mail.processed_at = now
        mail.error = None
        mail.next_attempt_at = None
        self.session.flush()

    def mark_ignored(self, mail: InboundMail, reason: str, now: datetime) -> None:
        """Stored but never answered (mail loops, floods, bounces)."""
        mail.state = InboundState.IGNORED
        mail.processed_at = now
        mail.error = reason
        mail.next_attempt_at = None
        self.session.flush()

    def mark_failed(
        self,
        mail_id: int,
        error: str,
        now: datetime,
        *,
        retry_at: datetime | None = None,
    ) -> InboundMail:
        """Record that processing failed; call in a fresh unit of work after the failed one rolled back.

        With ``retry_at`` the mail is tried again from then on (and holds back
        its sender's later mail until it is done); without, it is quarantined:
        kept for the operator, never retried by itself. The attempt was
        counted when the mail was taken (:meth:`take_next`).
        """
        mail = self.get(mail_id)
        mail.state = InboundState.FAILED if retry_at is not None else InboundState.QUARANTINED
        mail.processed_at = now
        mail.error = error
        mail.next_attempt_at = retry_at
        self.session.flush()
        return mail

    def quarantine(self, mail: InboundMail, error: str, now: datetime) -> None:
        """Set a mail aside for the operator: it will not be tried again until retried by hand."""
        mail.state = InboundState.QUARANTINED
        mail.processed_at = now
        mail.error = error
        mail.next_attempt_at = None
        self.session.flush()

    def requeue(self, mail_id: int, *, reset_attempts: bool = False) -> InboundMail:
        """Put a failed or quarantined mail back in the queue (after a fix)."""
        mail = self.get(mail_id)
        mail.state = InboundState.RECEIVED
        mail.processed_at = None
        mail.next_attempt_at = None
        if reset_attempts:
            mail.attempts = 0
        self.session.flush()
        return mail

    def skip(self, mail_id: int, reason: str, now: datetime) -> InboundMail:
        """Mark a mail handled without processing it (the operator's decision)."""
        mail = self.get(mail_id)
        mail.state = InboundState.SKIPPED
        mail.processed_at = now
        mail.error = reason
        mail.next_attempt_at = None
        self.session.flush()
        return mail

    def listing(
        self, states: Sequence[InboundState] | None = None, *, limit: int = 100
    ) -> list[InboundMail]:
        """The newest mails (in ``states``, if given), newest first."""
        query = select(InboundMail)
        if states:
            query = query.where(InboundMail.state.in_(states))
        return list(self.session.scalars(query.order_by(InboundMail.id.desc()).limit(limit)))

    def purge(self, before: datetime) -> int:
        """Delete mail done with (processed, ignored, skipped) that arrived before ``before``.

        Rows that point at a deleted mail (a reply's ``in_reply_to_id``, an
        order submission's or a press message's mail) keep their own data;
        their foreign keys are ``ON DELETE SET NULL``.
        """
        result = self.session.execute(
            delete(InboundMail)
            .where(InboundMail.state.in_(PURGEABLE_INBOUND), InboundMail.received_at < before)
            .execution_options(synchronize_session=False)
        )
        return int(getattr(result, "rowcount", 0) or 0)

    def count(self, state: InboundState) -> int:
        return int(
            self.session.scalar(
                select(func.count()).select_from(InboundMail).where(InboundMail.state == state)
            )
            or 0
        )


def take_next_row_on(connection: Connection, now: datetime, lease_until: datetime) -> tuple[int, int, str | None] | None:
    """:meth:`InboundMailRepository.take_next_row` on a connection in a transaction (the worker's
    guard commit, which needs no session: issue 14)."""
    row = connection.execute(_take_row_statement(), {"take_now": now, "take_lease": lease_until}).one_or_none()
    return None if row is None else (int(row[0]), int(row[1]), row[2])


def lease_more_on(connection: Connection, now: datetime, lease_until: datetime, limit: int) -> list[int]:
    """:meth:`InboundMailRepository.lease_more` on a connection in a transaction."""
    if limit <= 0:
        return []
    rows = connection.execute(
        _lease_statement(), {"lease_now": now, "lease_until": lease_until, "lease_limit": limit}
    ).all()
    return sorted(int(row[0]) for row in rows)


@functools.cache
def _take_statement(*, columns: bool = False) -> Update:
    """:meth:`InboundMailRepository.take_next` in one statement, built once (issue 14: building
    it cost more CPU than running it): the claim of :meth:`~InboundMailRepository.claim_next` as
    the UPDATE's subquery. The subquery locks the candidate row (PostgreSQL: ``FOR UPDATE SKIP
    LOCKED``), so the UPDATE in the same statement finds it as the subquery saw it."""
    candidate = aliased(InboundMail)
    earlier = aliased(InboundMail)
    now = bindparam("take_now", type_=InboundMail.__table__.c.next_attempt_at.type)
    oldest_of_sender = (
        select(func.min(earlier.id))
        .where(earlier.sender_key == candidate.sender_key, _pending(earlier.state))
        .correlate(candidate)
        .scalar_subquery()
    )
    chosen = (
        select(candidate.id)
        .where(
            _pending(candidate.state),
            candidate.id == oldest_of_sender,
            or_(candidate.next_attempt_at.is_(None), candidate.next_attempt_at <= now),
        )
        .order_by(candidate.id)
        .limit(1)
        .with_for_update(skip_locked=True)
        .correlate_except(candidate)
        .scalar_subquery()
    )
    return (
        update(InboundMail)
        .where(InboundMail.id == chosen)
        .values(
            attempts=InboundMail.attempts + 1,
            next_attempt_at=bindparam("take_lease", type_=InboundMail.__table__.c.next_attempt_at.type),
        )
    ).returning(*((InboundMail.id, InboundMail.attempts, InboundMail.error) if columns else (InboundMail,)))


def _inbound() -> Table:
    return cast(Table, InboundMail.__table__)


def _candidates(now: BindParameter[datetime]) -> Select[tuple[int]]:
    """The ids of mails that may be taken at ``now``, oldest first: each its sender's oldest
    still pending, not held back (PostgreSQL: locked, skipping those another worker holds)."""
    table = _inbound()
    candidate = table.alias("candidate")
    earlier = table.alias("earlier")
    oldest_of_sender = (
        select(func.min(earlier.c.id))
        .where(earlier.c.sender_key == candidate.c.sender_key, _pending(earlier.c.state))
        .correlate(candidate)
        .scalar_subquery()
    )
    return (
        select(candidate.c.id)
        .where(
            _pending(candidate.c.state),
            candidate.c.id == oldest_of_sender,
            or_(candidate.c.next_attempt_at.is_(None), candidate.c.next_attempt_at <= now),
        )
        .order_by(candidate.c.id)
        .with_for_update(skip_locked=True)
        .correlate_except(candidate)
    )


@functools.cache
def _take_row_statement() -> Update:
    """:meth:`InboundMailRepository.take_next_row`'s statement (:func:`_take_statement`'s, in
    Core on the table: run on the session's connection, without the ORM's bulk-update
    machinery, which cost more CPU than the statement itself), built once."""
    table = _inbound()
    when = table.c.next_attempt_at.type
    chosen = _candidates(bindparam("take_now", type_=when)).limit(1).scalar_subquery()
    return (
        update(table)
        .where(table.c.id == chosen)
        .values(attempts=table.c.attempts + 1, next_attempt_at=bindparam("take_lease", type_=when))
        .returning(table.c.id, table.c.attempts, table.c.error)
    )


@functools.cache
def _lease_statement() -> Update:
    """:meth:`InboundMailRepository.lease_more`'s statement, built once: the candidates of
    :func:`_take_statement`, up to a limit, held."""
    table = _inbound()
    when = table.c.next_attempt_at.type
    chosen = _candidates(bindparam("lease_now", type_=when)).limit(bindparam("lease_limit"))
    return (
        update(table)
        .where(table.c.id.in_(chosen))
        .values(next_attempt_at=bindparam("lease_until", type_=when))
        .returning(table.c.id)
    )


@functools.cache
def _count_statement() -> Update:
    """:meth:`InboundMailRepository.count_attempt`'s statement, built once."""
    table = _inbound()
    return (
        update(table)
        .where(table.c.id == bindparam("count_id"), table.c.state.in_(PENDING_STATES))
        .values(
            attempts=table.c.attempts + 1,
            next_attempt_at=bindparam("count_lease", type_=table.c.next_attempt_at.type),
        )
        .returning(table.c.attempts, table.c.error)
    )


@functools.cache
def _start_statement() -> Update:
    """:meth:`InboundMailRepository.start_processing`'s statement, built once (Core on the table):
    the earlier delivery is a scalar subquery of its RETURNING (by ``ix_mail_in_once_key``), no
    statement of its own."""
    table = _inbound()
    earlier, me = table.alias("earlier"), table.alias("me")
    # The mail's key read by its id, not from the row being updated: SQLite cannot use an index
    # for a subquery of RETURNING correlated to the updated row (it scanned every mail kept).
    key = select(me.c.once_key).where(me.c.id == bindparam("start_id")).scalar_subquery()
    original = (
        select(func.min(earlier.c.id))
        .where(
            earlier.c.once_key == key,
            earlier.c.id != bindparam("start_id"),
            earlier.c.state == InboundState.PROCESSED,
            earlier.c.processed_at > bindparam("start_once_since", type_=table.c.processed_at.type),
        )
        .scalar_subquery()
    )
    bounces = cast(Table, AddressBounces.__table__)
    sender = select(me.c.sender_key).where(me.c.id == bindparam("start_id")).scalar_subquery()
    bounced = select(bounces.c.address).where(bounces.c.address == sender).scalar_subquery()
    return (
        update(table)
        .where(table.c.id == bindparam("start_id"), table.c.state.in_(PENDING_STATES))
        .values(
            state=InboundState.PROCESSED, processed_at=bindparam("start_now", type_=table.c.processed_at.type),
            error=None, next_attempt_at=None,
        )
        .returning(table.c.raw, table.c.mail_from, table.c.rcpt_tos, original, bounced)
    )


def _outbound() -> Table:
    return cast(Table, OutboundMail.__table__)


@functools.cache
def _claim_one_statement() -> Select[tuple[int, bytes, list[str], int, int | None, str | None, int | None]]:
    table = _outbound()
    return (
        select(
            table.c.id, table.c.message, table.c.recipients, table.c.attempts, table.c.map_phase_id,
            table.c.map_language, table.c.game_id,
        )
        .where(
            table.c.state == OutboundState.PENDING,
            table.c.next_attempt_at <= bindparam("claim_now", type_=table.c.next_attempt_at.type),
        )
        .order_by(table.c.next_attempt_at, table.c.id)
        .limit(1)
        .with_for_update(skip_locked=True)
    )


@functools.cache
def _claim_many_statement() -> Select[tuple[int, bytes, list[str], int, int | None, str | None, int | None]]:
    return _claim_one_statement().limit(bindparam("claim_limit"))


@functools.cache
def _phase_rest_statement() -> Select[tuple[int, bytes, list[str], int, int | None, str | None, int | None]]:
    table = _outbound()
    return _claim_many_statement().where(
        table.c.map_phase_id == bindparam("claim_phase"), table.c.id > bindparam("claim_after")
    )


def claim_rows_on(
    connection: Connection, now: datetime, lease: Callable[[int], datetime], limit: int
) -> list[ClaimedMail]:
    """The sender's batch claim, in Core on ``connection`` (committed by its caller): up to
    ``limit`` messages due at ``now``, oldest first, locked (PostgreSQL skips those another
    sender holds), each one's attempt counted and its next attempt moved to ``lease(attempts)``.
    A full batch whose last mail carries a phase's map takes the rest of that phase's mails
    due (up to ``limit`` more), so a phase's readers are not split between two senders' batches."""
    rows = list(connection.execute(_claim_many_statement(), {"claim_now": now, "claim_limit": limit}).all())
    if rows and len(rows) == limit and rows[-1][4] is not None:
        # The rest of the last phase's results mails too (at most ``limit`` more), so one sender,
        # one process, draws that phase's map: cut between two processes, it was drawn twice.
        rows += connection.execute(
            _phase_rest_statement(),
            {"claim_now": now, "claim_limit": limit, "claim_phase": rows[-1][4], "claim_after": rows[-1][0]},
        ).all()
    claimed: list[ClaimedMail] = []
    for mail_id, message, recipients, attempts, map_phase_id, map_language, game_id in rows:
        counted = int(attempts) + 1
        claimed.append((int(mail_id), bytes(message), list(recipients), counted, map_phase_id, map_language, game_id))
    if claimed and connection.dialect.name == "postgresql":  # one statement, not one a mail
        execute_fixed(connection, _claimed_together_statement(), {
            "claimed_ids": [c[0] for c in claimed],
            "claimed_attempts": [c[3] for c in claimed],
            "claimed_leases": [lease(c[3]) for c in claimed],
        })  # fmt: skip
    elif claimed:
        connection.execute(
            _claimed_statement(),
            [{"claimed_id": c[0], "claimed_attempts": c[3], "claimed_lease": lease(c[3])} for c in claimed],
        )
    return claimed


def release_rows_on(connection: Connection, ids: Sequence[int], now: datetime) -> int:
    """Give back messages a sender claimed and did not try: the attempt the claim counted is
    taken back and they are due at ``now``; how many were still pending."""
    if not ids:
        return 0
    table = _outbound()
    done = connection.execute(
        update(table)
        .where(table.c.id.in_(list(ids)), table.c.state == OutboundState.PENDING, table.c.attempts > 0)
        .values(attempts=table.c.attempts - 1, next_attempt_at=now)
    )
    return int(done.rowcount or 0)


def mark_sent_on(connection: Connection, mail_id: int, now: datetime, error: str | None) -> None:
    """Mark a claimed message sent (``error``: the recipients the relay refused), in Core on
    ``connection``; LookupError if it is gone."""
    if error is not None:  # the flush-time check the ORM would make (judge.db.validation)
        check_text("mail_out", "last_error", error, getattr(_outbound().c.last_error.type, "length", None))
    if not execute_fixed(connection, _sent_statement(), {"sent_id": mail_id, "sent_now": now, "sent_error": error}):
        raise LookupError(f"outbox mail {mail_id} is gone")


@functools.cache
def _claimed_statement() -> Update:
    table = _outbound()
    return (
        update(table)
        .where(table.c.id == bindparam("claimed_id"))
        .values(
            attempts=bindparam("claimed_attempts"),
            next_attempt_at=bindparam("claimed_lease", type_=table.c.next_attempt_at.type),
        )
    )


@functools.cache
def _claimed_together_statement() -> Update:
    """:func:`_claimed_statement` of a whole batch in one statement (PostgreSQL): the ids, the
    attempts counted and the leases as three arrays, read back as rows by ``unnest``."""
    table = _outbound()
    claimed = func.unnest(
        bindparam("claimed_ids", type_=ARRAY(table.c.id.type)),
        bindparam("claimed_attempts", type_=ARRAY(table.c.attempts.type)),
        bindparam("claimed_leases", type_=ARRAY(table.c.next_attempt_at.type)),
    ).table_valued("id", "attempts", "lease").render_derived(name="claimed")
    return (
        update(table)
        .where(table.c.id == claimed.c.id)
        .values(attempts=claimed.c.attempts, next_attempt_at=claimed.c.lease)
    )


@functools.cache
def _sent_statement() -> Update:
    table = _outbound()
    return (
        update(table)
        .where(table.c.id == bindparam("sent_id"))
        .values(
            state=OutboundState.SENT,
            sent_at=bindparam("sent_now", type_=table.c.sent_at.type),
            next_attempt_at=None,
            last_error=bindparam("sent_error", type_=table.c.last_error.type),
        )
    )


@dataclass(frozen=True, slots=True)
class ReaderMail:
    """One outgoing message and the one reader it is for (its ``To`` and envelope recipient)."""

    reader: str
    message: bytes
    map_phase_id: int | None = None
    """The processed phase whose map the sender attaches when it delivers the mail, or none."""
    map_language: str | None = None
    """The language of that map (the reader's): None is English."""


class OutboxRepository:
    def __init__(self, session: Session) -> None:
        self.session = session
        self._held: list[dict[str, object]] | None = None
        """Rows of :meth:`enqueue_each` held for one INSERT at the end (:meth:`hold`), or None."""

    def hold(self) -> None:
        """From now on :meth:`enqueue_each` keeps its rows until :meth:`release` writes them all
        in one statement (several games' results in one transaction, as the scheduler's batch).
        Nothing in the transaction reads the queue meanwhile: mail is only ever written here."""
        if self._held is None:
            self._held = []

    def release(self) -> int:
        """Write the rows held since :meth:`hold` (one multi-row INSERT) and stop holding; how many."""
        rows, self._held = self._held or [], None
        if rows:
            self._insert(rows)
        return len(rows)

    def drop_held(self) -> None:
        """Stop holding, writing nothing (the transaction is rolled back)."""
        self._held = None

    def enqueue(
        self,
        reader: str,
        message: bytes,
        now: datetime,
        *,
        mail_from: str,
        game_id: int | None = None,
        in_reply_to_id: int | None = None,
        not_before: datetime | None = None,
    ) -> OutboundMail:
        """Queue a whole message (headers and body, as bytes) for its one ``reader``, as an ORM object."""
        if not reader:
            raise ValueError("a message needs a recipient")
        mail = OutboundMail(
            created_at=now,
            mail_from=mail_from,
            recipients=[reader],
            message=bytes(message),
            next_attempt_at=not_before or now,
            game_id=game_id,
            in_reply_to_id=in_reply_to_id,
        )
        self.session.add(mail)
        self.session.flush()
        return mail

    def enqueue_each(
        self,
        mails: Sequence[ReaderMail],
        now: datetime,
        *,
        mail_from: str,
        game_id: int | None = None,
        in_reply_to_id: int | None = None,
    ) -> int:
        """Queue each mail for its one reader, one row each; returns how many.

        Every row the judge sends is written here (``judge.app.mail_out.outbox``): its
        envelope recipients are the one reader its headers name, so no reader
        of a grouped mail is ever shown another's address. In Core, no ORM
        object made and flushed per mail (issue 14); the text is checked as the
        flush would check it (:mod:`judge.db.validation`). Several rows go in
        one statement with its parameter sets (:meth:`_insert`).
        """
        if not mails:
            return 0
        check_text("mail_out", "mail_from", mail_from, ADDRESS_LENGTH)
        rows: list[dict[str, object]] = []
        for mail in mails:
            if not mail.reader:
                raise ValueError("a message needs a recipient")
            check_text("mail_out", "recipients", mail.reader, None)  # as check_json on [reader], cheaper
            rows.append(
                {
                    "created_at": now, "mail_from": mail_from, "recipients": [mail.reader],
                    "message": bytes(mail.message), "state": OutboundState.PENDING, "attempts": 0,
                    "next_attempt_at": now, "last_error": None, "sent_at": None, "game_id": game_id,
                    "in_reply_to_id": in_reply_to_id, "map_phase_id": mail.map_phase_id,
                    "map_language": mail.map_language if mail.map_phase_id is not None else None,
                }
            )  # fmt: skip
        if self._held is not None:
            self._held += rows
        else:
            self._insert(rows)
        return len(rows)

    def _insert(self, rows: list[dict[str, object]]) -> None:
        """One statement, its text the same whatever the number of rows: the driver's
        ``executemany`` (psycopg sends every row in one pipeline, one round trip, and prepares
        the statement once it has seen it a few times). A multi-row ``INSERT ... VALUES``
        changes text with the count, so psycopg parsed each one afresh (and PostgreSQL
        planned it): three times the scheduler's CPU for a batch's 72 results mails."""
        connection = self.session.connection()
        connection.execute(_ENQUEUE, rows[0] if len(rows) == 1 else rows)

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

    def claim_one_row(
        self, now: datetime, lease: Callable[[int], datetime]
    ) -> ClaimedMail | None:
        """The sender's claim (:meth:`claim_due` of one) in Core: the oldest message due, locked
        (skipping one another sender holds), its attempt counted and its next attempt moved to
        ``lease(attempts)``; (id, message, recipients, attempts, map phase, map language, game) or None. No ORM
        object is made (issue 14: loading and flushing one cost more than the statements)."""
        row = self.session.connection().execute(_claim_one_statement(), {"claim_now": now}).one_or_none()
        if row is None:
            return None
        mail_id, message, recipients, attempts, map_phase_id, map_language, game_id = row
        attempts = int(attempts) + 1
        self.session.connection().execute(
            _claimed_statement(), {"claimed_id": mail_id, "claimed_attempts": attempts, "claimed_lease": lease(attempts)}
        )
        return int(mail_id), bytes(message), list(recipients), attempts, map_phase_id, map_language, game_id

    def mark_sent_row(self, mail_id: int, now: datetime, error: str | None) -> None:
        """Mark a claimed message sent (``error``: the recipients the relay refused), in Core;
        LookupError if it is gone."""
        mark_sent_on(self.session.connection(), mail_id, now, error)

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

    def purge(self, before: datetime) -> int:
        """Delete delivered mail sent before ``before`` (pending and failed mail stays)."""
        result = self.session.execute(
            delete(OutboundMail)
            .where(OutboundMail.state == OutboundState.SENT, OutboundMail.created_at < before)
            .execution_options(synchronize_session=False)
        )
        return int(getattr(result, "rowcount", 0) or 0)


class SenderFloodRepository:
    """The flood limiter's memory, in the database (see :mod:`judge.mail.ratelimit`).

    ``load`` locks the sender's row (PostgreSQL: ``FOR UPDATE``) so two
    workers counting the same sender do not lose an arrival.
    """

    def __init__(self, session: Session) -> None:
        self.session = session

    def load(self, key: str) -> tuple[Sequence[datetime], bool]:
        row = self.session.scalars(
            select(SenderFlood)
            .where(SenderFlood.key == key)
            .with_for_update()
            .execution_options(populate_existing=True)
        ).one_or_none()
        if row is None:
            return (), False
        return tuple(datetime.fromisoformat(a) for a in row.arrivals), row.warned

    def save(self, key: str, arrivals: Sequence[datetime], warned: bool, now: datetime) -> None:
        texts = [a.isoformat() for a in arrivals]
        row = self.session.get(SenderFlood, key)
        if row is not None:
            row.arrivals, row.warned, row.last_at = texts, warned, now
            self.session.flush()
            return
        try:
            with self.session.begin_nested():
                self.session.add(SenderFlood(key=key, arrivals=texts, warned=warned, last_at=now))
        except IntegrityError:  # another worker stored this sender first: update theirs
            self.session.execute(
                update(SenderFlood)
                .where(SenderFlood.key == key)
                .values(arrivals=texts, warned=warned, last_at=now)
            )

    def forget_idle(self, before: datetime) -> int:
        """Forget senders quiet since ``before`` (a whole window ago: they would be allowed anyway)."""
        result = self.session.execute(delete(SenderFlood).where(SenderFlood.last_at < before))
        return int(getattr(result, "rowcount", 0) or 0)


class ThrottleRepository:
    """At most one of something per interval (alarms to the judgekeeper, the daily purge)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, key: str) -> Throttle | None:
        return self.session.get(Throttle, key)

    def claim(self, key: str, now: datetime, interval: timedelta) -> int | None:
        """If ``key`` last happened at least ``interval`` ago (or never), record ``now`` and return
        how many times it was held back since; else count one more held back and return None.

        The row is locked (PostgreSQL), so two processes never both go ahead.
        """
        row = self.session.scalars(
            select(Throttle)
            .where(Throttle.key == key)
            .with_for_update()
            .execution_options(populate_existing=True)
        ).one_or_none()
        if row is None:
            try:
                with self.session.begin_nested():
                    self.session.add(Throttle(key=key, last_at=now, suppressed=0))
            except IntegrityError:  # another process claimed it at the same moment
                return None
            return 0
        if now - row.last_at < interval:
            row.suppressed += 1
            self.session.flush()
            return None
        held_back = row.suppressed
        row.last_at, row.suppressed = now, 0
        self.session.flush()
        return held_back


_ENQUEUE = insert(cast(Table, OutboundMail.__table__))
""":meth:`OutboxRepository.enqueue_each`'s statement, built once (several rows: its ``executemany``)."""
