"""End-to-end plumbing: a judge server and a capture relay on loopback, mail in by smtplib.

The tests are plain synchronous functions that talk SMTP like a player's mail
program would; the judge (and the relay that catches what it sends) run in an
asyncio loop on a background thread. Nothing is faked between the two SMTP
conversations: the door, the database, the worker, the handlers and the
outbound sender are the real ones.
"""

from __future__ import annotations

import asyncio
import itertools
import smtplib
import socket
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any, TypeVar

from aiosmtpd.smtp import SMTP, Envelope, Session

from judge.app.runtime.judge_server import JudgeServer
from judge.db.database import Database
from judge.db.enums import InboundState, OutboundState
from judge.db.models import InboundMail, OutboundMail

JUDGE = "judge@example.org"
ADMIN = "keeper@example.org"
CODE = "XPY"
WAIT_SECONDS = 120.0
"""Upper bound for anything to arrive; generous because CI machines are shared and slow (a judge
process started while the suite's two workers run browsers and Postfix was seen to need 30 s to
listen and 20 s more to import its worker and answer)."""

T = TypeVar("T")


class LoopThread:
    """An asyncio event loop running on its own thread, for servers under test."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="e2e-loop", daemon=True)
        self._thread.start()

    def run(self, work: Coroutine[Any, Any, T], timeout: float = WAIT_SECONDS) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)
        self.loop.close()


class OffsetClock:
    """The real clock, plus an offset a test can move forward (a deadline "days later")."""

    def __init__(self) -> None:
        self.offset = timedelta(0)

    def now(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def advance(self, **amount: float) -> None:
        self.offset += timedelta(**amount)


@dataclass
class Captured:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes
    _parsed: EmailMessage | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def message(self) -> EmailMessage:
        """The captured bytes, parsed once: tests poll the whole capture many times a second,
        and parsing it again on every poll made the long games quadratic in their mail."""
        if self._parsed is None:
            parsed = message_from_bytes(self.data, policy=policy.default)
            assert isinstance(parsed, EmailMessage)
            self._parsed = parsed
        return self._parsed


@dataclass
class _CaptureHandler:
    received: list[Captured] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        with self.lock:
            self.received.append(
                Captured(
                    envelope.mail_from or "",
                    list(envelope.rcpt_tos),
                    bytes(envelope.original_content or b""),
                )
            )
        return "250 OK captured"


class CaptureRelay:
    """The judge's smarthost in tests: an aiosmtpd server that keeps every message it gets.

    :meth:`stop` and :meth:`start` again on the same port play a relay that is down for a while.
    """

    def __init__(self, loop: LoopThread) -> None:
        self._loop = loop
        self.handler = _CaptureHandler()
        self.port = 0
        self._server: asyncio.Server | None = None

    def start(self) -> int:
        async def start() -> asyncio.Server:
            loop = asyncio.get_running_loop()
            return await loop.create_server(
                lambda: SMTP(self.handler, hostname="relay.test", loop=loop),
                "127.0.0.1",
                self.port,
                reuse_address=True,
            )

        self._server = self._loop.run(start())
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self.port

    def stop(self) -> None:
        server = self._server
        if server is None:
            return
        self._server = None

        async def stop() -> None:
            server.close()
            await server.wait_closed()

        self._loop.run(stop())

    @property
    def received(self) -> list[Captured]:
        with self.handler.lock:
            return list(self.handler.received)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"


def wait_until(
    condition: Callable[[], T],
    *,
    timeout: float = WAIT_SECONDS,
    what: str = "",
    explain: Callable[[], str] | None = None,
) -> T:
    """Poll ``condition`` until it returns something true; fail the test after ``timeout``.

    ``explain`` adds what the failure message should show (a server's log, say), so that a
    timeout on a CI machine says why rather than only how long it waited.
    """
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            detail = f"\n{explain()}" if explain is not None else ""
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what or condition}{detail}")
        time.sleep(0.02)  # short: the judge answers in tens of milliseconds, and a poll is cheap


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


_counter = itertools.count(1)


def build_mail(
    sender: str,
    body: str,
    *,
    subject: str = "orders",
    to: str = JUDGE,
    headers: Sequence[tuple[str, str]] = (),
    charset: str = "utf-8",
    html: bool = False,
    cte: str | None = None,
) -> EmailMessage:
    """A mail as a player's program would write it (a fresh Message-ID each time)."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(f"e2e{next(_counter)}", domain="player.test")
    for name, value in headers:
        message[name] = value
    subtype = "html" if html else "plain"
    if cte is None:
        message.set_content(body, subtype=subtype, charset=charset)
    else:
        message.set_content(body, subtype=subtype, charset=charset, cte=cte)
    return message


def wire(message: EmailMessage) -> bytes:
    """The message as a mail program puts it on the wire: CRLF line ends."""
    return message.as_bytes(policy=policy.SMTP)


def send(
    port: int, message: EmailMessage | bytes, *, mail_from: str, rcpt: Sequence[str] = (JUDGE,)
) -> None:
    """Hand one mail to the judge's door over SMTP (raises on any refusal)."""
    with smtplib.SMTP("127.0.0.1", port, timeout=WAIT_SECONDS) as client:
        data = message if isinstance(message, bytes) else wire(message)
        client.sendmail(mail_from, list(rcpt), data)


class E2EJudge:
    """A running judge server and its capture relay, with the helpers a test talks through."""

    def __init__(
        self, server: JudgeServer, relay: CaptureRelay, db: Database, clock: OffsetClock
    ) -> None:
        self.server = server
        self.relay = relay
        self.db = db
        self.clock = clock

    @property
    def port(self) -> int:
        return self.server.port

    def mail(self, sender: str, body: str, **options: Any) -> str:
        """Send a plain mail from ``sender`` (envelope and From); return its Message-ID."""
        message = build_mail(sender, body, **options)
        send(self.port, message, mail_from=sender)
        return str(message["Message-ID"])

    def send(self, message: EmailMessage, *, mail_from: str | None = None) -> str:
        send(self.port, message, mail_from=mail_from or _address(str(message["From"])))
        return str(message["Message-ID"])

    def reply_to(self, message_id: str, *, timeout: float = WAIT_SECONDS) -> EmailMessage:
        """The judge's reply to the mail with ``message_id``, once the relay has it."""
        found = wait_until(
            lambda: [c for c in self.relay.received if c.message["In-Reply-To"] == message_id],
            timeout=timeout,
            what=f"the reply to {message_id}",
        )
        assert len(found) == 1, f"{len(found)} replies to {message_id}"
        return found[0].message

    def exchange(self, sender: str, body: str, **options: Any) -> EmailMessage:
        return self.reply_to(self.mail(sender, body, **options))

    def messages_to(self, address: str) -> list[EmailMessage]:
        return [c.message for c in self.relay.received if address in c.rcpt_tos]

    def wait_for_mail(
        self, predicate: Callable[[EmailMessage], bool], *, count: int = 1, what: str = ""
    ) -> list[EmailMessage]:
        """Wait until at least ``count`` captured messages satisfy ``predicate``; return them."""
        return wait_until(
            lambda: (lambda found: found if len(found) >= count else [])(
                [c.message for c in self.relay.received if predicate(c.message)]
            ),
            what=what or "mail",
        )

    def inbound_states(self) -> list[InboundState]:
        with self.db.unit_of_work(readonly=True) as uow:
            rows = uow.session.query(InboundMail).order_by(InboundMail.id).all()
            return [row.state for row in rows]

    def outbox(self) -> list[OutboundMail]:
        with self.db.unit_of_work(readonly=True) as uow:
            return list(uow.session.query(OutboundMail).order_by(OutboundMail.id).all())

    def settled(self) -> bool:
        """True when every stored mail was handled and the outbox holds nothing pending."""
        states = self.inbound_states()
        pending = [m for m in self.outbox() if m.state is OutboundState.PENDING]
        return InboundState.RECEIVED not in states and not pending


def _address(header: str) -> str:
    from email.utils import parseaddr

    return parseaddr(header)[1]


def text(message: EmailMessage) -> str:
    """The text/plain body of a message the judge sent, decoded, with ``\n`` line ends."""
    part = message.get_body(("plain",))
    assert part is not None, "no text/plain part"
    content = part.get_content()
    assert isinstance(content, str)
    return content.replace("\r\n", "\n")
