"""The worker: takes stored mail one at a time and answers it.

One mail is one transaction: the mail is claimed, its commands run, the reply
and any other mail are queued in the outbox, and the mail is marked
processed, all committed together. If anything unexpected fails, the
transaction rolls back (nothing the mail asked for happens), the mail is
marked failed in a new transaction, and the sender is told so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import event, select
from sqlalchemy.orm import joinedload, object_session

from judge.app import outbox
from judge.app.dispatch import run_commands
from judge.app.notify import reader_language
from judge.app.reply import Reply
from judge.app.services import Services
from judge.app.session import MailSession
from judge.app.unreadable import note_unreadable
from judge.core.geography import GameMap
from judge.core.phase import Phase, PhaseType
from judge.core.variants import load_map
from judge.db.database import UnitOfWork
from judge.db.models import Game, Person, PersonAddress
from judge.db.repositories.people import normalise_address
from judge.i18n import translation
from judge.lang.commands import Create, Signon
from judge.lang.mail import ParseResult, parse_mail
from judge.mail.compose import header_block, reply_subject
from judge.mail.triage import Verdict, triage

log = logging.getLogger(__name__)


DUE_CHANGED = "judge_due_changed"
"""``Session.info`` key: a game's ``next_due_at`` was assigned in this transaction."""


@event.listens_for(Game.next_due_at, "set")
def _note_due_change(target: Game, value: object, old: object, _initiator: object) -> None:
    """Remember, on the object's session, that the scheduler has something new to look at."""
    session = object_session(target)
    if session is not None and value != old:
        session.info[DUE_CHANGED] = True


def process_next_mail(services: Services) -> bool:
    """Answer the oldest waiting mail; False when there was none.

    The sender is woken after every mail (there is a reply to send); the
    scheduler only when the mail moved some game's due time, the one thing it
    acts on (``games.next_due_at``, always assigned through the ORM), rather
    than after every mail: a scheduler round is a transaction of its own, and
    on SQLite one more turn at the write lock per mail.
    """
    now = services.clock.now()
    mail_id: int | None = None
    due_changed = False
    try:
        with services.db.unit_of_work() as uow:
            mail = uow.mail_in.claim_next()
            if mail is None:
                return False
            mail_id = mail.id
            # Marked now, in the same UPDATE as the claim's attempt count (one round trip,
            # not two). Nobody sees the mark before the commit, which also carries everything
            # the mail did; a mail set aside as a loop or flood is marked ignored instead.
            uow.mail_in.mark_processed(mail, now)
            _process(uow, services, mail_id, mail.raw, mail.mail_from, now)
            due_changed = bool(uow.session.info.pop(DUE_CHANGED, False))
    except Exception as error:
        if mail_id is None:
            raise
        log.exception("mail %s failed", mail_id)
        _record_failure(services, mail_id, error, now)
    services.on_outbox()
    if due_changed:
        services.on_schedule()
    return True


def _process(
    uow: UnitOfWork, services: Services, mail_id: int, raw: bytes, envelope_sender: str, now: datetime
) -> None:
    config = services.config
    verdict = triage(
        raw,
        envelope_sender=envelope_sender,
        own_addresses=config.own_addresses,
        limiter=services.limiter,
        now=now,
    )
    decoded = verdict.mail
    if verdict.verdict is Verdict.IGNORE or decoded.sender is None:
        uow.mail_in.mark_ignored(uow.mail_in.get(mail_id), verdict.reason or "ignored", now)
        return
    sender = decoded.sender
    person = _sender_person(uow, sender)
    language = reader_language(person)
    if verdict.verdict is Verdict.WARN_FLOOD:
        _ = translation(language).gettext
        outbox.queue(
            uow, services, [sender],
            reply_subject(config.code, decoded.subject),
            _("You have sent the judge too many mails in a short time. "
              "Further mail from you will be ignored for a while.") + "\n",
            now, reply_to_message_id=decoded.message_id, in_reply_to_mail_id=mail_id,
        )
        uow.mail_in.mark_ignored(uow.mail_in.get(mail_id), verdict.reason or "flood", now)
        return
    parsed, language = _parse(uow, decoded.body, person)
    lines = decoded.body.splitlines()
    session = MailSession(
        services=services, uow=uow, mail_id=mail_id, decoded=decoded, sender=sender, now=now,
        reply=Reply(lines), body_lines=lines, person=person, language=language,
    )
    note_unreadable(session.reply, decoded.unreadable, session.gettext)
    if not parsed.commands and not parsed.errors:
        _ = session.gettext
        session.reply.ok(None, _("No commands were found in your mail. Send HELP for instructions."))
    run_commands(session, parsed)
    _queue_reply(session, mail_id)
    for mail in session.outgoing:
        outbox.queue(uow, services, mail.to, mail.subject, mail.body, now, game_id=mail.game_id)


