"""The inbound SMTP listener on a real loopback port, spoken to with smtplib.

Checks the promises of the door: only the judge's addresses (550), a clear
size refusal (552), 250 only once the store has committed, 451 (never 250)
when storing fails.
"""

from __future__ import annotations

import asyncio
import smtplib
import socket
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import pytest

from judge.mail.inbound import (
    FunctionStore,
    InboundStore,
    JudgeInboundHandler,
    JudgeSMTP,
    start_inbound_server,
)

JUDGE = "judge@example.org"
RECEIVED_AT = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
MAIL = b"From: player@example.net\r\nTo: judge@example.org\r\nSubject: orders\r\n\r\nSIGNON Fgame1 pw\r\nA Par - Bur\r\n"
T = TypeVar("T")


@dataclass
class RecordingStore:
    """Commits (appends) at the very end of store_inbound, like a database transaction."""

    committed: list[tuple[bytes, str, list[str], datetime, str]] = field(default_factory=list)
    calls: int = 0

    def store_inbound(
        self, raw: bytes, mail_from: str, rcpt_tos: list[str], received_at: datetime, peer: str
    ) -> int:
        self.calls += 1
        self.committed.append((raw, mail_from, rcpt_tos, received_at, peer))
        return len(self.committed)


class BrokenStore:
    def __init__(self) -> None:
        self.calls = 0

    def store_inbound(
        self, raw: bytes, mail_from: str, rcpt_tos: list[str], received_at: datetime, peer: str
    ) -> int:
        self.calls += 1
        raise OSError("database is down")


@asynccontextmanager
async def judge_server(
    store: InboundStore, max_size: int = 100_000, *, max_recipients: int = 100, session_max: float | None = 600
) -> AsyncIterator[int]:
    handler = JudgeInboundHandler(
        store, [JUDGE, "Dip@Example.org"], max_size, clock=lambda: RECEIVED_AT, max_recipients=max_recipients
    )
    server = await start_inbound_server(handler, "127.0.0.1", 0, session_max=session_max)
    try:
        yield server.port
    finally:
        await server.close()


async def in_thread(function: Callable[[], T]) -> T:
    """smtplib blocks, and the server lives in this event loop: the client runs in a thread."""
    return await asyncio.to_thread(function)


def send(port: int, recipients: list[str], data: bytes = MAIL) -> dict[str, tuple[int, bytes]]:
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        return client.sendmail("player@example.net", recipients, data)


@pytest.mark.asyncio
async def test_port_zero_gives_a_real_port() -> None:
    async with judge_server(RecordingStore()) as port:
        assert port > 0


@pytest.mark.asyncio
async def test_mail_for_the_judge_is_stored_with_its_envelope() -> None:
    store = RecordingStore()
    async with judge_server(store) as port:
        refused = await in_thread(lambda: send(port, ["JUDGE@example.org", "dip@example.org"]))
    assert refused == {}
    assert store.calls == 1
    raw, mail_from, rcpt_tos, received_at, peer = store.committed[0]
    assert raw == MAIL
    assert mail_from == "player@example.net"
    assert rcpt_tos == ["JUDGE@example.org", "dip@example.org"]
    assert received_at == RECEIVED_AT
    assert peer.startswith("127.0.0.1:")


@pytest.mark.asyncio
async def test_foreign_recipients_are_refused_with_550() -> None:
    store = RecordingStore()
    async with judge_server(store) as port:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as caught:
            await in_thread(lambda: send(port, ["victim@elsewhere.example"]))
    code, message = caught.value.recipients["victim@elsewhere.example"]
    assert code == 550
    assert b"judge@example.org" in message
    assert store.calls == 0


@pytest.mark.asyncio
async def test_a_foreign_recipient_beside_the_judge_is_dropped_from_the_envelope() -> None:
    store = RecordingStore()
    async with judge_server(store) as port:
        refused = await in_thread(
            lambda: send(port, ["judge@example.org", "victim@elsewhere.example"])
        )
    assert refused["victim@elsewhere.example"][0] == 550
    assert store.committed[0][2] == ["judge@example.org"]


