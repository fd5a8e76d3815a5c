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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Protocol

from judge.config import Config, MaildirRelaySpec, RelaySpec, SmtpRelaySpec, TlsMode
from judge.mail.addresses import AddressError, canonical_address, needs_smtputf8, printable
from judge.waiting import first_of

log = logging.getLogger(__name__)


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

    An outbox may also offer ``mark_sent_and_claim_next(id, now, refused, lease)``:
    :meth:`mark_sent` and :meth:`claim_next` in one commit (the drain then spends
    one commit per mail sent instead of two, with the same guarantees).
    """

    def claim_next(
        self, now: datetime, lease: Callable[[int], datetime]
    ) -> OutgoingMail | None: ...

    def mark_sent(self, id: int, now: datetime, refused: Mapping[str, str]) -> None: ...

    def mark_retry(self, id: int, next_attempt: datetime, error: str) -> None: ...

    def mark_failed(self, id: int, error: str, now: datetime) -> None: ...


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

    claimed: int = 0
    sent: int = 0
    retried: int = 0
    failed: int = 0
    errors: int = 0  # mails whose outcome could not be recorded (they come back after the lease)
    refused: dict[int, Mapping[str, str]] = field(
        default_factory=dict
    )  # partly refused, by mail id


def drain_once(
    outbox: Outbox,
    relay: Relay,
    now: datetime,
    *,
    limit: int = 50,
    policy: BackoffPolicy = DEFAULT_BACKOFF,
    rng: random.Random | None = None,
) -> DrainReport:
    """Deliver up to ``limit`` mails due at ``now``, one at a time, each outcome recorded at once.

    Each mail is claimed with its attempt counted (committed) BEFORE the
    relay sees it, and marked sent in its own commit as soon as the relay
    accepts it: after a crash, at most the mail in flight is sent twice.
    Nothing is ever dropped: an unexpected exception from the relay counts as
    a temporary failure; after ``policy.max_attempts`` the mail is marked
    failed (kept, never deleted). One mail whose outcome cannot be recorded
    does not stop the others. When the relay is unusable altogether the pass
    ends (the mail tried waits its back-off; the others were not touched).
    """
    if now.tzinfo is None:
        raise ValueError("drain_once needs a timezone-aware datetime")
    chance = rng or random.Random()
    report = DrainReport()

    def lease(attempts: int) -> datetime:
        return next_attempt(attempts, now, policy=policy, rand=chance.random())

    chain = getattr(outbox, "mark_sent_and_claim_next", None)
    mail = outbox.claim_next(now, lease) if limit > 0 else None
    while mail is not None:
        report.claimed += 1
        more = report.claimed < limit
        outcome = _Outcome()
        try:
            _deliver_one(outbox, relay, mail, now, policy, chance, report, outcome, chain if more else None, lease)
        except Exception:  # recording the outcome failed: the lease brings the mail back
            report.errors += 1
            log.exception("outbox mail %s: could not record the delivery outcome", mail.id)
        if outcome.stop or not more:
            break
        mail = outcome.following if outcome.claimed else outbox.claim_next(now, lease)
    return report


@dataclass
class _Outcome:
    """What :func:`_deliver_one` says after a mail: stop the pass (the relay is unusable), or
    the next mail, already claimed in the commit that marked this one sent."""

    stop: bool = False
    claimed: bool = False
    following: OutgoingMail | None = None


def _deliver_one(
    outbox: Outbox,
    relay: Relay,
    mail: OutgoingMail,
    now: datetime,
    policy: BackoffPolicy,
    chance: random.Random,
    report: DrainReport,
    outcome: _Outcome,
    chain: Callable[[int, datetime, Mapping[str, str], Callable[[int], datetime]], OutgoingMail | None] | None,
    lease: Callable[[int], datetime],
) -> None:
    """Try one mail and record the outcome in ``outcome`` (stop: the relay is unusable).

    With ``chain`` (the outbox's ``mark_sent_and_claim_next``), a mail the relay
    accepted is marked sent and the next one claimed in one commit (issue 14: one
    commit per mail instead of two): "sent" is still committed as soon as the
    relay accepted, and the next mail's attempt and lease before the relay sees it.
    """
    if not mail.recipients:
        outbox.mark_failed(mail.id, "no recipients", now)
        report.failed += 1
        return
    if policy.max_attempts is not None and mail.attempts > policy.max_attempts:
        # Earlier attempts were cut short (a crash while sending): the limit still holds.
        error = f"gave up after {mail.attempts - 1} attempts, the last ones interrupted"
        outbox.mark_failed(mail.id, error, now)
        report.failed += 1
        return
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
        outcome.stop = True
        _reschedule(outbox, mail, _describe(error), now, policy, chance, report)
        return
    except TransientDeliveryError as error:
        _reschedule(outbox, mail, _describe(error), now, policy, chance, report)
    except Exception as error:  # a relay bug must delay the mail, not lose it
        log.exception("relay failed unexpectedly on outbox mail %s", mail.id)
        detail = f"unexpected {type(error).__name__}: {error}"
        _reschedule(outbox, mail, detail, now, policy, chance, report)
    else:
        if chain is not None:
            outcome.following, outcome.claimed = chain(mail.id, now, dict(refused), lease), True
        else:
            outbox.mark_sent(mail.id, now, dict(refused))
        report.sent += 1
        if refused:
            report.refused[mail.id] = dict(refused)
            log.warning("outbox mail %s: some recipients refused: %s", mail.id, refused)


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
        if report.claimed >= limit and report.sent:
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

    One connection per message: the judge's traffic is small and a fresh
    connection never inherits a half-broken session.
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
        """Send ``message`` from ``envelope_sender`` (else the relay's own); recipients the relay
        cannot take are returned with the reason.

        Domains travel IDNA-encoded. A recipient whose local part is not ASCII
        needs SMTPUTF8: it is sent with it when the relay offers it, and
        refused here otherwise (the rest of the recipients still get the mail;
        when nobody is left the refusal is permanent).
        """
        usable, refused = canonical_recipients(recipients)
        if not usable:
            raise PermanentDeliveryError(f"no recipient can be delivered: {refused}", 550)
        client = self._connect()
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
            rejected = client.sendmail(sender, usable, message, mail_options=options)
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
        finally:
            _close(client)
        return refused | {r: f"{c} {_text(m)}" for r, (c, m) in rejected.items()}

    def _envelope_sender(self) -> str:
        try:
            return canonical_address(self.envelope_sender)
        except AddressError:
            return self.envelope_sender

    def _connect(self) -> smtplib.SMTP:
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
