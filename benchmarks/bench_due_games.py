"""How long the judge takes to process 1,000 games that fall due at the same instant, with 1 and 2 processes.

Not a test: it prints figures. For each run a fresh PostgreSQL database gets
N started Standard games (seven players with their Spring 1901 orders, a master
and an observer each: :func:`bench_processing.build`; ``--orders random``: each
game its own legal orders, seeded, instead of the same opening), all due at one
instant. Then W judge processes (spawned, each with its own engine and
connections, as ``judge serve --roles scheduler`` would run) call the
scheduler's :func:`process_due` together; the games are shared out by
``FOR UPDATE SKIP LOCKED``. Printed: the wall time from the start signal to
the last process done, games per second, and how many games each process
took. Every phase is checked to have been processed exactly once. The
scheduler is the one ``judge serve`` runs (:mod:`judge.app.phases.guarded_scheduler`:
a failing game is rolled back and backed off while the others go on). With
``--runs N`` each configuration is measured N times (a fresh database each
time) and the median is printed; the last line is the two-process median,
exactly ``2 processes: X.XX s`` (the issue's goal: under 8 s for 1,000 games).
The results mails' map is drawn by the sender when it delivers them, not
while the phase is processed; after the first configuration's first run the
CPU time of drawing one phase's map (as the sender does, once for all its
readers) is printed beside the figure, so that work is not hidden.

    .venv/bin/python benchmarks/bench_due_games.py --postgres-url postgresql+psycopg://postgres@127.0.0.1:5432/test
    .venv/bin/python benchmarks/bench_due_games.py --games 200 --workers 1 2 4
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_processing import ORDERS, ORDERS_HELP, T0, build
from bench_repository import CHEAP, postgres_url
from sqlalchemy import event, func, select
from sqlalchemy.orm import configure_mappers

from judge.app.mail_out.results_maps import ResultsPictures
from judge.app.phases.guarded_scheduler import process_due
from judge.app.session.services import Services
from judge.config import load_config
from judge.db import Database
from judge.db.enums import PhaseState
from judge.db.migrate import upgrade
from judge.db.models import PhaseRecord
from judge.timekeeping.clock import FakeClock

DUE = T0 + timedelta(hours=1)


class FixedClock:
    def __init__(self, when: datetime) -> None:
        self.when = when

    def now(self) -> datetime:
        return self.when


def _settings(url: str, data_dir: str) -> dict[str, str]:
    return {"JUDGE_DATABASE_URL": url, "JUDGE_DATA_DIR": data_dir, "JUDGE_CODE": "XPY"}


def worker(
    url: str, data_dir: str, barrier: Any, results: Any, done: Any = None, profile: str = "", work: Any = None,
    wake_outbound: bool = False,
) -> None:  # fmt: skip
    """One judge process: connect, warm up, wait for the others, then one scheduler round.

    ``done`` (an event) is set when the round is over; ``profile``: a file the round's
    cProfile statistics are written to (bench_deadline_storm.py's ``--profile``); ``work``: a
    queue given the round's CPU time (``time.process_time``) and SQL statements;
    ``wake_outbound``: the round wakes the outbound role in other processes as ``judge serve
    --only scheduler`` does (:func:`announcing_outbox`)."""
    db = Database(url, passwords=CHEAP)
    try:
        services = Services(db=db, config=load_config(_settings(url, data_dir)), clock=FixedClock(DUE))
        if wake_outbound:
            services = announcing_outbox(services)
        with db.unit_of_work(readonly=True) as uow:
            uow.games.earliest_due()  # a connection open before the clock starts
        configure_mappers()  # as in a running judge, where the first mail did it
        statements = [0]

        def count(*_args: Any) -> None:
            statements[0] += 1

        if work is not None:
            event.listen(db.engine, "before_cursor_execute", count)
        barrier.wait(timeout=600)
        with profiled(profile):
            started, cpu = time.perf_counter(), time.process_time()
            handled = process_due(services)
            results.put((handled, started, time.perf_counter()))
        if work is not None:
            work.put((time.process_time() - cpu, statements[0]))
    finally:
        if done is not None:
            done.set()
        db.dispose()


def announcing_outbox(services: Services) -> Services:
    """``services`` whose ``on_outbox`` announces the outbox to every listening process (PostgreSQL's
    NOTIFY), as a judge process whose roles are split wires it (judge.app.runtime.judge_server)."""
    from judge.db.wakeups import Channel, wakeups_for

    wakeups = wakeups_for(services.db.engine)
    if wakeups is None:
        return services
    return dataclasses.replace(services, on_outbox=lambda: wakeups.announce(Channel.OUTBOX))


@contextmanager
def profiled(path: str) -> Iterator[None]:
    """Run the block under cProfile and write its statistics to ``path`` (nothing when empty)."""
    if not path:
        yield
        return
    profile = cProfile.Profile()
    profile.enable()
    try:
        yield
    finally:
        profile.disable()
        profile.dump_stats(path)


def run(server: str, games: int, workers: int, draw_maps: bool = False, orders: str = "opening") -> float:
    with postgres_url(server) as url, tempfile.TemporaryDirectory() as data:
        upgrade(url)
        database = Database(url, passwords=CHEAP)
        try:
            build(Services(db=database, config=load_config(_settings(url, data)), clock=FakeClock(T0)), games, orders)
        finally:
            database.dispose()
        context = multiprocessing.get_context("spawn")
        barrier = context.Barrier(workers)
        results, work = context.Queue(), context.Queue()
        processes = [
            context.Process(target=worker, args=(url, data, barrier, results, None, "", work)) for _ in range(workers)
        ]
        for process in processes:
            process.start()
        outcomes = [results.get(timeout=3600) for _ in processes]
        spent = [work.get(timeout=600) for _ in processes]
        for process in processes:
            process.join()
        elapsed = max(end for _h, _s, end in outcomes) - min(start for _h, start, _e in outcomes)
        shares = sorted((handled for handled, _s, _e in outcomes), reverse=True)
        database = Database(url, passwords=CHEAP)
        try:
            with database.unit_of_work(readonly=True) as uow:
                processed = uow.session.scalar(
                    select(func.count()).select_from(PhaseRecord).where(PhaseRecord.state == PhaseState.PROCESSED)
                )
        finally:
            database.dispose()
        assert processed == games == sum(shares), (processed, games, shares)
        drawing = _drawing_ms(url, data) if draw_maps else None
        print(f"postgresql {games:5d} games due at once, {workers} process(es): {elapsed:7.2f} s, "
              f"{games / elapsed:7.1f} games/s, {1000 * elapsed / games:6.1f} ms per game; "
              f"games per process {shares}", flush=True)  # fmt: skip
        cpu, statements = sum(c for c, _n in spent), sum(n for _c, n in spent)
        print(f"  {CPU_LINE} {cpu:.2f} s, {1000 * cpu / games:.2f} ms a game; "
              f"{statements} SQL statements, {statements / games:.2f} a game", flush=True)  # fmt: skip
        if drawing is not None:
            print(f"  the results' map, drawn by the sender at delivery (not in the figure above): "
                  f"{drawing:.1f} ms of CPU per phase (median of {MAP_SAMPLE} phases)", flush=True)  # fmt: skip
    return elapsed


MAP_SAMPLE = 20
CPU_LINE = "scheduler processes' CPU"


def _drawing_ms(url: str, data_dir: str) -> float:
    """CPU time the sender spends drawing one processed phase's map (once for all its readers)."""
    database = Database(url, passwords=CHEAP)
    try:
        services = Services(db=database, config=load_config(_settings(url, data_dir)), clock=FixedClock(DUE))
        times = []
        with database.unit_of_work(readonly=True) as uow:
            ids = uow.session.scalars(
                select(PhaseRecord.id).where(PhaseRecord.state == PhaseState.PROCESSED).limit(MAP_SAMPLE)
            ).all()
        for phase_id in ids:
            pictures = ResultsPictures()
            with services.db.unit_of_work(readonly=True) as uow:
                started = time.process_time()
                assert pictures.picture(uow, phase_id) is not None
                times.append(time.process_time() - started)
        return 1000 * statistics.median(times)
    finally:
        database.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--runs", type=int, default=1, help="measure each configuration this many times (median)")
    parser.add_argument("--orders", choices=ORDERS, default="opening", help=ORDERS_HELP)
    parser.add_argument("--postgres-url", default=os.environ.get("JUDGE_TEST_POSTGRES_URL", ""))
    parser.add_argument(
        "--before", default="",
        help="a directory holding another revision's judge (git archive REV judge migrations grammar "
             "alembic.ini | tar -x -C DIR): each run of it alternates with this code's, figures side by side",
    )  # fmt: skip
    args = parser.parse_args()
    if not args.postgres_url:
        parser.error("give --postgres-url (or set JUDGE_TEST_POSTGRES_URL): the figures are PostgreSQL's")
    if args.before:
        compare(args.before, args.postgres_url, args.games, args.workers, args.runs, args.orders)
        return
    medians: dict[int, float] = {}
    for count in args.workers:
        medians[count] = statistics.median(
            run(
                args.postgres_url, args.games, count, draw_maps=(run_index == 0 and count == args.workers[0]),
                orders=args.orders,
            )
            for run_index in range(args.runs)
        )
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for count, median in medians.items():
        if count != 2:
            print(f"{count} process{'es' if count > 1 else ''}: {median:.2f} s")
    if 2 in medians:
        print(f"2 processes: {medians[2]:.2f} s")


def compare(before: str, url: str, games: int, workers: list[int], runs: int, orders: str = "opening") -> None:
    """Each configuration ``runs`` times with the code in ``before`` and with this code, alternated
    (each run a fresh process: ``PYTHONPATH`` chooses the judge), then the medians side by side."""
    figures: dict[tuple[str, int], list[tuple[float, float, float]]] = {}
    for _run in range(runs):
        for count in workers:
            for label, path in (("before", before), ("after", "")):
                env = {**os.environ, "PYTHONPATH": path} if path else dict(os.environ)
                done = subprocess.run(
                    [
                        sys.executable, __file__, "--games", str(games), "--workers", str(count), "--postgres-url", url,
                        "--orders", orders,
                    ],
                    env=env, capture_output=True, text=True, check=True,
                )  # fmt: skip
                wall = float(re.search(r"process\(es\): +([0-9.]+) s", done.stdout).group(1))  # type: ignore[union-attr]
                cpu_line = re.search(rf"{CPU_LINE} ([0-9.]+) s.*?(\d+) SQL", done.stdout)
                assert cpu_line is not None, done.stdout
                cpu, statements = float(cpu_line.group(1)), float(cpu_line.group(2))
                figures.setdefault((label, count), []).append((wall, cpu, statements))
                print(f"{label:6s} {count} process(es): {wall:7.2f} s, scheduler CPU {cpu:6.2f} s, "
                      f"{statements / games:5.2f} statements a game", flush=True)  # fmt: skip
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for count in workers:
        medians = {
            label: [statistics.median(f[i] for f in figures[label, count]) for i in range(3)]
            for label in ("before", "after")
        }
        (wall_b, cpu_b, _), (wall_a, cpu_a, _) = medians["before"], medians["after"]
        print(f"{count} process(es), medians of {runs}: wall {wall_b:.2f} -> {wall_a:.2f} s "
              f"(x{wall_b / wall_a:.2f}), scheduler CPU {cpu_b:.2f} -> {cpu_a:.2f} s (x{cpu_b / cpu_a:.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
