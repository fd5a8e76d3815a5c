"""A phase's part drawn over the kept board without librsvg on a whole page (issue 28).

:mod:`judge.maps.layers` used to draw each picture's ``dyn`` part (title,
centres, units, orders, marks, legend) with librsvg on a page the board's
size: about 6 ms of CPU a Standard picture whatever it held (2.5 ms of it
for the empty page). Here instead:

* each order line (``M x y L x y``, butt ends, dashes, an arrowhead marker)
  is filled as cairo fills without anti-aliasing, each pixel whose centre is
  inside: a segment row by row, its dashes' columns on a row cut between its
  two long edges there (:func:`_segment`: a few operations a span, not a
  polygon a dash), the arrowhead a triangle (the marker's path, 5 stroke
  widths over its 10-unit view box), all inside the page or the clip;
* every other element (unit, centre, ring, cross, title, legend) is a
  *sprite*: its text shifted by an integer to near the origin is its key;
  the sprites not kept yet are drawn together by librsvg on a small page
  (side by side), cut into runs of pixels, kept, and pasted at their
  places. An integer shift draws the same pixels, so a sprite is exact; a
  unit standing where another stood, a centre, the legend and most of the
  title's glyphs are kept from phase to phase.

The pixels are the whole SVG's but a few on the edges of order lines and
arrowheads, where cairo's fixed-point edges decide a pixel the other way (at
most 132 lone pixels in 80 phases of random Standard games; the bound is
tests/maps/test_layered_png.py's, which fails on a unit or arrowhead missing
or moved). A board's inset is read too: its clip, a rectangle on whole
pixels, cuts what is painted inside it (an element wholly beyond it is left
out: neither drawn nor painted), and a unit drawn smaller on the board
(``matrix(s 0 0 s e f)``) is a sprite of its own moved by an integer.
Anything else (a group that is not a plain translation, another transform or
clip, a curve, an element with content, a colour by name) gets ``None``:
librsvg draws the phase's part as before.

What :mod:`judge.maps.layers` draws over the phase (the labels' halo and
letters) is applied to each element's pixels as they are painted, and an
element's pixels at a place are kept so (by the element, its place, the
picture's indices and the board), as are a group of elements' steps (by its
text and place): the next picture with the same centres, legend or units
reads and paints them again without cutting or translating anything. A band
of rows (:data:`judge.maps.deflate.BAND`) is kept deflated by its recipe: the
picture's context and the numbers of the steps that may paint in it, in
order (:func:`_recipes`); a band whose recipe was kept is neither painted nor
deflated again (:class:`Composed`). Every kept thing is bounded (:data:`KEEP`,
:data:`KEEP_RUNS`).
"""

from __future__ import annotations

import itertools
import math
import operator
import re
import threading
from collections.abc import Callable
from typing import NamedTuple

from judge.maps.deflate import BAND, Band

Draw = Callable[[str], bytes]
Run = tuple[int, int, bytes]
"""(row, column, codes) of a sprite, relative to its shift."""
Clip = tuple[int, int, int, int] | None
"""Where a step's pixels may go: a rectangle of whole pixels (left, top, right, bottom), or anywhere."""

