"""A board's PNG from layers (issue 28): what never changes drawn once per board and kept, each
phase's picture composed from it and from what changed, as a palette PNG.

:func:`judge.maps.render.render_svg` marks the parts of its SVG with comments:
``base`` (the white page and the province art), ``over`` (what never changes
but is drawn over the orders: the province labels on their halo, the inset's
border) and ``dyn`` (the title, shading, centres, units, orders, marks and
legend). Drawing the whole SVG with librsvg costs tens of milliseconds a
board, most of it in the art and the labels, which are the same in every
phase. So:

* the base is drawn once per board (its SVG text is the cache's key: the
  same text is the same picture, whatever game or phase asked for it) in
  *palette indices* instead of colours: each colour of the art an index, and
  each supply centre's province an index of its own, whose colour the
  picture's shading gives, phase by phase, in the PNG's palette;
* what is drawn over is drawn once too, as masks: the halo's pixels, and the
  pixels of the letters and the border with their colours' indices;
* the base with what is drawn over it (the halo's pixels lightened: the
  second half of the palette holds each colour under the halo; the letters
  inked) is kept too, with its bands of rows deflated (:mod:`judge.maps.deflate`);
* each picture paints only its ``dyn`` part on that, in palette indices
  (:mod:`judge.maps.sprites`: its order lines filled as polygons, its other
  elements pasted as kept sprites, the labels applied to each element's
  pixels as it paints them, which is applying them to the whole at the end:
  they are a function of each pixel alone), or, where the part holds what
  that does not draw, draws it by librsvg on an empty page and merges the
  three with Python's big integers; the result is one byte a pixel, written
  as a palette PNG whose bands that are the kept ones are not deflated again.

Everything is drawn without anti-aliasing (the art and labels already were):
one colour a pixel, so a pixel's index says its colour exactly, and the PNG
is a third of the bytes of an RGB one. Translucency (a dislodged unit's) is
drawn opaque. The picture is the whole SVG drawn so, pixel for pixel but a
few lone pixels on the edges of order lines (tests/maps/test_layered_png.py). When the board's
colours and centres and the phase's colours together outnumber the 127
indices (Known World 901: 109 centres), each colour of the picture gets one
index instead (its centres share their owners' shades), and the board's
numbers (and the kept base with its labels) are translated to them for that picture. A board whose parts do
not fit the scheme (more than 127 colours and centres on the board itself, or
127 colours in one picture, a pixel of the base
or of the phase's part that is not one of the indices given, a shading
style sheet it does not read, a gradient, pattern, image, filter or mask), or a Fog of War reader's picture (whose dimmed
provinces may be any, not only the centres' that have indices), gets ``None`` here and is drawn whole by
:func:`judge.maps.png.whole_svg_to_png`.

The cache is bounded (:data:`KEEP` boards), holds only immutable integers and
tuples, and is keyed by the drawing's own text: nothing of one game can show
in another's picture, and two sender threads drawing the same board at once
at worst both draw its base.
"""

from __future__ import annotations

import functools
import itertools
import re
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from isal import isal_zlib

from judge.maps import deflate, sprites
from judge.maps.vips import vips as maps_vips

KEEP = 12
"""How many boards are kept (a board: a variant's page in one language; three integers of a byte a
pixel, about 4 MB for Standard and 6 MB for World)."""
HALO = 0.6
"""The labels' halo: white at this opacity over what lies under it (as the SVG draws it)."""
_SLOTS = 128
"""Indices 1..127 are colours; index k + 128 is colour k under the labels' halo."""

