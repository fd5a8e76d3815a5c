"""A deadline storm (issue 28): 1,000 Standard games due in the same minute, from the deadline to the
last results mail (with its map) handed to the relay.

Not a test: it prints figures. A fresh PostgreSQL database gets N started
Standard games (seven players with their Spring 1901 orders, a master and an
observer each: :func:`bench_processing.build`), all due at one instant.
``--orders opening`` (the default, the figures' so far) gives every game the
same opening, so every game's picture is the same but for its name and the
map's bands kept by their content are nearly all reused from the game before;
``--orders random`` gives each game its own legal orders (seeded: the same
games every run), as a real storm's games differ.
The judge's roles are split over two processes, as the operator's guide's
section 12 recommends for a busy judge: one runs the scheduler
(bench_due_games.py's :func:`worker`: one round of
:func:`judge.app.phases.guarded_scheduler.process_due`, every due game
adjudicated and its results mails queued), the other the outbound role of
``judge serve --only outbound`` (:class:`judge.app.runtime.judge_server.JudgeServer`)
with ``--connections`` senders (``JUDGE_OUTBOUND_CONNECTIONS``; the guide
recommends 4 on PostgreSQL), each drawing a phase's map once as it delivers
the phase's first results mail (over the boards in play, drawn when the role
started as ``judge serve`` draws them: :func:`warm_boards`) and sending through
:class:`judge.mail.outbound.SmtpRelay`, one SMTP session a pass, to a local
capture server (a third process speaking just enough SMTP to take the mail
and note when each results mail arrived, whether it carried a PNG, and how
many connections it accepted). The clock starts when both judge processes
are released together; the figure is the time to the last results mail the
capture server accepted. The same is then measured with maps off (every
reader as after SET MAP OFF: the sender attaches nothing). The games are
built once; each run gets a fresh copy of that database. The last line is
exactly ``deadline to last results mail: X.XX s`` (maps on, the last
``--connections``; the issue's goal: under 10 s on a 2-core machine).
``--profile DIR`` writes each judge process's cProfile statistics there
(the sender's threads merged), to see where the time goes. The capture
server offers ``PIPELINING``, as Postfix does. Beside each process's own
CPU, the CPU of the capture server and of PostgreSQL (every ``postgres``
process of the machine, read from ``/proc``) from the deadline to the last
mail is printed, with the cores all of it amounts to: the 2-core budget.
``--outbound-processes N`` runs N outbound processes beside the scheduler's
(``judge serve --only outbound`` N times), so the role can use a second core.

    .venv/bin/python benchmarks/bench_deadline_storm.py --postgres-url postgresql+psycopg://postgres@127.0.0.1:5432/postgres
    .venv/bin/python benchmarks/bench_deadline_storm.py --games 100 --connections 1 4 --profile /tmp/storm
    .venv/bin/python benchmarks/bench_deadline_storm.py --games 300 --outbound-processes 2
    .venv/bin/python benchmarks/bench_deadline_storm.py --orders random --postgres-url postgresql+psycopg://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import multiprocessing
import os
import pstats
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_due_games import DUE, FixedClock, _settings, announcing_outbox, profiled, worker
from bench_processing import ORDERS, ORDERS_HELP, T0, build
from bench_repository import CHEAP, postgres_url
from machine_speed import reference_line
from sqlalchemy import create_engine, make_url, select, text
from sqlalchemy.orm import configure_mappers

from judge.app.phases.guarded_scheduler import process_due
from judge.app.reports.opening_boards import warm_boards
from judge.app.session.services import Services
from judge.collector import settle_heap
from judge.config import load_config
from judge.db import Database
from judge.db.migrate import upgrade
from judge.timekeeping.clock import FakeClock

READERS_PER_GAME = 9  # seven players, a master, an observer


class _Everyone(frozenset[str]):
    """Every address: what map_off_addresses answers when every reader turned the map off."""

    def __contains__(self, _item: object) -> bool:
        return True


def capture_server(port_out: Any, stop: Any, report: Any) -> None:
    """A local SMTP server that takes every mail and notes when each results mail arrived."""
    arrivals: list[float] = []
    pictures = 0
    total = 0
    connections = 0

    async def session(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal pictures, total, connections
        connections += 1
        writer.write(b"220 capture ESMTP\r\n")
        while True:
            line = await reader.readline()
            if not line:
                break
            verb = line[:4].upper()
            if verb in (b"EHLO", b"HELO"):
                writer.write(b"250-capture\r\n250-PIPELINING\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")
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
        report.put((len(arrivals), pictures, total, connections, max(arrivals) if arrivals else None))

    asyncio.run(main())



class CpuWatch:
    """Samples the CPU time (user and system, from ``/proc/PID/stat``) of the capture server and of
    every PostgreSQL process of this machine (the server's backends, its WAL writer, checkpointer...)
    ten times a second, so the storm's 2-core budget shows whole: the judge's two processes report
    their own. A backend that ends between two samples loses at most its last tenth of a second."""

    def __init__(self, capture_pid: int) -> None:
        self.capture_pid = capture_pid
        self.samples: list[tuple[float, dict[int, float], float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cpu-watch", daemon=True)
        self.visible = bool(_postgres_pids())

    def __enter__(self) -> CpuWatch:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while True:
            cpus = {pid: _cpu_of(pid) for pid in _postgres_pids()}
            self.samples.append(
                (
                    time.perf_counter(),
                    {pid: cpu for pid, cpu in cpus.items() if cpu is not None},
                    _cpu_of(self.capture_pid) or (self.samples[-1][2] if self.samples else 0.0),
                )
            )
            if self._stop.wait(0.1):
                return

    def used(self, start: float, end: float) -> tuple[float, float, int]:
        """CPU seconds of PostgreSQL and of the capture server between ``start`` and ``end``
        (``time.perf_counter`` of any process: the monotonic clock is the machine's), and how many
        PostgreSQL processes worked meanwhile."""
        before = [s for s in self.samples if s[0] <= start] or self.samples[:1]
        during = [s for s in self.samples if start < s[0] <= end]
        after = [s for s in self.samples if s[0] > end][:1]
        window = before[-1:] + during + after
        if not window:
            return 0.0, 0.0, 0
        baseline = window[0][1]
        latest: dict[int, float] = {}
        for _when, cpus, _capture in window:
            latest.update(cpus)
        postgres = {pid: cpu - baseline.get(pid, 0.0) for pid, cpu in latest.items()}
        busy = sum(1 for spent in postgres.values() if spent > 0)
        return sum(postgres.values()), window[-1][2] - window[0][2], busy


def _postgres_pids() -> list[int]:
    pids: list[int] = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/comm", "rb") as comm:
                    if comm.read().strip() == b"postgres":
                        pids.append(int(entry.name))
            except OSError:
                continue
    return pids


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_of(pid: int) -> float | None:
    """User and system CPU seconds of process ``pid`` (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / _TICK


class _Clocked:
    """The start barrier, noting this process's CPU time as the clock starts (its CPU in the storm:
    how busy it was beside the wall time)."""

    def __init__(self, barrier: Any, cpu: Any, role: str) -> None:
        self.barrier, self.cpu, self.role, self.started = barrier, cpu, role, 0.0

    def wait(self, timeout: float | None = None) -> Any:
        done = self.barrier.wait(timeout)
        self.started = time.process_time()
        return done

    def report(self) -> None:
        self.cpu.put((self.role, time.process_time() - self.started))


def _started_up() -> None:
    """What a running judge did long before the deadline: its start-up imports (every module of the
    application, :func:`judge.app.runtime.judge_server._import_the_judge`, which then leaves them out
    of the collector's full passes) and the translations read, so the clock measures the storm, not
    a process starting."""
    from judge.app.runtime.judge_server import _serially
    from judge.i18n import LANGUAGES, translation

    _serially(lambda: None)
    for language in LANGUAGES:
        translation(language)


def scheduler(
    url: str, data_dir: str, maps: bool, barrier: Any, done: Any, times: Any, profile: str, cpu: Any
) -> None:
    """The scheduler's process: bench_due_games.py's worker, with every reader's map off when asked."""
    from judge.app.phases import processing

    _started_up()
    if not maps:  # every reader said SET MAP OFF: patched where the processing reads it
        processing.map_off_addresses = lambda _game: _Everyone()  # type: ignore[assignment]
    clocked = _Clocked(barrier, cpu, "scheduler")
    worker(url, data_dir, clocked, times, done, profile, wake_outbound=True)
    clocked.report()


def sender(
    url: str, data_dir: str, port: int, connections: int, barrier: Any, done: Any, times: Any, profile: str,
    cpu: Any,
) -> None:  # fmt: skip
    """The outbound role's process (``judge serve --only outbound``), until the scheduler is done
    and the outbox has no mail pending."""
    _started_up()
    db = Database(url, passwords=CHEAP)
    try:
        warm_boards(db)  # what the outbound role did when it started, long before the deadline
        settle_heap("boards")  # and then, as the role does: its kept boards out of the full passes
        drawn = _count_drawings()
        services = Services(db=db, config=load_config(_settings(url, data_dir)), clock=FixedClock(DUE))
        clocked = _Clocked(barrier, cpu, "sender")
        _deliver(services, port, connections, clocked, done.is_set, times, profile, drawn)
        clocked.report()
    finally:
        db.dispose()


def shared(
    url: str, data_dir: str, maps: bool, port: int, connections: int, barrier: Any, finished: Any,
    scheduled: Any, delivered: Any, profile: str, cpu: Any,
) -> None:  # fmt: skip
    """One of two processes of ``judge serve --only scheduler --only outbound``: the scheduler's
    round (in a thread, as the scheduler role runs it) and the outbound role side by side, on one
    engine, until both processes' rounds are done and the outbox has no mail pending. The due
    games are shared out by their claim's ``FOR UPDATE SKIP LOCKED``, and so are the mails."""
    from judge.app.phases import processing

    if not maps:
        processing.map_off_addresses = lambda _game: _Everyone()  # type: ignore[assignment]
    _started_up()
    db = Database(url, passwords=CHEAP)
    try:
        warm_boards(db)  # what the outbound role did when it started, long before the deadline
        settle_heap("boards")
        drawn = _count_drawings()
        services = Services(db=db, config=load_config(_settings(url, data_dir)), clock=FixedClock(DUE))
        with db.unit_of_work(readonly=True) as uow:
            uow.games.earliest_due()  # a connection open before the clock starts
        scheduling = announcing_outbox(services)  # the senders here and in the other process woken
        go = threading.Event()

        def scheduler_round() -> None:
            go.wait()
            try:
                with profiled(f"{profile}-scheduler.prof" if profile else ""):
                    start = time.perf_counter()
                    handled = process_due(scheduling)
                    scheduled.put((handled, start, time.perf_counter()))
            finally:
                with finished.get_lock():
                    finished.value += 1

        thread = threading.Thread(target=scheduler_round, name="scheduler")
        thread.start()
        clocked = _Clocked(barrier, cpu, "scheduler and sender")
        try:
            _deliver(
                services, port, connections, clocked, lambda: finished.value == 2, delivered,
                f"{profile}-sender.prof" if profile else "", drawn, go.set,
            )  # fmt: skip
        finally:
            go.set()
            thread.join()
        clocked.report()
    finally:
        db.dispose()


def _count_drawings() -> list[int]:
    """How many pictures this process draws (a phase's map drawn by both processes counts twice)."""
    from judge.app.mail_out import results_maps

    count = [0]
    draw = results_maps._draw_results

    def counted(*args: Any) -> Any:
        count[0] += 1
        return draw(*args)

    results_maps._draw_results = counted  # type: ignore[assignment]
    return count


def _deliver(
    services: Any, port: int, connections: int, barrier: Any, done: Callable[[], bool], times: Any, profile: str,
    drawn: list[int], go: Callable[[], None] | None = None,
) -> None:  # fmt: skip
    """The outbound role (``--connections`` senders), from the barrier until ``done()`` and no mail
    is pending; ``go`` is called as the clock starts."""
    from judge.app.mail_out.sender import TransactionalOutbox
    from judge.app.runtime.judge_server import JudgeServer, Role, ServerTuning
    from judge.db.enums import OutboundState
    from judge.db.models import OutboundMail
    from judge.mail.outbound import SmtpRelay

    db = services.db
    relay = SmtpRelay("127.0.0.1", port, envelope_sender="judge@example.org")
    # The senders look every 50 ms between passes (ServerTuning.outbound_poll_seconds), besides the scheduler's wake-up after each committed batch of games
    # (a NOTIFY): woken by the NOTIFY alone, at the default 2 s poll, the four senders of a process
    # rush at each batch together and the storm opened more SMTP sessions (400 against 155 maps off).
    tuning = ServerTuning(outbound_connections=connections, outbound_poll_seconds=0.05, shutdown_grace_seconds=30)
    TransactionalOutbox(services)  # its modules imported before the clock starts

    def pending() -> bool:
        """Whether a mail is still pending: one row looked for on the claim's index, not all
        counted (the harness asks every 50 ms at the storm's end; a count of 9,000 rows took
        4 ms of the server's CPU each time, the judge's budget, not the harness's)."""
        with db.unit_of_work(readonly=True) as uow:
            found = uow.session.execute(
                select(OutboundMail.id).where(OutboundMail.state == OutboundState.PENDING).limit(1)
            ).first()
            return found is not None

    async def serve() -> None:
        async with JudgeServer(services, roles={Role.OUTBOUND}, relay=relay, tuning=tuning):
            while True:
                await asyncio.sleep(0.05)
                finished = done()  # read before the count: every results mail is queued by then
                if finished and not await asyncio.to_thread(pending):
                    break

    pending()  # a connection open before the clock starts
    configure_mappers()  # as in a running judge, where the first mail did it
    barrier.wait(timeout=600)
    if go is not None:
        go()
    with _threads_profiled(profile):
        started = time.perf_counter()
        asyncio.run(serve())
        ended = time.perf_counter()
    with db.unit_of_work(readonly=True) as uow:
        sent = uow.outbox.count(OutboundState.SENT)
    times.put((sent, started, ended, drawn[0]))


@contextmanager
def _threads_profiled(path: str) -> Iterator[None]:
    """cProfile the sender's passes (each in a thread of the role's) and write them merged to ``path``."""
    if not path:
        yield
        return
    from judge.app.runtime.judge_server import JudgeServer

    profiles: dict[int, cProfile.Profile] = {}
    drain = JudgeServer._drain_batch

    def measured(self: Any, *args: Any) -> Any:
        profile = profiles.setdefault(threading.get_ident(), cProfile.Profile())
        profile.enable()
        try:
            return drain(self, *args)
        finally:
            profile.disable()

    JudgeServer._drain_batch = measured  # type: ignore[method-assign]
    try:
        yield
    finally:
        JudgeServer._drain_batch = drain  # type: ignore[method-assign]
    if profiles:
        first, *others = profiles.values()
        stats = pstats.Stats(first)
        for other in others:
            stats.add(other)
        stats.dump_stats(path)


@contextmanager
def built(server: str, games: int, orders: str = "opening") -> Iterator[tuple[str, str]]:
    """A database with ``games`` games due at once (the template each run copies), and a data directory
    (``orders``: one of :data:`bench_processing.ORDERS`)."""
    from judge.app.session.services import Services

    with postgres_url(server) as url, tempfile.TemporaryDirectory() as data:
        upgrade(url)
        database = Database(url, passwords=CHEAP)
        try:
            build(Services(db=database, config=load_config(_settings(url, data)), clock=FakeClock(T0)), games, orders)
        finally:
            database.dispose()
        yield url, data


@contextmanager
def copy_of(server: str, template: str) -> Iterator[str]:
    """A fresh copy of the ``template`` database (PostgreSQL copies its files: the games are built once)."""
    base = make_url(template)
    name = f"{base.database}_run_{uuid.uuid4().hex[:6]}"
    admin = create_engine(make_url(server).set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f"CREATE DATABASE {name} TEMPLATE {base.database}"))
        try:
            yield base.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as connection:
                connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    finally:
        admin.dispose()


def run(
    server: str, template: str, data: str, games: int, maps: bool, connections: int, profile: str = "",
    split: str = "roles", outbound: int = 1,
) -> float:  # fmt: skip
    with copy_of(server, template) as url:
        context = multiprocessing.get_context("spawn")
        port_out, report, scheduled, delivered = context.Queue(), context.Queue(), context.Queue(), context.Queue()
        cpu = context.Queue()
        stop, done = context.Event(), context.Event()
        capture = context.Process(target=capture_server, args=(port_out, stop, report))
        capture.start()
        port = port_out.get(timeout=60)
        senders = outbound if split == "roles" else 0
        barrier = context.Barrier(1 + senders if split == "roles" else 2)
        name = f"{profile}/{games}-{'maps' if maps else 'text'}-{connections}-{split}" if profile else ""
        if split == "roles":
            roles = [
                context.Process(
                    target=scheduler,
                    args=(url, data, maps, barrier, done, scheduled, f"{name}-scheduler.prof" if name else "", cpu),
                ),
            ] + [
                context.Process(
                    target=sender,
                    args=(
                        url, data, port, connections, barrier, done, delivered,
                        f"{name}-sender{'' if n == 1 else n}.prof" if name else "", cpu,
                    ),
                )
                for n in range(1, senders + 1)
            ]  # fmt: skip
        else:
            finished = context.Value("i", 0)
            roles = [
                context.Process(
                    target=shared,
                    args=(
                        url, data, maps, port, connections, barrier, finished, scheduled, delivered,
                        f"{name}-p{n}" if name else "", cpu,
                    ),
                )
                for n in (1, 2)
            ]
        watch = CpuWatch(capture.pid or 0)
        with watch:
            for process in roles:
                process.start()
            rounds = [scheduled.get(timeout=3600) for _ in range(1 if split == "roles" else 2)]
            passes = [delivered.get(timeout=3600) for _ in range(senders if split == "roles" else 2)]
            busy = [cpu.get(timeout=3600) for _ in roles]
        for process in roles:
            process.join()
        stop.set()
        results, with_picture, total, opened, last = report.get(timeout=60)
        capture.join()
        handled = sum(r[0] for r in rounds)
        sent = max(p[0] for p in passes)  # each process counts the outbox's sent rows at its end
        started = min(min(r[1] for r in rounds), min(p[1] for p in passes))
        adjudicated = max(r[2] for r in rounds) - started
        drawn = [p[3] for p in passes]
        assert last is not None and results == games * READERS_PER_GAME == sent and handled == games, (
            results, sent, handled, games
        )  # fmt: skip
        # Every results mail carries its map when maps are on, and none when they are off: a patch
        # that stops reaching the processing would otherwise time maps on twice.
        assert with_picture == (results if maps else 0), (maps, with_picture, results)
        elapsed: float = last - started
        postgres, captured, backends = watch.used(started, last)
        judged = sum(seconds for _role, seconds in busy)
        every = judged + postgres + captured
        print(
            f"{games} games, {split} split{f' ({senders} outbound processes)' if senders > 1 else ''}, "
            f"maps {'on ' if maps else 'off'}, {connections} sender(s) a process: "
            f"deadline to last results mail {elapsed:7.2f} s (adjudication done at {adjudicated:.2f} s, games a "
            f"process {[r[0] for r in rounds]}); {results} results mails, {with_picture} with a map, maps drawn "
            f"{drawn}, {total} mails in all, {opened} SMTP connection(s); CPU of each process from the clock's "
            f"start to its end: {', '.join(f'{role} {seconds:.2f} s' for role, seconds in busy)}; from the "
            f"deadline to the last mail, capture server {captured:.2f} s, PostgreSQL "
            + (f"{postgres:.2f} s ({backends} processes)" if watch.visible else "not visible from here")
            + f"; {every:.2f} s of CPU in all, {every / max(elapsed, 1e-9):.2f} cores of the machine's "
            f"{os.cpu_count()}",
            flush=True,
        )
        return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument(
        "--connections", type=int, nargs="+", default=[4],
        help="senders of the outbound role (JUDGE_OUTBOUND_CONNECTIONS), each measured with maps; the last "
        "is the figure's, also measured with maps off",
    )  # fmt: skip
    parser.add_argument(
        "--split", choices=("roles", "shared"), default="roles",
        help="roles (the operator's guide's): one process the scheduler, the other the outbound role; "
        "shared: both processes run the scheduler and the outbound role",
    )  # fmt: skip
    parser.add_argument(
        "--outbound-processes", type=int, default=1,
        help="processes of the outbound role beside the scheduler's, with the roles split (each `judge serve "
        "--only outbound`, --connections senders each)",
    )  # fmt: skip
    parser.add_argument("--orders", choices=ORDERS, default="opening", help=ORDERS_HELP)
    parser.add_argument("--profile", default="", help="write each judge process's cProfile statistics in this directory")
    parser.add_argument("--postgres-url", default=os.environ.get("JUDGE_TEST_POSTGRES_URL", ""))
    args = parser.parse_args()
    if not args.postgres_url:
        parser.error("give --postgres-url (or set JUDGE_TEST_POSTGRES_URL): the figures are PostgreSQL's")
    if args.profile:
        os.makedirs(args.profile, exist_ok=True)
    chosen = args.connections[-1]
    with built(args.postgres_url, args.games, args.orders) as (template, data):
        for connections in args.connections[:-1]:
            run(
                args.postgres_url, template, data, args.games, True, connections, args.profile, args.split,
                args.outbound_processes,
            )  # fmt: skip
        with_maps = run(
            args.postgres_url, template, data, args.games, True, chosen, args.profile, args.split,
            args.outbound_processes,
        )  # fmt: skip
        without = run(
            args.postgres_url, template, data, args.games, False, chosen, args.profile, args.split,
            args.outbound_processes,
        )  # fmt: skip
    print(reference_line())
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; maps off: {without:.2f} s")
    print(f"deadline to last results mail: {with_maps:.2f} s")


if __name__ == "__main__":
    main()
