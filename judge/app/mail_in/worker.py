"""The worker: takes stored mail one at a time and answers it, under a guard.

One mail is one transaction: the mail is claimed, its commands run, the reply
and any other mail are queued in the outbox, and the mail is marked
processed, all committed together.

The guard: no mail stops the judge. Before a mail is processed its attempt
is counted and the mail held (a lease), in a short commit of its own, so a
mail that kills the process is still counted. If anything fails while the
mail is processed (decoding, the loop guard, parsing, a handler, composing,
queueing), the transaction rolls back (nothing the mail asked for happens),
the mail is marked failed with the error, the judgekeeper is told (at most
one alarm an hour, :mod:`judge.app.mail_out.alarms`), and the worker goes on. A failed
mail is tried again after a short back-off, holding back its sender's later
mail so that mail is processed in order; after ``mail_max_attempts`` tries it
is quarantined (never retried by itself, ``judge mail retry`` puts it back)
and the sender is told it could not be processed and nothing in it was done.
Recording a failure and telling people of it are guarded too: whatever fails
there is logged (and noted on the mail) and the worker goes on.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from datetime import datetime, timedelta, tzinfo

from sqlalchemy import Select, bindparam, event, select
from sqlalchemy.orm import joinedload, object_session

from judge.app.audience.council_members import reply_addresses
from judge.app.game_state.variant_rules import game_map_of
from judge.app.hooks.game_hooks import hooks_for
from judge.app.mail_in.dispatch import run_commands
from judge.app.mail_in.unreadable import note_unreadable
from judge.app.mail_out import outbox
from judge.app.mail_out.alarms import MAIL_FAILED, alarm_keeper
from judge.app.mail_out.bounces import clear_bounces, is_bounce, take_bounce
from judge.app.people.blocking import BLOCKED_REASON, is_blocked
from judge.app.people.signon_checks import signed_on_from_own_address
from judge.app.session.mail_session import MailSession
from judge.app.session.readers import reader_language, reader_zone
from judge.app.session.reply import Reply, cap_text
from judge.app.session.services import Services, wake
from judge.core.errors import CoreError
from judge.core.geography import GameMap
from judge.core.phase import Phase, PhaseType
from judge.core.variants import load_map
from judge.db.database import JudgeSession, UnitOfWork
from judge.db.engine import writer
from judge.db.models import Game, Person, PersonAddress
from judge.db.repositories.mail import SenderFloodRepository, lease_more_on, take_next_row_on
from judge.db.repositories.people import normalise_address
from judge.i18n import translation
from judge.lang.commands import Create, Signoff, Signon
from judge.lang.mail import ParseResult, SignonReading, parse_mail
from judge.mail.authresults import auth_results_of
from judge.mail.compose import attachment_bytes, header_block, reply_subject
from judge.mail.loopguard import is_daemon_address
from judge.mail.triage import Triage, Verdict, held_without_command, triage
from judge.timekeeping.dates import tell_date
from judge.waiting import first_of

log = logging.getLogger(__name__)


DUE_CHANGED = "judge_due_changed"
"""``Session.info`` key: a game's ``next_due_at`` was assigned in this transaction."""

CLAIM_LEASE = timedelta(seconds=10)
"""How long a taken mail is held for its worker between the commit that counts the attempt
and the row lock of the processing transaction (which then keeps every other worker off
until its commit). After a crash the mail waits this long before it is tried again."""
RETRY_AFTER = timedelta(minutes=1)
"""Back-off after a failure, times the attempts made: a passing trouble (a lock, a
dropped connection) gets a second chance; a bug reaches quarantine in minutes."""
MAX_ERROR_CHARS = 4000


@event.listens_for(Game.next_due_at, "set")
def _note_due_change(target: Game, value: object, old: object, _initiator: object) -> None:
    """Remember, on the object's session, that the scheduler has something new to look at."""
    session = object_session(target)
    if session is not None and value != old:
        session.info[DUE_CHANGED] = True


TAKE_AHEAD = 8
"""Mails one guard commit holds when several are waiting (:func:`process_waiting_mail`): the
first's attempt is counted there, each next one's in the commit of the mail before it."""