_ROOT = re.compile(r"<svg\b[^>]*>")
_SIZE = re.compile(r'\bwidth="([\d.]+)" height="([\d.]+)"')
_COLOUR = re.compile(r"(?<=[:\"])#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})(?=[;\"}\s])")
_ATTRIBUTE_COLOUR = re.compile(r'="#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})"')
"""A colour as the phase's part gives it: an attribute's whole value (its only style sheet, the shading, is read apart).
The pattern begins with its literal ``="#``, not a look-behind: the engine then skips to each ``="#``
instead of trying every character (a seventh of the time on a Standard phase)."""
_OPACITY = re.compile(r'\s(?:stroke-|fill-)?opacity="[^"]*"')
_FOG = '<style class="fog"'
_BLENDED = re.compile(r"<(?:linearGradient|radialGradient|pattern|image|filter|mask)\b")
"""What draws colours between colours: a picture that has any is drawn whole."""
_SHADING = re.compile(r'<style class="shading">(.*?)</style>', re.S)
_HALO = re.compile(r'(class="label-halo"[^>]*?)stroke="#[0-9a-fA-F]+"')
_RULE = re.compile(r"([^{}]+)\{fill:(#[0-9a-fA-F]{6})\}")

Colour = tuple[int, int, int]
Draw = Callable[[str], bytes]
"""SVG text to the red of its pixels drawn, one byte a pixel, 0 where nothing is drawn."""


@functools.lru_cache(maxsize=1024)
def rgb(colour: str) -> Colour:
    """``#rrggbb`` or ``#rgb`` as (r, g, b)."""
    text = colour.lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


