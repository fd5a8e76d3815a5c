"""The judge's SMTP door: accept mail for the judge, store it durably, and only then say 250.

The listener parses nothing. RCPT accepts only the judge's own addresses and
its bounce addresses (judge.mail.verp: the worker tells a real token from a
forged one), 550 for anything else, so the judge is never an open relay; DATA refuses
mail over the size limit with a clear 552, hands the raw bytes to the
injected :class:`InboundStore` and answers 250 only after the store has
committed them. If storing fails the answer is 451: the sender's server keeps
the mail and tries again, so a mail is never lost between "accepted" and "stored".

Storing is synchronous database work; it runs in the handler's own small
thread pool, so the event loop keeps serving other connections meanwhile and
no other use of the default executor can starve the door.

The door faces the open internet, so it holds a bounded number of
connections (:class:`ConnectionLimits`: per client address and in all; one
more is answered 421 and closed at once), drops a client silent longer than
the idle timeout (421) and any connection open longer than the session
limit (421: a client dripping a byte at a time is never idle), refuses
recipients past the limit of one transaction (452, RFC 5321 §4.5.3.1.10),
answers a mail over the size limit 552 even when it came as one endless
line, and logs a repeated error once per minute with a count
(:mod:`judge.mail.lograte`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, AnyStr, Protocol

from aiosmtpd.smtp import SMTP, Envelope, Session

from judge.mail import lograte

log = logging.getLogger(__name__)

OK = "250 2.0.0 OK: stored, the judge will answer by mail"
UNKNOWN_RECIPIENT = "550 5.1.1 <{address}>: this judge accepts mail only for {own}"
TOO_BIG = "552 5.3.4 Message too big: this judge accepts at most {limit} bytes"
STORE_FAILED = "451 4.3.0 Temporary failure storing your message; please try again later"
TOO_MANY_FROM_YOU = "421 4.7.0 Too many connections from your address; try again later"
TOO_MANY_IN_ALL = "421 4.3.2 Too many connections; try again later"
IDLE_TOO_LONG = "421 4.4.2 Idle for too long; closing the connection"
SESSION_TOO_LONG = "421 4.4.2 Connection open for too long; closing it"
TOO_MANY_RECIPIENTS = "452 4.5.3 Too many recipients: at most {limit} in one mail"
_AIOSMTPD_TOO_BIG = ("552 Error: Too much mail data", "552 Error: message size exceeds")
_AIOSMTPD_LINE_TOO_LONG = "500 Line too long"


class InboundStore(Protocol):
    def store_inbound(
        self, raw: bytes, mail_from: str, rcpt_tos: list[str], received_at: datetime, peer: str
    ) -> int:
        """Store one received mail; return its id only once the data is committed."""
        ...


StoreFunction = Callable[[bytes, str, list[str], datetime, str], int]


@dataclass(frozen=True)
class FunctionStore:
    """An :class:`InboundStore` made of a function with the same arguments
    (e.g. ``FunctionStore(database.store_inbound_mail)``)."""

    function: StoreFunction

    def store_inbound(
        self, raw: bytes, mail_from: str, rcpt_tos: list[str], received_at: datetime, peer: str
    ) -> int:
        return self.function(raw, mail_from, rcpt_tos, received_at, peer)


Received = tuple[bytes, str, list[str], datetime, str]
"""One received mail as the door hands it on: raw bytes, envelope sender, recipients, time, peer."""


class _Waiting:
    __slots__ = ("error", "lead", "mail", "mail_id", "ready")

    def __init__(self, mail: Received) -> None:
        self.mail = mail
        self.ready = threading.Event()
        self.lead = False
        self.mail_id: int | None = None
        self.error: BaseException | None = None


class GroupCommitStore:
    """An :class:`InboundStore` that commits the mails arriving together in one transaction
    (group commit, issue 14): the door's store threads queue their mail; one of them (the
    leader) commits everything queued so far with ``store_many``, in one transaction and one
    durable commit, then hands over to the next waiting thread. Each call still returns only
    once its own mail is committed (the 250 waits for it), and no mail waits for mail that
    came after it. If a group's transaction fails, each of its mails is stored again alone,
    so one bad mail costs only its own 451.
    """

    def __init__(self, store_many: Callable[[list[Received]], list[int]]) -> None:
        self.store_many = store_many
        self._lock = threading.Lock()
        self._queue: list[_Waiting] = []
        self._leading = False

    def store_inbound(
        self, raw: bytes, mail_from: str, rcpt_tos: list[str], received_at: datetime, peer: str
    ) -> int:
        waiting = _Waiting((raw, mail_from, rcpt_tos, received_at, peer))
        with self._lock:
            self._queue.append(waiting)
            if not self._leading:
                self._leading = waiting.lead = True
        if not waiting.lead:
            waiting.ready.wait()
        if waiting.lead:  # from the start, or handed over by the leader before
            self._commit_queued()
        if waiting.error is not None:
            raise waiting.error
        assert waiting.mail_id is not None
        return waiting.mail_id

    def _commit_queued(self) -> None:
        with self._lock:
            group, self._queue = self._queue, []
        try:
            self._commit(group)
        finally:
            with self._lock:
                successor = self._queue[0] if self._queue else None
                if successor is None:
                    self._leading = False
                else:
                    successor.lead = True
            for member in group:
                member.ready.set()
            if successor is not None:
                successor.ready.set()

    def _commit(self, group: list[_Waiting]) -> None:
        try:
            ids = self.store_many([member.mail for member in group])
        except Exception as error:
            if len(group) == 1:
                group[0].error = error
                return
            for member in group:  # one bad mail must not cost the others their 250
                try:
                    member.mail_id = self.store_many([member.mail])[0]
                except Exception as alone:
                    member.error = alone
            return
        except BaseException as error:
            for member in group:
                member.error = error
            raise
        for member, mail_id in zip(group, ids, strict=True):
            member.mail_id = mail_id


def _utc_now() -> datetime:
    return datetime.now(UTC)


class JudgeInboundHandler:
    """aiosmtpd handler: validate the envelope, store the data, then answer."""

    def __init__(
        self,
        store: InboundStore,
        own_addresses: Iterable[str],
        max_message_size: int,
        *,
        clock: Callable[[], datetime] = _utc_now,
        store_threads: int = 4,
        max_recipients: int = 100,
        also_accepts: Callable[[str], bool] | None = None,
    ) -> None:
        self.store = store
        self.also_accepts = also_accepts
        self.max_recipients = max_recipients
        self.own_addresses = frozenset(a.strip().lower() for a in own_addresses)
        if not self.own_addresses:
            raise ValueError("the judge needs at least one address to accept mail for")
        self.max_message_size = max_message_size
        self.clock = clock
        self._executor = ThreadPoolExecutor(store_threads, thread_name_prefix="judge-inbound-store")

    def shutdown(self) -> None:
        """Stop the store threads (after the server is closed)."""
        self._executor.shutdown(wait=True)

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if address.strip().strip("<>").lower() not in self.own_addresses and not (
            self.also_accepts is not None and self.also_accepts(address)
        ):
            own = ", ".join(sorted(self.own_addresses))
            return UNKNOWN_RECIPIENT.format(address=address, own=own)
        if len(envelope.rcpt_tos) >= self.max_recipients:
            return TOO_MANY_RECIPIENTS.format(limit=self.max_recipients)
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content
        if raw is None:
            content = envelope.content
            raw = (
                content.encode("utf-8", "surrogateescape") if isinstance(content, str) else content
            )
        raw = bytes(raw or b"")
        if len(raw) > self.max_message_size:
            return TOO_BIG.format(limit=self.max_message_size)
        mail_from = envelope.mail_from or ""
        rcpt_tos = list(envelope.rcpt_tos)
        peer = _peer_text(session.peer)
        received_at = self.clock()
        try:
            store = functools.partial(
                self.store.store_inbound, raw, mail_from, rcpt_tos, received_at, peer
            )
            mail_id = await asyncio.get_running_loop().run_in_executor(self._executor, store)
        except Exception:
            log.exception("could not store mail from %s (peer %s); answered 451", mail_from, peer)
            return STORE_FAILED
        log.info("stored mail %s from %s (%d bytes)", mail_id, mail_from, len(raw))
        return OK


def _peer_text(peer: Any) -> str:
    if isinstance(peer, tuple) and len(peer) >= 2:
        return f"{peer[0]}:{peer[1]}"
    return str(peer or "")


class ConnectionLimits:
    """How many SMTP connections are open, per client address and in all, against the caps.

    Used from the event loop thread only (connections are made and lost there).
    """

    def __init__(self, total: int, per_client: int) -> None:
        if total < 1 or per_client < 1:
            raise ValueError("connection caps must be at least 1")
        self.total = total
        self.per_client = per_client
        self.open = 0
        self._by_client: dict[str, int] = {}

    def admit(self, client: str) -> str | None:
        """Count one more connection from ``client``; the refusal to send when over a cap."""
        if self._by_client.get(client, 0) >= self.per_client:
            return TOO_MANY_FROM_YOU
        if self.open >= self.total:
            return TOO_MANY_IN_ALL
        self._by_client[client] = self._by_client.get(client, 0) + 1
        self.open += 1
        return None

    def release(self, client: str) -> None:
        count = self._by_client.get(client, 0) - 1
        if count > 0:
            self._by_client[client] = count
        else:
            self._by_client.pop(client, None)
        self.open = max(self.open - 1, 0)

    def from_client(self, client: str) -> int:
        return self._by_client.get(client, 0)


class JudgeSMTP(SMTP):
    """aiosmtpd's protocol with a size refusal that tells the sender the limit, connection caps,
    an idle timeout that says why it closes, and a limit on the whole session's time."""

    def __init__(
        self, *args: Any, limits: ConnectionLimits | None = None, session_max: float | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self._limits = limits
        self._client: str | None = None
        self._refused = False
        self._session_max = session_max
        self._session_timer: asyncio.TimerHandle | None = None
        self._data_bytes: int | None = None
        """Bytes received since DATA was accepted (None outside DATA): what a 500 for a long line
        checks against the size limit, since aiosmtpd stops counting once a line is too long."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if self._limits is not None and self._client is None and not self._refused:
            client = _client_of(transport.get_extra_info("peername"))
            refusal = self._limits.admit(client)
            if refusal is not None:
                self._refused = True
                log.warning("refused an SMTP connection from %s: %s", client, refusal)
                if isinstance(transport, asyncio.WriteTransport):
                    transport.write(refusal.encode("ascii") + b"\r\n")
                transport.close()
                return
            self._client = client
        if self._session_max is not None and self._session_timer is None:
            self._session_timer = asyncio.get_running_loop().call_later(self._session_max, self._session_too_long)
        super().connection_made(transport)

    def connection_lost(self, error: Exception | None) -> None:
        if self._refused:
            return
        if self._session_timer is not None:
            self._session_timer.cancel()
        try:
            super().connection_lost(error)
        finally:
            if self._limits is not None and self._client is not None:
                self._limits.release(self._client)
                self._client = None

    def data_received(self, data: bytes) -> None:
        """Any byte from the client counts as activity: a slow upload of a big mail is not idle.

        (aiosmtpd restarts its timer only at each command, which would cut a
        DATA longer than the idle timeout.)
        """
        if self._refused:
            return
        if self._timeout_handle is not None:
            self._reset_timeout()
        if self._data_bytes is not None:
            self._data_bytes += len(data)
        super().data_received(data)

    def _session_too_long(self) -> None:
        """Say 421 and close a connection open longer than the session limit, however active."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        log.warning("closed an SMTP connection from %s open for %ss", self._client, self._session_max)
        if isinstance(transport, asyncio.WriteTransport):
            transport.write(SESSION_TOO_LONG.encode("ascii") + b"\r\n")
        transport.close()

    def _timeout_cb(self) -> None:
        """Say 421 before closing a connection idle too long (aiosmtpd just closes it)."""
        transport = self.transport
        if isinstance(transport, asyncio.WriteTransport) and not transport.is_closing():
            transport.write(IDLE_TOO_LONG.encode("ascii") + b"\r\n")
        super()._timeout_cb()  # type: ignore[no-untyped-call]

    async def push(self, status: AnyStr) -> None:
        text = status.decode("ascii", "replace") if isinstance(status, bytes) else status
        received, self._data_bytes = self._data_bytes, (0 if text.startswith("354") else None)
        limit = self.data_size_limit
        over = limit is not None and limit > 0 and received is not None and received > limit
        # One endless line over the size limit: the size is what the sender must hear.
        too_big = text.startswith(_AIOSMTPD_TOO_BIG) or (text.startswith(_AIOSMTPD_LINE_TOO_LONG) and over)
        if too_big and self.data_size_limit:
            await super().push(TOO_BIG.format(limit=self.data_size_limit))
            return
        await super().push(status)


def _client_of(peer: Any) -> str:
    """The client's address without the port (what the per-client cap counts)."""
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return str(peer or "")


@dataclass
class InboundServer:
    """A listening SMTP server; ``port`` is the real port (useful when 0 was asked for)."""

    server: asyncio.Server
    handler: JudgeInboundHandler
    host: str
    port: int
    limits: ConnectionLimits | None = None

    async def close(self) -> None:
        """Stop listening, let stores under way finish, then stop the store threads."""
        self.server.close()
        await self.server.wait_closed()
        await asyncio.to_thread(self.handler.shutdown)


async def start_inbound_server(
    handler: JudgeInboundHandler,
    host: str = "127.0.0.1",
    port: int = 2525,
    *,
    hostname: str | None = None,
    ident: str = "Diplomacy Judge ESMTP",
    max_connections: int = 200,
    max_connections_per_client: int = 25,
    idle_timeout: float = 60.0,
    session_max: float | None = 600.0,
) -> InboundServer:
    """Listen on ``host:port`` inside the running event loop (port 0 picks a free port).

    The protocol enforces the handler's size limit while reading (it stops
    buffering past the limit) and advertises it in EHLO ``SIZE``. Past
    ``max_connections`` open connections, or ``max_connections_per_client``
    from one address, a new connection is answered 421 and closed; a client
    silent ``idle_timeout`` seconds between commands is disconnected, and any
    connection open ``session_max`` seconds (421).
    """
    loop = asyncio.get_running_loop()
    limits = ConnectionLimits(max_connections, max_connections_per_client)
    lograte.install()

    def protocol() -> SMTP:
        return JudgeSMTP(
            handler,
            data_size_limit=handler.max_message_size,
            enable_SMTPUTF8=True,
            hostname=hostname or host,
            ident=ident,
            loop=loop,
            timeout=idle_timeout,
            limits=limits,
            session_max=session_max,
        )

    server = await loop.create_server(protocol, host=host, port=port)
    bound = server.sockets[0].getsockname()
    return InboundServer(server, handler, host, int(bound[1]), limits)
