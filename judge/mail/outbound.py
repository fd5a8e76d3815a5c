"""Delivering the outbox: relays (Maildir, SMTP), the back-off policy and the drain loop.

The outbox is the judge's promise: a reply queued there is delivered, late
rather than never. A relay that is down, refuses a login or times out raises
:class:`TransientDeliveryError` and the mail waits (exponential back-off with
jitter, so a recovering relay is not hit by every mail at once). Only a relay
that refuses *the message itself* for good (a 5xx to every recipient or to
the data) raises :class:`PermanentDeliveryError`, and even then the outbox
keeps the mail, marked failed, for the administrator to read.

Relays are synchronous (smtplib, files); :func:`run_outbound` runs the drain
in a worker thread so the asyncio loop (the SMTP listener) never blocks.
"""

from __future__ import annotations

import asyncio
import logging
import mailbox
import os
import random
import smtplib
import ssl
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Protocol, runtime_checkable

from judge.config import Config, MaildirRelaySpec, RelaySpec, SmtpRelaySpec, TlsMode
from judge.mail.addresses import AddressError, canonical_address, needs_smtputf8, printable
from judge.mail.smtp_transaction import SessionLostError, transact
from judge.waiting import first_of

log = logging.getLogger(__name__)

MAILS_PER_CONNECTION = 100
"""Mails sent on one SMTP session before it is closed and another opened (mail servers limit
them; Postfix's smtpd and the big providers take about a hundred)."""


# --- errors ------------------------------------------------------------------


class DeliveryError(Exception):
    """A delivery that did not happen; ``code`` is the SMTP reply code when there was one."""

    def __init__(self, message: str, code: int | None = None) -> None:
        self.code = code
        super().__init__(message)


class TransientDeliveryError(DeliveryError):
    """Try again later: the relay is busy, down, or said 4xx."""


class RelayUnavailableError(TransientDeliveryError):
    """The relay cannot be used at all (no connection, TLS or login refused): every mail would fail."""


class SessionLost(TransientDeliveryError):
    """The SMTP session ended before the relay had the mail's text (it had closed an idle session,
    or said ``421``): the relay cannot have taken the mail, which may go on a new session."""


class PermanentDeliveryError(DeliveryError):
    """The relay refused this message for good (5xx): retrying would not help."""


# --- the relay interface and the outbox interface ---------------------------


class Relay(Protocol):
    def deliver(
        self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None
    ) -> Mapping[str, str]:
        """Hand ``message`` over for ``recipients``, from ``envelope_sender`` (the mail's VERP
        address, judge.mail.verp; None: the relay's own); return the recipients refused while
        others were accepted (address -> reason), ``{}`` when all were. Raises :class:`DeliveryError`."""
        ...


@dataclass(frozen=True)
class OutgoingMail:
    """One queued message as the drain sees it.

    ``attempts``: delivery attempts counted so far, INCLUDING the one about to
    be made (the outbox counts it when it hands the mail out).
    """

    id: int
    message_bytes: bytes
    recipients: Sequence[str]
    attempts: int = 0
    envelope_sender: str | None = None
    """The mail's own envelope sender (its VERP address), or None for the relay's."""


class Outbox(Protocol):
    """The queue the drain works on (the persistence layer provides the real one).

    At most once per crash: :meth:`claim_next` counts the attempt and moves
    the mail's next attempt to ``lease(attempts)`` DURABLY (committed) before
    the mail is handed out, and each ``mark_*`` is durable on return. A crash
    while the relay has the mail therefore sends it again only after the
    lease, once; a crash loop on one mail uses up its attempts and ends.

    An outbox may also claim several mails in one commit (:class:`BatchOutbox`).
    """

    def claim_next(
        self, now: datetime, lease: Callable[[int], datetime]
    ) -> OutgoingMail | None: ...

    def mark_sent(self, id: int, now: datetime, refused: Mapping[str, str]) -> None: ...

    def mark_retry(self, id: int, next_attempt: datetime, error: str) -> None: ...

    def mark_failed(self, id: int, error: str, now: datetime) -> None: ...


