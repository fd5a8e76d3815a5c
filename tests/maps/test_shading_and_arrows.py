"""Territories shaded by their owner, read from the PNG's pixels; arrows that stop short of their
destination's label; World's moves across the date line drawn the short way (issue 28)."""

from __future__ import annotations

import math
import re

import pytest

from judge.core.adjudicator import Rules, adjudicate
from judge.core.orders import Move
from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.units import Unit, UnitRef, UnitType
from judge.core.variants import load_map
from judge.maps.art import load_art
from judge.maps.colour import hex_rgb
from judge.maps.layout import fixed_obstacles, inside, outlines, place_labels
from judge.maps.png import svg_to_png
from judge.maps.render import (
    _NEUTRAL_LAND,
    _TITLE_BAND,
    power_colours,
    render_svg,
    territory_colour,
)

STANDARD = load_map("standard")


def _free_point(variant: str, code: str) -> tuple[float, float]:
    """A point inside ``code`` far from its label, every unit place, centre marker and border."""
    art = load_art(variant)
    rings = outlines(art)[code]
    labels = place_labels(variant, "en")
    busy = [*fixed_obstacles(art), *labels.boxes().values()]
    xs = [p[0] for ring in rings for p in ring]
    ys = [p[1] for ring in rings for p in ring]
    best, score = None, -1.0
    for i in range(40):
        for j in range(40):
            point = (min(xs) + (max(xs) - min(xs)) * (i + 0.5) / 40, min(ys) + (max(ys) - min(ys)) * (j + 0.5) / 40)
            if not inside(rings, point) or any(b.grown(4).contains(point) for b in busy):
                continue
            edge = min(_segment_distance(point, ring[k], ring[(k + 1) % len(ring)]) for ring in rings for k in range(len(ring)))
            if edge > score:
                best, score = point, edge
    assert best is not None, code
    return best


def _segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    length = (bx - ax) ** 2 + (by - ay) ** 2
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length))
    return math.dist(p, (ax + t * (bx - ax), ay + t * (by - ay)))


def _pixel(png: bytes, x: float, y: float) -> tuple[int, int, int]:
    import pyvips  # type: ignore[import-untyped]

    image = pyvips.Image.new_from_buffer(png, "")
    values = image.getpoint(int(x), int(y + _TITLE_BAND))
    return int(values[0]), int(values[1]), int(values[2])


def test_each_land_is_shaded_by_its_centres_owner_after_the_phase_in_the_png() -> None:
    centers = dict(STANDARD.starting_centers)
    centers["RUSSIA"] = centers["RUSSIA"] | {"SWE"}  # Sweden taken: shaded as Russia's
    position = Position("standard", Phase.parse("S1902M"), STANDARD.opening_units, centers)
    png = svg_to_png(render_svg(STANDARD, position))
    colours = power_colours(STANDARD)
    checks = {"PAR": colours["FRANCE"], "SWE": colours["RUSSIA"], "ANK": colours["TURKEY"], "LON": colours["ENGLAND"]}
    for code, colour in checks.items():
        assert _pixel(png, *_free_point("standard", code)) == hex_rgb(territory_colour(colour)), code
    assert _pixel(png, *_free_point("standard", "NWY")) == hex_rgb(_NEUTRAL_LAND)  # a neutral centre
    plain = _pixel(png, *_free_point("standard", "BUR"))  # no centre: the plain land
    assert plain == hex_rgb("#eee2c0")
    assert _pixel(png, *_free_point("standard", "NTH")) == hex_rgb("#a8c8e6")  # sea stays sea


def _arrow(svg: str, origin: str) -> tuple[tuple[float, float], tuple[float, float]]:
    d = re.search(rf'class="order move [a-z]+" data-from="{origin}"[^>]* d="([^"]*)"', svg).group(1)  # type: ignore[union-attr]
    points = [(float(a), float(b)) for a, b in re.findall(r"([\d.-]+) ([\d.-]+)", d)]
    return points[-2], points[-1]


@pytest.mark.parametrize(("origin", "destination"), [("ALB", "GRE"), ("BUD", "RUM"), ("KIE", "HOL"), ("PIC", "BEL")])
def test_an_arrowhead_stops_short_of_its_destinations_label(origin: str, destination: str) -> None:
    from judge.maps.render import _head_box

    unit = Unit("AUSTRIA", UnitType.ARMY, origin)
    position = Position("standard", Phase.parse("S1901M"), (unit,), STANDARD.starting_centers)
    result = adjudicate(position, {"AUSTRIA": [Move(UnitRef(UnitType.ARMY, origin), destination)]}, Rules(), STANDARD)
    svg = render_svg(STANDARD, position, result)
    (x1, y1), (x2, y2) = _arrow(svg, origin)
    length = math.hypot(x2 - x1, y2 - y1)
    head = _head_box((x2, y2), ((x2 - x1) / length, (y2 - y1) / length))
    label = place_labels("standard", "en").box(destination)
    assert not head.grown(-1).overlaps(label)
    # ... but it reaches its destination: the tip is nearer the destination's unit than the origin's.
    art = load_art("standard")
    assert math.dist((x2, y2), art.where(destination)) < 40 < math.dist((x2, y2), art.where(origin))


def test_a_world_move_across_the_date_line_is_two_half_arrows_at_the_edges() -> None:
    world = load_map("world")
    art = load_art("world")
    assert art.wraps
    # Two neighbours on either side of the map's edge: the short way is across it.
    pairs = [(a, b) for a in sorted(world.provinces) if world.is_water(a) for b in sorted(world.fleet_moves(a))
             if "/" not in b and abs(art.where(a)[0] - art.where(b)[0]) > art.width / 2]  # fmt: skip
    assert pairs, "the world map has moves across its edge"
    origin, destination = pairs[0]
    kind = UnitType.FLEET
    unit = Unit(world.powers[0], kind, origin)
    position = Position("world", world.first_phase, (unit,), world.starting_centers)
    result = adjudicate(position, {unit.power: [Move(UnitRef(kind, origin), destination)]}, Rules(), world)
    svg = render_svg(world, position, result)
    element = re.search(rf'<path class="order move [a-z]+" data-from="{origin}"[^>]*>', svg).group(0)  # type: ignore[union-attr]
    assert 'data-wraps="yes"' in element
    segments = re.findall(r"M([\d.-]+) ([\d.-]+)L([\d.-]+) ([\d.-]+)", re.search(r' d="([^"]*)"', element).group(1))  # type: ignore[union-attr]
    assert len(segments) == 2
    first_end_x, second_start_x = float(segments[0][2]), float(segments[1][0])
    assert {first_end_x, second_start_x} == {0.0, art.width}
    # Neither half crosses the map: each is shorter than a quarter of its width.
    for x1, _y1, x2, _y2 in segments:
        assert abs(float(x2) - float(x1)) < art.width / 4
    assert re.search(r'class="order-wrap', svg)  # the first half has its own head at the edge
