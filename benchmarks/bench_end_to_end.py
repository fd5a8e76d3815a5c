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

The figure of merit is judge/raw (issue 14's goals: 0.3 on SQLite, 0.5 on PostgreSQL); the
last line is ``ratio X.XX``, the best configuration's median. The rate limit is
off (``JUDGE_RATE_LIMIT_MESSAGES=0``). The order mails come from six of the
seven powers (Turkey stays silent), so the phase is never complete and every
mail is answered with an acknowledgement in the same phase: the benchmark
measures order mails, not an adjudication that happens to fall in the middle.
``--password-hashing`` picks the argon2 costs of the game passwords, which
every sign-on verifies: ``production`` (the judge's own, see
judge/db/passwords.py: argon2id m=19 MiB, t=2, p=1, a player's first sign-on
in the process pays it, later ones hit the verified-password cache) or
``cheap`` (to see the rest of the pipeline).

The durability bound, printed with each run. The door answers 250 only after
the mail is committed, and the worker handles one mail per transaction
(everything the mail does, its reply in the outbox, and the mail marked
processed, committed together), so every mail costs up to two durable commits
(fsync): the door's (mails arriving together share one, a group commit) and
the worker's (whose guard commit holds up to 8 waiting senders' mails at once),
plus the sender's one commit per mail sent. On SQLite all commits
of the file take turns on one write lock, so answered/s can never exceed
1 / (2 x commit latency); on PostgreSQL the door's commits overlap the
worker's, but the worker's are one after another: at most 1 / commit latency.
The commit latency is measured on the same database in the same run (a small
row inserted and committed, as the door does), and durability is never
weakened to reach a figure (SQLite keeps ``synchronous=FULL``, PostgreSQL
``synchronous_commit=on``). The load average is printed too: on a shared
machine the rates move with it, so compare runs made side by side. Less
sensitive to load is the CPU time this process spends per mail (clients,
door, worker, sender and scheduler together, from the first mail sent to the
last reply queued), printed beside the do-nothing server's; the medians of
``--runs`` runs are the figures to quote.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import smtplib
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from email.utils import make_msgid
from pathlib import Path
from typing import Any, TypeVar

from aiosmtpd.smtp import SMTP, Envelope, Session
from argon2 import PasswordHasher
from bench_repository import postgres_url, sqlite_url
from sqlalchemy import create_engine, func, select, text

from judge.app.runtime.judge_server import ALL_ROLES, JudgeServer, Role, ServerTuning
from judge.app.session.services import Services
from judge.config import load_config
from judge.db.database import Database, open_database
from judge.db.enums import InboundState
from judge.db.models import Game, OutboundMail
from judge.db.passwords import DEFAULT_HASHING, PasswordHashing
from judge.timekeeping.clock import SystemClock