@functools.lru_cache(maxsize=1024)
def under_halo(colour: Colour) -> Colour:
    """``colour`` seen through the labels' white halo (cairo's rounding of ``over``)."""
    alpha = round(HALO * 255)
    return tuple((255 * alpha + c * (255 - alpha) + 127) // 255 for c in colour)  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Board:
    """What one board keeps: its page size, its base in palette indices, the masks of what is drawn
    over and the colour of each index (a centre's province has none: each picture's shading gives it)."""

    key: int
    """This board's number in the process (what names its masks to :mod:`judge.maps.sprites`)."""
    width: int
    height: int
    base: int
    """The base's indices, one byte a pixel, as a little-endian integer (for whole-image merges)."""
    base_bytes: bytes
    """The same, as bytes (what :mod:`judge.maps.sprites` draws the phase's part over)."""
    uncovered: int
    """0 where something is drawn over the phase but the halo (the labels' letters, the inset's
    border), 0xFF elsewhere."""
    paint: int
    """The index of what is drawn there, 0x80 (the halo's bit) where the halo is, 0 elsewhere."""
    uncovered_bytes: bytes
    paint_bytes: bytes
    """The same two masks as bytes, for :func:`_overlay`."""
    colours: tuple[tuple[int, Colour], ...]
    """The base's colour indices and their colours (the letters' ink among them)."""
    provinces: tuple[tuple[str, int], ...]
    """Each supply centre's province and its index."""
    first_free: int
    """The first index the base leaves to the phase's own colours."""
    base_over: deflate.Background
    """The base with what is drawn over the phase applied (what a picture's phase is painted on),
    its bands deflated (a picture's rows that are the base's are not deflated again)."""


def _index_colour(index: int) -> str:
    return f"rgb({index},0,0)"


def _indices(draw: Draw, svg: str, width: int, height: int) -> bytes:
    """``svg`` (drawn in colours ``rgb(index,0,0)``) drawn: each pixel's index, 0 where nothing is drawn."""
    pixels = draw(svg)
    if len(pixels) != width * height:
        raise ValueError("the drawing is not the page's size")
    return pixels


def _drawn_whole(svg: str) -> bool:
    """Whether ``svg`` (a part of a layered picture) holds what this scheme does not draw: a Fog
    of War reader's dimming (any province may be dimmed) or what blends colours."""
    return _FOG in svg or _BLENDED.search(svg) is not None


@functools.lru_cache(maxsize=KEEP)
def _board(base_svg: str, over_svg: str, provinces: tuple[str, ...], draw: Draw) -> Board | None:
    if _drawn_whole(base_svg) or _drawn_whole(over_svg):
        return None
    size = _SIZE.search(base_svg)
    assert size is not None
    width, height = round(float(size.group(1))), round(float(size.group(2)))
    colours: dict[Colour, int] = {}

    def index_of(match: re.Match[str]) -> str:
        return _index_colour(colours.setdefault(rgb("#" + match.group(1)), len(colours) + 1))

    indexed = _COLOUR.sub(index_of, base_svg)
    # What is drawn over the phase: the halo as mark 1, each colour of the rest a mark from 2 on.
    marks: dict[Colour, int] = {}

    def mark_of(match: re.Match[str]) -> str:
        return _index_colour(marks.setdefault(rgb("#" + match.group(1)), len(marks) + 2))

    over = _HALO.sub(lambda m: m.group(1) + 'stroke="rgb(1,0,0)"', _OPACITY.sub("", over_svg))
    over = _COLOUR.sub(mark_of, over)
    inks = {mark: colours.setdefault(colour, len(colours) + 1) for colour, mark in marks.items()}
    at = {code: len(colours) + 1 + n for n, code in enumerate(provinces)}
    first_free = len(colours) + len(provinces) + 1
    if first_free >= _SLOTS or len(marks) > 250:
        return None
    style = "".join(f"#p-{code}{{fill:{_index_colour(index)}}}" for code, index in at.items())
    root = _ROOT.match(indexed)
    assert root is not None
    indexed = indexed[: root.end()] + f"<style>{style}</style>" + indexed[root.end() :]
    base = _indices(draw, indexed, width, height)
    if base.translate(None, bytes([*colours.values(), *at.values()])):
        return None  # a pixel that is no index: the art draws something this scheme cannot say
    band = _indices(draw, over, width, height)
    if band.translate(None, bytes([0, 1, *inks])):
        return None
    uncovered = band.translate(bytes(0 if v in inks else 0xFF for v in range(256)))
    paint = band.translate(bytes(0x80 if v == 1 else inks.get(v, 0) for v in range(256)))
    return Board(
        key=next(_BOARDS),
        width=width,
        height=height,
        base=int.from_bytes(base, "little"),
        base_bytes=base,
        uncovered=int.from_bytes(uncovered, "little"),
        paint=int.from_bytes(paint, "little"),
        uncovered_bytes=uncovered,
        paint_bytes=paint,
        colours=tuple((index, colour) for colour, index in colours.items()),
        provinces=tuple(at.items()),
        first_free=first_free,
        base_over=deflate.background(_overlay(base, uncovered, paint, width, height), width, height),
    )


_BOARDS = itertools.count()

_DRAWN = bytes([0] + [0xFF] * 255)
"""A translation table: 0xFF for every index but 0 (nothing drawn)."""


def _split(svg: str) -> tuple[str, str, str] | None:
    """The base, over and phase (``dyn``) SVG of a layered picture, each with the structure
    around it and a root stripped to its size: the same text whatever game, phase or language
    drew it (but for the phase's own part); None when ``svg`` has no base or no over part."""
    root = _ROOT.match(svg)
    size = _SIZE.search(root.group(0)) if root is not None else None
    if root is None or size is None:
        return None
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size.group(1)} {size.group(2)}" '
        f'width="{size.group(1)}" height="{size.group(2)}" shape-rendering="crispEdges">'
    )
    parts: dict[str, list[str]] = {"base": [head], "over": [head], "dyn": [head]}
    at = root.end()
    seen: set[str] = set()
    while (
        start := svg.find("<!--", at)
    ) >= 0:  # str.find: several times a regular expression's speed
        close = svg.find("-->", start)
        kind = svg[start + 4 : close]
        end = svg.find(f"<!--/{kind}-->", close)
        if kind not in parts or end < 0:
            return None
        seen.add(kind)
        between = svg[at:start]
        for name, kept in parts.items():
            kept.append(between)
            if name == kind:
                kept.append(svg[close + 3 : end])
        at = end + len(kind) + 8
    if "base" not in seen or "over" not in seen:
        return None
    for kept in parts.values():
        kept.append(svg[at:])
    return "".join(parts["base"]), "".join(parts["over"]), "".join(parts["dyn"])