@runtime_checkable
class BatchOutbox(Outbox, Protocol):
    """An outbox that claims several mails in one commit, and gives back those a pass did not try."""

    def claim_batch(
        self, now: datetime, lease: Callable[[int], datetime], limit: int
    ) -> Sequence[OutgoingMail]:
        """Up to ``limit`` mails due at ``now``, oldest first, each claimed as :meth:`Outbox.claim_next`
        claims one (attempt counted, next attempt at ``lease(attempts)``), all in one commit."""
        ...

    def release(self, ids: Sequence[int]) -> None:
        """Give back claimed mails that were not tried: their attempt uncounted, due at once again."""
        ...


@runtime_checkable
class SessionRelay(Relay, Protocol):
    """A relay that can keep one session open for the mails of a pass (:meth:`SmtpRelay.connection`)."""

    def connection(self) -> AbstractContextManager[Relay]: ...


# --- back-off ------------------------------------------------------------------


@dataclass(frozen=True)
class BackoffPolicy:
    """Delay after the n-th failed attempt: ``base * factor**(n-1)``, capped, then spread by ±jitter.

    The defaults retry after about 1, 2, 4 … minutes, then hourly; after
    ``max_attempts`` (about four days) the mail is marked failed, never deleted.
    ``max_attempts=None`` retries for ever.
    """

    base: timedelta = timedelta(minutes=1)
    factor: float = 2.0
    max_delay: timedelta = timedelta(hours=1)
    jitter: float = 0.2
    max_attempts: int | None = 100

    def __post_init__(self) -> None:
        if self.base <= timedelta(0) or self.factor < 1 or not 0 <= self.jitter < 1:
            raise ValueError("back-off needs base > 0, factor >= 1 and 0 <= jitter < 1")


DEFAULT_BACKOFF = BackoffPolicy()


def delay_bounds(
    attempts: int, policy: BackoffPolicy = DEFAULT_BACKOFF
) -> tuple[timedelta, timedelta]:
    """Shortest and longest wait after ``attempts`` failed attempts (``attempts >= 1``)."""
    exponent = min(max(attempts, 1) - 1, 64)  # past 64 the cap has long applied; avoids overflow
    nominal = min(
        policy.base.total_seconds() * policy.factor**exponent, policy.max_delay.total_seconds()
    )
    return (
        timedelta(seconds=nominal * (1 - policy.jitter)),
        timedelta(seconds=nominal * (1 + policy.jitter)),
    )


def next_attempt(
    attempts: int, now: datetime, *, policy: BackoffPolicy = DEFAULT_BACKOFF, rand: float = 0.5
) -> datetime:
    """When to try again after ``attempts`` failures; ``rand`` in [0, 1] picks the point within the jitter."""
    low, high = delay_bounds(attempts, policy)
    share = min(max(rand, 0.0), 1.0)
    return now + low + (high - low) * share


def gives_up(attempts: int, policy: BackoffPolicy = DEFAULT_BACKOFF) -> bool:
    """True when ``attempts`` failed attempts are enough to stop trying."""
    return policy.max_attempts is not None and attempts >= policy.max_attempts


# --- draining ------------------------------------------------------------------


@dataclass
class DrainReport:
    """What one pass over the outbox did."""

    claimed: int = 0  # mails handed to the relay, or given up on before it
    sent: int = 0
    retried: int = 0
    failed: int = 0
    errors: int = 0  # mails whose outcome could not be recorded (they come back after the lease)
    released: int = 0  # mails claimed in a batch but given back untried (the pass ended first)
    exhausted: bool = False  # the outbox had no more mail due: the pass did not end early
    refused: dict[int, Mapping[str, str]] = field(
        default_factory=dict
    )  # partly refused, by mail id

    @property
    def more(self) -> bool:
        """True when mail was delivered and more may be due: the next pass should start at once."""
        return self.sent > 0 and not self.exhausted