_TAG = re.compile(r"<(/?)([a-zA-Z]+)([^>]*)>")
"""A tag: its closing slash, name, and attributes with an empty element's slash at their end (a
lazy match of the attributes before an optional slash tried the slash at each character: ten
microseconds a glyph's path, a third of a millisecond a picture's title)."""
_ATTR = re.compile(r'([\w:-]+)="([^"]*)"')
_DATA = re.compile(r'\s(?:data-[\w-]+|class)="[^"]*"')
_COLOURS = re.compile(r'(?<==")#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})(?=")')
_TRANSLATE = re.compile(r"translate\(([-\d.]+)[ ,]+([-\d.]+)\)$")
_TOKEN = re.compile(r"[MLHVmlhvZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
"""A path's command letters and numbers, in order."""
_COMMANDS = frozenset("MLHVmlhvZz")
_NUMBER = re.compile(r"-?\d*\.?\d+(?:e-?\d+)?")
_LINE = re.compile(r"^(?:M(-?[\d.]+) (-?[\d.]+)L(-?[\d.]+) (-?[\d.]+))+$")
_RUN = re.compile(rb"[^\x00]+")
_MARKER = re.compile(r'<marker id="([\w-]+)".*?fill="(#[0-9a-fA-F]+)"')

_LOCK = threading.Lock()
"""Sender threads draw at once: one composes at a time (the work holds the GIL anyway)."""
_sprites: dict[str, tuple[Run, ...]] = {}
"""Each element's pixels (its colours as codes), by its text shifted near the origin."""
_codes: dict[str, int] = {}
"""Each colour's code in the sprites (a picture translates them to its own palette's indices)."""
KEEP = 4096
"""How many sprites, element readings and placements are kept before they are dropped together."""
KEEP_RUNS = 200_000
"""How many runs of pixels the sprites may hold in all (about 20 MB), a title's being many."""
_runs = [0]
_SET = {name: re.compile(rf'\s{name}="[^"]*"') for name in ("cx", "cy", "x", "y", "d")}
"""Each attribute an element is moved by, to set again."""
_PLAIN_PATH = re.compile(r"[MLHVmlhvZz\d\s.,eE+-]*")


def _hex(colour: str) -> str:
    text = colour.lstrip("#").lower()
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    return "#" + text


def _code(colour: str) -> int:
    code = _codes.get(colour)
    if code is None:
        code = _codes[colour] = len(_codes) + 1
        if code > 250:
            raise OverflowError
    return code


def _moved_path(
    d: str, ox: float, oy: float
) -> tuple[str, int, int, tuple[float, float, float, float]] | None:
    """``d`` (drawn at ``ox``, ``oy``) moved by the whole pixels that bring its first point near
    the origin: its text so moved (its absolute numbers less the move, its relative ones as they
    are), the move, and its points' extent there; None for a curve, an arc or a relative start
    (drawn by librsvg), or a move that is not whole pixels. One pass over its numbers."""
    if not d.startswith("M") or _PLAIN_PATH.fullmatch(d) is None:
        return None
    commands: list[tuple[str, list[str]]] = []
    for token in _TOKEN.findall(d):
        if token in _COMMANDS:
            commands.append((token, []))
        else:
            commands[-1][1].append(token)
    start = commands[0][1]
    if len(start) < 2:
        return None
    dx, dy = math.floor(float(start[0]) + ox), math.floor(float(start[1]) + oy)
    sx, sy = dx - ox, dy - oy  # the move of the path's own numbers
    if sx != int(sx) or sy != int(sy):
        return None
    out: list[str] = []
    xs: list[float] = []
    ys: list[float] = []
    x = y = x0 = y0 = 0.0
    for command, texts in commands:
        numbers = [float(text) for text in texts]
        if command in "ML":
            if len(numbers) % 2:
                return None
            moved: list[str] = []
            for k in range(0, len(numbers), 2):
                x, y = numbers[k] - sx, numbers[k + 1] - sy
                xs.append(x)
                ys.append(y)
                moved += (_text(x), _text(y))
            if command == "M":
                x0, y0 = xs[-len(numbers) // 2], ys[-len(numbers) // 2]
            out.append(command + " ".join(moved))
            continue
        if command in "ml":
            if len(numbers) % 2:
                return None
            for k in range(0, len(numbers), 2):
                x, y = x + numbers[k], y + numbers[k + 1]
                xs.append(x)
                ys.append(y)
                if command == "m" and k == 0:
                    x0, y0 = x, y
        elif command in "hH":
            for n in numbers:
                x = x + n if command == "h" else n - sx
                xs.append(x)
                ys.append(y)
        elif command in "vV":
            for n in numbers:
                y = y + n if command == "v" else n - sy
                xs.append(x)
                ys.append(y)
        else:  # z: back to the subpath's start
            x, y = x0, y0
        if command in "HV":
            out.append(command + " ".join(f"{n - (sx if command == 'H' else sy):.3f}" for n in numbers))
        else:  # relative: as they are
            out.append(command + " ".join(texts))
    return "".join(out), dx, dy, (min(xs), min(ys), max(xs), max(ys))


def _text(number: float) -> str:
    """A path's number as text: three decimals at most, no trailing zero."""
    return f"{number:.3f}".rstrip("0").rstrip(".")


def _element(
    tag: str, attrs: str, ox: float, oy: float, values: dict[str, str] | None = None
) -> tuple[str, int, int, tuple[float, float, float, float]] | None:
    """The element normalised (shifted by an integer to near the origin), the shift, its box there.
    ``values``: its attributes, when read already."""
    if values is None:
        values = dict(_ATTR.findall(attrs))
    width = (
        float(values.get("stroke-width", "1")) if values.get("stroke", "none") != "none" else 0.0
    )
    margin = width + 2
    if tag == "circle":
        cx, cy, r = float(values["cx"]) + ox, float(values["cy"]) + oy, float(values["r"])
        dx, dy = math.floor(cx), math.floor(cy)
        body = _DATA.sub("", attrs)
        body = _SET["cx"].sub(f' cx="{cx - dx:.3f}"', body)
        body = _SET["cy"].sub(f' cy="{cy - dy:.3f}"', body)
        box = (
            cx - dx - r - margin,
            cy - dy - r - margin,
            cx - dx + r + margin,
            cy - dy + r + margin,
        )
        return f"<circle{body}/>", dx, dy, box
    if tag == "rect":
        x, y = float(values["x"]) + ox, float(values["y"]) + oy
        w, h = float(values["width"]), float(values["height"])
        dx, dy = math.floor(x), math.floor(y)
        body = _DATA.sub("", attrs)
        body = _SET["x"].sub(f' x="{x - dx:.3f}"', body)
        body = _SET["y"].sub(f' y="{y - dy:.3f}"', body)
        return (
            f"<rect{body}/>",
            dx,
            dy,
            (x - dx - margin, y - dy - margin, x - dx + w + margin, y - dy + h + margin),
        )
    if tag == "path":
        moved = _moved_path(values["d"], ox, oy)
        if moved is None:
            return None
        d, dx, dy, (x0, y0, x1, y1) = moved
        body = _DATA.sub("", attrs)
        body = _SET["d"].sub(f' d="{d}"', body)
        return f"<path{body}/>", dx, dy, (x0 - margin, y0 - margin, x1 + margin, y1 + margin)
    return None


_NONE = 1 << 40
"""A row's column where no edge of that side crosses it."""

Box = tuple[int, int, int, int]
"""Where a line's pixels may go: whole pixels (left, top, right, bottom), the page or its clip."""


def _polygon(spans: list[tuple[int, int]], width: int, box: Box, points: list[tuple[float, float]]) -> None:
    """The spans (start, end: offsets on a page ``width`` wide, inside ``box``) of a convex polygon
    filled: each pixel whose centre is inside (as cairo fills without anti-aliasing). Its edges going
    down make one side of it, those going up the other: each side's column is computed row by row in
    one list, the rows then spanned between them."""
    left_edge, top_edge, right_edge, bottom_edge = box
    ys = [p[1] for p in points]
    top = max(math.ceil(min(ys) - 0.5), top_edge)
    bottom = min(math.ceil(max(ys) - 0.5), bottom_edge)  # rows top..bottom-1
    if bottom <= top:
        return
    count = bottom - top
    down = [_NONE] * count
    up = [_NONE] * count
    ceil = math.ceil
    previous = points[-1]
    for point in points:
        (x1, y1), (x2, y2) = previous, point
        previous = point
        if y1 == y2:
            continue
        side = down if y2 > y1 else up
        if y1 > y2:
            x1, y1, x2, y2 = x2, y2, x1, y1
        first, last = max(ceil(y1 - 0.5), top), min(ceil(y2 - 0.5), bottom)
        if last <= first:
            continue
        slope = (x2 - x1) / (y2 - y1)
        start = x1 + (first + 0.5 - y1) * slope - 0.5
        side[first - top : last - top] = [ceil(start + k * slope) for k in range(last - first)]
    at = top * width
    for left, right in zip(down, up, strict=True):
        if left > right:
            left, right = right, left
        if right != _NONE:
            if left < left_edge:
                left = left_edge
            if right > right_edge:
                right = right_edge
            if right > left:
                spans.append((at + left, at + right))
        at += width


def _between(a: float, b: float) -> tuple[float, float]:
    return (a, b) if a <= b else (b, a)


def _dashes(length: float, dash: tuple[float, ...], near: tuple[float, float]) -> list[tuple[float, float]]:
    """The pieces (from, to: distances along a segment ``length`` long) its dash array draws that
    reach between the distances ``near`` (a long line crossing an inset's frame: most of its dashes
    beyond it). The pattern's whole repeats before them are skipped at once (its lengths are whole
    pixels: a repeat's multiple is their sum exactly)."""
    if not dash or min(dash) < 0 or sum(dash) <= 0:  # none, or one SVG draws solid
        return [(0.0, length)]
    pattern = dash if len(dash) % 2 == 0 else dash * 2  # an odd list repeated: on, off alternate
    period = sum(pattern)
    pieces = []
    at, k = max(math.floor(near[0] / period) - 1, 0) * period, 0
    while at < length and at <= near[1]:
        end = min(at + pattern[k % len(pattern)], length)
        if k % 2 == 0 and end >= near[0]:
            pieces.append((at, end))
        at, k = end, k + 1
    return pieces


def _segment(
    spans: list[tuple[int, int]], width: int, box: Box, start: tuple[float, float], end: tuple[float, float],
    half: float, dash: tuple[float, ...],
) -> None:
    """The spans of a segment stroked ``2 * half`` wide with butt ends and ``dash``: each pixel whose
    centre is inside a dash (as cairo fills each dash's quadrilateral without anti-aliasing).

    Every dash lies between the same two long edges: each row's columns between them are computed
    once for all dashes (``inside``), then each dash's own columns on that row, between its two
    ends, from one position a row (``along``) shifted by the dash's ends: a few operations a span
    and none a dash's corner or edge. A column is in when its centre is at or right of the left
    bound and left of the right one (``ceil(bound - 0.5)``); on a vertical segment a dash's rows are
    its ends' rows, on a horizontal one the rows are the stroke's."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return
    ceil = math.ceil
    left, top, right, bottom = box
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    across = abs(ux * half)  # how far the stroke's corners stand above and below its ends
    first = max(ceil(min(y1, y2) - across - 0.5), top)
    last = min(ceil(max(y1, y2) + across - 0.5), bottom)
    if last <= first:
        return
    if ux == 0:  # vertical: each dash's rows between its ends, the stroke's columns
        lo, hi = max(ceil(x1 - half - 0.5), left), min(ceil(x1 + half - 0.5), right)
        if hi > lo:
            for a, b in _dashes(length, dash, _between((first - 1 - y1) / uy, (last + 1 - y1) / uy)):
                ya, yb = (y1 + uy * a, y1 + uy * b) if uy > 0 else (y1 + uy * b, y1 + uy * a)
                for at in range(max(ceil(ya - 0.5), first) * width, min(ceil(yb - 0.5), last) * width, width):
                    spans.append((at + lo, at + hi))
        return
    if uy == 0:  # horizontal: the stroke's rows, every column
        slope = reach = 0.0
        near = _between((left - 1 - x1) / ux, (right + 1 - x1) / ux)
    else:
        slope, reach = ux / uy, abs(half / uy)
        # Only the rows where the stroke reaches between the box's sides (a line crossing an inset's
        # frame: most of it beyond), a row more either way.
        ends = sorted((y1 + (left - 1 - reach - x1) / slope, y1 + (right + 1 + reach - x1) / slope))
        first, last = max(first, math.floor(ends[0] - 0.5)), min(last, ceil(ends[1] - 0.5) + 1)
        if last <= first:
            return
        near = _between((first - 1 - across - y1) / uy, (last + 1 + across - y1) / uy)
    # On each row, the centre at distance t along the segment is at x = along + 0.5 + t / ux, and the
    # stroke's two long edges at middle -/+ reach (a horizontal stroke: the box's sides). Each dash's
    # rows are computed in its own loop (a row two dashes share, twice): no list of the rows' bounds
    # built first and read again.
    back = uy / ux
    for a, b in _dashes(length, dash, near):
        ya, yb = (y1 + uy * a, y1 + uy * b) if uy >= 0 else (y1 + uy * b, y1 + uy * a)
        r0, r1 = max(ceil(ya - across - 0.5), first), min(ceil(yb + across - 0.5), last)
        if r1 <= r0:
            continue
        from_a, to_b = (a / ux, b / ux) if ux > 0 else (b / ux, a / ux)
        at = r0 * width
        for row in range(r0, r1):
            offset = row + 0.5 - y1
            along = x1 - offset * back - 0.5
            lo, hi = ceil(along + from_a), ceil(along + to_b)
            if uy:
                middle = x1 + offset * slope - 0.5
                lo_row, hi_row = ceil(middle - reach), ceil(middle + reach)
                if lo < lo_row:
                    lo = lo_row
                if hi > hi_row:
                    hi = hi_row
            if lo < left:
                lo = left
            if hi > right:
                hi = right
            if hi > lo:
                spans.append((at + lo, at + hi))
            at += width


Spans = tuple[tuple[int, int], ...]


def _line(line: Line, width: int, box: Box, headed: bool) -> tuple[Spans, Spans]:
    """An order line's spans on a page ``width`` wide, inside ``box``: each segment's dashes (or the
    whole segment) as :func:`_segment` strokes them, its arrowhead (when ``headed``) a triangle at its
    end (the marker's path: 5 stroke widths over a 10-unit view box, its point 1 unit past the end)."""
    d, ox, oy, stroke, dash = line.d, line.ox, line.oy, line.stroke, line.dash
    numbers = [float(n) for n in _NUMBER.findall(d)]
    body: list[tuple[int, int]] = []
    head: list[tuple[int, int]] = []
    last: tuple[float, float, float, float] | None = None
    for i in range(0, len(numbers), 4):
        x1, y1, x2, y2 = numbers[i] + ox, numbers[i + 1] + oy, numbers[i + 2] + ox, numbers[i + 3] + oy
        last = (x1, y1, x2, y2)
        _segment(body, width, box, (x1, y1), (x2, y2), stroke / 2, dash)
    if headed and last is not None:
        x1, y1, x2, y2 = last
        angle = math.atan2(y2 - y1, x2 - x1)
        c, s = math.cos(angle), math.sin(angle)
        if abs(s) < 1e-12 or abs(c) < 1e-12:  # along an axis: exactly (sin(pi) is 1.2e-16, not 0)
            c, s = float(round(c)), float(round(s))
        unit = stroke / 2  # marker 5 x stroke over a 10-unit view box
        triangle = [(-9 * unit, -5 * unit), (1 * unit, 0.0), (-9 * unit, 5 * unit)]
        _polygon(head, width, box, [(x2 + px * c - py * s, y2 + px * s + py * c) for px, py in triangle])
    return tuple(body), tuple(head)


class Line(NamedTuple):
    """An order line (``M x y L x y``, once or more), drawn here as polygons."""

    d: str
    ox: float
    oy: float
    stroke: float
    dash: tuple[float, ...]
    colour: str
    marker: str


class Sprite(NamedTuple):
    """Any other element: its text shifted by an integer (``dx``, ``dy``) to near the origin."""

    text: str
    dx: int
    dy: int
    box: tuple[float, float, float, float]


Painted = tuple[tuple[int, ...], tuple[int, ...], tuple[bytearray, ...]]
"""Pixels to paint, as ``out[start:end] = codes`` for each ``start``, ``end`` and ``codes`` of the
three, side by side: numbers and bytearrays only (a bytearray's slice assigned from bytes copies
them to a new bytearray first, then pastes that: from a bytearray, a third of the time), no slice
object kept (a slice is one more object the garbage collector walks each time it looks at the old
ones: tens of thousands of them kept, in a crowded picture's caches, for a third of painting's
cost), and three tuples a placement, not one a run (a World picture keeps about ten thousand new
runs: each a tuple, the collector walked each once, and painting unpacked each)."""
_placed: dict[tuple[object, ...], Painted] = {}
"""Each element's pixels at its place on a page, in a picture's indices and under its labels (the
key: the element, its place, the page, the labels' masks and the indices)."""
_placed_runs = [0]
_inked: dict[tuple[object, ...], Painted] = {}
"""Each order line's spans (its body's, its arrowhead's: :data:`_lines`) to paint in their inks (a
picture's indices), under the labels, by the line, its page, the labels' masks, the clip and the inks."""
_memo: dict[tuple[str, str, float, float], Line | Sprite] = {}
_groups: dict[tuple[str, float, float, Clip], tuple[tuple[Line | Sprite, Clip], ...]] = {}
"""The steps of a group of elements alone, by its text and its place (:func:`_steps`)."""
Columns = tuple[tuple[int, ...], tuple[int, ...]]
"""Spans as two tuples side by side, their starts and their ends (kept: two objects, not one a span)."""
_lines: dict[tuple[Line, int, Box], tuple[Columns, Columns]] = {}
"""Each order line's spans (its body's, its arrowhead's) on a page of the key's width, in its box: a move drawn
again (the same orders in another game, the same picture for another reader) is not filled again."""


def _columns(spans: Spans) -> Columns:
    """``spans`` as their starts and their ends."""
    if not spans:
        return (), ()
    starts, ends = zip(*spans, strict=True)
    return starts, ends


def _step(tag: str, attrs: str, ox: float, oy: float) -> Line | Sprite | None:
    values = dict(_ATTR.findall(attrs))
    if "clip-path" in values:
        return None
    if "transform" in values:
        return _scaled(tag, attrs, values, ox, oy)
    d = values.get("d", "")
    if (
        tag == "path"
        and values.get("fill") == "none"
        and "stroke-linecap" not in values
        and _LINE.match(d)
    ):
        marker = values.get("marker-end", "")
        dash = tuple(float(n) for n in values.get("stroke-dasharray", "").split())
        width = float(values["stroke-width"])
        return Line(d, ox, oy, width, dash, _hex(values["stroke"]), marker[5:-1] if marker else "")
    found = _element(tag, attrs, ox, oy, values)
    return None if found is None else Sprite(*found)


_SCALE = re.compile(r"matrix\(([\d.]+) 0 0 \1 (-?[\d.]+) (-?[\d.]+)\)$")
"""An element's own transform that :func:`_scaled` draws: a scale, the same both ways, and a move."""


def _scaled(tag: str, attrs: str, values: dict[str, str], ox: float, oy: float) -> Sprite | None:
    """An element with a transform of its own (a unit drawn smaller where a board's inset draws its
    region larger: ``matrix(s 0 0 s e f)``): a sprite keyed by its text as it is, in a group moving
    it by an integer to near the origin (its pixels are the same moved)."""
    scaled = _SCALE.match(values["transform"])
    if scaled is None or ox != int(ox) or oy != int(oy):
        return None
    found = _element(tag, _SCALE_FREE.sub("", attrs), 0.0, 0.0)
    if found is None:
        return None
    _text, sx, sy, (x0, y0, x1, y1) = found
    scale, e, f = float(scaled.group(1)), float(scaled.group(2)) + ox, float(scaled.group(3)) + oy
    left, top = (sx + x0) * scale + e, (sy + y0) * scale + f  # its box on the page
    right, bottom = (sx + x1) * scale + e, (sy + y1) * scale + f
    dx, dy = math.floor(left), math.floor(top)
    text = f'<g transform="translate({int(ox) - dx} {int(oy) - dy})"><{tag}{_DATA.sub("", attrs)}/></g>'
    return Sprite(text, dx, dy, (left - dx, top - dy, right - dx, bottom - dy))


_SCALE_FREE = re.compile(r'\stransform="[^"]*"')


class Over(NamedTuple):
    """What is drawn over the phase's part (:mod:`judge.maps.layers`: the labels' halo and letters),
    as ``(pixel AND uncovered) OR paint`` byte by byte. ``key`` names the two masks (a board, and the
    table translating its numbers when it has one) and the base they are painted on with them: a
    placement kept for one key is painted only under that key, a band kept (:data:`_banded`) used
    only in a picture composed with that key, over that base."""

    key: object
    uncovered: bytes
    paint: bytes


class Composed(NamedTuple):
    """A phase painted over a base (:func:`compose`), in bands of :data:`judge.maps.deflate.BAND` rows."""

    indices: bytearray
    """The picture's indices, one byte a pixel: right in every band but the ``known`` ones, which
    may be left unpainted. A page of :data:`_spare`'s: handed back by :func:`release` when read (it
    is painted over by the next picture then), or left to the garbage collector."""
    known: dict[int, Band]
    """The bands painted as in a picture before, by their number: their deflated bytes."""
    recipes: dict[int, tuple[object, ...]]
    """Each other band's recipe, by its number: what :func:`remember` keeps its deflated bytes by."""


_banded: dict[tuple[object, ...], Band] = {}
"""Bands deflated, by their recipe: the picture's context (its page, labels, indices and
markers) and the numbers of the steps that may paint in the band, in order. The same steps over
the same base in the same indices paint the same pixels: a band painted as in a picture before (the
same units, lines and legend about the same rows: another reader's, another game's) is neither
painted nor deflated again."""
_numbers: dict[tuple[Line | Sprite, Clip], int] = {}
"""Each step with its clip: its number, never reused in the process (bounded: ``8 * KEEP``)."""
_contexts: dict[tuple[object, ...], int] = {}
_count = itertools.count()


class _Chunk(NamedTuple):
    """A run of steps (a group's: the centres, the units, the legend...) as band recipes read it."""

    steps: tuple[tuple[Line | Sprite, Clip], ...]
    """The steps themselves (kept: the chunk is found by their identity)."""
    bands: tuple[tuple[int, tuple[int, ...]], ...]
    """Each band its steps may paint in (rows // BAND), with their numbers in order."""
    spans: tuple[tuple[int, int], ...]
    """Each step's first and last band."""


_chunks: dict[int, _Chunk] = {}
"""Each run of steps read, by the identity of its tuple (a group's, kept by :func:`_steps`)."""


def _chunk(steps: tuple[tuple[Line | Sprite, Clip], ...]) -> _Chunk:
    found = _chunks.get(id(steps))
    if found is not None and found.steps is steps:
        return found
    bands: dict[int, list[int]] = {}
    spans = []
    for step in steps:
        number = _numbers.get(step)
        if number is None:
            number = _numbers[step] = next(_count)
        _x0, y0, _x1, y1 = _bounds(step[0])
        top, bottom = max(math.floor(y0), 0) // BAND, max(math.ceil(y1), -1) // BAND
        for band in range(top, bottom + 1):
            bands.setdefault(band, []).append(number)
        spans.append((top, bottom))
    chunk = _chunks[id(steps)] = _Chunk(steps, tuple((b, tuple(n)) for b, n in sorted(bands.items())), tuple(spans))
    return chunk


def remember(recipes: dict[int, tuple[object, ...]], bands: dict[int, Band]) -> None:
    """Keep the deflated ``bands`` of a picture composed with these ``recipes`` (by band number)."""
    if len(_banded) > KEEP:
        _banded.clear()
    for number, recipe in recipes.items():
        band = bands.get(number)
        if band is not None:
            _banded[recipe] = band


def compose(
    phase: str, base: bytes, width: int, height: int, index: dict[str, int], draw: Draw, over: Over
) -> Composed | None:
    """``phase`` (the ``dyn`` SVG, colours as ``#rrggbb``) drawn over ``base`` (indices a pixel, with
    ``over`` applied already), each colour as ``index[colour]``, with ``over`` applied to what it
    paints: the picture with the labels over its phase; None where it holds what this does not draw
    (an inset's clip or scale, an element it does not read, a colour by name): then librsvg draws it.

    ``over`` is a function of each pixel alone, so applying it to each element's pixels as they are
    painted (the last painted wins) is applying it to the whole picture at the end; an element's
    pixels at a place are kept so (translated to the picture's indices and under the labels), and
    painted again as they are in the next picture that has the element there. A band whose recipe
    was kept (:data:`_banded`) is not painted: its deflated bytes are the picture's."""
    with _LOCK:
        if len(_sprites) > KEEP or _runs[0] > KEEP_RUNS or len(_codes) + len(index) > 250:
            _runs[0] = 0
            _sprites.clear()
            _codes.clear()
            _placed.clear()  # its pixels were translated from the codes
            _inked.clear()
            _placed_runs[0] = 0
        if len(_memo) > KEEP or len(_groups) > KEEP // 4:
            _memo.clear()
            _groups.clear()
        if len(_chunks) > KEEP // 4:
            _chunks.clear()  # read again from the steps' numbers, which stay
        if len(_numbers) > 8 * KEEP or len(_contexts) > KEEP:
            # Numbered again, the steps have new numbers: no kept recipe names them. Many are kept
            # (each game's title puts glyphs at new places): emptied, every band is painted again.
            _numbers.clear()
            _contexts.clear()
            _chunks.clear()
        if len(_lines) > KEEP:
            _lines.clear()
        if len(_placed) + len(_inked) > 2 * KEEP or _placed_runs[0] > KEEP_RUNS:
            _placed_runs[0] = 0
            _placed.clear()
            _inked.clear()
        table = bytearray(256)
        for colour, number in index.items():
            table[_code(colour)] = number
        chunks: list[tuple[tuple[Line | Sprite, Clip], ...]] = []
        steps = _steps(phase, chunks=chunks)
        if steps is None:
            return None
        missing = {
            step.text: step.box
            for step, _clip in steps
            if isinstance(step, Sprite) and step.text not in _sprites
        }
        if missing and not _draw_sprites(missing, draw):
            return None
        markers = {m.group(1): _hex(m.group(2)) for m in _MARKER.finditer(phase)}
        context = (width, height, over.key, tuple(sorted(index.items())), tuple(sorted(markers.items())))
        known, recipes, painted = _recipes(chunks, _contexts.setdefault(context, next(_count)), height)
        out = _page(base)
        if not _paint(painted, out, width, height, index, bytes(table), markers, over):
            release(out)
            return None
        return Composed(out, known, recipes)


_spare: dict[int, bytearray] = {}
"""Pages painted on before, handed back (:func:`release`), by their length: one a board's size.
A picture painted on a page of its own cost two copies of megabytes and their allocations (the base
as a bytearray, then the painted page as bytes); a page handed back is the base copied over it, once."""


def _page(base: bytes) -> bytearray:
    """A page holding ``base``: one handed back, when there is (taken: no other picture paints on
    it until it is handed back again), else a new one. Under :data:`_LOCK`."""
    page = _spare.pop(len(base), None)
    if page is None:
        return bytearray(base)
    # Through a view: a bytearray's slice assigned from bytes copies them to a new bytearray first.
    memoryview(page)[:] = base
    return page


def release(page: bytearray) -> None:
    """Hand back a page of :func:`compose`'s (:attr:`Composed.indices`) once read: the next picture
    of its size paints on it (whatever was kept of it is wrong then). At most a few are kept."""
    with _LOCK:
        if len(_spare) >= 4:
            _spare.clear()
        _spare[len(page)] = page


def _recipes(
    chunks: list[tuple[tuple[Line | Sprite, Clip], ...]], context: int, height: int
) -> tuple[dict[int, Band], dict[int, tuple[object, ...]], list[tuple[Line | Sprite, Clip]]]:
    """The bands kept (by their recipes), the recipes of the others, and the steps that paint in
    any of the others (the only ones painted), from the phase's steps in ``chunks``."""
    last_band = (height - 1) // BAND
    numbers: list[list[int]] = [[] for _ in range(last_band + 1)]
    read = [_chunk(steps) for steps in chunks]
    for chunk in read:
        for band, its in chunk.bands:
            if band <= last_band:
                numbers[band] += its
    known: dict[int, Band] = {}
    recipes: dict[int, tuple[object, ...]] = {}
    for band, painting in enumerate(numbers):
        if painting:
            recipe = (context, band, *painting)
            kept = _banded.get(recipe)
            if kept is None:
                recipes[band] = recipe
            else:
                known[band] = kept
    if not known:
        return known, recipes, [step for chunk in read for step in chunk.steps]
    # How many of the bands before each are not known: a step paints in one of them when the count
    # grows between its first band and the band after its last.
    unknown = list(itertools.accumulate((band not in known for band in range(last_band + 1)), initial=0))
    painted: list[tuple[Line | Sprite, Clip]] = []
    for chunk in read:
        if not chunk.bands:
            continue
        top, bottom = min(chunk.bands[0][0], last_band + 1), min(chunk.bands[-1][0], last_band)
        if unknown[bottom + 1] == unknown[top]:
            continue  # every band it paints in is kept
        painted += (
            step
            for step, (top, bottom) in zip(chunk.steps, chunk.spans, strict=True)
            if unknown[min(bottom, last_band) + 1] > unknown[min(top, last_band + 1)]
        )
    return known, recipes, painted


def _steps(
    phase: str, origin: tuple[float, float, Clip] = (0.0, 0.0, None),
    chunks: list[tuple[tuple[Line | Sprite, Clip], ...]] | None = None,
) -> list[tuple[Line | Sprite, Clip]] | None:
    """The phase's elements in drawing order, each with its clip; None at anything but translated
    groups (clipped, if at all, by a rectangle on whole pixels: a board's inset) and elements.
    ``origin``: where (and within what) ``phase`` is drawn. ``chunks`` gets the same steps in
    runs: each group's as the tuple kept for it, each other step alone."""
    stack: list[tuple[float, float, Clip]] = [origin]
    steps: list[tuple[Line | Sprite, Clip]] = []
    clips: dict[str, tuple[float, float, float, float]] = {}
    skip = 0
    clip_path = ""
    at = 0
    while (match := _TAG.search(phase, at)) is not None:
        at = match.end()
        closing, tag, attrs = match.groups()
        empty = attrs.endswith("/")
        if empty:
            attrs = attrs[:-1]
        if tag in ("defs", "style", "marker"):
            if not empty:
                skip += -1 if closing else 1
        elif skip or tag == "svg":
            continue
        elif tag == "clipPath":
            clip_path = "" if closing else dict(_ATTR.findall(attrs)).get("id", "")
        elif clip_path:
            values = dict(_ATTR.findall(attrs))
            if tag != "rect" or clip_path in clips or "transform" in values:
                return None  # a clip this does not read
            clips[clip_path] = (
                float(values["x"]), float(values["y"]), float(values["width"]), float(values["height"])
            )
        elif tag == "g":
            if closing:
                stack.pop()
                continue
            values = dict(_ATTR.findall(attrs))
            if any(
                name not in ("class", "transform", "clip-path") and not name.startswith("data-") for name in values
            ):
                return None  # a group whose attributes draw (inherited paint): librsvg's
            ox, oy, clip = stack[-1]
            if "clip-path" in values:
                rectangle = clips.get(values["clip-path"].removeprefix("url(#").removesuffix(")"))
                if rectangle is None:
                    return None
                x, y, w, h = rectangle
                edges = (x + ox, y + oy, x + ox + w, y + oy + h)
                if any(edge != int(edge) for edge in edges):
                    return None  # a clip across pixels: librsvg's
                left, top, right, bottom = (int(edge) for edge in edges)
                if clip is not None:
                    left, top = max(left, clip[0]), max(top, clip[1])
                    right, bottom = min(right, clip[2]), min(bottom, clip[3])
                clip = (left, top, right, bottom)
            if "transform" in values:
                moved = _TRANSLATE.match(values["transform"])
                if moved is None:
                    return None
                ox, oy = ox + float(moved.group(1)), oy + float(moved.group(2))
            stack.append((ox, oy, clip))
            # A group of elements alone (the centres, units, orders, legend...): its steps kept by
            # its text and place, read once for every picture that has it (the same centres, the
            # same legend, the same units in another reader's or another game's picture).
            end = phase.find("</g>", at)
            if end >= 0 and phase.find("<g", at, end) < 0:
                key = (phase[at:end], ox, oy, clip)
                group = _groups.get(key)
                if group is None:
                    found = _steps(key[0], (ox, oy, clip))
                    if found is None:
                        return None
                    group = _groups[key] = tuple(found)
                steps.extend(group)
                if chunks is not None:
                    chunks.append(group)
                stack.pop()
                at = end + 4
        elif not empty or closing:
            return None
        else:
            ox, oy, clip = stack[-1]
            memo = (tag, attrs, ox, oy)
            step = _memo.get(memo)
            if step is None:
                step = _step(tag, attrs, ox, oy)
                if step is None:
                    return None
                _memo[memo] = step
            if clip is None or not _outside(step, clip):
                steps.append((step, clip))
                if chunks is not None:
                    chunks.append(((step, clip),))
    return steps


def _outside(step: Line | Sprite, clip: tuple[int, int, int, int]) -> bool:
    """Whether ``step`` paints nothing inside ``clip`` (a board's inset draws every unit and order
    again, most of them beyond its frame)."""
    left, top, right, bottom = clip
    x0, y0, x1, y1 = _bounds(step)
    return x1 < left or x0 >= right or y1 < top or y0 >= bottom


def _bounds(step: Line | Sprite) -> tuple[float, float, float, float]:
    """A box (left, top, right, bottom: page pixels) that ``step`` paints nothing outside: a sprite's
    pixels are within its box's whole pixels, a line's within half its stroke of its ends but for its
    arrowhead, 5 strokes wide, a stroke past them."""
    if isinstance(step, Sprite):
        x0, y0, x1, y1 = step.box
        return (
            step.dx + math.floor(x0), step.dy + math.floor(y0), step.dx + math.ceil(x1), step.dy + math.ceil(y1)
        )
    numbers = [float(n) for n in _NUMBER.findall(step.d)]
    xs, ys = [x + step.ox for x in numbers[0::2]], [y + step.oy for y in numbers[1::2]]
    reach = 6 * step.stroke
    return min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach


class _Strips(dict[int, bytearray]):
    """One ink's bytes by their length, each made the first time it is asked for (never changed:
    shared by the spans of that length)."""

    def __init__(self, ink: int) -> None:
        super().__init__()
        self.ink = bytearray((ink,))

    def __missing__(self, length: int) -> bytearray:
        strip = self[length] = self.ink * length
        return strip


def _inked_spans(parts: tuple[Columns, Columns], inks: tuple[int, int], over: Over) -> Painted:
    """An order line's spans to paint (its body's, its arrowhead's) in their inks, each length's
    bytes made once a line (its spans are a few lengths, thousands of them in a crowded picture).
    A span a label covers in part (where ``over.paint`` is not all zero: a support's line passing
    under it, few) gets its ink under the label: what it paints is its ink whatever was under it,
    so the label over it is the label over its ink."""
    paint = over.paint
    starts: tuple[int, ...] = ()
    ends: tuple[int, ...] = ()
    codes: list[bytearray] = []
    for (part_starts, part_ends), ink in zip(parts, inks, strict=True):
        if part_starts:
            strips = _Strips(ink)
            codes += [
                strips[end - start]
                if paint.count(0, start, end) == end - start
                else _labelled(strips[end - start], start, end, over)
                for start, end in zip(part_starts, part_ends, strict=True)
            ]
            starts += part_starts
            ends += part_ends
    return starts, ends, tuple(codes)


def _paint(
    steps: list[tuple[Line | Sprite, Clip]],
    out: bytearray,
    width: int,
    height: int,
    index: dict[str, int],
    table: bytes,
    markers: dict[str, str],
    over: Over,
) -> bool:
    """Paint ``steps`` on ``out``; False at a line whose marker the phase does not give."""
    for step, clip in steps:
        if isinstance(step, Line):
            if step.marker and step.marker not in markers:
                return False
            inks = (index[step.colour], index[markers[step.marker]] if step.marker else 0)
            key: tuple[object, ...] = (step, width, height, over.key, clip, inks)
            inked = _inked.get(key)
            if inked is None:
                box = _box(width, height, clip)
                parts = _lines.get((step, width, box))
                if parts is None:
                    body, head = _line(step, width, box, bool(step.marker))
                    parts = _lines[(step, width, box)] = (_columns(body), _columns(head))
                inked = _inked[key] = _inked_spans(parts, inks, over)
                _placed_runs[0] += len(inked[0])
            for start, end, codes in zip(*inked, strict=True):
                out[start:end] = codes
            continue
        key = (step.text, step.dx, step.dy, width, height, over.key, table, clip)
        placed = _placed.get(key)
        if placed is None:
            box = _box(width, height, clip)
            runs = _sprites[step.text]
            placed = _placed[key] = (
                _whole_at_place(runs, step.dx, step.dy, width, table, over)
                if _inside(step, box)
                else _at_place(runs, step.dx, step.dy, width, box, table, over)
            )
            _placed_runs[0] += len(placed[0])
        for start, end, codes in zip(*placed, strict=True):
            out[start:end] = codes
    return True


def _inside(sprite: Sprite, box: Box) -> bool:
    """Whether every pixel of ``sprite`` lies inside ``box``: its runs were cut from a cell of whole
    pixels about its box (:func:`_draw_sprites`), from its left and top pixels' floor to its right
    and bottom pixels' ceiling, both included."""
    left, top, right, bottom = box
    x0, y0, x1, y1 = sprite.box
    return (
        sprite.dx + math.floor(x0) >= left
        and sprite.dx + math.ceil(x1) < right
        and sprite.dy + math.floor(y0) >= top
        and sprite.dy + math.ceil(y1) < bottom
    )


def _labelled(codes: bytes | bytearray, start: int, end: int, over: Over) -> bytearray:
    """``codes`` painted at ``start``..``end``, with what is drawn over them there."""
    return bytearray(
        (c & u) | p for c, u, p in zip(codes, over.uncovered[start:end], over.paint[start:end], strict=True)
    )


def _box(width: int, height: int, clip: Clip) -> Box:
    """Where a step's pixels go: the page, or its clip on it."""
    if clip is None:
        return (0, 0, width, height)
    return (max(clip[0], 0), max(clip[1], 0), min(clip[2], width), min(clip[3], height))


def _whole_at_place(runs: tuple[Run, ...], dx: int, dy: int, width: int, table: bytes, over: Over) -> Painted:
    """What :func:`_at_place` makes of a sprite whose every run lies inside its box (:func:`_inside`:
    nearly every sprite, the page's edge or the inset's clip far), nothing to cut: each run's place,
    pixels and labels by comprehensions and map, a few Python steps a run, not a loop's dozens."""
    shift = dy * width + dx
    starts = [row * width + column + shift for row, column, _codes in runs]
    inked = [bytearray(codes.translate(table)) for _row, _column, codes in runs]
    lengths = list(map(len, inked))
    ends = list(map(operator.add, starts, lengths))
    labelled = map(operator.ne, map(over.paint.count, itertools.repeat(0), starts, ends), lengths)
    for at in itertools.compress(range(len(starts)), labelled):
        inked[at] = _labelled(inked[at], starts[at], ends[at], over)
    return tuple(starts), tuple(ends), tuple(inked)


def _at_place(runs: tuple[Run, ...], dx: int, dy: int, width: int, box: Box, table: bytes, over: Over) -> Painted:
    """A sprite's runs at its place on a page ``width`` wide (moved by ``dx``, ``dy``), cut to
    ``box``, in the picture's indices (``table``), each with the labels over it: one pass a run."""
    left, top, right, bottom = box
    paint = over.paint
    starts: list[int] = []
    stops: list[int] = []
    placed: list[bytearray] = []
    for row, column, codes in runs:
        y = row + dy
        if y < top or y >= bottom:
            continue
        x, end = column + dx, column + dx + len(codes)
        if x < left:
            codes, x = codes[left - x :], left
        if end > right:
            codes, end = codes[: right - x], right
        if end <= x:
            continue
        start, stop = y * width + x, y * width + end
        if paint.count(0, start, stop) != stop - start:  # a label there
            placed.append(_labelled(codes.translate(table), start, stop, over))
        else:
            placed.append(bytearray(codes.translate(table)))
        starts.append(start)
        stops.append(stop)
    return tuple(starts), tuple(stops), tuple(placed)


def _draw_sprites(missing: dict[str, tuple[float, float, float, float]], draw: Draw) -> bool:
    placed = []
    x = y = shelf = 0
    parts = []
    for text, (x0, y0, x1, y1) in sorted(missing.items(), key=lambda item: item[1][1] - item[1][3]):
        left, top = math.floor(x0), math.floor(y0)
        w, h = math.ceil(x1) - left + 1, math.ceil(y1) - top + 1
        if x + w > 1024 and x > 0:
            x, y, shelf = 0, y + shelf, 0

        def code_of(m: re.Match[str]) -> str:
            return f"rgb({_code(_hex(m.group(1)))},0,0)"

        try:
            coded = _COLOURS.sub(code_of, text)
        except OverflowError:
            return False
        parts.append(f'<g transform="translate({x - left} {y - top})">{coded}</g>')
        placed.append((text, x, y, w, h, left, top))
        x += w + 1
        shelf = max(shelf, h + 1)
    page_width = max(p[1] + p[3] for p in placed)
    page_height = y + shelf
    page = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {page_width} {page_height}" width="{page_width}" '
        f'height="{page_height}" shape-rendering="crispEdges">{"".join(parts)}</svg>'
    )
    band = draw(page)
    if band.translate(None, bytes([0, *_codes.values()])):
        return False  # a pixel of no colour given (a colour by name): drawn whole
    for text, left, top, w, h, x0, y0 in placed:
        runs = []
        for row in range(h):
            at = (top + row) * page_width + left
            line = band[at : at + w]
            for m in _RUN.finditer(line):
                runs.append((row + y0, m.start() + x0, m.group(0)))
        _sprites[text] = tuple(runs)
        _runs[0] += len(runs)
    return True
