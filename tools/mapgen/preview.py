"""Preview a generated map with its codes written at the label anchors (needs resvg-py).

``python tools/mapgen/preview.py standard out.png``
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

MAPS = Path(__file__).resolve().parent.parent.parent / "judge" / "variants" / "maps"


def main(variant: str, out: str) -> None:
    import resvg_py  # type: ignore[import-not-found]

    svg = (MAPS / f"{variant}.svg").read_text(encoding="utf-8")
    side = json.loads((MAPS / f"{variant}.json").read_text(encoding="utf-8"))
    marks = []
    for code, a in side["provinces"].items():
        x, y = a["label"]
        marks.append(
            f'<text x="{x}" y="{y + 4}" font-size="11" font-family="DejaVu Sans" text-anchor="middle">{code}</text>'
        )
        ux, uy = a["unit"]
        marks.append(f'<circle cx="{ux}" cy="{uy}" r="3" fill="red"/>')
        if a["centre"]:
            cx, cy = a["centre"]
            marks.append(f'<circle cx="{cx}" cy="{cy}" r="3" fill="black"/>')
        for name, (x, y) in a["coasts"].items():
            marks.append(f'<text x="{x}" y="{y}" font-size="9" fill="blue">{name}</text>')
    for a, b in side["crossings"]:
        (ax, ay), (bx, by) = side["provinces"][a]["unit"], side["provinces"][b]["unit"]
        marks.append(
            f'<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="purple" stroke-dasharray="4 3"/>'
        )
    svg = svg.replace("</svg>", "\n".join(marks) + "</svg>")
    Path(out).write_bytes(
        bytes(resvg_py.svg_to_bytes(svg_string=svg, font_dirs=["/usr/share/fonts/truetype/dejavu"]))
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
