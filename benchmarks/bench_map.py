"""Map benchmark (issues 16, 28): the CPU time to draw a board as PNG, per variant, and the PNG's size.

Each shipped variant's opening position is drawn, and Standard's mid-game
fixture (tests/maps) with its orders and results (in English and French);
the median of ``--runs`` runs is printed for the SVG alone and for SVG + PNG
(wall and CPU time), with the PNG's size in KB and pixels. ``--before REV``
also measures the code of git revision REV (exported to a temporary
directory and imported first, in a subprocess) and prints its CPU time and
PNG size beside today's, so a change's effect is read on the same machine
in the same minute.

    .venv/bin/python benchmarks/bench_map.py [--runs 7] [--before 0b1236d]
    .venv/bin/python benchmarks/bench_map.py --games 40    # seeded random games' pictures, in order

``--games N`` draws instead the results pictures of two seeded random games
(Standard and World, N phases each at most), phase by phase, as a sender
does, and prints the mean CPU time a picture of each game; with ``--before
REV``, REV's code and today's each draw them in a fresh process, alternated
(REV, today, REV, today...) ``--runs`` times, and the medians are printed
with their ratio (today / REV).

    .venv/bin/python benchmarks/bench_map.py --games 20 --runs 3 --before main

Figures only; nothing here is asserted (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "tests" / "maps"


def _median_ms(work: Callable[[], object], runs: int, clock: Callable[[], float] = time.perf_counter) -> float:
    times = []
    for _ in range(runs):
        start = clock()
        work()
        times.append(clock() - start)
    return statistics.median(times) * 1000


def measure(runs: int) -> dict[str, dict[str, float]]:
    """Each case's figures: svg ms, svg+png ms (wall), cpu ms (svg+png), png KB, width, height."""
    import inspect

    from judge.core.position import Position
    from judge.core.variants import available_variants, load_map
    from judge.maps.contract import svg_from_contract
    from judge.maps.png import png_size, svg_to_png
    from judge.maps.render import render_svg

    position = json.loads((FIXTURES / "standard_f1902_position.json").read_text())
    result = json.loads((FIXTURES / "standard_f1902_result.json").read_text())
    cases: list[tuple[str, Callable[[], str]]] = [("standard F1902M + orders", lambda: svg_from_contract(position, result))]
    if "language" in inspect.signature(svg_from_contract).parameters:
        french: Callable[[], str] = lambda: svg_from_contract(position, result, language="fr")  # noqa: E731
        cases.append(("standard F1902M + orders, fr", french))
    for name in available_variants():
        game_map = load_map(name)
        opening = Position(name, game_map.first_phase, game_map.opening_units, game_map.starting_centers)
        cases.append((f"{name} opening", lambda m=game_map, p=opening: render_svg(m, p)))  # type: ignore[misc]
    try:  # the Renaissance game's board (issue 33), drawn by its own layer
        from judge.core.machiavelli.board import load_board
        from judge.core.machiavelli.campaign import opening_position
        from judge.maps.machiavelli_layer import render_machiavelli_svg
    except ImportError:  # a revision before it (--before)
        pass
    else:
        board, start = load_board(), opening_position(load_board())
        cases.append(("machiavelli opening (13 garrisons)", lambda: render_machiavelli_svg(board, start)))
    figures: dict[str, dict[str, float]] = {}
    for label, draw in cases:
        svg = draw()
        png = svg_to_png(svg)
        width, height = png_size(png)
        figures[label] = {
            "svg_ms": _median_ms(draw, runs),
            "png_ms": _median_ms(lambda d=draw: svg_to_png(d()), runs),  # type: ignore[misc]
            # Wall time suffers from a loaded machine; the CPU time of the process is the steadier figure.
            "cpu_ms": _median_ms(lambda d=draw: svg_to_png(d()), runs, time.process_time),  # type: ignore[misc]
            "png_kb": len(png) / 1024,
            "width": width,
            "height": height,
        }
    return figures