def process_next_mail(services: Services) -> bool:
    """Answer the oldest waiting mail; False when there was none (or the queue cannot be read).

    Never raises on account of a mail. The sender is woken after every mail
    (there is a reply to send); the scheduler only when the mail moved some
    game's due time, the one thing it acts on (``games.next_due_at``, always
    assigned through the ORM), rather than after every mail: a scheduler round
    is a transaction of its own, and on SQLite one more turn at the write lock per mail.
    """
    return process_waiting_mail(services, limit=1) > 0


def process_waiting_mail(
    services: Services, limit: int = TAKE_AHEAD, *, stop: Callable[[], bool] | None = None
) -> int:
    """Answer up to ``limit`` waiting mails (different senders' oldest, one after another);
    how many were answered (0: none waiting, or the queue cannot be read). Never raises on
    account of a mail.

    The guard, with fewer commits when mail is waiting (issue 14): one short commit counts
    the first mail's attempt and holds the others (:meth:`~judge.db.repositories.mail.
    InboundMailRepository.lease_more`); each mail is still processed in a transaction of its
    own, and that transaction also counts the attempt of the next mail held. So every
    mail's attempt is committed before the mail is processed, as with one guard commit per
    mail, and a crash charges no attempt to a mail that was only held (its hold runs out and
    it is taken again). When a mail fails (its transaction rolled back), the next one's
    attempt is counted in a commit of its own. ``stop``: checked between mails; mails still
    held are taken again when their hold runs out.
    """
    now = services.clock.now()
    try:
        taken = _take(services, now, limit)
    except Exception:
        log.exception("could not take the next mail from the queue")
        return 0
    if taken is None:
        return 0
    (mail_id, attempts, quarantined_error), held = taken
    answered = 0
    while True:
        following = held.pop(0) if held else None
        due_changed = False
        counted: tuple[int, str | None] | None = None
        if quarantined_error is not None:
            _tell_about_failure(services, mail_id, attempts, quarantined_error, now, final=True)
        else:
            try:
                due_changed, counted = _process_taken(services, mail_id, now, following)
            except Exception as error:
                log.exception("mail %s failed (attempt %s)", mail_id, attempts)
                _record_failure(services, mail_id, attempts, error, now)
        wake(services.on_outbox)
        if due_changed:
            wake(services.on_schedule)
        answered += 1
        next_mail = _next_held(services, following, counted, held, stop)
        if next_mail is None:
            return answered
        now, mail_id, attempts, quarantined_error = next_mail


def _next_held(
    services: Services, following: int | None, counted: tuple[int, str | None] | None,
    held: list[int], stop: Callable[[], bool] | None,
) -> tuple[datetime, int, int, str | None] | None:
    """The next held mail to process, its attempt counted: (now, id, attempts, quarantine
    reason or None); None when there is none left (or the worker is stopping)."""
    while following is not None:
        if stop is not None and stop():
            return None
        now = services.clock.now()
        try:
            if counted is None:  # the mail before it failed: its attempt in a commit of its own
                with services.db.unit_of_work() as uow:
                    counted = uow.mail_in.count_attempt(following, now + CLAIM_LEASE)
            if counted is not None:
                attempts, error = counted
                if attempts <= services.config.mail_max_attempts:
                    return now, following, attempts, None
                with services.db.unit_of_work() as uow:
                    limit, reason = _quarantine_stalled(uow, services, following, attempts, error, now)
                return now, following, limit, reason
        except Exception:
            log.exception("could not take held mail %s; its hold runs out", following)
            return None
        following = held.pop(0) if held else None  # finished by another worker meanwhile
        counted = None
    return None


def _take(
    services: Services, now: datetime, limit: int = 1
) -> tuple[tuple[int, int, str | None], list[int]] | None:
    """Count one attempt at the next mail and hold it, and up to ``limit - 1`` more mails of
    other senders (not counted), in a commit of its own.

    Returns the mail's id, its attempts, and, when the mail had already been
    tried ``mail_max_attempts`` times without an end (the process died each
    time), the reason it is now quarantined instead; and the ids of the mails held too.
    """
    # The usual case in Core on a connection of its own (issue 14: a session per guard commit cost
    # more CPU than its statements); a mail to quarantine is read again in a unit of work.
    with writer(services.db.engine).begin() as connection:
        taken = take_next_row_on(connection, now, now + CLAIM_LEASE)
        if taken is None:
            return None
        mail_id, attempts, error = taken
        if attempts <= services.config.mail_max_attempts:
            held = lease_more_on(connection, now, now + CLAIM_LEASE, limit - 1) if limit > 1 else []
            return (mail_id, attempts, None), held
        with JudgeSession(bind=connection, join_transaction_mode="create_savepoint") as session:
            uow = UnitOfWork(session, services.db.passwords)
            limit_reached, reason = _quarantine_stalled(uow, services, mail_id, attempts, error, now)
            session.commit()  # the savepoint; the connection's transaction commits below
        return (mail_id, limit_reached, reason), []


