"""Where things go so that nothing hides anything (issue 28): boxes, province outlines, labels.

Pure: a variant's art (:mod:`judge.maps.art`) and a language in, the place of
each province label out, computed once per variant and language and kept. A
label is moved, within its province, off every place a unit can stand (each
unit anchor and coast anchor of the map), off every centre marker and off the
labels already placed; the renderer then keeps arrowheads, crosses and
dislodged units off the labels (:mod:`judge.maps.render`). The boxes here are
the ones the overlap tests check: a test computes them from the drawing's
own coordinates.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

from judge.core.variants import load_map
from judge.maps.art import Anchors, MapArt, Point, load_art
from judge.maps.font import text_width

LABEL_SIZE = 9.0
"""Cap height of a province label, in map units."""
LABEL_BASELINE = 4.0
"""A label's baseline lies this far below its point (so the text is centred on it)."""
ARMY_HALF = (10.0, 8.5)
FLEET_HALF = (13.0, 9.0)
UNIT_HALF = (13.0, 9.0)
"""Half width and half height of the box any unit symbol fits in (the fleet's hull and sail)."""
CENTRE_RADIUS = 6.0


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle: left, top, right, bottom."""

    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        return self.left < other.right and other.left < self.right and self.top < other.bottom and other.top < self.bottom

    def grown(self, by: float) -> Box:
        return Box(self.left - by, self.top - by, self.right + by, self.bottom + by)

    def contains(self, point: Point) -> bool:
        return self.left <= point[0] <= self.right and self.top <= point[1] <= self.bottom


def unit_box(at: Point) -> Box:
    x, y = at
    return Box(x - UNIT_HALF[0], y - UNIT_HALF[1], x + UNIT_HALF[0], y + UNIT_HALF[1])


def centre_box(at: Point) -> Box:
    x, y = at
    r = CENTRE_RADIUS + 1
    return Box(x - r, y - r, x + r, y + r)


def label_box(text: str, at: Point) -> Box:
    """The box of a label drawn centred on ``at`` (its strokes, and half their width)."""
    x, y = at
    half = text_width(text, LABEL_SIZE) / 2 + 1
    baseline = y + LABEL_BASELINE
    return Box(x - half, baseline - LABEL_SIZE - 1, x + half, baseline + 1)


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_PATH = re.compile(r'<path id="p-([A-Za-z0-9_]+)"[^>]*? d="([^"]*)"')

Ring = tuple[Point, ...]


def _rings(d: str) -> tuple[Ring, ...]:
    rings: list[Ring] = []
    for part in d.split("M")[1:]:
        numbers = [float(n) for n in _NUMBER.findall(part)]
        rings.append(tuple(zip(numbers[0::2], numbers[1::2], strict=False)))
    return tuple(rings)


def outlines(art: MapArt) -> dict[str, tuple[Ring, ...]]:
    """Each province's outline as rings of points (even-odd: a ring inside another is a hole)."""
    return {code.upper(): _rings(d) for code, d in _PATH.findall(art.body)}


def inside(rings: tuple[Ring, ...], point: Point) -> bool:
    """Even-odd point-in-polygon over every ring."""
    x, y = point
    crossings = 0
    for ring in rings:
        count = len(ring)
        for index in range(count):
            (x1, y1), (x2, y2) = ring[index], ring[(index + 1) % count]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                crossings += 1
    return crossings % 2 == 1


def label_text(game_map_name: str, code: str, language: str) -> str:
    """A province's label: its code, or in French its French abbreviation where the variant has one."""
    if language == "fr":
        province = load_map(game_map_name).provinces.get(code)
        if province is not None and province.french_abbreviation:
            return province.french_abbreviation.upper()
    return code


@dataclass(frozen=True, slots=True)
class Labels:
    """Every province label of one variant in one language: its text and its point."""

    text: MappingProxyType[str, str]
    at: MappingProxyType[str, Point]

    def box(self, code: str) -> Box:
        return label_box(self.text[code], self.at[code])

    def boxes(self) -> dict[str, Box]:
        return {code: self.box(code) for code in self.at}


def _offsets(reach: float, step: float) -> list[Point]:
    points = [(dx * step, dy * step) for dx in range(-int(reach / step), int(reach / step) + 1)
              for dy in range(-int(reach / step), int(reach / step) + 1)]  # fmt: skip
    return sorted(points, key=lambda p: (p[0] ** 2 + (1.6 * p[1]) ** 2, p))