BATCH = 50
"""Mails claimed in one commit by an outbox that claims several at a time (:class:`BatchOutbox`)."""


def drain_once(
    outbox: Outbox,
    relay: Relay,
    now: datetime,
    *,
    limit: int = 50,
    policy: BackoffPolicy = DEFAULT_BACKOFF,
    rng: random.Random | None = None,
    batch: int = BATCH,
) -> DrainReport:
    """Deliver up to ``limit`` mails due at ``now``, each outcome recorded as soon as it is known.

    Each mail's attempt is counted and leased (committed) BEFORE the relay
    sees it: a :class:`BatchOutbox` claims up to ``batch`` mails in one
    commit, another outbox one at a time. Each mail is marked sent in its own
    commit as soon as the relay accepts it, before the next is sent: after a
    crash, at most the mail in flight is sent twice (mails claimed but not
    yet sent go out once, after their lease). A relay that keeps a session
    (:class:`SessionRelay`, such as :class:`SmtpRelay`) sends the whole pass on
    one connection. Nothing is ever dropped: an unexpected exception from the
    relay counts as a temporary failure; after ``policy.max_attempts`` the
    mail is marked failed (kept, never deleted). One mail whose outcome cannot
    be recorded does not stop the others. When the relay is unusable
    altogether the pass ends (the mail tried waits its back-off; the other
    mails claimed are given back untried).

    The leases run from ``now``: once half the shortest of them has passed,
    the pass gives back what it claimed and has not sent yet, and ends
    (another sender may take a mail whose lease ran out).
    """
    if now.tzinfo is None:
        raise ValueError("drain_once needs a timezone-aware datetime")
    chance = rng or random.Random()
    report = DrainReport()
    if limit <= 0:
        return report

    def lease(attempts: int) -> datetime:
        return next_attempt(attempts, now, policy=policy, rand=chance.random())

    budget = delay_bounds(1, policy)[0].total_seconds() / 2
    started = time.monotonic()
    session = relay.connection() if isinstance(relay, SessionRelay) else nullcontext(relay)
    with session as sending:
        while report.claimed < limit:
            if report.claimed and time.monotonic() - started > budget:
                break
            wanted = min(max(batch, 1), limit - report.claimed)
            mails = _claim(outbox, now, lease, wanted)
            if not mails:
                report.exhausted = True
                break
            stop = False
            for index, mail in enumerate(mails):
                if stop or (index and time.monotonic() - started > budget):
                    _release(outbox, mails[index:], report)
                    break
                report.claimed += 1
                try:
                    stop = _deliver_one(outbox, sending, mail, now, policy, chance, report)
                except Exception:  # recording the outcome failed: the lease brings the mail back
                    report.errors += 1
                    log.exception("outbox mail %s: could not record the delivery outcome", mail.id)
            if stop or report.released:
                break
    return report


def _claim(
    outbox: Outbox, now: datetime, lease: Callable[[int], datetime], limit: int
) -> list[OutgoingMail]:
    if isinstance(outbox, BatchOutbox):
        return list(outbox.claim_batch(now, lease, limit))
    mail = outbox.claim_next(now, lease)
    return [] if mail is None else [mail]


def _release(outbox: Outbox, mails: Sequence[OutgoingMail], report: DrainReport) -> None:
    """Give back mails claimed and not tried (only a :class:`BatchOutbox` claims several)."""
    if not isinstance(outbox, BatchOutbox) or not mails:
        return
    try:
        outbox.release([mail.id for mail in mails])
    except Exception:  # their leases bring them back
        log.exception("outbox: could not give back %s mails claimed", len(mails))
        return
    report.released += len(mails)


