"""Adjudicator benchmark: our engine against the PyPI `diplomacy` package, same games.

Plays seeded random games (judge.core.random_orders) through our reader and
adjudicator, records every phase's orders, then replays the very same orders
through `diplomacy.Game` (set_orders + process) in the same run. Prints phases
per second for each and the ratio ours/theirs, our time with and without
reading the order text, and how often the two engines left identical boards
(a sanity check that both did the same work, not a verdict: on a
disagreement the DATC decides).

    .venv/bin/python benchmarks/bench_adjudicator.py [--games 20] [--years 10] [--seed 1] [--batch-runs 5]

The batch figure: every phase's starting position and orders written as the
``judge adjudicate`` input (JSON Lines), fed to ``judge adjudicate --jsonl``
in a fresh process; its wall time (start-up, JSON in and out, reading the
orders, adjudicating: everything; the judge's bytecode cached, as an
installed judge has it) against the package's ``set_orders`` +
``process()`` time on the same phases (median of ``--batch-runs`` runs). The
last line is ``batch ratio X.XX``.

The heap is settled before each engine's games (``gc.collect()`` then
``gc.freeze()``): what the benchmark set up before (both engines' modules,
the maps, the first engine's records of every phase) is left out of later
collections. Without it, a full collection scanning that setup lands in
whichever timed window happens to cross the collector's threshold, and the
ratio moved by a fifth between runs of the same code (issue 14's notes).
Each engine's own garbage is still collected inside its timings.

Figures only; nothing here is asserted (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from random_games import to_diplomacy_package

from judge.core.adjudicator import adjudicate
from judge.core.adjudicator.results import AdjudicationResult
from judge.core.adjudicator.rules import Rules
from judge.core.orders import Order
from judge.core.phase import PhaseType
from judge.core.position import Position
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.serialization import position_to_json
from judge.core.units import Unit
from judge.core.variants import load_map
from judge.lang.orders import clear_reading_cache, read_order


@dataclass
class PhaseRecord:
    """One phase as we played it: what was ordered, and the board it led to."""

    phase: str
    texts: dict[str, list[str]]
    orders: dict[str, list[Order]]
    units_after: frozenset[tuple[str, str]]
    next_phase: str


@dataclass
class Totals:
    phases: int = 0
    orders: int = 0
    parse_seconds: float = 0.0
    adjudicate_seconds: float = 0.0
    misread: int = 0
    records: list[list[PhaseRecord]] = field(default_factory=list)
    batch: list[str] = field(default_factory=list)
    """Every phase as one line of ``judge adjudicate --jsonl`` input."""


def board(units: Sequence[Unit]) -> frozenset[tuple[str, str]]:
    return frozenset((u.power, f"{u.type.value} {u.location}") for u in units)


def play_ours(games: int, years: int, seed: int) -> Totals:
    game_map = load_map("standard")
    rules = Rules()
    totals = Totals()
    for game in range(games):
        maker = RandomOrders(game_map, random.Random(seed * 1_000_003 + game))
        position: Position = opening_position(game_map)
        retreats: Mapping[Unit, Sequence[str]] = {}
        log: list[PhaseRecord] = []
        last_year = position.phase.year + years - 1
        while position.phase.year <= last_year:
            orders = maker.orders(position, retreats)
            texts = {power: [str(o) for o in these] for power, these in orders.items()}
            totals.batch.append(json.dumps(position_to_json(position, orders=texts)))
            phase_type = position.phase.type

            started = time.perf_counter()
            parsed = {
                power: [read_order(t, game_map, phase_type=phase_type).order for t in lines]
                for power, lines in texts.items()
            }
            read_done = time.perf_counter()
            result: AdjudicationResult = adjudicate(position, parsed, rules, game_map)
            finished = time.perf_counter()

            totals.parse_seconds += read_done - started
            totals.adjudicate_seconds += finished - read_done
            totals.phases += 1
            totals.orders += sum(len(v) for v in texts.values())
            totals.misread += sum(parsed[p] != orders[p] for p in orders)
            log.append(
                PhaseRecord(
                    str(position.phase),
                    texts,
                    orders,
                    board(result.position.units),
                    str(result.next_phase),
                )
            )
            retreats = result.retreats
            position = result.position
            if result.winner is not None:
                break
        totals.records.append(log)
    return totals


@dataclass
class Theirs:
    phases: int = 0
    seconds: float = 0.0
    same_board: int = 0
    diverged_games: int = 0


def play_theirs(records: list[list[PhaseRecord]]) -> Theirs:
    import diplomacy

    theirs = Theirs()
    for log in records:
        game = diplomacy.Game()
        for record in log:
            if game.is_game_done or game.get_current_phase() != record.phase:
                theirs.diverged_games += 1
                break
            texts = {
                power: [to_diplomacy_package(o) for o in orders]
                for power, orders in record.orders.items()
            }
            started = time.perf_counter()
            for power, lines in texts.items():
                game.set_orders(power, lines)
            game.process()
            theirs.seconds += time.perf_counter() - started
            theirs.phases += 1
            units = frozenset(
                (power, unit)
                for power, listed in game.get_units().items()
                for unit in listed
                if not unit.startswith("*")
            )
            if units == record.units_after:
                theirs.same_board += 1
    return theirs


# The orders of a whole opening, as one mail from every power would give them.
OPENING_MAIL = (
    "A VIE - GAL", "A BUD - SER", "F TRI - ALB",
    "F LON - NTH", "F EDI - NWG", "A LVP - YOR",
    "F BRE - MAO", "A PAR - BUR", "A MAR S A PAR - BUR",
    "F KIE - DEN", "A BER - KIE", "A MUN - RUH",
    "F NAP - ION", "A ROM - APU", "A VEN H",
    "A WAR - UKR", "A MOS - STP",
)  # fmt: skip


def mail_reading_ms(rounds: int = 200, *, cached: bool = True) -> float:
    """Best time to read the 17 orders of OPENING_MAIL, in milliseconds.

    ``cached=False`` empties the reader's cache before each round, so every
    order is read afresh (a mail of orders never seen before).
    """
    game_map = load_map("standard")
    best = float("inf")
    for _ in range(rounds):
        if not cached:
            clear_reading_cache()
        started = time.perf_counter()
        for text in OPENING_MAIL:
            read_order(text, game_map)
        best = min(best, time.perf_counter() - started)
    return best * 1e3


def uncached_reading_us(records: list[list[PhaseRecord]], rounds: int = 3) -> tuple[float, int]:
    """Microseconds per order to read each distinct (text, phase type) once, cache emptied first.

    Best of ``rounds`` passes, each starting with an empty cache.
    """
    game_map = load_map("standard")
    distinct = {
        (text, _phase_type(record.phase))
        for log in records
        for record in log
        for lines in record.texts.values()
        for text in lines
    }
    best = float("inf")
    for _ in range(rounds):
        clear_reading_cache()
        started = time.perf_counter()
        for text, phase_type in distinct:
            read_order(text, game_map, phase_type=phase_type)
        best = min(best, time.perf_counter() - started)
    return best / len(distinct) * 1e6, len(distinct)


def batch_seconds(lines: Sequence[str], runs: int) -> tuple[float, int]:
    """Median wall time of ``judge adjudicate --jsonl`` over ``lines`` in a fresh process; and the errors."""
    judge = Path(sys.executable).with_name("judge")
    command = [str(judge)] if judge.exists() else [sys.executable, "-m", "judge.cli"]
    payload = ("\n".join(lines) + "\n").encode("utf-8")
    # As an installed judge runs: with its modules' bytecode cached (pip compiles it at install;
    # here a warm-up run writes it to a private directory, also when PYTHONDONTWRITEBYTECODE is set).
    cache = tempfile.mkdtemp(prefix="judge-pyc-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPYCACHEPREFIX": cache}
    subprocess.run([*command, "adjudicate", "--jsonl"], input=payload[: payload.index(b"\n") + 1],
                   capture_output=True, check=True, env=env)  # fmt: skip
    times = []
    errors = 0
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(
            [*command, "adjudicate", "--jsonl"], input=payload, capture_output=True, check=True, env=env
        )
        times.append(time.perf_counter() - started)
        out = done.stdout.decode("utf-8").splitlines()
        assert len(out) == len(lines), (len(out), len(lines), done.stderr[-2000:])
        errors = sum('"error"' in line[:12] for line in out)
    return statistics.median(times), errors


def _phase_type(phase: str) -> PhaseType:
    from judge.core.phase import Phase

    return Phase.parse(phase).type


def settle_heap() -> None:
    """Collect, then exempt what is alive from later collections (see the module's docstring)."""
    gc.collect()
    gc.freeze()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch-runs", type=int, default=5)
    args = parser.parse_args(argv)

    import diplomacy  # fail early with a clear message if the bench extra is missing

    load_map("standard")
    read_order("A PAR H", load_map("standard"))  # build the parser outside the timings

    settle_heap()
    ours = play_ours(args.games, args.years, args.seed)
    settle_heap()
    theirs = play_theirs(ours.records)

    adjudicate_rate = ours.phases / ours.adjudicate_seconds
    full_rate = ours.phases / (ours.adjudicate_seconds + ours.parse_seconds)
    their_rate = theirs.phases / theirs.seconds
    version = getattr(diplomacy, "__version__", "1.1.2")
    print(f"random games: {args.games} x {args.years} years, seed {args.seed}")
    print(
        f"ours        : {ours.phases} phases, {ours.orders} orders; "
        f"adjudicate only {adjudicate_rate:,.0f} phases/s; "
        f"parse+adjudicate {full_rate:,.0f} phases/s; "
        f"reading {ours.parse_seconds / ours.orders * 1e6:.1f} us/order"
    )
    print(
        f"diplomacy {version}: {theirs.phases} phases (set_orders + process) {their_rate:,.0f} phases/s"
    )
    print(
        f"ratio ours/theirs: parse+adjudicate {full_rate / their_rate:.1f}x, "
        f"adjudicate only {adjudicate_rate / their_rate:.1f}x"
    )
    print(f"reading a 17-order mail (best of 200): {mail_reading_ms():.3f} ms")
    print(
        f"reading a 17-order mail never seen before (cache emptied, best of 200): "
        f"{mail_reading_ms(cached=False):.3f} ms"
    )
    fresh_us, distinct = uncached_reading_us(ours.records)
    print(
        f"reading without the cache: {fresh_us:.1f} us/order "
        f"({distinct} distinct orders of the games, each read once, best of 3)"
    )
    print(
        f"same board after {theirs.same_board} of {theirs.phases} phases compared; "
        f"{theirs.diverged_games} games stopped where the phase sequences differed; "
        f"orders misread by our reader: {ours.misread}"
    )
    batch, errors = batch_seconds(ours.batch, args.batch_runs)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"judge adjudicate --jsonl: {len(ours.batch)} phases in {batch:.3f} s "
        f"({batch / len(ours.batch) * 1e3:.3f} ms a phase, start-up included, {errors} errors), "
        f"diplomacy set_orders + process {theirs.seconds:.3f} s "
        f"({theirs.seconds / max(theirs.phases, 1) * 1e3:.3f} ms a phase)"
    )
    print(f"read+adjudicate ratio {full_rate / their_rate:.2f}")
    print(f"batch ratio {theirs.seconds / theirs.phases * len(ours.batch) / batch:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
