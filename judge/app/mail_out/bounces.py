"""Bounces: mail that comes back to a VERP address, tied to the outbox mail and reader it names,
scored per address, and told once to the people it concerns.

Every mail the judge sends goes out from its own VERP address (judge.mail.verp,
judge.app.mail_out.sender); the door accepts mail to those addresses, and the worker
hands every mail that came to one here instead of reading it for commands. So
a bounce is never answered and never counts as a command, whatever it holds.

The rules (all figures are settings, judge.config):

* A bounce whose address carries no token, a token for no outbox mail, or a
  token whose keyed hash does not match that mail's reader (forged, or moved
  from another address) is kept, marked ignored with the reason, and changes
  nothing else.
* A real token ties the bounce to its outbox mail, which keeps the first
  bounce's kind and words (``mail_out.bounce``). A bounce that reports no
  failure (a delay warning, an autoreply sent to the envelope sender, a mail
  too large to read) scores nothing.
* A hard failure adds ``bounce_hard_score`` to the reader's score, a soft one
  ``bounce_soft_score``, at most once a day per address; a score that last
  grew ``bounce_stale_days`` ago or more starts again from 0 (Mailman's
  rules). A flood of bounces for one address is therefore one point a day.
* When the score reaches ``bounce_threshold`` the address is marked
  bouncing, once: its owner is told at their other registered addresses, the
  masters of the games where the owner holds a seat are told which power's
  mail bounces, never the address; an observer's address gets no more mail
  about any game.
* A mail from the address (its envelope sender) that the judge reads clears
  it all: the score goes and the observer's mail resumes.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update

from judge.app.mail_out import outbox
from judge.app.session.readers import ACTIVE, person_address, reader_language, reader_zone
from judge.app.session.services import Services
from judge.db.database import UnitOfWork
from judge.db.models import AddressBounces, Game, GameObserver, OutboundMail, Person, Seat
from judge.db.repositories.people import normalise_address
from judge.i18n import translation
from judge.mail.addresses import printable
from judge.mail.bounces import BounceKind, BounceReport, read_bounce
from judge.timekeeping.dates import tell_date

log = logging.getLogger(__name__)

_REASON_CHARS = 300


def is_bounce(services: Services, rcpt_tos: Iterable[str]) -> bool:
    """Whether a stored mail came to one of the judge's bounce addresses (its envelope)."""
    verp = services.verp
    return any(verp.is_bounce_address(address) for address in rcpt_tos)


def take_bounce(
    uow: UnitOfWork, services: Services, mail_id: int, raw: bytes, rcpt_tos: Sequence[str], now: datetime
) -> None:
    """Record a mail that came to a bounce address (see the module's rules); it is marked
    ignored with what was made of it, and never answered. A mail to an observer's unsubscribe
    address (the mailto of ``List-Unsubscribe``, judge.app.mail_out.list_headers) is carried out."""
    for address in rcpt_tos:
        asked = services.verp.unsubscribe_of(address)
        if asked is not None:
            _ignore(uow, mail_id, "unsubscribe: " + unsubscribe(uow, services, *asked), now)
            return
    tied = _tie(uow, services, rcpt_tos)
    if isinstance(tied, str):
        _ignore(uow, mail_id, f"bounce ignored: {tied}", now)
        return
    sent, reader = tied
    report = read_bounce(raw)
    if sent.bounced_at is None:
        sent.bounced_at = now
        sent.bounce = printable(f"{report.kind}: {report.detail}", 1000)
    if report.kind is BounceKind.NONE:
        _ignore(uow, mail_id, f"bounce for mail {sent.id} to {reader}, no failure: {report.detail}", now)
        return
    record, scored, crossed = score(uow, services, reader, sent, report, now)
    counted = f"score {record.score:g}" if scored else f"score {record.score:g}, already counted today"
    _ignore(uow, mail_id, f"bounce ({report.kind}) for mail {sent.id} to {reader}: {report.detail}; {counted}", now)
    if crossed:
        mark_bouncing(uow, services, record, sent, now)