def layered_png(svg: str, draw: Draw) -> bytes | None:
    """The PNG of a picture drawn by :func:`judge.maps.render.render_svg`, from its layers, each
    drawn by ``draw`` (SVG text to the red of its pixels: :func:`judge.maps.png.red_band`); None when
    ``svg`` has no layers or its board does not fit the scheme (see the module's note)."""
    split = _split(svg)
    if split is None:
        return None  # not layered: drawn whole
    base_svg, over_svg, phase = split
    # What is drawn whole is looked for in the phase's part here, in the board's parts once per
    # board (_board): every character of the picture is in one of the three.
    if _drawn_whole(phase):
        return None
    fills: dict[str, Colour] = {}
    shading = _SHADING.search(phase)
    if shading is not None:
        rules = _RULE.findall(shading.group(1))
        if "".join(f"{selectors}{{fill:{colour}}}" for selectors, colour in rules) != shading.group(
            1
        ):
            return None  # a shading this scheme does not read: drawn whole
        for selectors, colour in rules:
            for selector in selectors.split(","):
                fills[selector.strip().removeprefix("#p-")] = rgb(colour)
        phase = phase[: shading.start()] + phase[shading.end() :]
    board = _board(base_svg, over_svg, tuple(sorted(fills)), draw)
    if board is None:
        return None
    if 'opacity="' in phase:  # few phases have any (a dislodged unit's); the test is a twentieth of the scan
        phase = _OPACITY.sub("", phase)
    length = board.width * board.height
    translation: bytes | None = None
    """The board's numbers as this picture's indices, when it needs its own (see below)."""
    # The phase's part: its colours get the indices the base leaves free, in the colours' order (the
    # same colours, the same indices: nearly every picture of a board has the same colours, every
    # power's in its legend, so an element's pixels kept by judge.maps.sprites serve the next).
    colours = sorted({rgb("#" + found) for found in _ATTRIBUTE_COLOUR.findall(phase)})
    dynamic = {colour: board.first_free + rank for rank, colour in enumerate(colours)}
    palette: list[Colour] = [(0, 0, 0)] * _SLOTS
    if board.first_free + len(dynamic) <= _SLOTS:
        for index, colour in board.colours:
            palette[index] = colour
        for code, index in board.provinces:
            palette[index] = fills.get(code, (0, 0, 0))
    else:
        # More centres and colours than indices (Known World 901's 109 centres): each colour gets
        # one index, whatever the provinces sharing it (16 shades, not 109), the board's numbers
        # translated to them, picture by picture.
        indices: dict[Colour, int] = {}
        table = bytearray(256)
        table[0x80] = 0x80  # the halo's bit, in what is drawn over
        for number, colour in board.colours:
            table[number] = indices.setdefault(colour, len(indices) + 1)
        for code, number in board.provinces:
            table[number] = indices.setdefault(fills.get(code, (0, 0, 0)), len(indices) + 1)
        for colour in dynamic:
            dynamic[colour] = indices.setdefault(colour, len(indices) + 1)
        if len(indices) >= _SLOTS:
            return None
        for colour, index in indices.items():
            palette[index] = colour
        # Under the halo (the index's 0x80 bit), each number's index with that bit: the base with
        # its labels is translated as the base and its labels are.
        for number in range(1, 0x80):
            table[number | 0x80] = table[number] | 0x80
        translation = bytes(table)
    for colour, index in dynamic.items():
        palette[index] = colour

    # The phase's part drawn here (judge.maps.sprites: its lines filled, its other elements pasted as
    # sprites, the labels applied to what they paint), not by librsvg on a whole page; by librsvg when
    # it holds what sprites does not draw.
    base_bytes, paint_bytes = board.base_bytes, board.paint_bytes
    base_over = board.base_over.indices
    kept: deflate.Background | None = board.base_over
    if translation is None:
        labels = sprites.Over(board.key, board.uncovered_bytes, paint_bytes)
    else:  # the board's numbers translated for this picture
        base_bytes, paint_bytes = base_bytes.translate(translation), paint_bytes.translate(translation)
        labels = sprites.Over((board.key, translation), board.uncovered_bytes, paint_bytes)
        base_over, kept = base_over.translate(translation), None
    composed = sprites.compose(
        phase,
        base_over,
        board.width,
        board.height,
        {f"#{r:02x}{g:02x}{b:02x}": index for (r, g, b), index in dynamic.items()},
        draw,
        labels,
    )
    if composed is not None:
        made: dict[int, deflate.Band] = {}
        png = palette_png(
            board.width, board.height, composed.indices, _with_halo(tuple(palette)), kept, composed.known, made
        )
        sprites.release(composed.indices)
        sprites.remember(composed.recipes, made)
        return png

    def index_of(match: re.Match[str]) -> str:
        return f'="{_index_colour(dynamic[rgb("#" + match.group(1))])}"'

    phase = _ATTRIBUTE_COLOUR.sub(index_of, phase)
    band = _indices(draw, phase, board.width, board.height)
    if band.translate(None, bytes([0, *dynamic.values()])):
        return None  # a pixel of no colour given (a gradient, a colour by name): drawn whole
    base = board.base if translation is None else int.from_bytes(base_bytes, "little")
    paint = board.paint if translation is None else int.from_bytes(paint_bytes, "little")
    drawn = int.from_bytes(band, "little")
    over = int.from_bytes(band.translate(_DRAWN), "little")
    merged = drawn | (base ^ (base & over))
    merged = (merged & board.uncovered) | paint  # the halo lightens, the letters ink
    return palette_png(board.width, board.height, merged.to_bytes(length, "little"), _with_halo(tuple(palette)), kept)