def _deliver_one(
    outbox: Outbox,
    relay: Relay,
    mail: OutgoingMail,
    now: datetime,
    policy: BackoffPolicy,
    chance: random.Random,
    report: DrainReport,
) -> bool:
    """Try one mail and record the outcome; True when the pass must stop (the relay is unusable)."""
    if not mail.recipients:
        outbox.mark_failed(mail.id, "no recipients", now)
        report.failed += 1
        return False
    if policy.max_attempts is not None and mail.attempts > policy.max_attempts:
        # Earlier attempts were cut short (a crash while sending): the limit still holds.
        error = f"gave up after {mail.attempts - 1} attempts, the last ones interrupted"
        outbox.mark_failed(mail.id, error, now)
        report.failed += 1
        return False
    try:
        if mail.envelope_sender is None:
            refused = relay.deliver(mail.message_bytes, list(mail.recipients))
        else:
            refused = relay.deliver(mail.message_bytes, list(mail.recipients), mail.envelope_sender)
    except PermanentDeliveryError as error:
        log.warning("outbox mail %s refused for good: %s", mail.id, _describe(error))
        outbox.mark_failed(mail.id, _describe(error), now)
        report.failed += 1
    except RelayUnavailableError as error:
        _reschedule(outbox, mail, _describe(error), now, policy, chance, report)
        return True
    except TransientDeliveryError as error:
        _reschedule(outbox, mail, _describe(error), now, policy, chance, report)
    except Exception as error:  # a relay bug must delay the mail, not lose it
        log.exception("relay failed unexpectedly on outbox mail %s", mail.id)
        detail = f"unexpected {type(error).__name__}: {error}"
        _reschedule(outbox, mail, detail, now, policy, chance, report)
    else:
        outbox.mark_sent(mail.id, now, dict(refused))
        report.sent += 1
        if refused:
            report.refused[mail.id] = dict(refused)
            log.warning("outbox mail %s: some recipients refused: %s", mail.id, refused)
    return False


def _reschedule(
    outbox: Outbox,
    mail: OutgoingMail,
    error: str,
    now: datetime,
    policy: BackoffPolicy,
    chance: random.Random,
    report: DrainReport,
) -> None:
    """A temporary failure of attempt number ``mail.attempts`` (already counted)."""
    if gives_up(mail.attempts, policy):
        outbox.mark_failed(mail.id, f"gave up after {mail.attempts} attempts: {error}", now)
        report.failed += 1
    else:
        when = next_attempt(mail.attempts, now, policy=policy, rand=chance.random())
        outbox.mark_retry(mail.id, when, error)
        report.retried += 1


def _describe(error: DeliveryError) -> str:
    return f"{error.code} {error}" if error.code is not None else str(error)


async def run_outbound(
    outbox: Outbox,
    relay: Relay,
    clock: Callable[[], datetime],
    *,
    stop: asyncio.Event,
    wake: asyncio.Event | None = None,
    poll_interval: float = 5.0,
    limit: int = 50,
    policy: BackoffPolicy = DEFAULT_BACKOFF,
) -> None:
    """Drain the outbox until ``stop`` is set; ``wake`` (set by whoever queues mail) skips the wait.

    A full batch is followed at once by the next; otherwise the loop sleeps
    ``poll_interval`` seconds, which is also how retries come due. Errors of
    the outbox itself (a database restart) are logged and retried next round.
    """
    rng = random.Random()
    while not stop.is_set():
        if wake is not None:
            wake.clear()
        try:
            report = await asyncio.to_thread(
                drain_once, outbox, relay, clock(), limit=limit, policy=policy, rng=rng
            )
        except Exception:
            log.exception("outbox drain failed; trying again in %s s", poll_interval)
            report = DrainReport()
        if report.more:
            continue
        await first_of(stop, *([wake] if wake is not None else []), timeout=poll_interval)


# --- relays ------------------------------------------------------------------