def unsubscribe(uow: UnitOfWork, services: Services, observer_id: int, mac: str) -> str:
    """Stop an observer's mail (``List-Unsubscribe``, by mail or the web role's one click): the
    observer leaves the game, when the token's hash matches its address; what was done."""
    observer = uow.session.get(GameObserver, observer_id)
    if observer is None:
        return f"no observer {observer_id} (gone already)"
    if not services.verp.verifies_unsubscribe(observer_id, observer.address, mac):
        return f"a forged token for observer {observer_id}"
    game = observer.game.name
    uow.session.delete(observer)
    uow.flush()
    log.info("observer %s of game %s unsubscribed", observer_id, game)
    return f"observer {observer_id} of game {game} stopped observing"


_ADDRESS = re.compile(r"[^\s<>\"'(),;:\[\]]+@[^\s<>\"'(),;:\[\]]+")


def without_addresses(text: str) -> str:
    """``text`` with every mail address in it replaced by ``<address>``: a mail server's words
    ("unknown user: ghost@example.net") told to a master must not show a player's address."""
    return _ADDRESS.sub("<address>", text)


def _ignore(uow: UnitOfWork, mail_id: int, reason: str, now: datetime) -> None:
    uow.mail_in.mark_ignored(uow.mail_in.get(mail_id), printable(reason, 1000), now)


def _tie(uow: UnitOfWork, services: Services, rcpt_tos: Sequence[str]) -> tuple[OutboundMail, str] | str:
    """The outbox mail and reader a bounce's envelope names with a real token, or why none."""
    verp = services.verp
    why = "sent to the bounce address without a token"
    for address in rcpt_tos:
        token = verp.token_of(address)
        if token is None:
            continue
        mail_id, mac = token
        sent = uow.session.get(OutboundMail, mail_id)
        if sent is None:
            why = f"a token for mail {mail_id}, which the judge never sent (or purged)"
            continue
        if len(sent.recipients) != 1 or not verp.verifies(mail_id, sent.recipients[0], mac):
            why = f"a forged token for mail {mail_id}"
            continue
        return sent, sent.recipients[0].strip().lower()
    return why


def next_score(
    score: float, scored_at: datetime | None, now: datetime, kind: BounceKind, *, hard: float, soft: float,
    stale_days: int,
) -> tuple[float, bool]:
    """An address's score after a bounce of ``kind`` at ``now``, and whether it counted: at most
    one bounce a day counts, and a score that last grew ``stale_days`` ago starts from 0."""
    if kind is BounceKind.NONE or (scored_at is not None and now - scored_at < timedelta(days=1)):
        return score, False
    if scored_at is None or now - scored_at >= timedelta(days=stale_days):
        score = 0.0
    return score + (hard if kind is BounceKind.HARD else soft), True


def score(
    uow: UnitOfWork, services: Services, address: str, sent: OutboundMail, report: BounceReport, now: datetime
) -> tuple[AddressBounces, bool, bool]:
    """Count a bounce against ``address``; (its record, whether the score grew, whether it just
    reached the threshold and the address is now marked bouncing)."""
    config = services.config
    record = uow.session.scalars(
        select(AddressBounces).where(AddressBounces.address == address).with_for_update()
    ).one_or_none()
    if record is None:
        record = AddressBounces(address=address, score=0.0, last_bounce_at=now, bounces=0, last_reason="")
        uow.session.add(record)
    value, scored = next_score(
        record.score, record.scored_at, now, report.kind,
        hard=config.bounce_hard_score, soft=config.bounce_soft_score, stale_days=config.bounce_stale_days,
    )  # fmt: skip
    record.bounces += 1
    record.last_bounce_at = now
    record.last_mail_id = sent.id
    record.last_reason = printable(f"{report.kind}: {report.detail}", _REASON_CHARS)
    if scored:
        record.score, record.scored_at = value, now
    crossed = record.bouncing_since is None and record.score >= config.bounce_threshold
    if crossed:
        record.bouncing_since = now
    uow.flush()
    return record, scored, crossed


def clear_bounces(uow: UnitOfWork, addresses: Iterable[str]) -> None:
    """A mail from one of ``addresses`` was read: their scores go, their observers' mail resumes."""
    keys = sorted({normalise_address(a) for a in addresses if a and a.strip()})
    if not keys:
        return
    uow.session.execute(delete(AddressBounces).where(AddressBounces.address.in_(keys)))
    uow.session.execute(
        update(GameObserver)
        .where(GameObserver.address.in_(keys), GameObserver.held_for_bounces.is_(True))
        .values(held_for_bounces=False)
        .execution_options(synchronize_session=False)
    )