def _quarantine_stalled(
    uow: UnitOfWork, services: Services, mail_id: int, attempts: int, error: str | None, now: datetime
) -> tuple[int, str]:
    """Quarantine a mail tried ``mail_max_attempts`` times without an end; (its attempts, the reason)."""
    limit = services.config.mail_max_attempts
    reason = f"the judge stopped while processing this mail ({limit} attempts without an end)"
    if error:
        reason += f"; before that: {error}"
    reason = reason[:MAX_ERROR_CHARS]
    mail = uow.mail_in.get(mail_id)
    uow.mail_in.quarantine(mail, reason, now)
    mail.attempts = limit
    return limit, reason


def _process_taken(
    services: Services, mail_id: int, now: datetime, following: int | None = None
) -> tuple[bool, tuple[int, str | None] | None]:
    """Process a taken mail in one transaction; returns whether a game's due time moved, and
    the attempts and last error of the ``following`` held mail, whose attempt the same
    commit counts (None: no following mail, or it is no longer pending)."""
    with services.db.unit_of_work() as uow:
        # Locked and marked now, in one statement and in the same transaction as everything
        # the mail does: nobody sees the mark before the commit; a mail set aside as a loop
        # or flood is marked ignored instead.
        once_since = now - timedelta(days=services.config.duplicate_days)
        taken = uow.mail_in.start_processing(mail_id, now, once_since)
        if taken is not None:  # None: another worker finished it after our lease ran out
            if taken.original is not None:  # delivered again (a lost 250): carried out once only
                uow.mail_in.mark_duplicate(mail_id, taken.original, now)
            elif is_bounce(services, taken.rcpt_tos):  # to a VERP address: read, never answered
                take_bounce(uow, services, mail_id, taken.raw, taken.rcpt_tos, now)
            else:
                _process(uow, services, mail_id, taken.raw, taken.mail_from, now, sender_bounced=taken.sender_bounced)
        counted = (
            uow.mail_in.count_attempt(following, services.clock.now() + CLAIM_LEASE)
            if following is not None else None
        )
        return bool(uow.session.info.pop(DUE_CHANGED, False)), counted