class MaildirRelay:
    """Delivers into a Maildir (one file per message, written to tmp/ and renamed into new/).

    The default relay: a fresh machine can read everything the judge sends
    with any mail reader (``mutt -f data/maildir``). The envelope recipients
    are recorded in an ``X-Envelope-To`` header, since a Maildir has no envelope,
    and the envelope sender in a ``Return-Path`` when the mail has its own (as
    a mail server's local delivery writes it).
    The file and its directory are synced before the delivery counts as done.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def deliver(
        self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None
    ) -> Mapping[str, str]:
        usable, refused = canonical_recipients(recipients)
        if not usable:
            raise PermanentDeliveryError(f"no recipient can be delivered: {refused}", 550)
        envelope = ", ".join(usable)  # canonical: no spaces, no line breaks, UTF-8 allowed
        returned = b""
        if envelope_sender is not None:  # the judge's own VERP address: no spaces, no line breaks
            returned = b"Return-Path: <" + envelope_sender.encode("utf-8", "replace") + b">\n"
        data = (
            returned + b"X-Envelope-To: " + envelope.encode("utf-8") + b"\n"
            + message.replace(b"\r\n", b"\n")
        )  # fmt: skip
        try:
            box = mailbox.Maildir(str(self.path), factory=None, create=True)
            key = box.add(data)
            _fsync(self.path / "new" / key)
            _fsync(self.path / "new")
        except OSError as error:
            raise TransientDeliveryError(f"cannot write to Maildir {self.path}: {error}") from error
        return refused


def _fsync(path: Path) -> None:
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


class SmtpRelay:
    """Delivers to an SMTP server (smarthost), with STARTTLS or implicit TLS and login when configured.

    :meth:`deliver` sends one message on a connection of its own. The drain
    sends its passes through :meth:`connection`: one session reused for many
    messages, so a deadline storm's thousands of results mails do not each
    pay a TCP connection, a greeting, ``EHLO``, TLS and a login. Each mail is
    one transaction of :func:`judge.mail.smtp_transaction.transact`
    (pipelined when the relay offers ``PIPELINING``).
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        envelope_sender: str,
        tls: TlsMode = TlsMode.NONE,
        username: str | None = None,
        password: str | None = None,
        timeout: float = 30.0,
        ssl_context: ssl.SSLContext | None = None,
        local_hostname: str | None = None,
        mails_per_connection: int = MAILS_PER_CONNECTION,
    ) -> None:
        self.host = host
        self.port = port
        self.envelope_sender = envelope_sender
        self.tls = tls
        self.username = username
        self._password = password
        self.timeout = timeout
        self.ssl_context = ssl_context
        self.local_hostname = local_hostname
        self.mails_per_connection = max(1, mails_per_connection)

    @classmethod
    def from_spec(cls, spec: SmtpRelaySpec, envelope_sender: str) -> SmtpRelay:
        return cls(
            spec.host,
            spec.port,
            envelope_sender=envelope_sender,
            tls=spec.tls,
            username=spec.username,
            password=spec.password,
        )

    def deliver(
        self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None
    ) -> Mapping[str, str]:
        """Send ``message`` from ``envelope_sender`` (else the relay's own) on a connection of
        its own; recipients the relay cannot take are returned with the reason.

        Domains travel IDNA-encoded. A recipient whose local part is not ASCII
        needs SMTPUTF8: it is sent with it when the relay offers it, and
        refused here otherwise (the rest of the recipients still get the mail;
        when nobody is left the refusal is permanent).
        """
        with self.connection() as session:
            return session.deliver(message, recipients, envelope_sender)

    @contextmanager
    def connection(self) -> Iterator[SmtpConnection]:
        """A relay that keeps one SMTP session open for the mails it is given, closed (``QUIT``) at the end."""
        session = SmtpConnection(self)
        try:
            yield session
        finally:
            session.close()

    def send_on(
        self,
        client: smtplib.SMTP,
        message: bytes,
        usable: list[str],
        refused: dict[str, str],
        envelope_sender: str | None,
    ) -> Mapping[str, str]:
        """One mail transaction (``MAIL``, ``RCPT``, ``DATA``) on an open session; the errors
        classified as :meth:`deliver` says."""
        try:
            options: list[str] = []
            wants_utf8 = any(needs_smtputf8(r) for r in usable) or not message.isascii()
            if wants_utf8 and client.has_extn("smtputf8"):
                options = ["SMTPUTF8"]
                if client.has_extn("8bitmime"):
                    options.append("BODY=8BITMIME")
            if not options:
                for recipient in [r for r in usable if needs_smtputf8(r)]:
                    refused[recipient] = (
                        f"needs SMTPUTF8 (non-ASCII name before the @), "
                        f"which relay {self.host}:{self.port} does not offer"
                    )
                    log.warning(
                        "outgoing mail not sent to %s: %s", printable(recipient), refused[recipient]
                    )
                usable = [r for r in usable if not needs_smtputf8(r)]
            if not usable:
                raise PermanentDeliveryError(f"no recipient can be delivered: {refused}", 550)
            sender = envelope_sender or self._envelope_sender()
            rejected = transact(client, sender, usable, message, options)
        except SessionLostError as error:
            raise SessionLost(f"delivery interrupted before the relay had the mail: {error}") from error
        except smtplib.SMTPRecipientsRefused as error:
            reasons = {r: f"{c} {_text(m)}" for r, (c, m) in error.recipients.items()}
            if all(c >= 500 for c, _m in error.recipients.values()):
                raise PermanentDeliveryError(
                    f"every recipient refused: {reasons | refused}", 550
                ) from error
            raise TransientDeliveryError(f"recipients refused for now: {reasons}", 450) from error
        except smtplib.SMTPSenderRefused as error:
            # The judge's own address refused: a configuration problem, not this mail's.
            raise RelayUnavailableError(
                f"relay refused sender {self.envelope_sender}: {_text(error.smtp_error)}",
                error.smtp_code,
            ) from error
        except smtplib.SMTPResponseException as error:
            detail = f"relay refused the message: {_text(error.smtp_error)}"
            if error.smtp_code >= 500:
                raise PermanentDeliveryError(detail, error.smtp_code) from error
            raise TransientDeliveryError(detail, error.smtp_code) from error
        except (smtplib.SMTPException, OSError) as error:
            raise TransientDeliveryError(f"delivery interrupted: {error}") from error
        except UnicodeError as error:  # an address smtplib cannot write: never a crash
            raise PermanentDeliveryError(f"an address cannot be written: {error}", 553) from error
        return refused | {r: f"{c} {_text(m)}" for r, (c, m) in rejected.items()}

    def _envelope_sender(self) -> str:
        try:
            return canonical_address(self.envelope_sender)
        except AddressError:
            return self.envelope_sender

    def connect(self) -> smtplib.SMTP:
        """An open, greeted, secured and logged-in session, or :class:`RelayUnavailableError`."""
        where = f"{self.host}:{self.port}"
        client: smtplib.SMTP | None = None
        try:
            if self.tls is TlsMode.IMPLICIT:
                client = smtplib.SMTP_SSL(
                    self.host, self.port, local_hostname=self.local_hostname,
                    timeout=self.timeout, context=self._context(),
                )  # fmt: skip
            else:
                client = smtplib.SMTP(
                    self.host, self.port, local_hostname=self.local_hostname, timeout=self.timeout
                )
            client.ehlo()
            if self.tls is TlsMode.STARTTLS:
                client.starttls(context=self._context())
                client.ehlo()
            if self.username:
                client.login(self.username, self._password or "")
            return client
        except smtplib.SMTPAuthenticationError as error:
            _close(client)
            raise RelayUnavailableError(
                f"relay {where} refused the login of {self.username}", error.smtp_code
            ) from error
        except (smtplib.SMTPException, OSError) as error:
            _close(client)
            raise RelayUnavailableError(f"relay {where} unavailable: {error}") from error

    def _context(self) -> ssl.SSLContext:
        return self.ssl_context or ssl.create_default_context()


