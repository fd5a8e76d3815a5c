"""Queueing mail in the database outbox, and the adapter the sender drains it with.

Everything the judge sends goes through the outbox table inside the same
transaction as the change that caused it, so a reply is never sent for a
change that was rolled back, nor lost for one that was committed.

Every mail names one reader: a text for several readers (a broadcast, a late
notice, a reply copied to a seat's other addresses) goes as one message per
reader, so no header shows a reader who else reads it (an observer's address,
a gunboat player's). :func:`_put` is the one way into the outbox.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from judge.app.session.services import Services
from judge.db.database import UnitOfWork
from judge.db.repositories.mail import ReaderMail
from judge.mail.addresses import AddressError, canonical_address, printable
from judge.mail.compose import (
    Attachment,
    AutoSubmitted,
    JudgeIdentity,
    SharedMail,
    render,
    render_reply,
)

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
    attachment: Attachment | None = None,
    map_phase_id: int | None = None,
    map_language: str | None = None,
) -> None:
    """Render the mail for each reader in ``to`` and put them in the outbox (replies when they answer
    a message id): one message per reader, as everything the judge sends (:func:`queue_many`).

    ``attachment`` (a map) makes it multipart/mixed; the text stays whole.
    ``map_phase_id`` asks the sender to attach that phase's map in
    ``map_language`` when it delivers the mail (the Game Starting mail's board).

    Recipients are canonicalised (IDNA domains); one that is no usable
    address is left out with a log line, and a mail left with nobody is not
    queued: nothing here raises on an address.
    """
    readers = usable_recipients(to)
    if not readers:
        return
    identity = services.identity
    if reply_to_message_id is not None or in_reply_to_mail_id is not None:
        mails = [
            ReaderMail(reader, render_reply(
                identity, reader, subject, body, now=now, original_message_id=reply_to_message_id,
                original_references=references, attachment=attachment,
            ))
            for reader in readers
        ]  # fmt: skip
    else:
        mails = _generated(identity, readers, subject, body, now, attachment, map_phase_id, {}, map_language)
    _put(uow, identity, mails, now, game_id=game_id, in_reply_to_id=in_reply_to_mail_id)


@dataclass(frozen=True, slots=True)
class Letter:
    """One text of a batch for :func:`queue_many`: its readers, subject and body."""

    to: Sequence[str]
    subject: str
    body: str
    attachment: Attachment | None = None
    """A file sent with the text, or none."""
    map_phase_id: int | None = None
    """The processed phase whose map the sender attaches when it delivers the mail (the results'
    picture, drawn at delivery so the processing transaction stays short), or none."""
    map_language: str | None = None
    """The language of that map: the reader's, as the text's (None: English)."""


def queue_many(
    uow: UnitOfWork, services: Services, letters: Sequence[Letter], now: datetime, *, game_id: int | None = None
) -> int:
    """Render mails and put them all in the outbox with one multi-row INSERT; returns how many.

    For what one event sends to many readers (a phase's results: one mail
    per player, master and observer): one statement instead of one INSERT
    and flush per mail. Recipients are handled as :func:`queue` does, one
    mail per reader; the mails are generated ones (``Auto-Submitted:
    auto-generated``), not replies.
    """
    identity = services.identity
    shared: dict[tuple[str, str], SharedMail] = {}  # one text to many readers: written once
    mails: list[ReaderMail] = []
    for letter in letters:
        mails += _generated(
            identity, usable_recipients(letter.to), letter.subject, letter.body, now, letter.attachment,
            letter.map_phase_id, shared, letter.map_language,
        )  # fmt: skip
    return _put(uow, identity, mails, now, game_id=game_id)


def _generated(
    identity: JudgeIdentity,
    readers: Sequence[str],
    subject: str,
    body: str,
    now: datetime,
    attachment: Attachment | None,
    map_phase_id: int | None,
    shared: dict[tuple[str, str], SharedMail],
    map_language: str | None = None,
) -> list[ReaderMail]:
    """The mail the judge sends on its own (``auto-generated``), one per reader; a text without an
    attachment is written once (:class:`SharedMail`, kept in ``shared`` by subject and body)."""
    if attachment is not None:
        return [
            ReaderMail(reader, render(
                identity, reader, subject, body, now=now, auto_submitted=AutoSubmitted.GENERATED,
                attachment=attachment,
            ), map_phase_id, map_language)
            for reader in readers
        ]  # fmt: skip
    mail = shared.get((subject, body))
    if mail is None and readers:
        mail = shared[subject, body] = SharedMail(identity, subject, body, now=now, auto_submitted=AutoSubmitted.GENERATED)
    return [ReaderMail(reader, mail.to(reader), map_phase_id, map_language) for reader in readers] if mail is not None else []


def _put(
    uow: UnitOfWork,
    identity: JudgeIdentity,
    mails: Sequence[ReaderMail],
    now: datetime,
    *,
    game_id: int | None = None,
    in_reply_to_id: int | None = None,
) -> int:
    """Where every mail the judge sends enters the outbox: one row per reader, whose envelope
    recipient is the one reader its headers name (:meth:`OutboxRepository.enqueue_each`)."""
    return uow.outbox.enqueue_each(mails, now, mail_from=identity.address, game_id=game_id, in_reply_to_id=in_reply_to_id)


@functools.lru_cache(maxsize=4096)
def _canonical(address: str) -> str:
    """:func:`canonical_address`, kept for the addresses met lately (a phase's results go to the
    same readers phase after phase; an unusable address is not kept, and raises each time)."""
    return canonical_address(address)


def usable_recipients(to: Sequence[str]) -> list[str]:
    """``to`` canonicalised, without repeats; unusable addresses left out (and logged)."""
    recipients: list[str] = []
    for address in to:
        if not address or not address.strip():
            continue
        try:
            canonical = _canonical(address)
        except AddressError as error:
            log.warning("not queueing mail for %s: %s", printable(address), error.reason)
            continue
        if canonical not in recipients:
            recipients.append(canonical)
    return recipients