def game_figures(variant: str, phases: int, seeds: tuple[int, ...] = (1, 2)) -> dict[str, float]:
    """Seeded random games of ``variant`` (``phases`` phases each, the same orders whatever the code),
    one after the other, each phase's results picture drawn once, in order, as the sender draws them:
    the mean CPU ms per picture (SVG + PNG) of each game, the elements of the phases (judge.maps.layers)
    (its board drawn before: once per variant and language). A picture drawn again and again, as
    the table's rows are, could gain from anything kept between pictures; these cannot."""
    import random

    from judge.core.adjudicator import Rules, adjudicate
    from judge.core.position import Position
    from judge.core.random_orders import RandomOrders
    from judge.core.units import Unit
    from judge.core.variants import load_map
    from judge.maps.png import svg_to_png
    from judge.maps.render import render_svg

    game_map = load_map(variant)
    opening = Position(variant, game_map.first_phase, game_map.opening_units, game_map.starting_centers)
    svg_to_png(render_svg(game_map, opening))  # the board
    figures: dict[str, float] = {}
    for seed in seeds:
        maker = RandomOrders(game_map, random.Random(seed), mischief=0.3)
        position, played = opening, []
        options: dict[Unit, tuple[str, ...]] = {}
        for _ in range(phases):
            result = adjudicate(position, maker.orders(position, options), Rules(), game_map)
            played.append((position, result))
            options, position = dict(result.retreats), result.position
            if result.winner:
                break
        start = time.process_time()
        for before, result in played:
            svg_to_png(render_svg(game_map, before, result))
        figures[f"{variant} game (seed {seed}), {len(played)} phases"] = (time.process_time() - start) * 1000 / len(played)
    return figures


def _export(revision: str, folder: str) -> None:
    """``revision``'s ``judge`` package written under ``folder`` (by git)."""
    archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", revision, "judge"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)


def _child(arguments: list[str], code: str | None) -> Any:
    """This script's JSON figures from a child process, importing ``judge`` from ``code`` (a folder)
    first when given, else today's."""
    env = dict(os.environ, PYTHONPATH=code) if code is not None else None
    done = subprocess.run([sys.executable, __file__, *arguments, "--json"], capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout)


def _before(revision: str, runs: int) -> dict[str, dict[str, float]]:
    """The figures of ``revision``'s code: exported by git, imported first by a child process."""
    with tempfile.TemporaryDirectory(prefix="bench-map-") as folder:
        _export(revision, folder)
        figures: dict[str, dict[str, float]] = _child(["--runs", str(runs)], folder)
        return figures


def _all_games(phases: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    for variant in ("standard", "world"):
        figures.update(game_figures(variant, phases))
    return figures


def _games_side_by_side(revision: str, phases: int, rounds: int) -> None:
    """``revision``'s code and today's drawing the same games' pictures, each in a fresh process,
    alternated ``rounds`` times: each game's median CPU ms a picture, and today's over ``revision``'s."""
    before: dict[str, list[float]] = {}
    after: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-map-") as folder:
        _export(revision, folder)
        for _ in range(rounds):
            for code, into in ((folder, before), (None, after)):
                for label, mean in _child(["--games", str(phases)], code).items():
                    into.setdefault(label, []).append(mean)
    print(f"{'random game, results pictures in order':48} {'cpu ms before':>13} {'cpu ms now':>10} {'ratio':>6}   rounds (before / now)")
    for label, now in after.items():
        old = before.get(label, [])
        was = statistics.median(old) if old else float("nan")
        ratio = statistics.median(now) / was if old else float("nan")
        rounds_text = " ".join(f"{b:.1f}" for b in old) + " / " + " ".join(f"{a:.1f}" for a in now)
        print(f"{label:48} {was:13.1f} {statistics.median(now):10.1f} {ratio:6.3f}   {rounds_text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--before", help="a git revision whose code is measured too, for comparison")
    parser.add_argument("--games", type=int, default=0, help="phases of seeded random games to draw, in order (0: none)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the child's output
    args = parser.parse_args()
    if args.json:
        print(json.dumps(_all_games(args.games) if args.games else measure(args.runs)))
        return
    if args.games and args.before:
        _games_side_by_side(args.before, args.games, args.runs)
        return
    if args.games:
        print(f"{'random game, results pictures in order':48} {'cpu ms a picture':>16}")
        for variant in ("standard", "world"):
            for label, mean in game_figures(variant, args.games).items():
                print(f"{label:48} {mean:16.1f}")
        return
    before = _before(args.before, args.runs) if args.before else {}
    after = measure(args.runs)
    head = f"{'map':32} {'svg ms':>7} {'svg+png ms':>10} {'cpu ms':>7} {'png KB':>7} {'pixels':>10}"
    if before:
        head += f"   {'cpu ms before':>13} {'png KB before':>13}"
    print(head)
    for label, row in after.items():
        pixels = f"{int(row['width'])}x{int(row['height'])}"
        line = (
            f"{label:32} {row['svg_ms']:7.1f} {row['png_ms']:10.1f} {row['cpu_ms']:7.1f} {row['png_kb']:7.1f} "
            f"{pixels:>10}"
        )
        if before:
            old = before.get(label)
            line += f"   {old['cpu_ms']:13.1f} {old['png_kb']:13.1f}" if old else f"   {'-':>13} {'-':>13}"
        print(line)


if __name__ == "__main__":
    main()