def _sender_person(uow: UnitOfWork, address: str) -> Person | None:
    """The person who writes from ``address`` (as ``uow.people.by_address``), with their addresses.

    Every sign-on compares the sender with the holder's addresses (the
    impersonation rule), so they are read in the same query rather than on
    first use: one round trip less per mail.
    """
    return uow.session.scalars(
        select(Person)
        .join(PersonAddress, PersonAddress.person_id == Person.id)
        .where(PersonAddress.address == normalise_address(address))
        .options(joinedload(Person.addresses))
    ).unique().one_or_none()


def _parse(uow: UnitOfWork, body: str, person: Person | None) -> tuple[ParseResult, str]:
    """Read the mail; read it again with the game's map and phase once the sign-on names a game.

    Also the language the reply is written in: the sender's own, or, when
    they never chose one, the default of the game they sign on to.
    """
    language = reader_language(person)
    first = parse_mail(body, french=language == "fr")
    signon = next((c for c in first.commands if isinstance(c, Signon | Create)), None)
    if signon is None or signon.game is None:
        return first, language
    game = uow.games.by_name(signon.game)
    if game is None:
        return first, language
    language = reader_language(person, game)
    game_map: GameMap = load_map(game.variant)
    phase_type: PhaseType | None = None
    if game.current_phase:
        phase_type = Phase.parse(game.current_phase).type
    return parse_mail(body, game_map, phase_type=phase_type, french=language == "fr"), language


def _queue_reply(session: MailSession, mail_id: int) -> None:
    config = session.services.config
    game = session.game
    phase = game.current_phase if game is not None else None
    header = header_block(
        config.code,
        game=game.name if game is not None and session.signed_on else None,
        variant=game.variant if game is not None else None,
        phase=phase,
        deadline=game.deadline_at if game is not None else None,
        zone=config.timezone,
    )
    body = header + "\n" + session.reply.render()
    subject = reply_subject(
        config.code,
        session.decoded.subject,
        game=game.name if game is not None and session.signed_on else None,
        phase=phase if session.signed_on else None,
        error_flag=session.reply.errors > 0,
    )
    recipients = [session.sender]
    if session.seat is not None and session.seat.report_address:
        recipients += session.seat.report_address.split(",")
    recipients += session.reply_copies
    outbox.queue(
        session.uow, session.services, recipients, subject, body, session.now,
        game_id=game.id if game is not None else None,
        reply_to_message_id=session.decoded.message_id,
        references=session.decoded.references,
        in_reply_to_mail_id=mail_id,
    )


def _record_failure(services: Services, mail_id: int, error: Exception, now: datetime) -> None:
    """Mark the mail failed and tell its sender; the administrator reads the error in the log."""
    with services.db.unit_of_work() as uow:
        uow.mail_in.mark_failed(mail_id, f"{type(error).__name__}: {error}", now)
        mail = uow.mail_in.get(mail_id)
        verdict = triage(
            mail.raw, envelope_sender=mail.mail_from,
            own_addresses=services.config.own_addresses, limiter=None, now=now,
        )
        if verdict.verdict is not Verdict.ANSWER or verdict.mail.sender is None:
            return
        _ = translation("en").gettext
        outbox.queue(
            uow, services, [verdict.mail.sender, services.config.admin],
            reply_subject(services.config.code, verdict.mail.subject),
            _("The judge could not process your mail because of an internal error. "
              "Nothing in it was carried out. The judge keeper has been told.") + "\n",
            now, reply_to_message_id=verdict.mail.message_id, in_reply_to_mail_id=mail_id,
        )


async def run_worker(
    services: Services, stop: asyncio.Event, wake: asyncio.Event, *, idle_seconds: float = 5.0,
    on_idle: Callable[[], None] | None = None,
) -> None:
    """Process mail until ``stop`` is set; ``wake`` is set by the SMTP door when mail arrives."""
    while not stop.is_set():
        worked = await asyncio.to_thread(process_next_mail, services)
        if worked:
            continue
        if on_idle is not None:
            on_idle()
        wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_first(stop, wake), timeout=idle_seconds)


async def _first(*events: asyncio.Event) -> None:
    tasks = [asyncio.create_task(event.wait()) for event in events]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
