"""The chart of supply centres per power over the years, drawn by the judge as inline SVG.

Only numbers and the map's power names go into it, each escaped; no script, no style
attribute (the pages' Content-Security-Policy allows neither).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

WIDTH, HEIGHT, LEFT, BOTTOM, TOP, RIGHT = 640, 300, 40, 30, 10, 120
_SAFE_COLOUR = re.compile(r"^#[0-9A-Fa-f]{3,8}$")
COLOURS = ("#c0392b", "#2c3e50", "#2980b9", "#7f8c8d", "#27ae60", "#8e44ad", "#d4ac0d",
           "#e67e22", "#16a085", "#6d4c41", "#ad1457", "#1b5e20")


def centres_chart(
    rows: Sequence[tuple[int, dict[str, int]]],
    powers: Sequence[tuple[str, str]],
    colours: Mapping[str, str] | None = None,
) -> Markup:
    """``rows``: (year, {power: centres}); ``powers``: (power, name shown) in the map's order;
    ``colours``: each power's colour on the map (:func:`judge.maps.render.power_colours`)."""
    if len(rows) < 2:
        return Markup("")
    most = max([1, *(count for _, counts in rows for count in counts.values())])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + plot_w * index / (len(rows) - 1)

    def y(count: int) -> float:
        return TOP + plot_h * (1 - count / most)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" class="chart">']
    parts.append(f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}" stroke="#888"/>')
    parts.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="#888"/>')
    for tick in sorted({0, most // 2, most}):
        parts.append(f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" font-size="11">{tick}</text>')
    step = max(1, len(rows) // 10)
    for index, (year, _counts) in enumerate(rows):
        if index % step == 0 or index == len(rows) - 1:
            parts.append(f'<text x="{x(index):.1f}" y="{HEIGHT - 10}" text-anchor="middle" font-size="11">{int(year)}</text>')
    for number, (power, name) in enumerate(powers):
        colour = (colours or {}).get(power) or COLOURS[number % len(COLOURS)]
        if not _SAFE_COLOUR.match(colour):
            colour = COLOURS[number % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(int(counts.get(power, 0))):.1f}" for i, (_, counts) in enumerate(rows))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        label_y = TOP + 14 * number + 8
        parts.append(f'<rect x="{WIDTH - RIGHT + 10}" y="{label_y - 8}" width="10" height="10" fill="{colour}"/>')
        parts.append(f'<text x="{WIDTH - RIGHT + 24}" y="{label_y + 1}" font-size="11">{escape(name)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))
