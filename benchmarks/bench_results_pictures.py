"""Results pictures as the sender draws them (issue 28): the CPU of one picture through
:meth:`judge.app.mail_out.results_maps.ResultsPictures.picture`, database read included.

N Standard games are built and their first phase processed as the deadline
storm's are (``bench_processing.build``: with ``--orders opening``, the default,
the same opening orders, a game's name its own; with ``--orders random`` each
game its own legal orders, seeded, so pictures differ as a real storm's do and
bands kept by their content are reused only where the boards agree), on SQLite
in a temporary directory. Then a child process draws each
processed phase's results picture once, in a unit of work of its own, after
``--warm`` pictures of other games drawn first (a running sender has drawn many:
its boards and sprites are kept), and prints the process CPU time per picture.

``--before REV`` also draws them with git revision REV's judge (``git archive``
into a temporary directory, first on the child's path), the two codes alternated
``--rounds`` times on the same database, and checks that both drew the same
pixels (each PNG decoded by libvips and hashed). Last line:
``results picture: X.XX ms of CPU`` (today's code, the median of the rounds).

    .venv/bin/python benchmarks/bench_results_pictures.py [--games 200] [--before main] [--rounds 3]
    .venv/bin/python benchmarks/bench_results_pictures.py --language fr
    .venv/bin/python benchmarks/bench_results_pictures.py --games 220 --rounds 1 --orders random

Figures only; nothing here is asserted but the pixels' equality.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def draw(url: str, warm: int, language: str, profile: str) -> None:
    """The child: each processed phase's picture drawn once; prints JSON (CPU ms each, pixel hashes, sizes)."""
    from bench_repository import CHEAP
    from sqlalchemy import select

    from judge.app.mail_out.results_maps import ResultsPictures
    from judge.db import Database
    from judge.db.enums import PhaseState
    from judge.db.models import PhaseRecord
    from judge.maps.vips import vips

    database = Database(url, passwords=CHEAP)
    with database.unit_of_work(readonly=True) as uow:
        ids = list(
            uow.session.scalars(
                select(PhaseRecord.id).where(PhaseRecord.state == PhaseState.PROCESSED).order_by(PhaseRecord.id)
            )
        )
    pictures = ResultsPictures()
    for phase_id in ids[:warm]:
        with database.unit_of_work(readonly=True) as uow:
            pictures.picture(uow, phase_id, language)
    times: list[float] = []
    drawn: list[bytes] = []
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    for phase_id in ids[warm:]:
        started = time.process_time()
        with database.unit_of_work(readonly=True) as uow:
            picture = pictures.picture(uow, phase_id, language)
        times.append(time.process_time() - started)
        assert picture is not None
        drawn.append(picture.data)
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)
    database.dispose()
    hashes = []
    for data in drawn:
        image = vips().Image.pngload_buffer(data)
        hashes.append(hashlib.sha256(bytes(image.colourspace("srgb")[0:3].write_to_memory())).hexdigest()[:16])
    print(json.dumps({"ms": [1000 * t for t in times], "hashes": hashes, "bytes": [len(d) for d in drawn]}))


def build(url: str, games: int, data_dir: Path, orders: str) -> None:
    from bench_processing import T0
    from bench_processing import build as build_games
    from bench_repository import CHEAP

    from judge.app.phases.guarded_scheduler import process_due
    from judge.app.session.services import Services
    from judge.config import load_config
    from judge.db import Database
    from judge.db.migrate import upgrade
    from judge.timekeeping.clock import FakeClock

    upgrade(url)
    database = Database(url, passwords=CHEAP)
    config = load_config({"JUDGE_DATABASE_URL": url, "JUDGE_DATA_DIR": str(data_dir), "JUDGE_CODE": "XPY"})
    clock = FakeClock(T0)
    services = Services(db=database, config=config, clock=clock)
    build_games(services, games, orders)
    clock.advance(days=4)
    assert process_due(services) == games
    database.dispose()


def child(url: str, warm: int, language: str, path: str | None, profile: str = "") -> dict[str, list[float]]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (path, str(HERE), str(ROOT)) if p)
    command = [sys.executable, __file__, "--child", url, "--warm", str(warm), "--language", language]
    if profile:
        command += ["--profile", profile]
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games built; --warm of them drawn before the clock")
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--before", default="", help="a git revision whose code is measured beside today's")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--language", default="en")
    parser.add_argument("--orders", default="opening", help="opening or random (bench_processing.ORDERS_HELP)")
    parser.add_argument("--profile", default="", help="write today's code's cProfile statistics here (last round)")
    parser.add_argument("--child", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        draw(args.child, args.warm, args.language, args.profile)
        return
    if args.games <= args.warm:
        parser.error("--games must exceed --warm")
    # Imported here, not in the child: the child may run another revision's judge.
    from bench_processing import ORDERS, ORDERS_HELP

    if args.orders not in ORDERS:
        parser.error(f"--orders: {ORDERS_HELP}")
    with tempfile.TemporaryDirectory() as temporary:
        url = f"sqlite:///{temporary}/judge.db"
        build(url, args.games, Path(temporary), args.orders)
        old = ""
        if args.before:
            old = f"{temporary}/old"
            os.mkdir(old)
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", args.before, "judge", "grammar"], check=True, capture_output=True
            ).stdout
            subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
        codes = {"today": None, **({f"before ({args.before})": old} if old else {})}
        medians: dict[str, list[float]] = {name: [] for name in codes}
        hashes: dict[str, list[str]] = {}
        sizes: dict[str, list[float]] = {}
        for round_ in range(args.rounds):
            for name, path in codes.items():
                last = round_ == args.rounds - 1 and name == "today"
                figures = child(url, args.warm, args.language, path, args.profile if last else "")
                medians[name].append(statistics.median(figures["ms"]))
                mean = statistics.fmean(figures["ms"])
                hashes[name] = [str(h) for h in figures["hashes"]]
                sizes[name] = figures["bytes"]
                print(f"round {round_ + 1} {name:>24s}: median {medians[name][-1]:6.2f} ms, mean {mean:6.2f} ms of CPU "
                      f"a picture ({len(figures['ms'])} pictures), PNG {statistics.fmean(sizes[name]) / 1024:.1f} KB",
                      flush=True)  # fmt: skip
        if old:
            pairs = list(zip(hashes["today"], hashes[f"before ({args.before})"], strict=True))
            differ = sum(today != before for today, before in pairs)
            print(f"pixels: the same in all {len(pairs)} pictures" if not differ else
                  f"pixels: DIFFERENT in {differ} of {len(pairs)} pictures")  # fmt: skip
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for name, values in medians.items():
            if name != "today":
                print(f"{name}: {statistics.median(values):.2f} ms of CPU")
        print(f"results picture: {statistics.median(medians['today']):.2f} ms of CPU")


if __name__ == "__main__":
    main()
