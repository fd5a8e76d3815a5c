"""Benchmark of the whole judge: order mails over SMTP on loopback, reply in the outbox.

Prints figures; asserts nothing (timings are not tests). Run with

    .venv/bin/python benchmarks/bench_end_to_end.py
    .venv/bin/python benchmarks/bench_end_to_end.py --postgres-url postgresql+psycopg://postgres@127.0.0.1:5432/test

Two servers are measured in the same run, with the same clients sending the
same mails (one SMTP connection per mail, as players' mail servers do):

* raw: an aiosmtpd server whose DATA handler does nothing but answer 250;
* judge: the real ``JudgeServer`` (SMTP door, worker, scheduler, outbound
  sender to a Maildir) on a fresh database with a started Standard game. Each
  mail is a power's sign-on and a full set of Spring 1901 orders; the clock
  stops when the reply to the last mail is in the outbox.

The figure of merit is judge/raw (goal: at least one half). The rate limit is
off (``JUDGE_RATE_LIMIT_MESSAGES=0``). ``--password-hashing`` picks the argon2
costs of the game passwords, which every sign-on verifies: ``production``
(argon2-cffi's RFC 9106 defaults, what a real judge uses, tens of ms per
sign-on) or ``cheap`` (to see the rest of the pipeline).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import smtplib
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from email.utils import make_msgid
from pathlib import Path
from typing import Any, TypeVar

from aiosmtpd.smtp import SMTP, Envelope, Session
from argon2 import PasswordHasher
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

from judge.app.server import JudgeServer, ServerTuning
from judge.app.services import Services
from judge.config import load_config
from judge.db.database import Database, open_database
from judge.db.enums import InboundState
from judge.db.models import Game, OutboundMail
from judge.db.passwords import DEFAULT_HASHING, PasswordHashing
from judge.timekeeping.clock import SystemClock

JUDGE = "judge@bench.example"
CHEAP = PasswordHashing(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
PLAYERS = [(letter, f"player{letter.lower()}@bench.example") for letter in "AEFGIRT"]
SPRING = {
    "A": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb\n",
    "E": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor\n",
    "F": "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao\n",
    "G": "A Mun - Ruh\nA Ber - Kie\nF Kie - Den\n",
    "I": "A Ven H\nA Rom - Apu\nF Nap - Ion\n",
    "R": "A Mos - Ukr\nA War - Gal\nF Sev - Bla\nF StP/sc - Bot\n",
    "T": "A Con - Bul\nA Smy - Con\nF Ank - Bla\n",
}
T = TypeVar("T")


# --- plumbing ------------------------------------------------------------------------------


class LoopThread:
    """An asyncio loop on a thread of its own, so the clients below can be plain threads."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(120)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


class NothingHandler:
    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        return "250 OK"


def mail(sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = JUDGE
    message["Subject"] = "orders"
    message["Message-ID"] = make_msgid(domain="bench.example")
    message.set_content(body)
    return message.as_bytes(policy=SMTP_POLICY)


def send_all(port: int, mails: list[tuple[str, bytes]], clients: int) -> float:
    """Send every mail (one connection each) from ``clients`` threads; seconds until the last 250."""

    def one(item: tuple[str, bytes]) -> None:
        sender, data = item
        with smtplib.SMTP("127.0.0.1", port, local_hostname="client.bench", timeout=120) as client:
            client.sendmail(sender, [JUDGE], data)

    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(one, mails))
    return time.perf_counter() - start


