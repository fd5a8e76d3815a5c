"""The app-layer test harness: a fresh database, a fake clock, mail in, replies out.

Tests inject raw mail as the SMTP door would store it, run the worker until
the queue is empty, and read what the judge queued in the outbox (Mailman's
way of testing command mail).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.app.mail_in.worker import process_next_mail
from judge.app.mail_out.results_maps import ResultsPictures
from judge.app.mail_out.sender import deliverable_message
from judge.app.session.services import Services
from judge.config import load_config
from judge.db.database import Database
from judge.db.enums import OutboundState
from judge.db.models import OutboundMail
from judge.timekeeping.clock import FakeClock

JUDGE = "judge@example.org"


class Harness:
    def __init__(self, services: Services, clock: FakeClock) -> None:
        self.services = services
        self.clock = clock
        self._seen = 0  # how many queued messages new_mail has returned
        self._read_up_to = 0  # the last outbox row new_mail returned
        self._pictures = ResultsPictures()
        self._count = 0
        self._parsed: dict[int, tuple[bytes, EmailMessage]] = {}
        self.others: list[EmailMessage] = []
        self.copies: list[EmailMessage] = []

    @property
    def db(self) -> Database:
        return self.services.db

    def send(self, sender: str, body: str, *, subject: str = "orders", headers: str = "") -> int:
        """Store a mail as the SMTP door would, return its id."""
        self._count += 1
        raw = (
            f"From: {sender}\r\nTo: {JUDGE}\r\nSubject: {subject}\r\n"
            f"Message-ID: <m{self._count}@test>\r\n{headers}"
            "Content-Type: text/plain; charset=utf-8\r\n\r\n" + body.replace("\n", "\r\n")
        ).encode("utf-8")
        return self.db.store_inbound_mail(raw, sender, [JUDGE], self.clock.now())

    def drain(self) -> int:
        processed = 0
        while process_next_mail(self.services):
            processed += 1
        return processed

    def outbox(self) -> list[EmailMessage]:
        """Every message queued so far, oldest first, as the sender would deliver it (a results
        mail with its map attached, drawn as the sender draws it)."""
        return [message for _id, message in self._queued_after(0)]

    def _queued_after(self, last_id: int) -> list[tuple[int, EmailMessage]]:
        """The messages queued after the outbox row ``last_id``, oldest first, with their row ids."""
        with self.db.unit_of_work(readonly=True) as uow:
            rows = [
                (row.id, bytes(row.message), row.map_phase_id, row.map_language)
                for row in uow.session.query(OutboundMail).filter(OutboundMail.id > last_id).order_by(OutboundMail.id)
            ]
        return [(id, self._delivered(id, message, phase, language)) for id, message, phase, language in rows]

    def _delivered(self, id: int, message: bytes, phase: int | None, language: str | None = None) -> EmailMessage:
        """One outbox row as delivered. A row without a map goes out as its bytes: parsed once
        (tests read the whole outbox after every mail, and parsing it all again each time made
        the long games quadratic), and parsed again if its bytes ever differ."""
        if phase is None:
            cached = self._parsed.get(id)
            if cached is not None and cached[0] == message:
                return cached[1]
        parsed = message_from_bytes(
            deliverable_message(self.services, self._pictures, message, phase, language or "en"),
            policy=policy.default,
        )
        assert isinstance(parsed, EmailMessage)
        if phase is None:
            self._parsed[id] = (message, parsed)
        return parsed

    def new_mail(self) -> list[EmailMessage]:
        """Messages queued since the last call (only those are read: a long game read its whole
        outbox again after every mail)."""
        fresh = self._queued_after(self._read_up_to)
        if fresh:
            self._read_up_to = fresh[-1][0]
        self._seen += len(fresh)
        return [message for _id, message in fresh]

    def exchange(self, sender: str, body: str, **kwargs: str) -> EmailMessage:
        """Send one mail, process it, return the reply to the sender (the reply's copies to other
        addresses, one mail each: ``self.copies``; other new mail: ``self.others``)."""
        self.send(sender, body, **kwargs)
        self.drain()
        fresh = self.new_mail()
        replies = [m for m in fresh if sender in str(m["To"]) and m["In-Reply-To"]]
        assert replies, f"no reply to {sender}; queued: {[m['Subject'] for m in fresh]}"
        reply = replies[-1]
        self.copies = [m for m in fresh if m is not reply and m["In-Reply-To"] == reply["In-Reply-To"]]
        self.others = [m for m in fresh if m is not reply and not any(m is c for c in self.copies)]
        return reply

    def pending(self) -> int:
        with self.db.unit_of_work(readonly=True) as uow:
            return uow.outbox.count(OutboundState.PENDING)


def one_text(messages: list[EmailMessage]) -> EmailMessage:
    """The copies of one text the judge sent to several readers, one mail each (issue 24), read as
    one message whose ``To`` lists the readers: every copy must name one reader, and all the
    copies must have the same subject and body."""
    assert messages, "no mail"
    first = messages[0]
    readers: list[str] = []
    for message in messages:
        [reader] = message["To"].addresses
        assert (message["Subject"], text(message)) == (first["Subject"], text(first)), "copies differ"
        readers.append(reader.addr_spec)
    merged = message_from_bytes(first.as_bytes(), policy=policy.default)
    assert isinstance(merged, EmailMessage)
    del merged["To"]
    merged["To"] = ", ".join(readers)
    return merged


def text(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    return part.get_content()  # type: ignore[no-any-return]


@pytest.fixture
def harness(database: Database, tmp_path: Path) -> Iterator[Harness]:
    yield new_harness(database, tmp_path)


@pytest.fixture
def sqlite_harness(sqlite_database: Database, tmp_path: Path) -> Harness:
    """A harness on SQLite only (a test too long to run on both engines, whose stored state the
    per-engine tests already cover)."""
    return new_harness(sqlite_database, tmp_path)


def new_harness(database: Database, tmp_path: Path) -> Harness:
    """A harness on ``database`` with the suite's judge configuration and a fake clock."""
    clock = FakeClock(datetime(2026, 11, 23, 9, 0, tzinfo=UTC))
    config = load_config(
        {
            "JUDGE_ADDRESS": JUDGE,
            "JUDGE_CODE": "XPY",
            "JUDGE_ADMIN": "keeper@example.org",
            "JUDGE_DATA_DIR": str(tmp_path),
            "JUDGE_DATABASE_URL": database.url,
            "JUDGE_RATE_LIMIT_MESSAGES": "0",
            # Short and common passwords are the fixtures' (pw0, secret): the rules for new
            # passwords are tested on their own, with the defaults (test_password_rules.py).
            "JUDGE_PASSWORD_MIN_LENGTH": "1",
            "JUDGE_PASSWORD_COMMON_REFUSED": "0",
        }
    )
    return Harness(Services(db=database, config=config, clock=clock), clock)
