"""The world a hostile mail lands in, and the checks every mail must pass whatever it is.

A world is a fresh database with a started seven-power game (``demo``, each
power's player at ``<power>@example.net``, a master, an observer), one more
registered person with no game (the intruder), and the worker configured as
a judge on a public address would be. A mail is stored exactly as the SMTP
door stores it (raw bytes, envelope sender, recipient) and the real worker
(:func:`judge.app.mail_in.worker.process_next_mail`) runs until the queue is empty.

What every mail must satisfy, whatever it contains (:func:`check_outgoing`,
:func:`check_judge_still_answers`): the worker never raises; the mail ends
processed, ignored, failed or quarantined, never left waiting; nothing is
ever sent to an address the mail only named in a display name or a header
the judge must not trust; no header the judge writes carries a control
character (raw or inside an encoded word); a reply's body stays within the
reply cap; and a plain mail sent afterwards is still answered.
"""

from __future__ import annotations

import email.header
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email import message_from_string, policy
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import select

from judge.app.mail_in.worker import process_next_mail
from judge.app.runtime.judge_server import build_services
from judge.config import load_config
from judge.db.database import Database
from judge.db.enums import InboundState
from judge.db.models import InboundMail, OutboundMail, Person, PersonAddress, Seat
from judge.db.repositories import Registration
from judge.timekeeping.clock import FakeClock
from tests.app.conftest import Harness
from tests.app.orders_helpers import StartedGame, start_game

JUDGE = "judge@example.org"
KEEPER = "keeper@example.org"
INTRUDER = "intruder@example.com"
"""Registered, in no game: the other player who tries to act or read for someone else."""
STRANGER = "hostile@example.com"
"""Not registered: the stranger who writes most of the corpus."""
VICTIM = "victim@evil.example"
"""Named by forged headers and display names: the judge must never write to it."""
NORMAL = "normal.player@example.org"
"""Sends the plain mail after each hostile one: the judge must still answer it."""
START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
MAX_WORKER_TURNS = 25
"""A mail retried after failures is bounded (quarantine after N tries): the queue must empty."""
REPLY_SLACK = 8 * 1024
"""Bytes a capped reply may carry beyond the cap: its header block and the line saying what was cut."""
SMTP_LINE_LIMIT = 998  # RFC 5321 §4.5.3.1.6, without the CRLF
VERSION_ANSWER = "Diplomacy email judge, version"

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f\u0080-\u009f\u2028\u2029]")
_SURROGATE_BYTES = re.compile(r"[\udc80-\udcff]")


@dataclass(frozen=True)
class Outgoing:
    """One row of the outbox: whom for, the wire bytes, and which inbound mail it answers."""

    id: int
    recipients: tuple[str, ...]
    raw: bytes
    in_reply_to: int | None

    def message(self) -> EmailMessage:
        # UTF-8 headers (RFC 6532, for SMTPUTF8 recipients) read as text, as such a reader does.
        parsed = message_from_string(self.raw.decode("utf-8", "replace"), policy=policy.SMTPUTF8)
        assert isinstance(parsed, EmailMessage)
        return parsed

    def body(self) -> str:
        part = self.message().get_body(("plain",))
        assert part is not None, "an outgoing mail without a text/plain body"
        return str(part.get_content()).replace("\r\n", "\n")


@dataclass(frozen=True)
class Snapshot:
    """What a hostile mail must not change unless its case says so."""

    orders: dict[str, object]  # power -> its current orders (version and canonical text)
    seats: dict[str, tuple[int | None, str, str | None]]  # power -> holder, status, password hash
    game: tuple[object, ...]  # phase, phases, state
    addresses: dict[str, int]  # address -> person
    people: dict[int, tuple[str, str, str]]  # person -> name, phone, postal address