class SmtpConnection:
    """One SMTP session of an :class:`SmtpRelay` reused for many mails (a :class:`Relay`).

    The session opens at the first mail. A later mail follows the last one
    at once (no ``RSET`` after a transaction the relay completed: RFC 5321
    lets a new ``MAIL`` follow a finished ``DATA``); after a mail the relay
    refused, the transaction is reset with ``RSET`` and the session kept.
    When a reused session turns out to be gone before the relay saw the
    mail's text (a relay closes idle sessions), the mail goes out on a new
    one: the relay cannot have taken it, so it is sent once all the same.
    After any other error the session is closed (a half-broken session is
    never reused) and the next mail opens a new one; after the relay's
    ``mails_per_connection`` mails too, as mail servers limit them.
    ``connections`` counts the sessions opened.
    """

    def __init__(self, relay: SmtpRelay) -> None:
        self.relay = relay
        self.connections = 0
        self._client: smtplib.SMTP | None = None
        self._mails = 0

    def deliver(
        self, message: bytes, recipients: Sequence[str], envelope_sender: str | None = None
    ) -> Mapping[str, str]:
        """:meth:`SmtpRelay.deliver`, on this session."""
        usable, refused = canonical_recipients(recipients)
        if not usable:
            raise PermanentDeliveryError(f"no recipient can be delivered: {refused}", 550)
        reused = self._ready()
        try:
            accepted = self._send(message, usable, refused, envelope_sender)
        except SessionLost:
            self.close()
            if not reused:
                raise
            self._ready()  # the relay had closed the session it had been idle on: a new one, once
            accepted = self._send(message, usable, refused, envelope_sender)
        self._mails += 1
        return accepted

    def _send(
        self, message: bytes, usable: list[str], refused: dict[str, str], envelope_sender: str | None
    ) -> Mapping[str, str]:
        client = self._client
        assert client is not None  # opened by _ready
        try:
            accepted = self.relay.send_on(client, message, usable, dict(refused), envelope_sender)
        except DeliveryError:
            if client.sock is None:  # closed on the way (a 421, a broken session): not reused
                self.close()
            self._mails += 1  # a transaction refused and reset still counts toward the session's quota
            raise
        except BaseException:
            self.close()
            raise
        return accepted

    def _ready(self) -> bool:
        """An open session for the next mail; True when it is one already used (it may be gone)."""
        client = self._client
        if client is not None and client.sock is not None and self._mails < self.relay.mails_per_connection:
            return True
        self.close()
        self._client = self.relay.connect()
        self.connections += 1
        self._mails = 0
        return False

    def close(self) -> None:
        """``QUIT`` (or just close) the session, if one is open."""
        client, self._client = self._client, None
        _close(client)