def _process(
    uow: UnitOfWork, services: Services, mail_id: int, raw: bytes, envelope_sender: str, now: datetime,
    *, sender_bounced: bool = False,
) -> None:
    config = services.config
    limiter = services.limiter
    verdict = triage(
        raw,
        envelope_sender=envelope_sender,
        own_addresses=config.own_addresses,
        limiter=limiter.with_store(SenderFloodRepository(uow.session)) if limiter is not None else None,
        now=now,
    )
    decoded = verdict.mail
    if verdict.verdict is Verdict.IGNORE or decoded.sender is None:
        uow.mail_in.mark_ignored(uow.mail_in.get(mail_id), verdict.reason or "ignored", now)
        return
    sender = decoded.sender
    if config.ignore_dmarc_fail and config.authserv_id:  # the operator's choice; off by default
        checked = auth_results_of(raw, config.authserv_id)
        if checked is not None and checked.dmarc == "fail":
            uow.mail_in.mark_ignored(uow.mail_in.get(mail_id), f"DMARC fail for the From domain: {checked}", now)
            return
    if sender_bounced:  # the address works again: its bounce score goes, an observer's mail resumes
        clear_bounces(uow, {envelope_sender, sender})
    person = _sender_person(uow, sender)
    if is_blocked(person):  # `judge person block`: kept for the operator, never answered
        uow.mail_in.mark_ignored(uow.mail_in.get(mail_id), BLOCKED_REASON, now)
        return
    language = reader_language(person)
    flooding = verdict.verdict in (Verdict.WARN_FLOOD, Verdict.FLOODED)
    if flooding and person is None:  # nobody registered: nothing of it can be a player's own mail
        _hold_flood(uow, services, mail_id, verdict, person, language, now)
        return
    body, unread = command_lines(decoded.body, config.mail_max_command_lines)
    parsed, language = _parse(uow, body, person)
    if flooding and not any(isinstance(command, Signon) for command in parsed.commands):
        _hold_flood(uow, services, mail_id, verdict, person, language, now)
        return
    held = held_without_command(
        verdict, has_command=bool(parsed.commands), envelope_sender=envelope_sender,
        store=SenderFloodRepository(uow.session), now=now,
    )
    if held is not None:  # an autoreply, or a vacation program quoting the judge once too often
        uow.mail_in.mark_ignored(uow.mail_in.get(mail_id), held, now)
        return
    lines = body.splitlines()
    session = MailSession(
        services=services, uow=uow, mail_id=mail_id, decoded=decoded, sender=sender, now=now,
        reply=Reply(lines, max_bytes=config.reply_max_bytes), body_lines=lines, person=person,
        language=language, admit=signed_on_from_own_address if flooding else None,
    )
    if decoded.unreadable:  # (the sentences are written in the reader's language only when needed)
        note_unreadable(session.reply, decoded.unreadable, session.gettext)
    if not parsed.commands and not parsed.errors:
        _ = session.gettext
        session.reply.ok(None, _("No commands were found in your mail. Send HELP for instructions."))
    run_commands(session, parsed)
    if session.held:  # past the flood limit and not a player's own mail: its sign-on's record stays
        _hold_flood(uow, services, mail_id, verdict, person, session.language, now)
        return
    if verdict.verdict is Verdict.WARN_FLOOD:
        session.reply.preamble.append(flood_warning(services, verdict, session.zone, session.gettext, read_anyway=True))
    if unread and not any(isinstance(command, Signoff) for command in parsed.commands):
        _ = session.gettext
        session.reply.error(
            None,
            _("{count} more lines were not read: the judge reads at most {limit} lines of commands in one mail.")
            .format(count=unread, limit=config.mail_max_command_lines),
        )
    _queue_reply(session, mail_id)
    for mail in session.outgoing:
        outbox.queue(
            uow, services, mail.to, mail.subject, mail.body, now, game_id=mail.game_id,
            map_phase_id=mail.map_phase_id, map_language=mail.map_language,
        )  # fmt: skip


def _hold_flood(
    uow: UnitOfWork, services: Services, mail_id: int, verdict: Triage, person: Person | None, language: str,
    now: datetime,
) -> None:
    """A mail past the flood limit that is not a player's own: kept unread; the first of the flood
    is answered with the warning (what the limit is, when it ends), the others not at all."""
    decoded = verdict.mail
    if verdict.verdict is Verdict.WARN_FLOOD and decoded.sender is not None:
        _ = translation(language).gettext
        zone = reader_zone(person.time_zone if person is not None else None, services.config.timezone)
        outbox.queue(
            uow, services, [decoded.sender],
            reply_subject(services.config.code, decoded.subject),
            flood_warning(services, verdict, zone, _, read_anyway=False) + "\n",
            now, reply_to_message_id=decoded.message_id, in_reply_to_mail_id=mail_id,
        )  # fmt: skip
    uow.mail_in.mark_ignored(uow.mail_in.get(mail_id), verdict.reason or "flood", now)


def flood_warning(
    services: Services, verdict: Triage, zone: tzinfo, gettext: Callable[[str], str], *, read_anyway: bool
) -> str:
    """The flood warning: the limit, when it ends (in the reader's ``zone``, rounded up to the
    minute, so that mail sent from the time told is read), and that a player's own signed-on mail
    is still read (``read_anyway``: this mail was, and is answered as usual)."""
    _ = gettext
    config = services.config
    minutes = max(1, round(config.rate_limit_window.total_seconds() / 60))
    limit = _("The judge reads at most {limit} mails from one address in {minutes} minutes, and you have "
              "sent more.").format(limit=config.rate_limit_messages, minutes=minutes)
    until = verdict.flood_until
    if until is not None:
        whole = until.replace(second=0, microsecond=0)
        end = _("Until {date} (later if you send more before then), mail from you is kept but not read, "
                "except mail that signs on to a game you play or master from your registered address: "
                "your orders and press are always read.").format(
            date=tell_date(whole if whole == until else whole + timedelta(minutes=1), zone, _))
    else:
        end = _("For a while, mail from you is kept but not read, except mail that signs on to a game you "
                "play or master from your registered address: your orders and press are always read.")
    last = _("This mail was read and is answered below.") if read_anyway else _("This mail was not read.")
    return f"{limit} {end} {last}"