_OFFSETS = _offsets(48.0, 3.0)
_FAR_OFFSETS = _offsets(36.0, 2.0)
_MARKER_OFFSETS = sorted(
    ((dx * 1.5, dy * 1.5) for dx in range(-26, 27) for dy in range(-26, 27) if dx * dx + dy * dy <= 26 * 26),
    key=lambda p: (p[0] ** 2 + p[1] ** 2, p),
)
"""Where a centre's marker may go, nearest first: within 39 map units of its art's point."""
_UNIT_OFFSETS = sorted(
    ((dx * 3.0, dy * 3.0) for dx in range(-8, 9) for dy in range(-8, 9) if 0 < dx * dx + dy * dy <= 64),
    key=lambda p: (p[0] ** 2 + p[1] ** 2, p),
)
"""Where a small province's unit may go to leave its marker room, nearest first: within 24 units."""
"""A label with no room inside its province goes just outside it, this near."""


def fixed_obstacles(art: MapArt) -> list[Box]:
    """Every place a unit can stand (each unit and coast anchor), every centre marker and every
    fortress's city (where the Renaissance game draws a garrison)."""
    boxes: list[Box] = []
    for anchors in art.provinces.values():
        boxes.append(unit_box(anchors.unit))
        boxes.extend(unit_box(p) for p in anchors.coasts.values())
        if anchors.centre is not None:
            boxes.append(centre_box(anchors.centre))
        if anchors.city is not None:
            boxes.append(centre_box(anchors.city))
    return boxes


@dataclass(frozen=True, slots=True)
class Inset:
    """A crowded part of a board drawn again, larger, in a panel under it (World's and
    Youngstown's Europe): the region's box on the board and how much larger it is drawn."""

    left: float
    top: float
    right: float
    bottom: float
    scale: float

    def to_inset(self, point: Point) -> Point:
        return ((point[0] - self.left) * self.scale, (point[1] - self.top) * self.scale)

    def holds(self, point: Point) -> bool:
        return self.left <= point[0] <= self.right and self.top <= point[1] <= self.bottom

    @property
    def size(self) -> tuple[float, float]:
        return ((self.right - self.left) * self.scale, (self.bottom - self.top) * self.scale)


INSETS: dict[str, Inset] = {
    # Europe, the Middle East and central Africa, where World's 17 powers crowd.
    "world": Inset(680.0, 105.0, 960.0, 395.0, 2.0),
    # Europe from Britain to the Straits, a thirteenth of Youngstown's board with a third of its provinces.
    "youngstown": Inset(200.0, 165.0, 560.0, 425.0, 2.0),
}


