"""Move supply centre markers off the units (issue 28: a unit was drawn over its own centre's dot).

The generator puts a centre's marker near its province's unit, where the province is widest; a
unit standing there (or on one of the province's coasts, or a neighbour's unit in a crowded
region) covered half the dot, so the owner's colour on the dot was hard to read under a unit of
another power. This pass moves each marker a unit's box touches to the nearest point, searched on
rings around it, that lies inside its own province (the marker's radius and a few pixels from its
border), whose marker touches no unit box (each unit and coast anchor of the map) and no other
marker. On a board with an inset (World's and Youngstown's Europe) both are drawn smaller there, as
much as the inset is larger (``judge.maps.render``), so their boxes there are the smaller ones: the
inset, drawn from the same anchors, holds no overlap either.

    .venv/bin/python tools/mapgen/centres.py standard world youngstown ...

Run after ``spread.py`` (which moves units apart, off markers they did not touch);
``tests/maps/test_overlaps.py`` checks every variant's markers against its units, and the labels
(placed off units and markers) against everything on openings and long random games;
``tests/maps/test_map_geometry.py`` that every anchor stays inside its province.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judge.core.variants import available_variants  # noqa: E402
from judge.maps.art import load_art  # noqa: E402
from judge.maps.layout import CENTRE_RADIUS, INSETS, Box, centre_box, inside, outlines, unit_box  # noqa: E402

MAPS = ROOT / "judge" / "variants" / "maps"
CLEARANCE = 2.0
"""How far from its province's border a moved marker's circle stays, in pixels."""
GAP = 1.0
"""How far apart a marker's box and a unit's end up."""
REACH = 40
LABEL_ROOM = (16.0, 8.0)
"""Half the width and height kept clear around a province's label anchor (a three-letter label's box)."""
"""The farthest a marker moves, in pixels."""


def _scaled(box: Box, at: tuple[float, float], size: float) -> Box:
    x, y = at
    return Box(x + (box.left - x) * size, y + (box.top - y) * size, x + (box.right - x) * size, y + (box.bottom - y) * size)


def unstack(variant: str) -> list[str]:
    """Move ``variant``'s centre markers off its units (in its sidecar); the markers left on one of
    their own province's units."""
    path = MAPS / f"{variant}.json"
    sidecar = json.loads(path.read_text(encoding="utf-8"))
    shapes = outlines(load_art(variant))
    region = INSETS.get(variant)

    def size(point: tuple[float, float]) -> float:
        return 1 / region.scale if region is not None and region.holds(point) else 1.0

    units = [
        (code, _scaled(unit_box(tuple(p)), tuple(p), size(tuple(p))).grown(GAP))
        for code, entry in sidecar["provinces"].items()
        for p in (entry["unit"], *(entry.get("coasts") or {}).values())
    ]
    markers = {code: tuple(e["centre"]) for code, e in sidecar["provinces"].items() if e.get("centre")}
    # Where each province's label is meant to go: a marker moved there would push the label out of
    # its province (Standard's CON), so markers keep off it.
    labels = {
        code: _scaled(Box(x - LABEL_ROOM[0], y - LABEL_ROOM[1], x + LABEL_ROOM[0], y + LABEL_ROOM[1]), (x, y), size((x, y)))
        for code, (x, y) in ((c, tuple(e["label"])) for c, e in sidecar["provinces"].items())
    }

    def marker_box(point: tuple[float, float]) -> Box:
        return _scaled(centre_box(point), point, size(point))

    def clear(code: str, point: tuple[float, float], strict: bool = True) -> bool:
        """Off every unit (``strict``) or off its own province's, and off every other marker."""
        box = marker_box(point)
        if any(box.overlaps(u) for owner, u in units if strict or owner == code) or box.overlaps(labels[code]):
            return False
        return not any(box.overlaps(marker_box(p).grown(GAP)) for other, p in markers.items() if other != code)

    def fits(code: str, point: tuple[float, float]) -> bool:
        rings = shapes[code.upper()]
        reach = CENTRE_RADIUS * size(point) + CLEARANCE
        around = [(point[0] + reach * math.cos(a), point[1] + reach * math.sin(a)) for a in (k * math.pi / 4 for k in range(8))]
        return inside(rings, point) and all(inside(rings, p) for p in around)

    def nearest(code: str, at: tuple[float, float], strict: bool) -> tuple[float, float] | None:
        for radius in range(1, REACH + 1):
            for step in range(32):
                angle = step * math.pi / 16
                point = (round(at[0] + radius * math.cos(angle), 1), round(at[1] + radius * math.sin(angle), 1))
                if fits(code, point) and clear(code, point, strict):
                    return point
        return None

    left = []
    for code in sorted(markers):
        at = markers[code]
        if clear(code, at):
            continue
        # Off every unit where the province has room; else (a small province among others) at
        # least off its own units, the ones that stand on it whenever its owner holds it.
        found = nearest(code, at, strict=True)
        if found is None and not clear(code, at, strict=False):
            found = nearest(code, at, strict=False)
        if found is None:
            left.append(code)
            continue
        markers[code] = found
        sidecar["provinces"][code]["centre"] = list(found)
    path.write_text(json.dumps(sidecar, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return left


def main(argv: list[str]) -> int:
    for variant in argv or available_variants():
        left = unstack(variant)
        print(f"{variant}: {'no centre marker under a unit' if not left else 'still under a unit: ' + ', '.join(left)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
