"""Smooth the stair-stepped borders of the shipped drawings (issue 28), keeping every contact.

The regions are grown on a grid, so a border that runs diagonally is a staircase of 4-5 px steps.
This pass rounds each border *chain* (the run of border between two junctions: points where the
province on the other side changes, or where three regions meet) with a few rounds of Chaikin's
corner cutting, each cut at most ``--cut`` px from the corner, then drops the points that moved
the line by less than ``--tolerance`` px (Douglas-Peucker; 0.8 px keeps about as many points as
the grid's outline had, and so the drawing's time). Junctions never move. Each chain is
computed once, in one direction, and written into both provinces that share it, so neighbours
keep exactly the same border and nothing new can touch: the geometry test
(tests/maps/test_map_geometry.py) checks every contact and non-contact after the pass.

    .venv/bin/python tools/mapgen/smooth.py standard ancmed modern colonial world youngstown
    cd judge/variants/maps && for v in 1898 chaos fleet_rome france_austria germany_italy england_turkey; do cp standard.svg $v.svg; done
"""

from __future__ import annotations

import argparse
import math
import re
from collections import defaultdict
from pathlib import Path

MAPS = Path(__file__).resolve().parents[2] / "judge" / "variants" / "maps"
Point = tuple[float, float]
_PATH = re.compile(r'(<path id="([^"]+)"[^>]*? d=")([^"]*)(")')
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _rings(d: str) -> list[list[Point]]:
    rings = []
    for part in d.split("M")[1:]:
        numbers = [float(n) for n in _NUMBER.findall(part)]
        ring = list(zip(numbers[0::2], numbers[1::2], strict=True))
        if len(ring) > 1 and ring[0] == ring[-1]:
            ring.pop()
        rings.append(ring)
    return rings


def _key(a: Point, b: Point) -> tuple[Point, Point]:
    return (a, b) if a <= b else (b, a)


def _chaikin(chain: list[Point], cut: float, rounds: int) -> list[Point]:
    for _ in range(rounds):
        out = [chain[0]]
        for index in range(len(chain) - 1):
            (x1, y1), (x2, y2) = chain[index], chain[index + 1]
            length = math.hypot(x2 - x1, y2 - y1)
            if length == 0:
                continue
            share = min(0.25, cut / length)
            if index > 0:
                out.append((x1 + (x2 - x1) * share, y1 + (y2 - y1) * share))
            if index < len(chain) - 2:
                out.append((x2 - (x2 - x1) * share, y2 - (y2 - y1) * share))
        out.append(chain[-1])
        chain = out
    return chain


def _simplify(chain: list[Point], tolerance: float) -> list[Point]:
    if len(chain) < 3:
        return chain
    (x1, y1), (x2, y2) = chain[0], chain[-1]
    length = math.hypot(x2 - x1, y2 - y1)
    worst, where = -1.0, 0
    for index in range(1, len(chain) - 1):
        px, py = chain[index]
        if length == 0:
            distance = math.hypot(px - x1, py - y1)
        else:
            distance = abs((x2 - x1) * (y1 - py) - (x1 - px) * (y2 - y1)) / length
        if distance > worst:
            worst, where = distance, index
    if worst <= tolerance:
        return [chain[0], chain[-1]]
    return _simplify(chain[: where + 1], tolerance)[:-1] + _simplify(chain[where:], tolerance)


def smooth(svg: str, cut: float, rounds: int, tolerance: float) -> str:
    paths = {pid: _rings(d) for _head, pid, d, _tail in _PATH.findall(svg)}
    owners: dict[tuple[Point, Point], set[str]] = defaultdict(set)
    for pid, rings in paths.items():
        for ring in rings:
            for index, point in enumerate(ring):
                owners[_key(point, ring[(index + 1) % len(ring)])].add(pid)
    done: dict[tuple[Point, ...], list[Point]] = {}

    def other(pid: str, a: Point, b: Point) -> frozenset[str] | None:
        found = owners[_key(a, b)] - {pid}
        return frozenset(found) if len(found) == 1 else None  # unshared or shared by many: fixed

    def new_ring(pid: str, ring: list[Point]) -> list[Point]:
        count = len(ring)
        fixed = [
            other(pid, ring[i - 1], ring[i]) is None
            or other(pid, ring[i], ring[(i + 1) % count]) is None
            or other(pid, ring[i - 1], ring[i]) != other(pid, ring[i], ring[(i + 1) % count])
            for i in range(count)
        ]
        if not any(fixed):  # an island in one province: its own chain, from its first point
            fixed[0] = True
        start = fixed.index(True)
        order = ring[start:] + ring[:start]
        flags = fixed[start:] + fixed[:start]
        result: list[Point] = []
        chain = [order[0]]
        for index in range(1, count + 1):
            point = order[index % count]
            chain.append(point)
            if flags[index % count]:
                canonical = tuple(chain) if chain[0] <= chain[-1] else tuple(reversed(chain))
                if canonical not in done:
                    done[canonical] = _simplify(_chaikin(list(canonical), cut, rounds), tolerance)
                drawn = done[canonical] if canonical[0] == chain[0] and tuple(chain) == canonical else list(reversed(done[canonical]))
                result.extend(drawn[:-1])
                chain = [point]
        return result

    def write(match: re.Match[str]) -> str:
        head, pid, _d, tail = match.groups()
        rings = [new_ring(pid, ring) for ring in paths[pid]]
        d = " ".join("M" + " L".join(f"{x:.1f} {y:.1f}".replace(".0 ", " ").removesuffix(".0") for x, y in ring) + " Z" for ring in rings)
        return head + d + tail

    return _PATH.sub(write, svg)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--cut", type=float, default=2.6)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tolerance", type=float, default=0.8)
    args = parser.parse_args()
    for variant in args.variants:
        path = MAPS / f"{variant}.svg"
        before = path.read_text(encoding="utf-8")
        after = smooth(before, args.cut, args.rounds, args.tolerance)
        path.write_text(after, encoding="utf-8")
        print(f"{variant}: {len(before)} -> {len(after)} bytes")


if __name__ == "__main__":
    main()
