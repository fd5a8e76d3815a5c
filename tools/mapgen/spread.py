"""Move unit anchors apart so that no two units are drawn on one another (issue 28).

The generator puts a province's unit (and each coast's fleet) at the deepest point of its outline;
where provinces are small (World's India and China, Youngstown's Japan, Colonial's straits, Modern's
Gibraltar) two neighbours' points stand closer than a unit symbol is wide, and their units overlap.
This pass pushes each such pair apart along the axis where they overlap least, a little at a time,
each point kept inside its own province (and a few pixels from its border), off every centre marker
it did not already touch. On a board with an inset (World's and Youngstown's Europe), a unit in the
framed region is drawn on the board as small as the inset is large (``judge.maps.render``), so its
box there is the smaller one: the inset, drawn from the same anchors, then holds no overlap either.

    .venv/bin/python tools/mapgen/spread.py world youngstown colonial modern

Run after ``mapgen.py`` and ``smooth.py``; ``tests/maps/test_overlaps.py`` checks the result on
every variant's opening and on long random games, ``tests/maps/test_map_geometry.py`` that every
anchor stays inside its province.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judge.maps.art import load_art  # noqa: E402
from judge.maps.layout import INSETS, Box, centre_box, inside, outlines, unit_box  # noqa: E402

MAPS = ROOT / "judge" / "variants" / "maps"
CLEARANCE = 3.0
"""How far from its province's border a moved anchor stays, in pixels."""
GAP = 1.0
"""How far apart two units' boxes end up."""


def _box(point: tuple[float, float], size: float) -> Box:
    full = unit_box(point)
    x, y = point
    return Box(x + (full.left - x) * size, y + (full.top - y) * size, x + (full.right - x) * size, y + (full.bottom - y) * size)


def spread(variant: str, rounds: int = 400) -> list[str]:
    """Move the anchors of ``variant``'s sidecar apart; the pairs still overlapping, if any."""
    path = MAPS / f"{variant}.json"
    sidecar = json.loads(path.read_text(encoding="utf-8"))
    shapes = outlines(load_art(variant))
    region = INSETS.get(variant)
    centres = [centre_box(tuple(e["centre"])) for e in sidecar["provinces"].values() if e.get("centre")]
    # (province, coast or "", point)
    points: list[list] = []
    for code, entry in sorted(sidecar["provinces"].items()):
        points.append([code, "", tuple(entry["unit"])])
        for coast, at in sorted(entry.get("coasts", {}).items()):
            points.append([code, coast, tuple(at)])

    def size(point: tuple[float, float]) -> float:
        return 1 / region.scale if region is not None and region.holds(point) else 1.0

    def fits(index: int, point: tuple[float, float]) -> bool:
        code = points[index][0]
        rings = shapes[code.upper()]
        around = [(point[0] + dx, point[1] + dy) for dx, dy in ((0, 0), (CLEARANCE, 0), (-CLEARANCE, 0), (0, CLEARANCE), (0, -CLEARANCE))]
        if not all(inside(rings, p) for p in around):
            return False
        before = _box(points[index][2], size(points[index][2]))
        after = _box(point, size(point))
        return not any(after.overlaps(c) and not before.overlaps(c) for c in centres)

    def overlapping() -> list[tuple[int, int]]:
        pairs = []
        for i in range(len(points)):
            for j in range(i + 1, len(points)):
                if points[i][0] == points[j][0]:
                    continue  # one province holds one unit: its coasts never show two
                a, b = points[i][2], points[j][2]
                if _box(a, size(a)).grown(GAP / 2).overlaps(_box(b, size(b)).grown(GAP / 2)):
                    pairs.append((i, j))
        return pairs

    for _ in range(rounds):
        pairs = overlapping()
        if not pairs:
            break
        for i, j in pairs:
            a, b = points[i][2], points[j][2]
            box_a, box_b = _box(a, size(a)).grown(GAP / 2), _box(b, size(b)).grown(GAP / 2)
            over_x = min(box_a.right, box_b.right) - max(box_a.left, box_b.left)
            over_y = min(box_a.bottom, box_b.bottom) - max(box_a.top, box_b.top)
            if over_x <= 0 or over_y <= 0:
                continue
            sx = 1.0 if a[0] <= b[0] else -1.0
            sy = 1.0 if a[1] <= b[1] else -1.0
            axes = [(over_x, (sx, 0.0)), (over_y, (0.0, sy))]
            axes.sort(key=lambda item: item[0])
            for over, (ux, uy) in axes:
                step = min(over / 2 + 0.25, 3.0)
                new_a = (round(a[0] - ux * step, 1), round(a[1] - uy * step, 1))
                new_b = (round(b[0] + ux * step, 1), round(b[1] + uy * step, 1))
                ok_a, ok_b = fits(i, new_a), fits(j, new_b)
                if ok_a and ok_b:
                    points[i][2], points[j][2] = new_a, new_b
                elif ok_a:
                    points[i][2] = (round(a[0] - ux * 2 * step, 1), round(a[1] - uy * 2 * step, 1)) if fits(i, (a[0] - ux * 2 * step, a[1] - uy * 2 * step)) else new_a
                elif ok_b:
                    points[j][2] = (round(b[0] + ux * 2 * step, 1), round(b[1] + uy * 2 * step, 1)) if fits(j, (b[0] + ux * 2 * step, b[1] + uy * 2 * step)) else new_b
                else:
                    continue
                break
    for code, coast, at in points:
        entry = sidecar["provinces"][code]
        if coast:
            entry["coasts"][coast] = list(at)
        else:
            entry["unit"] = list(at)
    path.write_text(json.dumps(sidecar, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return [f"{points[i][0]}/{points[i][1]} on {points[j][0]}/{points[j][1]}" for i, j in overlapping()]


def main(argv: list[str]) -> int:
    for variant in argv:
        left = spread(variant)
        print(f"{variant}: {'no unit overlaps another' if not left else 'still overlapping: ' + ', '.join(left)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