@functools.lru_cache(maxsize=32)
def board_art(variant: str) -> MapArt:
    """The drawing of ``variant`` with every supply centre's marker clear of every unit that can
    stand on the board: a unit standing on its own centre never hides the marker (its owner's
    colour), and no marker hides a unit.

    A marker that a unit's box touches moves to the nearest point where it touches no unit and no
    other marker: its circle inside its province and off its label's point where it can, else its
    circle inside, else its centre inside. In a province too small for that (Standard's were
    Constantinople, Liverpool and Naples) its unit moves too (not a coast's fleet), within the
    province and off every other unit and marker, to the nearest place that leaves the marker such a point. The boxes are
    the ones the board draws: in the region an inset draws again larger, units and markers are drawn
    as much smaller (so the inset, their scaled copy, holds no overlap either).
    """
    art = load_art(variant)
    region = INSETS.get(variant.lower())
    shapes = outlines(art)

    def drawn(box: Box, at: Point) -> Box:
        if region is None or not region.holds(at):
            return box
        k = 1 / region.scale
        x, y = at
        return Box(x + (box.left - x) * k, y + (box.top - y) * k, x + (box.right - x) * k, y + (box.bottom - y) * k)

    units = {code: [a.unit, *a.coasts.values()] for code, a in art.provinces.items()}
    markers = {code: a.centre for code, a in art.provinces.items() if a.centre is not None}
    moved: dict[str, Anchors] = dict(art.provinces)
    for code in sorted(markers):
        home = markers[code]
        anchors = moved[code]
        rings = shapes.get(code, ())
        near = Box(home[0] - 90, home[1] - 90, home[0] + 90, home[1] + 90)
        marker_boxes = [b for other, m in markers.items() if other != code and (b := drawn(centre_box(m), m)).overlaps(near)]
        own = [drawn(unit_box(p), p) for p in units[code]]
        others = [b for c, points in units.items() if c != code for p in points if (b := drawn(unit_box(p), p)).overlaps(near)]
        if not _hides(drawn(centre_box(home), home), [*own, *others, *marker_boxes]):
            continue
        label_room = Box(anchors.label[0] - 16, anchors.label[1] - 8, anchors.label[0] + 16, anchors.label[1] + 8)
        found = _marker_place(home, rings, [*own, *others, *marker_boxes], label_room, drawn)
        if found is None:
            # A small province: its unit moves too (the fleets of a split province keep their coasts).
            coasts = [drawn(unit_box(p), p) for p in anchors.coasts.values()]
            for dx, dy in _UNIT_OFFSETS:
                unit = (anchors.unit[0] + dx, anchors.unit[1] + dy)
                box = drawn(unit_box(unit), unit)
                if not inside(rings, unit) or _hides(box, [*coasts, *others, *marker_boxes]):
                    continue
                found = _marker_place(home, rings, [box, *coasts, *others, *marker_boxes], label_room, drawn)
                if found is not None:
                    units[code] = [unit, *anchors.coasts.values()]
                    anchors = Anchors(anchors.label, unit, anchors.coasts, anchors.centre, anchors.city)
                    break
        if found is not None:
            markers[code] = found
            moved[code] = Anchors(anchors.label, anchors.unit, anchors.coasts, found, anchors.city)
    return MapArt(
        variant=art.variant, width=art.width, height=art.height, body=art.body,
        provinces=MappingProxyType(moved), wraps=art.wraps,
    )  # fmt: skip


def _hides(box: Box, boxes: list[Box]) -> bool:
    return any(box.overlaps(b) for b in boxes)


def _marker_place(
    home: Point, rings: tuple[Ring, ...], boxes: list[Box], label_room: Box, drawn: Callable[[Box, Point], Box]
) -> Point | None:
    """The nearest point to ``home`` where a marker touches none of ``boxes``: its circle inside
    ``rings`` and off ``label_room`` first, then its circle inside, then its centre inside, then (an
    island smaller than a unit) its circle on the province's edge."""
    clear = [p for dx, dy in _MARKER_OFFSETS if not _hides(drawn(centre_box(p := (home[0] + dx, home[1] + dy)), p), boxes)]

    def circle_inside(point: Point) -> bool:
        box = drawn(centre_box(point), point)
        r = (box.right - box.left) / 2 - 1
        x, y = point
        return all(inside(rings, p) for p in ((x, y), (x - r, y), (x + r, y), (x, y - r), (x, y + r)))

    def touching(point: Point) -> bool:
        box = drawn(centre_box(point), point)
        r, (x, y) = (box.right - box.left) / 2 - 1, point
        return any(inside(rings, (x + r * dx / 2, y + r * dy / 2)) for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2))

    return (
        next((p for p in clear if not drawn(centre_box(p), p).overlaps(label_room) and circle_inside(p)), None)
        or next((p for p in clear if circle_inside(p)), None)
        or next((p for p in clear if inside(rings, p)), None)
        or next((p for p in clear if touching(p)), None)
    )


@functools.lru_cache(maxsize=16)
def inset_art(variant: str) -> MapArt | None:
    """The drawing of ``variant``'s inset, as a board of its own (every anchor moved and scaled,
    the provinces' outlines scaled by a transform with thinner strokes), or None without one."""
    inset = INSETS.get(variant.lower())
    if inset is None:
        return None
    art = board_art(variant)
    width, height = inset.size
    moved = {
        code: Anchors(
            label=inset.to_inset(a.label),
            unit=inset.to_inset(a.unit),
            coasts=MappingProxyType({c: inset.to_inset(p) for c, p in a.coasts.items()}),
            centre=inset.to_inset(a.centre) if a.centre is not None else None,
        )
        for code, a in art.provinces.items()
    }
    body = (
        f"<style>.inset-body .land,.inset-body .sea{{stroke-width:{1 / inset.scale:.2f}}}</style>"
        f'<g class="inset-body" transform="scale({inset.scale:g}) translate({-inset.left:g} {-inset.top:g})">{art.body}</g>'
    )
    return MapArt(variant=art.variant, width=width, height=height, body=body, provinces=MappingProxyType(moved))