@pytest.mark.asyncio
async def test_oversized_mail_declared_in_mail_from_gets_a_clear_552() -> None:
    store = RecordingStore()
    big = MAIL + b"x" * 2000 + b"\r\n"
    async with judge_server(store, max_size=1024) as port:
        with pytest.raises(smtplib.SMTPSenderRefused) as caught:  # smtplib declares SIZE=
            await in_thread(lambda: send(port, [JUDGE], big))
    assert caught.value.smtp_code == 552
    assert b"at most 1024 bytes" in caught.value.smtp_error
    assert store.calls == 0


@pytest.mark.asyncio
async def test_oversized_data_without_size_declaration_gets_a_clear_552() -> None:
    store = RecordingStore()

    def undeclared() -> tuple[int, bytes]:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            client.ehlo()
            client.mail("player@example.net")  # no SIZE= parameter
            client.rcpt(JUDGE)
            return client.data(MAIL + (b"y" * 70 + b"\r\n") * 100)

    async with judge_server(store, max_size=1024) as port:
        code, message = await in_thread(undeclared)
    assert code == 552
    assert b"at most 1024 bytes" in message
    assert store.calls == 0


def _data_after_envelope(port: int, data: bytes) -> tuple[int, bytes]:
    """DATA without a SIZE declaration, ``data`` written raw (smtplib would fold nothing)."""
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.ehlo()
        client.mail("player@example.net")
        client.rcpt(JUDGE)
        client.putcmd("data")
        code, _ = client.getreply()
        assert code == 354
        client.send(data + b"\r\n.\r\n")
        return client.getreply()


@pytest.mark.asyncio
async def test_a_one_line_mail_over_the_size_limit_gets_552_not_line_too_long() -> None:
    """Issue 25: an 11 MB mail of one line was answered "500 Line too long"; the size is what the
    sender must hear. A long line within the size limit is still refused as a long line."""
    store = RecordingStore()
    async with judge_server(store, max_size=10_000) as port:
        code, message = await in_thread(lambda: _data_after_envelope(port, b"Subject: x\r\n\r\n" + b"z" * 50_000))
        assert (code, b"at most 10000 bytes" in message) == (552, True), message
        code, message = await in_thread(lambda: _data_after_envelope(port, b"Subject: x\r\n\r\n" + b"z" * 2_000))
        assert code == 500 and b"Line too long" in message
        assert await in_thread(lambda: send(port, [JUDGE])) == {}  # the door still takes mail
    assert store.calls == 1


@pytest.mark.asyncio
async def test_recipients_past_the_limit_of_one_mail_get_452() -> None:
    store = RecordingStore()

    def many_rcpts() -> list[int]:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            client.ehlo()
            client.mail("player@example.net")
            codes = [client.rcpt(JUDGE)[0] for _ in range(6)]
            client.data(MAIL)
            return codes

    async with judge_server(store, max_recipients=3) as port:
        codes = await in_thread(many_rcpts)
    assert codes == [250, 250, 250, 452, 452, 452]
    assert [len(rcpts) for _raw, _from, rcpts, _at, _peer in store.committed] == [3]


@pytest.mark.asyncio
async def test_a_client_dripping_a_byte_at_a_time_is_cut_at_the_session_limit() -> None:
    """Issue 25: a client sending a byte every few seconds is never idle, so the idle timeout never
    cut it. The session limit does, with a 421 that says why."""

    def drip() -> bytes:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            received = client.recv(1024)  # the greeting
            for _ in range(2_000):  # bounded: the limit is far shorter than 2,000 drips
                try:
                    client.sendall(b"N")
                except OSError:
                    break
                time.sleep(0.01)
                client.setblocking(False)
                try:
                    chunk = client.recv(1024)
                except BlockingIOError:
                    chunk = None
                finally:
                    client.setblocking(True)
                if chunk == b"":
                    break
                received += chunk or b""
            return received

    async with judge_server(RecordingStore(), session_max=0.3) as port:
        received = await in_thread(drip)
    assert b"421 4.4.2 Connection open for too long" in received