def command_lines(body: str, limit: int) -> tuple[str, int]:
    """The mail's first ``limit`` lines that are not blank (with the blank ones between), and
    how many lines that are not blank come after them (not read)."""
    lines = body.splitlines(keepends=True)
    seen = 0
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        seen += 1
        if seen > limit:
            rest = sum(1 for later in lines[index:] if later.strip())
            return "".join(lines[:index]), rest
    return body, 0


def _sender_person(uow: UnitOfWork, address: str) -> Person | None:
    """The person who writes from ``address`` (as ``uow.people.by_address``), with their addresses.

    Every sign-on compares the sender with the holder's addresses (the
    impersonation rule), so they are read in the same query rather than on
    first use: one round trip less per mail.
    """
    return uow.session.scalars(_sender_statement(), {"sender": normalise_address(address)}).unique().one_or_none()


@functools.cache
def _sender_statement() -> Select[tuple[Person]]:
    """:func:`_sender_person`'s query, built once (building it cost more CPU than running it)."""
    return (
        select(Person)
        .join(PersonAddress, PersonAddress.person_id == Person.id)
        .where(PersonAddress.address == bindparam("sender"))
        .options(joinedload(Person.addresses))
    )


def _parse(uow: UnitOfWork, body: str, person: Person | None) -> tuple[ParseResult, str]:
    """Read the mail, with the game's map, phase and language from its sign-on on.

    Also the language the reply is written in: the sender's own, or, when
    they never chose one, the default of the game they sign on to. The mail is
    read once (issue 14): at its SIGNON the reader asks for the game and reads
    the rest with its map, phase type and language. Only when something came
    before the sign-on (read without them) is the whole mail read again with
    them, as it always was.
    """
    language = reader_language(person)
    found: list[Game] = []

    def at_signon(command: Signon | Create) -> GameMap | SignonReading | None:
        game = None
        if isinstance(command, Signon | Create) and command.game is not None:
            # Locked now, before anything of the game is read (see judge.app.games.lifecycle.find_game): the
            # sign-on's own look-up and lock, and the scheduler's plan, then find it held, no query.
            game = uow.games.lock_by_name(command.game)
        if game is None:  # no game known: the map the sign-on names, as the reader itself does
            return _variant_map(command.variant) if command.variant is not None else None
        found.append(game)
        return _reading(game, command, french=reader_language(person, game) == "fr")

    parsed = parse_mail(body, french=language == "fr", map_for_signon=at_signon)
    if not found:
        return parsed, language
    game = found[0]
    language = reader_language(person, game)
    signon = next(c for c in parsed.commands if isinstance(c, Signon | Create))
    if any(c.line < signon.line for c in parsed.commands) or any(e.line < signon.line for e in parsed.errors):
        game_map, phase_type = game_map_of(game), _phase_type(game)
        parsed = parse_mail(
            body, game_map, phase_type=phase_type, french=language == "fr",
            line_reader=hooks_for(game).order_line_reader(game, game_map, phase_type, language == "fr"),
        )  # fmt: skip
    return parsed, language


def _phase_type(game: Game) -> PhaseType | None:
    return Phase.parse(game.current_phase).type if game.current_phase else None


def _reading(game: Game, command: Signon | Create, *, french: bool) -> SignonReading:
    """How the rest of the mail is read after its sign-on to ``game``: the game's map (or the
    variant the sign-on names, as the reader itself would switch to), phase type and language."""
    named = _variant_map(command.variant) if command.variant is not None else None
    game_map, phase_type = named or game_map_of(game), _phase_type(game)
    # A variant whose orders are kept as sent reads its order lines with its own reader (the hooks').
    line_reader = hooks_for(game).order_line_reader(game, game_map, phase_type, french)
    return SignonReading(game_map, phase_type, french, line_reader)


def _variant_map(variant: str) -> GameMap | None:
    try:
        return load_map(variant)
    except CoreError:
        return None


def _reader_deadline(session: MailSession) -> str | None:
    """The deadline in the sender's zone for the reply's header, when it is not UTC (the Judge's
    line already says UTC plainly)."""
    game = session.game
    if game is None or game.deadline_at is None or session.zone.key in ("UTC", "Etc/UTC"):
        return None
    return session.tell_date(game.deadline_at)