def canonical_recipients(recipients: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """The recipients in canonical form (IDNA domains), and those that are no address at all."""
    usable: list[str] = []
    refused: dict[str, str] = {}
    for recipient in recipients:
        try:
            address = canonical_address(recipient)
        except AddressError as error:
            refused[recipient] = f"not a usable address: {error.reason}"
            log.warning("outgoing mail not sent to %s: %s", printable(recipient), error.reason)
            continue
        if address not in usable:
            usable.append(address)
    return usable, refused


def _text(reply: bytes | str) -> str:
    return reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)


def _close(client: smtplib.SMTP | None) -> None:
    if client is None:
        return
    try:
        client.quit()
    except (smtplib.SMTPException, OSError):
        client.close()


def relay_from_spec(spec: RelaySpec, envelope_sender: str) -> Relay:
    """The relay a configured ``JUDGE_RELAY`` names."""
    if isinstance(spec, MaildirRelaySpec):
        return MaildirRelay(spec.path)
    return SmtpRelay.from_spec(spec, envelope_sender)


def backoff_from_config(config: Config) -> BackoffPolicy:
    """The retry policy the judge's settings ask for (first retry, attempts before giving up)."""
    base = timedelta(seconds=config.outbound_retry_seconds)
    return BackoffPolicy(
        base=base,
        max_delay=max(DEFAULT_BACKOFF.max_delay, base),
        max_attempts=config.outbound_max_attempts,
    )


def relay_from_config(config: Config) -> Relay:
    """The judge's relay, sending as the judge's own address."""
    return relay_from_spec(config.relay, config.address)
