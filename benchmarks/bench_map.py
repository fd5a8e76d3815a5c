"""Map benchmark (issue 16): time to draw a position as SVG and as PNG, and the PNG's size, per variant.

Each shipped variant's opening position is drawn, and Standard's mid-game
fixture (tests/maps) with its orders and results; the median of ``--runs``
runs is printed for the SVG alone and for SVG + PNG (wall and CPU time), with the PNG's size in bytes and pixels.

    .venv/bin/python benchmarks/bench_map.py [--runs 7]

Figures only; nothing here is asserted (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from judge.core.position import Position
from judge.core.variants import available_variants, load_map
from judge.maps.contract import svg_from_contract
from judge.maps.png import png_size, svg_to_png
from judge.maps.render import render_svg

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "maps"


def _median_ms(work, runs: int, clock=time.perf_counter) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = clock()
        work()
        times.append(clock() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    cases: list[tuple[str, object]] = []
    position = json.loads((FIXTURES / "standard_f1902_position.json").read_text())
    result = json.loads((FIXTURES / "standard_f1902_result.json").read_text())
    cases.append(("standard F1902M + orders", lambda: svg_from_contract(position, result)))
    for name in available_variants():
        game_map = load_map(name)
        opening = Position(name, game_map.first_phase, game_map.opening_units, game_map.starting_centers)
        cases.append((f"{name} opening", lambda m=game_map, p=opening: render_svg(m, p)))
    # Wall time suffers from a loaded machine; the CPU time of the process is the steadier figure.
    print(f"{'map':32} {'svg ms':>8} {'svg+png ms':>11} {'cpu ms':>8} {'png KB':>8} {'pixels':>10}")
    for label, draw in cases:
        svg = draw()  # type: ignore[operator]
        svg_ms = _median_ms(draw, args.runs)
        png_ms = _median_ms(lambda d=draw: svg_to_png(d()), args.runs)  # type: ignore[misc]
        cpu_ms = _median_ms(lambda d=draw: svg_to_png(d()), args.runs, time.process_time)  # type: ignore[misc]
        png = svg_to_png(svg)
        width, height = png_size(png)
        print(f"{label:32} {svg_ms:8.1f} {png_ms:11.1f} {cpu_ms:8.1f} {len(png) / 1024:8.1f} {f'{width}x{height}':>10}")


if __name__ == "__main__":
    main()
