"""Give each fortress of a Renaissance game's board a point of its own, where its garrison is drawn.

A city that is a supply centre is drawn at its centre marker's point (placed by ``centres.py``);
a fortress (a fortified place with no income, in play when the master switches fortresses on) is
no supply centre and has no marker, so its point is written as the sidecar's ``city``. It is the
nearest point to the province's unit anchor, on rings round it, that lies inside the province
(a marker's radius and a few pixels from its border) and whose box touches no unit or coast
anchor's box, no centre marker, no other city and (where the province has room) the place the
province's label is meant to go. The labels are then placed off it (``judge.maps.layout.fixed_obstacles``).

    .venv/bin/python tools/mapgen/cities.py machiavelli

Run after ``centres.py``; the geometry test checks every city point lies inside its province.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judge.core.machiavelli.board import load_board  # noqa: E402
from judge.maps.art import load_art  # noqa: E402
from judge.maps.layout import CENTRE_RADIUS, Box, centre_box, inside, outlines, unit_box  # noqa: E402

MAPS = ROOT / "judge" / "variants" / "maps"
CLEARANCE = 3.0
GAP = 2.0
REACH = 60
LABEL_ROOM = (16.0, 8.0)


def place(variant: str) -> list[str]:
    """Write a ``city`` point for each fortress of ``variant``'s board; the fortresses left without one."""
    path = MAPS / f"{variant}.json"
    sidecar = json.loads(path.read_text(encoding="utf-8"))
    shapes = outlines(load_art(variant))
    board = load_board(variant)
    units = [
        unit_box(tuple(p)).grown(GAP)
        for entry in sidecar["provinces"].values()
        for p in (entry["unit"], *(entry.get("coasts") or {}).values())
    ]
    taken = [centre_box(tuple(e["centre"])).grown(GAP) for e in sidecar["provinces"].values() if e.get("centre")]
    labels = {
        code: Box(x - LABEL_ROOM[0], y - LABEL_ROOM[1], x + LABEL_ROOM[0], y + LABEL_ROOM[1])
        for code, (x, y) in ((c, tuple(e["label"])) for c, e in sidecar["provinces"].items())
    }

    def fits(code: str, point: tuple[float, float]) -> bool:
        rings = shapes[code]
        reach = CENTRE_RADIUS + CLEARANCE
        around = [(point[0] + reach * math.cos(a), point[1] + reach * math.sin(a)) for a in (k * math.pi / 4 for k in range(8))]
        return inside(rings, point) and all(inside(rings, p) for p in around)

    def clear(code: str, point: tuple[float, float], label_room: bool) -> bool:
        box = centre_box(point)
        if label_room and box.overlaps(labels[code]):
            return False
        return not any(box.overlaps(other) for other in (*units, *taken))

    left = []
    for code in sorted(board.fortresses):
        entry = sidecar["provinces"][code]
        entry.pop("city", None)
        at = tuple(entry["unit"])
        found = None
        # Off the label's own place where the province has room; else the label moves off the city.
        for label_room in (True, False):
            for radius in range(1, REACH + 1):
                for step in range(32):
                    angle = step * math.pi / 16
                    point = (round(at[0] + radius * math.cos(angle), 1), round(at[1] + radius * math.sin(angle), 1))
                    if fits(code, point) and clear(code, point, label_room):
                        found = point
                        break
                if found is not None:
                    break
            if found is not None:
                break
        if found is None:
            left.append(code)
            continue
        entry["city"] = list(found)
        taken.append(centre_box(found).grown(GAP))
    path.write_text(json.dumps(sidecar, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return left


def main(argv: list[str]) -> int:
    for variant in argv or ["machiavelli"]:
        left = place(variant)
        print(f"{variant}: {'every fortress has its point' if not left else 'no room for: ' + ', '.join(left)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