def _overlay(picture: bytes, uncovered: bytes, paint: bytes, width: int, height: int) -> bytes:
    """``(picture AND uncovered) OR paint``, byte by byte: the halo lightens, the letters ink. In
    libvips: a third of the CPU of the same with Python's big integers, whose conversions from and
    to bytes go a byte at a time."""
    vips = maps_vips()

    def image(data: bytes) -> Any:
        return vips.Image.new_from_memory(data, width, height, 1, "uchar")

    merged = image(picture).boolean(image(uncovered), "and").boolean(image(paint), "or")
    return bytes(merged.write_to_memory())


@functools.lru_cache(maxsize=64)
def _with_halo(palette: tuple[Colour, ...]) -> tuple[Colour, ...]:
    """A picture's palette (its 128 indices) and each colour under the labels' halo after it: the
    same for most pictures of a board, so kept."""
    return palette + tuple(under_halo(colour) for colour in palette)


def _chunk(kind: bytes, data: bytes) -> list[bytes]:
    """A PNG chunk, as its parts (joined once with the file's others: the image data is not copied
    for each)."""
    return [struct.pack(">I", len(data)), kind, data, struct.pack(">I", isal_zlib.crc32(data, isal_zlib.crc32(kind)))]


@functools.lru_cache(maxsize=64)
def _palette_chunk(palette: tuple[Colour, ...]) -> bytes:
    return b"".join(_chunk(b"PLTE", b"".join(bytes(colour) for colour in palette)))


_END = b"".join(_chunk(b"IEND", b""))


def palette_png(
    width: int, height: int, indices: bytes | bytearray, palette: Sequence[Colour], kept: deflate.Background | None = None,
    known: Mapping[int, deflate.Band] | None = None, made: dict[int, deflate.Band] | None = None,
) -> bytes:
    """A PNG of 8-bit palette indices (one byte a pixel, rows top to bottom), no filtering; the rows
    it shares with ``kept`` (a board's background) written from their kept deflated bytes, the bands
    ``known`` from theirs (:func:`judge.maps.deflate.zlib_stream`: ``made`` gets the others')."""
    if len(indices) != width * height or not 0 < len(palette) <= 256:
        raise ValueError("indices and size disagree, or the palette is not 1 to 256 colours")
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            *_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
            _palette_chunk(tuple(palette)),
            *_chunk(b"IDAT", deflate.zlib_stream(indices, width, height, kept, known, made)),
            _END,
        ]
    )