def wait(condition: Callable[[], bool], timeout: float = 600.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            sys.exit("timed out")
        time.sleep(0.01)


@contextmanager
def sqlite_url() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as directory:
        yield f"sqlite:///{Path(directory) / 'bench.sqlite3'}"


@contextmanager
def postgres_url(server: str) -> Iterator[str]:
    url = make_url(server)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    name = f"judge_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


# --- the two measurements ----------------------------------------------------------------------


def raw_rate(loop: LoopThread, mails: list[tuple[str, bytes]], clients: int) -> float:
    async def start() -> asyncio.Server:
        running = asyncio.get_running_loop()
        return await running.create_server(
            lambda: SMTP(NothingHandler(), hostname="raw.bench", loop=running), "127.0.0.1", 0
        )

    server = loop.run(start())
    port = int(server.sockets[0].getsockname()[1])
    try:
        seconds = send_all(port, mails, clients)
    finally:

        async def stop() -> None:
            server.close()
            await server.wait_closed()

        loop.run(stop())
    return len(mails) / seconds


def answered(db: Database) -> int:
    with db.unit_of_work(readonly=True) as uow:
        return int(
            uow.session.scalar(
                select(func.count())
                .select_from(OutboundMail)
                .where(OutboundMail.in_reply_to_id.is_not(None))
            )
            or 0
        )


def start_game(judge_port: int, db: Database) -> None:
    """Seven players register and form a Standard game by mail; returns once it has started."""
    for letter, address in PLAYERS:
        registration = f"REGISTER\nName: Player {letter}\nCountry: France\nEND\n"
        send_all(judge_port, [(address, mail(address, registration))], 1)
    for index, (letter, address) in enumerate(PLAYERS):
        verb = "CREATE ?" if index == 0 else "SIGNON ?"
        body = f"{verb}bench pw{letter}\n"
        if index < len(PLAYERS) - 1:
            body += f"SET PREFERENCE {letter}\n"
        send_all(judge_port, [(address, mail(address, body))], 1)

    def started() -> bool:
        with db.unit_of_work(readonly=True) as uow:
            game = uow.session.scalar(select(Game).where(Game.name == "bench"))
            return game is not None and game.current_phase == "S1901M"

    wait(started)
    wait(lambda: idle(db))


def idle(db: Database) -> bool:
    with db.unit_of_work(readonly=True) as uow:
        return uow.mail_in.count(InboundState.RECEIVED) == 0


def judge_rate(
    loop: LoopThread, url: str, count: int, clients: int, hashing: PasswordHashing, work: Path
) -> tuple[float, float]:
    """(mails accepted per second, mails answered per second) for ``count`` order mails."""
    env = {
        "JUDGE_ADDRESS": JUDGE,
        "JUDGE_CODE": "BNCH",
        "JUDGE_DATA_DIR": str(work),
        "JUDGE_DATABASE_URL": url,
        "JUDGE_RELAY": f"maildir:{work / 'maildir'}",
        "JUDGE_SMTP_PORT": "0",
        "JUDGE_RATE_LIMIT_MESSAGES": "0",
    }
    config = load_config(env)
    db = open_database(url, passwords=hashing)
    services = Services(db=db, config=config, clock=SystemClock())
    server = JudgeServer(services, tuning=ServerTuning())
    loop.run(server.start())
    try:
        start_game(server.port, db)
        before = answered(db)
        orders = [
            (address, mail(address, f"SIGNON {letter}bench pw{letter}\n{SPRING[letter]}"))
            for n in range(count)
            for letter, address in [PLAYERS[n % len(PLAYERS)]]
        ]
        start = time.perf_counter()
        accepted = send_all(server.port, orders, clients)
        wait(lambda: answered(db) >= before + count)
        total = time.perf_counter() - start
    finally:
        loop.run(server.stop())
        db.dispose()
    return count / accepted, count / total


def run(engine: str, url: str, count: int, clients: int, hashing_name: str) -> None:
    hashing = CHEAP if hashing_name == "cheap" else DEFAULT_HASHING
    loop = LoopThread()
    try:
        orders = [
            (address, mail(address, f"SIGNON {letter}bench pw{letter}\n{SPRING[letter]}"))
            for n in range(count)
            for letter, address in [PLAYERS[n % len(PLAYERS)]]
        ]
        raw_rate(loop, orders[: min(50, count)], clients)  # warm-up
        raw = raw_rate(loop, orders, clients)
        with tempfile.TemporaryDirectory() as directory:
            accepted, answered_rate = judge_rate(
                loop, url, count, clients, hashing, Path(directory)
            )
    finally:
        loop.close()
    print(
        f"{engine:<10}  passwords={hashing_name:<10}  {count} mails, {clients} clients:  "
        f"raw aiosmtpd {raw:7.1f}/s   judge accepted {accepted:7.1f}/s   "
        f"judge answered (reply in outbox) {answered_rate:7.1f}/s   "
        f"ratio answered/raw {answered_rate / raw:5.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--mails", type=int, default=300, help="order mails per run (default 300)")
    parser.add_argument("--clients", type=int, default=4, help="sending threads (default 4)")
    parser.add_argument(
        "--password-hashing",
        choices=("production", "cheap", "both"),
        default="both",
    )
    parser.add_argument("--postgres-url", default=os.environ.get("JUDGE_TEST_POSTGRES_URL", ""))
    args = parser.parse_args()
    os.environ["JUDGE_RATE_LIMIT_MESSAGES"] = "0"
    hashings = (
        ["production", "cheap"] if args.password_hashing == "both" else [args.password_hashing]
    )
    for hashing in hashings:
        with sqlite_url() as url:
            run("sqlite", url, args.mails, args.clients, hashing)
        if args.postgres_url:
            with postgres_url(args.postgres_url) as url:
                run("postgresql", url, args.mails, args.clients, hashing)
    if not args.postgres_url:
        print("postgresql  (skipped: give --postgres-url or set JUDGE_TEST_POSTGRES_URL)")


if __name__ == "__main__":
    main()