def variant_words(game: Game) -> list[str]:
    """The words after the variant in the ``::`` header: the game's options (``Gunboat``), then the
    variant's own that its master changed (the Renaissance game's ``NoDice``: its hooks say)."""
    return [option.capitalize() for option in game.rule_options] + hooks_for(game).option_words(game)


def _queue_reply(session: MailSession, mail_id: int) -> None:
    config = session.services.config
    game = session.game
    phase = game.current_phase if game is not None else None
    header = header_block(
        config.code,
        game=game.name if game is not None and session.signed_on else None,
        variant=game.variant if game is not None else None,
        modifiers=variant_words(game) if game is not None else (),
        phase=phase,
        deadline=game.deadline_at if game is not None else None,
        zone=config.timezone,
        reader_deadline=_reader_deadline(session),
    )
    _ = session.gettext
    limit = config.reply_max_bytes
    body = cap_text(
        header + "\n" + session.reply.render(),
        limit,
        lambda cut: _("[The judge cut this reply here: a reply holds at most {limit} bytes; "
                      "{cut} bytes were left out.]").format(limit=limit, cut=cut + session.reply.dropped),
    )
    attachment = session.reply_attachment
    if attachment is not None and len(body.encode("utf-8")) + attachment_bytes(attachment) > limit:
        # The cap holds for the whole mail: the map goes, and the reply says so and what to do.
        alone = len(header.encode("utf-8")) + 1_000 + attachment_bytes(attachment) <= limit
        body += (
            _("[The map {file} was left out: with it this reply would pass the judge's limit of {limit} bytes. "
              "Send MAP alone in a mail to get it.]") if alone else
            _("[The map {file} was left out: it is larger than the judge's limit of {limit} bytes for a reply.]")
        ).format(file=attachment.filename, limit=limit) + "\n"
        attachment = None
    subject = reply_subject(
        config.code,
        session.decoded.subject,
        game=game.name if game is not None and session.signed_on else None,
        phase=phase if session.signed_on else None,
        error_flag=session.reply.errors > 0,
    )

    recipients = [session.sender, *reply_addresses(session)]
    outbox.queue(
        session.uow, session.services, recipients, subject, body, session.now,
        game_id=game.id if game is not None else None,
        reply_to_message_id=session.decoded.message_id,
        references=session.decoded.references,
        in_reply_to_mail_id=mail_id,
        attachment=attachment,
    )


def _record_failure(
    services: Services, mail_id: int, attempts: int, error: BaseException, now: datetime
) -> None:
    """Mark the mail failed (to be tried again) or quarantined, then tell the keeper and the sender.

    Never raises: if even the mark cannot be written, the attempt is already
    counted and the lease runs out, so the mail is tried again later and,
    failing still, quarantined.
    """
    text = f"{type(error).__name__}: {error}"[:MAX_ERROR_CHARS]
    final = attempts >= services.config.mail_max_attempts
    try:
        with services.db.unit_of_work() as uow:
            retry_at = None if final else now + RETRY_AFTER * attempts
            uow.mail_in.mark_failed(mail_id, text, now, retry_at=retry_at)
    except Exception:
        log.exception("could not record the failure of mail %s", mail_id)
        return
    _tell_about_failure(services, mail_id, attempts, text, now, final=final)


def _tell_about_failure(
    services: Services, mail_id: int, attempts: int, error: str, now: datetime, *, final: bool
) -> None:
    """Alarm the judgekeeper (throttled) and, once the mail is quarantined, tell its sender.

    Each in a savepoint of its own: a notice that cannot be composed is
    noted on the mail and costs nothing else. Never raises.
    """
    try:
        with services.db.unit_of_work() as uow:
            try:
                with uow.session.begin_nested():
                    _alarm(uow, services, mail_id, attempts, error, now, final=final)
            except Exception as trouble:
                log.exception("could not queue the alarm about mail %s", mail_id)
                _note(uow, mail_id, f"no alarm could be queued: {type(trouble).__name__}: {trouble}")
            if not final:
                return
            try:
                with uow.session.begin_nested():
                    _notify_sender(uow, services, mail_id, now)
            except Exception as trouble:
                log.exception("could not tell the sender of mail %s", mail_id)
                _note(uow, mail_id, f"the sender could not be told: {type(trouble).__name__}: {trouble}")
    except Exception:
        log.exception("could not tell anyone about the failure of mail %s", mail_id)