class World:
    """A judge with a game in play, fed raw mail as the SMTP door stores it."""

    def __init__(self, database: Database, tmp_path: Path, *, rate_limit: int = 0) -> None:
        """``rate_limit``: mails per sender an hour before the flood limiter steps in (0: off)."""
        self.clock = FakeClock(START)
        self.config = load_config(
            {
                "JUDGE_ADDRESS": JUDGE,
                "JUDGE_CODE": "XPY",
                "JUDGE_ADMIN": KEEPER,
                "JUDGE_DATA_DIR": str(tmp_path),
                "JUDGE_DATABASE_URL": database.url,
                "JUDGE_RATE_LIMIT_MESSAGES": str(rate_limit),
            }
        )
        # Built as `judge serve` builds them: the flood limiter comes from the settings.
        self.services = build_services(self.config, database, self.clock)
        self.harness = Harness(self.services, self.clock)
        self.game: StartedGame = start_game(self.harness)
        with database.unit_of_work() as uow:
            uow.people.register(
                Registration(name="Ivan Intruder", site="Away", country="Nowhere"), INTRUDER, START
            )

    @property
    def db(self) -> Database:
        return self.services.db

    # --- mail in ---------------------------------------------------------------

    def inject(self, raw: bytes, envelope_sender: str) -> int:
        """Store ``raw`` as the SMTP door does after DATA, before it answers 250."""
        return self.db.store_inbound_mail(raw, envelope_sender, [JUDGE], self.clock.now(), "192.0.2.7")

    def drain(self) -> int:
        """Run the real worker until it has nothing left; it must never raise, and must stop."""
        turns = 0
        while process_next_mail(self.services):
            turns += 1
            assert turns <= MAX_WORKER_TURNS, "the worker keeps taking mail: a retry loop?"
        return turns

    def state_of(self, mail_id: int) -> InboundState:
        with self.db.unit_of_work(readonly=True) as uow:
            mail = uow.session.get(InboundMail, mail_id)
            assert mail is not None
            return InboundState(mail.state)

    def error_of(self, mail_id: int) -> str | None:
        with self.db.unit_of_work(readonly=True) as uow:
            mail = uow.session.get(InboundMail, mail_id)
            assert mail is not None
            return mail.error

    # --- mail out --------------------------------------------------------------

    def last_outgoing_id(self) -> int:
        with self.db.unit_of_work(readonly=True) as uow:
            return int(uow.session.scalar(select(OutboundMail.id).order_by(OutboundMail.id.desc()).limit(1)) or 0)

    def outgoing_since(self, after: int) -> list[Outgoing]:
        with self.db.unit_of_work(readonly=True) as uow:
            rows = uow.session.scalars(
                select(OutboundMail).where(OutboundMail.id > after).order_by(OutboundMail.id)
            ).all()
            return [
                Outgoing(row.id, tuple(row.recipients), bytes(row.message), row.in_reply_to_id)
                for row in rows
            ]

    # --- what must not change ----------------------------------------------------

    def snapshot(self) -> Snapshot:
        state = self.game.state()
        current = state["orders"].get(state["phase"], {})
        with self.db.unit_of_work(readonly=True) as uow:
            game = self.game.game(uow)
            seats = {
                str(seat.power): (seat.person_id, str(seat.status), seat.password_hash)
                for seat in uow.session.scalars(select(Seat).where(Seat.game_id == game.id))
            }
            addresses = {a.address: a.person_id for a in uow.session.scalars(select(PersonAddress))}
            people = {
                p.id: (p.name, p.phone or "", p.postal_address or "")
                for p in uow.session.scalars(select(Person))
            }
        return Snapshot(
            orders=dict(current),
            seats=seats,
            game=(state["phase"], tuple(state["phases"]), state["state"]),
            addresses=addresses,
            people=people,
        )


# --- checks every outgoing mail must pass ------------------------------------------


def header_problems(raw: bytes) -> list[str]:
    """What is wrong with the header section of a mail the judge wrote (empty: nothing)."""
    problems: list[str] = []
    head, separator, _body = raw.partition(b"\r\n\r\n")
    if not separator:
        return ["no blank line between the header and the body"]
    for line in head.split(b"\r\n"):
        if len(line) > SMTP_LINE_LIMIT:
            problems.append(f"a header line of {len(line)} bytes")
        if b"\r" in line or b"\n" in line:
            problems.append(f"a bare CR or LF in a header line: {line[:80]!r}")
    text = head.decode("utf-8", "surrogateescape")
    unfolded = re.sub(r"\r\n(?=[ \t])", "", text)
    for line in unfolded.split("\r\n"):
        name, _colon, value = line.partition(":")
        if _CONTROL.search(value) or _SURROGATE_BYTES.search(value):
            problems.append(f"a control character in {name}: {value[:80]!r}")
            continue
        try:
            decoded = "".join(
                chunk if isinstance(chunk, str) else chunk.decode(charset or "ascii", "replace")
                for chunk, charset in email.header.decode_header(value)
            )
        except Exception as error:  # an encoded word a reader cannot decode is a defect too
            problems.append(f"{name} cannot be decoded: {error}")
            continue
        if _CONTROL.search(decoded.replace("\t", " ")):
            problems.append(f"a control character inside an encoded word of {name}: {decoded[:80]!r}")
    return problems


def check_outgoing(world: World, outgoing: list[Outgoing], allowed: set[str]) -> None:
    """Every mail queued because of one hostile mail: to allowed addresses only, clean, bounded."""
    cap = world.config.reply_max_bytes
    for mail in outgoing:
        assert VICTIM not in mail.recipients, f"mail queued to the forged address: {mail.recipients}"
        stray = set(mail.recipients) - allowed
        assert not stray, f"mail queued to {sorted(stray)}; only {sorted(allowed)} may get mail"
        assert header_problems(mail.raw) == [], header_problems(mail.raw)
        message = mail.message()
        for name in ("To", "Cc", "Bcc"):
            assert VICTIM not in str(message.get(name, "")), f"{name}: {message.get(name)}"
        assert message.get("Bcc") is None
        size = len(mail.body().encode("utf-8"))
        assert size <= cap + REPLY_SLACK, f"a mail of {size} bytes (cap {cap})"


def check_judge_still_answers(world: World) -> None:
    """A plain VERSION from a plain sender, right after: processed and answered once."""
    before = world.last_outgoing_id()
    count = len(world.game.harness.outbox())
    raw = (
        f"From: Normal Player <{NORMAL}>\r\nTo: {JUDGE}\r\nSubject: after\r\n"
        f"Message-ID: <after-{count}@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        "VERSION\r\n"
    ).encode()
    mail_id = world.inject(raw, NORMAL)
    world.drain()
    assert world.state_of(mail_id) is InboundState.PROCESSED, world.error_of(mail_id)
    replies = [m for m in world.outgoing_since(before) if m.in_reply_to == mail_id]
    assert [m.recipients for m in replies] == [(NORMAL,)]
    assert VERSION_ANSWER in replies[0].body()
