"""Hostile mail through the real worker: store raw bytes as the door does, drain, read the outbox."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_string, policy
from email.message import EmailMessage

from judge.app.mail_in.worker import process_next_mail
from judge.app.session.services import Services
from judge.db.enums import InboundState
from judge.db.models import InboundMail, OutboundMail
from judge.timekeeping.clock import FakeClock

JUDGE = "judge@example.org"
KEEPER = "keeper@example.org"
START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def raw_mail(headers: str, body: str, *, message_id: str = "<hostile@test>") -> bytes:
    """A mail with the given header lines (CRLF-terminated, UTF-8 allowed) and a plain body."""
    return (
        f"{headers}To: {JUDGE}\r\nSubject: test\r\nMessage-ID: {message_id}\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\n" + body.replace("\n", "\r\n")
    ).encode("utf-8")


class MailHarness:
    def __init__(self, services: Services, clock: FakeClock) -> None:
        self.services = services
        self.clock = clock

    def store(self, raw: bytes, envelope_sender: str = "someone@example.net") -> int:
        return self.services.db.store_inbound_mail(raw, envelope_sender, [JUDGE], self.clock.now())

    def drain(self) -> int:
        count = 0
        while process_next_mail(self.services):
            count += 1
        return count

    def states(self) -> list[InboundState]:
        with self.services.db.unit_of_work(readonly=True) as uow:
            return [m.state for m in uow.session.query(InboundMail).order_by(InboundMail.id)]

    def errors(self) -> list[str | None]:
        with self.services.db.unit_of_work(readonly=True) as uow:
            return [m.error for m in uow.session.query(InboundMail).order_by(InboundMail.id)]

    def outbox_rows(self) -> list[tuple[list[str], bytes]]:
        with self.services.db.unit_of_work(readonly=True) as uow:
            rows = uow.session.query(OutboundMail).order_by(OutboundMail.id).all()
            return [(list(row.recipients), bytes(row.message)) for row in rows]

    def outbox_recipients(self) -> list[list[str]]:
        return [recipients for recipients, _ in self.outbox_rows()]

    def replies(self) -> list[EmailMessage]:
        parsed = []
        for _recipients, data in self.outbox_rows():
            # UTF-8 headers (RFC 6532) read as text, as a SMTPUTF8 mail reader does.
            message = message_from_string(data.decode("utf-8"), policy=policy.SMTPUTF8)
            assert isinstance(message, EmailMessage)
            parsed.append(message)
        return parsed


def body_text(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content())