JUDGE = "judge@bench.example"
CHEAP = PasswordHashing(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
PLAYERS = [(letter, f"player{letter.lower()}@bench.example") for letter in "AEFGIRT"]
ORDERING = PLAYERS[:-1]
"""The powers that send orders: all but Turkey, so the phase is never complete (see above)."""
COMMIT_PROBES = 40
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


def wait(condition: Callable[[], bool], timeout: float = 600.0, interval: float = 0.01) -> None:
    """Poll ``condition``; the benchmark's own polling is kept light (it shares the machine)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            sys.exit("timed out")
        time.sleep(interval)


# --- the two measurements ----------------------------------------------------------------------


def raw_rate(loop: LoopThread, mails: list[tuple[str, bytes]], clients: int) -> tuple[float, float]:
    """(mails per second, CPU seconds of this process per mail) of the do-nothing server."""

    async def start() -> asyncio.Server:
        running = asyncio.get_running_loop()
        return await running.create_server(
            lambda: SMTP(NothingHandler(), hostname="raw.bench", loop=running), "127.0.0.1", 0
        )

    server = loop.run(start())
    port = int(server.sockets[0].getsockname()[1])
    cpu = time.process_time()
    try:
        seconds = send_all(port, mails, clients)
        cpu = time.process_time() - cpu
    finally:

        async def stop() -> None:
            server.close()
            await server.wait_closed()

        loop.run(stop())
    return len(mails) / seconds, cpu / len(mails)


def order_mails(count: int) -> list[tuple[str, bytes]]:
    """``count`` order mails, the ordering powers in turn, each a sign-on and a full set of orders."""
    return [
        (address, mail(address, f"SIGNON {letter}bench pw{letter}\n{SPRING[letter]}"))
        for n in range(count)
        for letter, address in [ORDERING[n % len(ORDERING)]]
    ]


def commit_latency(url: str) -> float:
    """Median seconds of one durable commit of a small row on this database (the door's work)."""
    engine = create_engine(url)
    samples: list[float] = []
    try:
        with engine.begin() as connection:
            connection.execute(text("CREATE TABLE bench_commit_probe (payload TEXT)"))
        for _ in range(COMMIT_PROBES):
            started = time.perf_counter()
            with engine.begin() as connection:
                connection.execute(
                    text("INSERT INTO bench_commit_probe (payload) VALUES (:p)"), {"p": "x" * 2000}
                )
            samples.append(time.perf_counter() - started)
        with engine.begin() as connection:
            connection.execute(text("DROP TABLE bench_commit_probe"))
    finally:
        engine.dispose()
    return statistics.median(samples)


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
        wait(lambda: idle(db))  # with several workers, different senders' mail runs in any order
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


def judge_env(url: str, work: Path) -> dict[str, str]:
    """The judge's configuration for a run on ``url``: replies to a Maildir under ``work``, any
    free port, no rate limit (the same for the whole judge, its worker processes and the door alone)."""
    return {
        "JUDGE_ADDRESS": JUDGE,
        "JUDGE_CODE": "BNCH",
        "JUDGE_DATA_DIR": str(work),
        "JUDGE_DATABASE_URL": url,
        "JUDGE_RELAY": f"maildir:{work / 'maildir'}",
        "JUDGE_SMTP_PORT": "0",
        "JUDGE_WEB_PORT": "0",
        "JUDGE_RATE_LIMIT_MESSAGES": "0",
    }


def judge_rate(
    loop: LoopThread, url: str, count: int, clients: int, hashing: PasswordHashing, work: Path,
    workers: int = 1, processes: int = 0,
) -> tuple[float, float, float, float]:
    """(mails accepted per second, mails answered per second, CPU seconds per mail of this
    process and of the worker processes, commit latency in seconds).

    With ``processes``, the roles are split as in a PostgreSQL deployment: this process runs
    the door, the sender and the scheduler (``judge serve --only inbound --only outbound
    --only scheduler``) and ``processes`` real ``judge serve --only worker`` processes answer
    the mail, woken through the database (LISTEN/NOTIFY)."""
    env = judge_env(url, work)
    config = load_config(env)
    db = open_database(url, passwords=hashing)
    services = Services(db=db, config=config, clock=SystemClock())
    roles = SPLIT_ROLES if processes else ALL_ROLES
    server = JudgeServer(services, roles=roles, tuning=ServerTuning(workers=workers))
    loop.run(server.start())
    children = [worker_process(env, work, number) for number in range(processes)]
    try:
        start_game(server.port, db)
        latency = commit_latency(url)
        before = answered(db)
        orders = order_mails(count)
        children_cpu = sum(cpu_seconds(child.pid) for child in children)
        start, cpu = time.perf_counter(), time.process_time()
        accepted = send_all(server.port, orders, clients)
        wait(lambda: answered(db) >= before + count, interval=0.05)
        total, cpu = time.perf_counter() - start, time.process_time() - cpu
        children_cpu = sum(cpu_seconds(child.pid) for child in children) - children_cpu
        if children:
            print(
                f"  split roles: CPU per mail {(cpu * 1000 / count):.1f} ms in the door's process "
                f"(clients, door, sender), {(children_cpu * 1000 / count):.1f} ms in the worker processes"
            )
        cpu += children_cpu
    finally:
        for child in children:
            child.send_signal(signal.SIGTERM)
        for child in children:
            child.wait(30)
        loop.run(server.stop())
        db.dispose()
    return count / accepted, count / total, cpu / count, latency


SPLIT_ROLES = frozenset({Role.INBOUND, Role.OUTBOUND, Role.SCHEDULER})


def door_rate(loop: LoopThread, url: str, count: int, clients: int, work: Path) -> tuple[float, float]:
    """(mails accepted per second, CPU seconds of this process per mail) of the judge's SMTP door
    alone (``judge serve --only inbound``): each mail checked, stored and durably committed
    before its 250, nothing processed or sent. Answered/s can never exceed this, so its ratio
    to the do-nothing server is the ceiling of the figure of merit on this machine."""
    db = open_database(url, passwords=CHEAP)
    services = Services(db=db, config=load_config(judge_env(url, work)), clock=SystemClock())
    server = JudgeServer(services, roles=frozenset({Role.INBOUND}))
    loop.run(server.start())
    try:
        orders = order_mails(count)
        send_all(server.port, orders[: min(50, count)], clients)  # warm-up, as for the raw server
        cpu = time.process_time()
        seconds = send_all(server.port, orders, clients)
        cpu = time.process_time() - cpu
    finally:
        loop.run(server.stop())
        db.dispose()
    return count / seconds, cpu / count


def worker_process(env: dict[str, str], work: Path, number: int) -> subprocess.Popen[bytes]:
    """A real ``judge serve --only worker`` process on the same database; returns once it runs."""
    judge = Path(sys.executable).with_name("judge")
    log = (work / f"worker-{number}.log").open("wb")
    child = subprocess.Popen(
        [str(judge), "serve", "--only", "worker", "--no-migrate"],
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=log,
    )
    assert child.stdout is not None
    if not child.stdout.readline():  # the start-up line, printed once the role runs
        sys.exit(f"the worker process did not start: see {work / f'worker-{number}.log'}")
    return child


def cpu_seconds(pid: int) -> float:
    """User and system CPU a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Figures:
    raw: float
    accepted: float
    answered: float
    raw_cpu: float
    judge_cpu: float
    commit: float
    load: float
    ratio: float
    door: float = 0.0
    door_cpu: float = 0.0

    @property
    def ceiling(self) -> float:
        """The door alone's rate over the do-nothing server's (0 when not measured)."""
        return self.door / self.raw if self.door else 0.0


def run(
    engine: str, url: str, count: int, clients: int, hashing_name: str, workers: int = 1,
    processes: int = 0, door_url: str = "",
) -> Figures:
    hashing = CHEAP if hashing_name == "cheap" else DEFAULT_HASHING
    load = os.getloadavg()[0]
    loop = LoopThread()
    try:
        orders = order_mails(count)
        raw_rate(loop, orders[: min(50, count)], clients)  # warm-up
        raw, raw_cpu = raw_rate(loop, orders, clients)
        with tempfile.TemporaryDirectory() as directory:
            accepted, answered_rate, judge_cpu, commit = judge_rate(
                loop, url, count, clients, hashing, Path(directory), workers, processes
            )
        door = door_cpu = 0.0
        if door_url:
            with tempfile.TemporaryDirectory() as directory:
                door, door_cpu = door_rate(loop, door_url, count, clients, Path(directory))
    finally:
        loop.close()
    figures = Figures(
        raw, accepted, answered_rate, raw_cpu, judge_cpu, commit, load, answered_rate / raw,
        door, door_cpu,
    )
    print(f"{label(engine, hashing_name, workers, processes)}  {count} mails, {clients} clients:  {describe(engine, figures)}")
    return figures


def label(engine: str, hashing: str, workers: int, processes: int = 0) -> str:
    setting = f"worker processes={processes}" if processes else f"workers={workers}"
    return f"{engine:<10}  passwords={hashing:<10}  {setting:<19}"


def bound(engine: str, commit: float) -> float:
    """Answered mails per second the durable commits alone allow (see the module's docstring)."""
    commits_in_turn = 2 if engine == "sqlite" else 1
    return 1 / (commits_in_turn * commit)


def describe(engine: str, f: Figures) -> str:
    return (
        f"raw aiosmtpd {f.raw:7.1f}/s   judge accepted {f.accepted:6.1f}/s   "
        f"answered (reply in outbox) {f.answered:6.1f}/s   ratio answered/raw {f.ratio:5.3f}   "
        f"CPU per mail: raw {f.raw_cpu * 1000:5.2f} ms, judge {f.judge_cpu * 1000:5.1f} ms   "
        f"commit {f.commit * 1000:5.2f} ms -> durability bound {bound(engine, f.commit):6.1f}/s   "
        f"load {f.load:5.2f}"
        + (
            f"\n{'':<52}door alone (stored and committed, nothing answered) {f.door:6.1f}/s, "
            f"CPU {f.door_cpu * 1000:4.1f} ms per mail: ceiling of answered/raw {f.ceiling:5.3f}"
            if f.door else ""
        )
    )


def median_figures(runs: list[Figures]) -> Figures:
    return Figures(
        raw=statistics.median(r.raw for r in runs),
        accepted=statistics.median(r.accepted for r in runs),
        answered=statistics.median(r.answered for r in runs),
        raw_cpu=statistics.median(r.raw_cpu for r in runs),
        judge_cpu=statistics.median(r.judge_cpu for r in runs),
        commit=statistics.median(r.commit for r in runs),
        load=statistics.median(r.load for r in runs),
        ratio=statistics.median(r.ratio for r in runs),
        door=statistics.median(r.door for r in runs),
        door_cpu=statistics.median(r.door_cpu for r in runs),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--mails", type=int, default=300, help="order mails per run (default 300)")
    parser.add_argument("--clients", type=int, default=4, help="sending threads (default 4)")
    parser.add_argument("--runs", type=int, default=1, help="runs per setting; medians printed after (default 1)")
    parser.add_argument(
        "--password-hashing",
        choices=("production", "cheap", "both"),
        default="both",
    )
    parser.add_argument("--postgres-url", default=os.environ.get("JUDGE_TEST_POSTGRES_URL", ""))
    parser.add_argument(
        "--workers", default="1,4",
        help="worker counts to try on PostgreSQL, comma-separated (judge serve --workers; default 1,4); "
        "SQLite runs one worker (its write lock takes them in turn)",
    )
    parser.add_argument(
        "--worker-processes", default="1,2",
        help="on PostgreSQL, also split the roles: the door, sender and scheduler here and N "
        "`judge serve --only worker` processes, comma-separated counts (default 1,2; 0 or empty: "
        "none); their passwords are always production-hashed",
    )
    parser.add_argument(
        "--no-door", dest="door", action="store_false",
        help="skip the door alone (`judge serve --only inbound`: mails stored and committed, none "
        "answered), measured by default once per engine and run: the ceiling of answered/raw",
    )
    args = parser.parse_args()
    os.environ["JUDGE_RATE_LIMIT_MESSAGES"] = "0"
    hashings = (
        ["production", "cheap"] if args.password_hashing == "both" else [args.password_hashing]
    )
    print(f"{os.cpu_count()} CPUs; load average at start {os.getloadavg()[0]:.2f}")
    worker_counts = [int(n) for n in args.workers.split(",") if n.strip()]
    process_counts = [int(n) for n in args.worker_processes.split(",") if n.strip() and int(n) > 0]
    results: dict[tuple[str, str, int, int], list[Figures]] = {}
    for _ in range(args.runs):
        for hashing in hashings:
            # The door alone is measured once per engine and run (it checks no password).
            door = args.door and hashing == hashings[0]
            with sqlite_url() as url, (sqlite_url() if door else nullcontext("")) as door_url:
                results.setdefault(("sqlite", hashing, 1, 0), []).append(
                    run("sqlite", url, args.mails, args.clients, hashing, door_url=door_url)
                )
            if args.postgres_url:
                for workers in worker_counts:
                    first = door and workers == worker_counts[0]
                    with (
                        postgres_url(args.postgres_url) as url,
                        postgres_url(args.postgres_url) if first else nullcontext("") as door_url,
                    ):
                        results.setdefault(("postgresql", hashing, workers, 0), []).append(
                            run(
                                "postgresql", url, args.mails, args.clients, hashing, workers,
                                door_url=door_url,
                            )
                        )
                for processes in process_counts if hashing == "production" else []:
                    with postgres_url(args.postgres_url) as url:
                        results.setdefault(("postgresql", hashing, 1, processes), []).append(
                            run("postgresql", url, args.mails, args.clients, hashing, 1, processes)
                        )
    print(f"medians of {args.runs} run(s):")
    for (engine, hashing, workers, processes), runs in results.items():
        print(f"{label(engine, hashing, workers, processes)}  {describe(engine, median_figures(runs))}")
    if not args.postgres_url:
        print("postgresql  (skipped: give --postgres-url or set JUDGE_TEST_POSTGRES_URL)")
    best = max(statistics.median(r.ratio for r in runs) for runs in results.values())
    print(f"ratio {best:.2f}")  # the best configuration's median answered/raw: always the last line


if __name__ == "__main__":
    main()