def _view(variant: str, inset: bool) -> tuple[MapArt, dict[str, tuple[Ring, ...]]]:
    art = board_art(variant)
    shapes = outlines(art)
    if not inset:
        return art, shapes
    drawn = inset_art(variant)
    spec = INSETS[variant.lower()]
    assert drawn is not None
    return drawn, {c: tuple(tuple(spec.to_inset(p) for p in ring) for ring in rings) for c, rings in shapes.items()}


@functools.lru_cache(maxsize=64)
def place_labels(variant: str, language: str, inset: bool = False) -> Labels:
    """The labels of ``variant`` in ``language``, each moved off units, centre markers and other labels.

    Each label starts at the art's label point and takes the nearest offset
    (wider than tall: labels are wide) whose box touches no obstacle and
    whose centre stays inside its province (else just outside it); a label
    that finds none keeps the art's point (the overlap test names any such
    label). A board with an inset labels on the board only the provinces
    outside the inset's region, and in the inset (``inset=True``) those whose
    label falls inside it.
    """
    art, shapes = _view(variant, inset)
    game_map = load_map(variant)
    region = INSETS.get(variant.lower())
    obstacles = fixed_obstacles(art)
    placed: dict[str, Point] = {}
    texts: dict[str, str] = {}
    placed_boxes: list[Box] = []
    codes = [c for c in art.provinces if c in game_map.provinces]
    if region is not None and not inset:
        codes = [c for c in codes if not region.holds(art.provinces[c].label)]
    elif inset:
        codes = [c for c in codes if 0 <= art.provinces[c].label[0] <= art.width and 0 <= art.provinces[c].label[1] <= art.height]
    # Small provinces first: they have the fewest places to go.
    codes.sort(key=lambda c: (_area(shapes.get(c, ())), c))
    for code in codes:
        text = label_text(game_map.name, code, language)
        texts[code] = text
        home = art.provinces[code].label
        rings = shapes.get(code, ())
        chosen = (
            _free_point(text, home, rings, obstacles, placed_boxes, art, whole=True)
            or _free_point(text, home, rings, obstacles, placed_boxes, art)
            or _free_point(text, home, (), obstacles, placed_boxes, art, _FAR_OFFSETS)
            or home
        )
        placed[code] = chosen
        placed_boxes.append(label_box(text, chosen))
    ordered = {c: placed[c] for c in art.provinces if c in placed}
    return Labels(MappingProxyType({c: texts[c] for c in ordered}), MappingProxyType(ordered))


def _free_point(
    text: str,
    home: Point,
    rings: tuple[Ring, ...],
    obstacles: list[Box],
    placed: list[Box],
    art: MapArt,
    offsets: list[Point] | None = None,
    *,
    whole: bool = False,
) -> Point | None:
    """The nearest point to ``home`` where the label's box is on the board, clear of every obstacle
    and placed label, and (when ``rings`` are given) inside its province: its centre, or with
    ``whole`` its whole box (no border runs through the label)."""
    for dx, dy in offsets or _OFFSETS:
        point = (home[0] + dx, home[1] + dy)
        box = label_box(text, point)
        if box.left < 0 or box.top < 0 or box.right > art.width or box.bottom > art.height:
            continue
        if rings and not inside(rings, point):
            continue
        if whole and not all(
            inside(rings, corner)
            for corner in ((box.left, box.top), (box.right, box.top), (box.left, box.bottom), (box.right, box.bottom))
        ):
            continue
        grown = box.grown(1.5)
        if any(grown.overlaps(o) for o in obstacles) or any(grown.overlaps(o) for o in placed):
            continue
        return point
    return None


def _area(rings: tuple[Ring, ...]) -> float:
    total = 0.0
    for ring in rings:
        count = len(ring)
        total += abs(sum(ring[i][0] * ring[(i + 1) % count][1] - ring[(i + 1) % count][0] * ring[i][1] for i in range(count))) / 2
    return total