@pytest.mark.asyncio
async def test_250_comes_only_after_the_store_committed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The door's reply to the data is observed at the moment the server pushes it: the mail must
    be committed by then. (Looking after the session ended caught a door answering before its
    commit only when the client happened to finish first.)"""
    entered = threading.Event()
    release = threading.Event()
    store = RecordingStore()
    pushed: list[tuple[str, int]] = []  # each reply the server sends, with the commits made by then
    real_push = JudgeSMTP.push

    async def observed_push(self: JudgeSMTP, status: str) -> None:
        pushed.append((str(status), len(store.committed)))
        await real_push(self, status)

    monkeypatch.setattr(JudgeSMTP, "push", observed_push)

    class SlowStore:
        def store_inbound(
            self, raw: bytes, mail_from: str, rcpt_tos: list[str], received_at: datetime, peer: str
        ) -> int:
            entered.set()
            release.wait(30)
            return store.store_inbound(raw, mail_from, rcpt_tos, received_at, peer)

    async with judge_server(SlowStore()) as port:
        sending = asyncio.ensure_future(in_thread(lambda: send(port, [JUDGE])))
        assert await in_thread(lambda: entered.wait(30))
        # The store has been called and has not returned: nothing committed yet.
        assert store.committed == []
        release.set()
        await sending
    statuses = [status[:3] for status, _ in pushed]
    data_reply = pushed[statuses.index("354") + 1]  # the reply to the mail's data, after "354 go ahead"
    assert data_reply[0].startswith("250") and data_reply[1] == 1, pushed


@pytest.mark.asyncio
async def test_a_failing_store_answers_451_never_250() -> None:
    store = BrokenStore()
    async with judge_server(store) as port:
        with pytest.raises(smtplib.SMTPDataError) as caught:
            await in_thread(lambda: send(port, [JUDGE]))
    assert caught.value.smtp_code == 451
    assert store.calls == 1


@pytest.mark.asyncio
async def test_a_store_committing_to_sqlite_is_readable_from_another_connection_after_250(
    tmp_path: Path,
) -> None:
    database = tmp_path / "inbound.sqlite3"
    with sqlite3.connect(database) as setup:
        setup.execute(
            "CREATE TABLE mail (id INTEGER PRIMARY KEY, raw BLOB, mail_from TEXT, peer TEXT)"
        )

    def store_row(
        raw: bytes, mail_from: str, rcpt_tos: list[str], received_at: datetime, peer: str
    ) -> int:
        connection = sqlite3.connect(database)
        try:
            with connection:  # commits on leaving the block
                cursor = connection.execute(
                    "INSERT INTO mail (raw, mail_from, peer) VALUES (?, ?, ?)",
                    (raw, mail_from, peer),
                )
            return int(cursor.lastrowid or 0)
        finally:
            connection.close()

    async with judge_server(FunctionStore(store_row)) as port:
        await in_thread(lambda: send(port, [JUDGE]))
    with sqlite3.connect(database) as reader:
        rows = reader.execute("SELECT raw, mail_from FROM mail").fetchall()
    assert rows == [(MAIL, "player@example.net")]


@pytest.mark.asyncio
async def test_many_concurrent_senders_are_all_stored() -> None:
    store = RecordingStore()
    async with judge_server(store) as port:
        await asyncio.gather(*(in_thread(lambda: send(port, [JUDGE])) for _ in range(20)))
    assert store.calls == 20


def test_a_judge_without_an_address_is_refused() -> None:
    with pytest.raises(ValueError):
        JudgeInboundHandler(RecordingStore(), [], 1000)
