"""Mail edges benchmark: the inbound SMTP door beside a do-nothing aiosmtpd server, plus decoding.

Sends the same order mail over loopback SMTP (several client threads, one
connection each, many mails per connection) to three servers started in the
same run: a do-nothing aiosmtpd handler (the raw figure), the judge's
inbound handler with an in-memory store, and the judge's handler with a
store that commits every mail to an SQLite file (WAL, synchronous=FULL) —
the durable path a judge answering 250 really takes. Prints mails/s and
each ratio to the raw figure. Then decodes the tests/data/raw corpus and
renders replies, in mails/s.

    .venv/bin/python benchmarks/bench_mail_edges.py [--mails 2000] [--clients 8]

Figures only; nothing here is asserted (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import asyncio
import smtplib
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aiosmtpd.smtp import SMTP, Envelope, Session

from judge.mail.compose import AutoSubmitted, JudgeIdentity, render
from judge.mail.decode import decode_mail
from judge.mail.inbound import JudgeInboundHandler, start_inbound_server

MAIL = (
    b"From: Player <player@example.net>\r\nTo: judge@example.org\r\nSubject: orders\r\n"
    b"Message-ID: <bench@example.net>\r\n\r\nSIGNON Fgame1 secret\r\nA Par - Bur\r\n"
    b"A Mar - Spa\r\nF Bre - Mao\r\nSIGNOFF\r\n"
)


class NothingHandler:
    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        return "250 OK"


class MemoryStore:
    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()

    def store_inbound(
        self, raw: bytes, mail_from: str, rcpt_tos: list[str], received_at: datetime, peer: str
    ) -> int:
        with self.lock:
            self.count += 1
            return self.count


class SqliteStore:
    """One connection per thread; every mail its own committed transaction."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.local = threading.local()
        with sqlite3.connect(path) as connection:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute(
                "CREATE TABLE mail (id INTEGER PRIMARY KEY, raw BLOB, mail_from TEXT, received_at TEXT, peer TEXT)"
            )

    def store_inbound(
        self, raw: bytes, mail_from: str, rcpt_tos: list[str], received_at: datetime, peer: str
    ) -> int:
        connection = getattr(self.local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(self.path, timeout=30)
            connection.execute("PRAGMA synchronous=FULL")
            self.local.connection = connection
        with connection:
            cursor = connection.execute(
                "INSERT INTO mail (raw, mail_from, received_at, peer) VALUES (?, ?, ?, ?)",
                (raw, mail_from, received_at.isoformat(), peer),
            )
        return int(cursor.lastrowid or 0)


def serve_in_thread(start: Callable[[], Any]) -> tuple[int, Callable[[], None]]:
    """Run a server made by ``start`` (a coroutine factory returning (port, closer)) in its own loop."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    box: dict[str, Any] = {}

    def run() -> None:
        asyncio.set_event_loop(loop)
        box["port"], box["close"] = loop.run_until_complete(start())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait()

    def stop() -> None:
        asyncio.run_coroutine_threadsafe(box["close"](), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        thread.join()

    return int(box["port"]), stop


async def start_nothing() -> tuple[int, Callable[[], Any]]:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: SMTP(NothingHandler(), hostname="bench", loop=loop), "127.0.0.1", 0
    )

    async def close() -> None:
        server.close()
        await server.wait_closed()

    return int(server.sockets[0].getsockname()[1]), close


def judge_starter(store: Any) -> Callable[[], Any]:
    async def start() -> tuple[int, Callable[[], Any]]:
        handler = JudgeInboundHandler(store, ["judge@example.org"], 10 * 1024 * 1024)
        server = await start_inbound_server(handler, "127.0.0.1", 0)
        return server.port, server.close

    return start


def blast(port: int, mails: int, clients: int) -> float:
    """Mails per second accepted (250) by the server on ``port``."""
    share = [mails // clients + (1 if i < mails % clients else 0) for i in range(clients)]

    def client(count: int) -> None:
        with smtplib.SMTP("127.0.0.1", port, timeout=60) as connection:
            for _ in range(count):
                connection.sendmail("player@example.net", ["judge@example.org"], MAIL)

    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, share))
    return mails / (time.perf_counter() - started)


def measure(name: str, start: Callable[[], Any], mails: int, clients: int) -> float:
    port, stop = serve_in_thread(start)
    try:
        blast(port, min(200, mails), clients)  # warm-up
        return blast(port, mails, clients)
    finally:
        stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mails", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()

    raw = measure("raw", start_nothing, args.mails, args.clients)
    memory = measure("judge+memory", judge_starter(MemoryStore()), args.mails, args.clients)
    with tempfile.TemporaryDirectory() as directory:
        sqlite = measure(
            "judge+sqlite",
            judge_starter(SqliteStore(Path(directory) / "in.sqlite3")),
            args.mails,
            args.clients,
        )
    print(f"SMTP on loopback, {args.mails} mails, {args.clients} client connections")
    print(f"  do-nothing aiosmtpd          {raw:8.0f} mails/s")
    print(f"  judge door, memory store     {memory:8.0f} mails/s   ratio {memory / raw:.2f}")
    print(f"  judge door, SQLite committed {sqlite:8.0f} mails/s   ratio {sqlite / raw:.2f}")

    corpus = [
        p.read_bytes()
        for p in sorted((Path(__file__).resolve().parent.parent / "tests/data/raw").glob("*.eml"))
    ]
    rounds = 300
    started = time.perf_counter()
    for _ in range(rounds):
        for mail in corpus:
            decode_mail(mail)
    decoded = rounds * len(corpus) / (time.perf_counter() - started)
    identity = JudgeIdentity("judge@example.org", "XPY")
    now = datetime.now(UTC)
    started = time.perf_counter()
    for _ in range(3000):
        render(
            identity, "p@x.org", "Re: XPY:game1 - S1901M orders", "France: Army Paris -> Burgundy.\n" * 10,
            now=now, auto_submitted=AutoSubmitted.REPLIED,
        )  # fmt: skip
    composed = 3000 / (time.perf_counter() - started)
    print(f"decode_mail over the {len(corpus)}-mail corpus  {decoded:8.0f} mails/s")
    print(f"render (compose to wire bytes)      {composed:8.0f} mails/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
