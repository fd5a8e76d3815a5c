"""A deadline storm (issue 28): 1,000 Standard games due in the same minute, from the deadline to the
last results mail (with its map) handed to the relay.

Not a test: it prints figures. A fresh PostgreSQL database gets N started
Standard games (seven players with their opening orders, a master and an
observer each: :func:`bench_processing.build`), all due at one instant.
The judge's roles are split over two processes, as the operator's guide's
section 12 recommends for a busy judge: one runs the scheduler
(:func:`judge.app.phases.guarded_scheduler.process_due`, every due game
adjudicated and its results mails queued), the other the outbound sender
(:class:`judge.app.mail_out.sender.TransactionalOutbox` drained through
:class:`judge.mail.outbound.SmtpRelay`, drawing each phase's map once as
it delivers its first results mail) to a local capture server (a third
process speaking just enough SMTP to take the mail and note when each
results mail arrived, and whether it carried a PNG). The clock starts when
both judge processes are released together; the figure is the time to the
last results mail the capture server accepted. The same is then measured
with maps off (every reader as after SET MAP OFF: the sender attaches
nothing). The last line is exactly ``deadline to last results mail: X.XX s``
(maps on; the issue's goal: under 10 s on a 2-core machine).

    .venv/bin/python benchmarks/bench_deadline_storm.py --postgres-url postgresql+psycopg://postgres@127.0.0.1:5432/postgres
    .venv/bin/python benchmarks/bench_deadline_storm.py --games 100
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_due_games import DUE, FixedClock
from bench_processing import T0, build
from bench_repository import CHEAP, postgres_url

from judge.config import load_config
from judge.db import Database
from judge.db.migrate import upgrade
from judge.timekeeping.clock import FakeClock

READERS_PER_GAME = 9  # seven players, a master, an observer


def _settings(url: str, data_dir: str) -> dict[str, str]:
    return {"JUDGE_DATABASE_URL": url, "JUDGE_DATA_DIR": data_dir, "JUDGE_CODE": "XPY"}


class _Everyone(frozenset[str]):
    """Every address: what map_off_addresses answers when every reader turned the map off."""

    def __contains__(self, _item: object) -> bool:
        return True


def capture_server(port_out: Any, stop: Any, report: Any) -> None:
    """A local SMTP server that takes every mail and notes when each results mail arrived."""
    arrivals: list[float] = []
    pictures = 0
    total = 0

    async def session(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal pictures, total
        writer.write(b"220 capture ESMTP\r\n")
        while True:
            line = await reader.readline()
            if not line:
                break
            verb = line[:4].upper()
            if verb in (b"EHLO", b"HELO"):
                writer.write(b"250-capture\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")
            elif verb == b"DATA":
                writer.write(b"354 go ahead\r\n")
                await writer.drain()
                data = await reader.readuntil(b"\r\n.\r\n")
                total += 1
                if b" Results" in data[:4000]:
                    arrivals.append(time.perf_counter())
                    if b"image/png" in data:
                        pictures += 1
                writer.write(b"250 taken\r\n")
            elif verb == b"QUIT":
                writer.write(b"221 bye\r\n")
                await writer.drain()
                break
            else:
                writer.write(b"250 ok\r\n")
            await writer.drain()
        writer.close()

    async def main() -> None:
        server = await asyncio.start_server(session, "127.0.0.1", 0, limit=64 * 1024 * 1024)
        port_out.put(server.sockets[0].getsockname()[1])
        while not stop.is_set():
            await asyncio.sleep(0.05)
        server.close()
        report.put((len(arrivals), pictures, total, max(arrivals) if arrivals else None))

    asyncio.run(main())


def scheduler(url: str, data_dir: str, maps: bool, barrier: Any, done: Any, times: Any) -> None:
    from judge.app.mail_out import results_maps
    from judge.app.phases.guarded_scheduler import process_due
    from judge.app.session.services import Services

    if not maps:  # every reader said SET MAP OFF
        results_maps.map_off_addresses = lambda _game: _Everyone()  # type: ignore[assignment]
    db = Database(url, passwords=CHEAP)
    try:
        services = Services(db=db, config=load_config(_settings(url, data_dir)), clock=FixedClock(DUE))
        with db.unit_of_work(readonly=True) as uow:
            uow.games.earliest_due()  # a connection open before the clock starts
        barrier.wait(timeout=600)
        started = time.perf_counter()
        handled = process_due(services)
        times.put(("scheduler", started, time.perf_counter(), handled))
    finally:
        done.set()
        db.dispose()


def sender(url: str, data_dir: str, port: int, barrier: Any, done: Any, times: Any) -> None:
    from judge.app.mail_out.sender import TransactionalOutbox
    from judge.app.session.services import Services
    from judge.mail.outbound import SmtpRelay, drain_once

    db = Database(url, passwords=CHEAP)
    try:
        services = Services(db=db, config=load_config(_settings(url, data_dir)), clock=FixedClock(DUE))
        outbox = TransactionalOutbox(services)
        relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org")
        with db.unit_of_work(readonly=True) as uow:
            uow.games.earliest_due()
        barrier.wait(timeout=600)
        started = time.perf_counter()
        sent = 0
        while True:
            finished = done.is_set()  # read before the pass: a pass after the scheduler ended empties the outbox
            report = drain_once(outbox, relay, DUE, limit=200)
            sent += report.sent
            if finished and report.sent == 0:
                break
            if report.sent == 0:
                time.sleep(0.02)
        times.put(("sender", started, time.perf_counter(), sent))
    finally:
        db.dispose()


def run(server: str, games: int, maps: bool) -> float:
    from judge.app.session.services import Services

    with postgres_url(server) as url, tempfile.TemporaryDirectory() as data:
        upgrade(url)
        database = Database(url, passwords=CHEAP)
        try:
            build(Services(db=database, config=load_config(_settings(url, data)), clock=FakeClock(T0)), games)
        finally:
            database.dispose()
        context = multiprocessing.get_context("spawn")
        port_out, report, times = context.Queue(), context.Queue(), context.Queue()
        stop, done = context.Event(), context.Event()
        capture = context.Process(target=capture_server, args=(port_out, stop, report))
        capture.start()
        port = port_out.get(timeout=60)
        barrier = context.Barrier(2)
        roles = [
            context.Process(target=scheduler, args=(url, data, maps, barrier, done, times)),
            context.Process(target=sender, args=(url, data, port, barrier, done, times)),
        ]
        for process in roles:
            process.start()
        figures = {name: (start, end, count) for name, start, end, count in (times.get(timeout=3600) for _ in roles)}
        for process in roles:
            process.join()
        stop.set()
        results, with_picture, total, last = report.get(timeout=60)
        capture.join()
        started = min(start for start, _end, _count in figures.values())
        assert last is not None and results == games * READERS_PER_GAME, (results, games)
        elapsed: float = last - started
        scheduled = figures["scheduler"][1] - figures["scheduler"][0]
        print(
            f"{games} games, maps {'on ' if maps else 'off'}: deadline to last results mail {elapsed:7.2f} s "
            f"(adjudication done at {scheduled:.2f} s); {results} results mails, {with_picture} with a map, "
            f"{total} mails in all",
            flush=True,
        )
        return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--postgres-url", default=os.environ.get("JUDGE_TEST_POSTGRES_URL", ""))
    args = parser.parse_args()
    if not args.postgres_url:
        parser.error("give --postgres-url (or set JUDGE_TEST_POSTGRES_URL): the figures are PostgreSQL's")
    without = run(args.postgres_url, args.games, maps=False)
    with_maps = run(args.postgres_url, args.games, maps=True)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; maps off: {without:.2f} s")
    print(f"deadline to last results mail: {with_maps:.2f} s")


if __name__ == "__main__":
    main()