def bounce_state(uow: UnitOfWork, addresses: Iterable[str]) -> dict[str, AddressBounces]:
    """The bounce records of those of ``addresses`` that have one, by address (for the console and WHOIS)."""
    keys = sorted({normalise_address(a) for a in addresses if a})
    if not keys:
        return {}
    rows = uow.session.scalars(select(AddressBounces).where(AddressBounces.address.in_(keys)))
    return {row.address: row for row in rows}


@dataclass(frozen=True)
class _Told:
    """Whom a bouncing address concerns: its owner (if registered) and the seats they hold."""

    owner: Person | None
    seats: list[Seat]


def mark_bouncing(uow: UnitOfWork, services: Services, record: AddressBounces, sent: OutboundMail, now: datetime) -> None:
    """The address just reached the threshold: hold its observers' mail, tell its owner (at their
    other addresses) and the masters of the games it plays in, once each."""
    address = record.address
    uow.session.execute(
        update(GameObserver)
        .where(GameObserver.address == address)
        .values(held_for_bounces=True)
        .execution_options(synchronize_session="fetch")
    )
    owner = uow.people.by_address(address)
    seats: list[Seat] = []
    if owner is not None:
        seats = list(uow.session.scalars(
            select(Seat).where(Seat.person_id == owner.id, Seat.status.in_(ACTIVE)).order_by(Seat.id)
        ))  # fmt: skip
    _tell_owner(uow, services, record, owner, now)
    _tell_masters(uow, services, record, _Told(owner, seats), sent, now)


def _tell_owner(uow: UnitOfWork, services: Services, record: AddressBounces, owner: Person | None, now: datetime) -> None:
    if owner is None:
        return
    others = [a.address for a in owner.addresses if a.address != record.address]
    if not others:
        return
    _ = translation(reader_language(owner)).gettext
    zone = reader_zone(owner.time_zone, services.config.timezone)
    body = _(
        "Mail the judge sends to your address {address} comes back undelivered. Bounces counted: "
        "{count}, the last on {date}, when the mail server said:\n\n  {reason}\n\n"
        "The judge keeps sending there, and you may be missing results and deadlines. When the address "
        "works again, send any mail from it to the judge (HELP will do) and it is counted as working. "
        "This notice goes to your other registered addresses, once."
    ).format(address=record.address, count=record.bounces, date=tell_date(record.last_bounce_at, zone, _),
             reason=record.last_reason)  # fmt: skip
    subject = _("{code}: mail to your address {address} bounces").format(
        code=services.config.code, address=record.address
    )
    outbox.queue(uow, services, others, subject, body + "\n", now)


def _tell_masters(
    uow: UnitOfWork, services: Services, record: AddressBounces, told: _Told, sent: OutboundMail, now: datetime
) -> None:
    """Each game where the owner holds a seat: its masters are told which power's mail bounces,
    not the address (a gunboat game's master does not learn it this way)."""
    games: dict[int, tuple[Game, list[str]]] = {}
    for seat in told.seats:
        if seat.power is None:
            continue
        game, powers = games.setdefault(seat.game_id, (seat.game, []))
        powers.append(seat.power)
    for game, powers in games.values():
        for master in game.masters:
            address = person_address(master.person)
            if address is None or address == record.address:
                continue
            _ = translation(reader_language(master.person, game)).gettext
            zone = reader_zone(master.person.time_zone, services.config.timezone)
            body = _(
                "Mail the judge sends to the player of {powers} in game {game} comes back undelivered. "
                "Bounces counted: {count}, the last on {date}, when the mail server said:\n\n  {reason}\n\n"
                "The player may not be getting the game's results and deadlines. The player was told at "
                "their other registered addresses, if they have any. The judge counts the address as working "
                "again as soon as a mail from it arrives."
            ).format(powers=", ".join(sorted(powers)), game=game.name, count=record.bounces,
                     date=tell_date(record.last_bounce_at, zone, _), reason=without_addresses(record.last_reason))  # fmt: skip
            subject = _("{code}:{game} - mail to {powers} bounces").format(
                code=services.config.code, game=game.name, powers=", ".join(sorted(powers))
            )
            outbox.queue(uow, services, [address], subject, body + "\n", now, game_id=game.id)
    if sent.game_id is not None and sent.game_id not in games:
        log.info("address of outbox mail %s bounces; it holds no seat in game %s", sent.id, sent.game_id)