def _note(uow: UnitOfWork, mail_id: int, note: str) -> None:
    mail = uow.mail_in.get(mail_id)
    mail.error = f"{mail.error or ''}; {note}"[:MAX_ERROR_CHARS]
    uow.flush()


def _alarm(
    uow: UnitOfWork, services: Services, mail_id: int, attempts: int, error: str, now: datetime,
    *, final: bool,
) -> None:
    limit = services.config.mail_max_attempts
    if final:
        fate = (
            f"It is quarantined: it will not be tried again until you run `judge mail retry {mail_id}`\n"
            f"(or set it aside with `judge mail skip {mail_id}`). Its sender was told.\n"
        )
    else:
        fate = f"It will be tried again in {RETRY_AFTER * attempts} (attempt {attempts} of {limit}).\n"
    body = (
        f"The judge could not process inbound mail {mail_id} (attempt {attempts} of {limit}).\n\n"
        f"Error: {error}\n\n{fate}"
        f"Nothing in the mail was carried out. See it with `judge mail show {mail_id}`,\n"
        f"and every failed mail with `judge mail list --failed` and `--quarantined`.\n"
    )
    alarm_keeper(uow, services, MAIL_FAILED, f"mail {mail_id} could not be processed", body, now)


def _notify_sender(uow: UnitOfWork, services: Services, mail_id: int, now: datetime) -> None:
    """Tell the sender, in their language, that nothing in their mail was done (if they may be answered)."""
    mail = uow.mail_in.get(mail_id)
    subject: str | None = None
    message_id: str | None = None
    try:
        verdict = triage(
            mail.raw, envelope_sender=mail.mail_from,
            own_addresses=services.config.own_addresses, limiter=None, now=now,
        )
    except Exception:  # decoding itself is what failed: answer the envelope sender
        log.exception("mail %s cannot be decoded; its envelope sender is told", mail_id)
        sender = _envelope_address(mail.mail_from, services.config.own_addresses)
    else:
        if verdict.verdict is not Verdict.ANSWER:
            return
        sender, subject, message_id = verdict.mail.sender, verdict.mail.subject, verdict.mail.message_id
    if sender is None:
        return
    _ = translation(reader_language(_sender_person(uow, sender))).gettext
    outbox.queue(
        uow, services, [sender],
        reply_subject(services.config.code, subject or ""),
        _("The judge could not process your mail because of an internal error. "
          "Nothing in it was carried out. The judge keeper has been told.") + "\n",
        now, reply_to_message_id=message_id, in_reply_to_mail_id=mail_id,
    )


def _envelope_address(mail_from: str, own: frozenset[str]) -> str | None:
    """The envelope sender, if it is someone who may be answered (not empty, not the judge, not a robot)."""
    address = mail_from.strip().strip("<>").strip()
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain or address.lower() in own or is_daemon_address(address):
        return None
    return address


async def run_worker(
    services: Services, stop: asyncio.Event, wake: asyncio.Event, *, idle_seconds: float = 5.0,
    on_idle: Callable[[], None] | None = None, take_ahead: int = TAKE_AHEAD,
) -> None:
    """Process mail until ``stop`` is set; ``wake`` is set by the SMTP door when mail arrives.

    ``on_idle`` (say, the daily purge) runs in a thread whenever the queue is empty.
    ``take_ahead``: mails held by one guard commit (:func:`process_waiting_mail`).
    ``wake`` is cleared before each look at the queue, never after: a mail that arrives while
    the worker looks (or purges) leaves it set, and the worker looks again at once instead of
    sleeping ``idle_seconds`` beside it.
    """
    while not stop.is_set():
        wake.clear()
        try:
            worked = await asyncio.to_thread(process_waiting_mail, services, take_ahead, stop=stop.is_set)
        except Exception:  # process_next_mail guards every mail; this is the last net
            log.exception("the worker failed; going on")
            worked = False
        if worked:
            continue
        if on_idle is not None:
            try:
                await asyncio.to_thread(on_idle)
            except Exception:
                log.exception("the worker's idle task failed; going on")
        await first_of(stop, wake, timeout=idle_seconds)

