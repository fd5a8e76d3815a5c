"""A small stroke font of our own, so labels need no font file on the machine.

An SVG renderer draws ``<text>`` only with fonts it can find, and a fresh server may have
none; drawing each letter as a few strokes makes every map readable anywhere
and keeps the PNG byte-for-byte the same on every machine. Glyphs live on a
4 x 6 grid (y down, baseline at 6); lower case is drawn as upper case.
"""

from __future__ import annotations

import functools

_GLYPHS: dict[str, tuple[str, ...]] = {
    "A": ("0,6 0,2 2,0 4,2 4,6", "0,3.5 4,3.5"),
    "B": ("0,0 0,6 3,6 4,5 4,4 3,3 0,3", "0,0 3,0 4,1 4,2 3,3"),
    "C": ("4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5",),
    "D": ("0,0 0,6 2.5,6 4,4.5 4,1.5 2.5,0 0,0",),
    "E": ("4,0 0,0 0,6 4,6", "0,3 3,3"),
    "F": ("4,0 0,0 0,6", "0,3 3,3"),
    "G": ("4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,3.5 2.5,3.5",),
    "H": ("0,0 0,6", "4,0 4,6", "0,3 4,3"),
    "I": ("1,0 3,0", "2,0 2,6", "1,6 3,6"),
    "J": ("4,0 4,5 3,6 1,6 0,5",),
    "K": ("0,0 0,6", "4,0 0,3.5", "1.3,2.7 4,6"),
    "L": ("0,0 0,6 4,6",),
    "M": ("0,6 0,0 2,3 4,0 4,6",),
    "N": ("0,6 0,0 4,6 4,0",),
    "O": ("1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0",),
    "P": ("0,6 0,0 3,0 4,1 4,2 3,3 0,3",),
    "Q": ("1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0", "2.5,4.5 4,6"),
    "R": ("0,6 0,0 3,0 4,1 4,2 3,3 0,3", "2,3 4,6"),
    "S": ("4,1 3,0 1,0 0,1 0,2 1,3 3,3 4,4 4,5 3,6 1,6 0,5",),
    "T": ("0,0 4,0", "2,0 2,6"),
    "U": ("0,0 0,5 1,6 3,6 4,5 4,0",),
    "V": ("0,0 2,6 4,0",),
    "W": ("0,0 1,6 2,3 3,6 4,0",),
    "X": ("0,0 4,6", "4,0 0,6"),
    "Y": ("0,0 2,3 4,0", "2,3 2,6"),
    "Z": ("0,0 4,0 0,6 4,6",),
    "0": ("1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0", "4,1 0,5"),
    "1": ("1,1 2,0 2,6", "1,6 3,6"),
    "2": ("0,1 1,0 3,0 4,1 4,2 0,6 4,6",),
    "3": ("0,1 1,0 3,0 4,1 4,2 3,3 1.5,3", "3,3 4,4 4,5 3,6 1,6 0,5"),
    "4": ("3,6 3,0 0,4 4,4",),
    "5": ("4,0 0,0 0,3 3,3 4,4 4,5 3,6 0,6",),
    "6": ("3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,4 3,3 0,3",),
    "7": ("0,0 4,0 1.5,6",),
    "8": ("1,0 3,0 4,1 4,2 3,3 1,3 0,4 0,5 1,6 3,6 4,5 4,4 3,3", "1,3 0,2 0,1 1,0"),
    "9": ("4,3 1,3 0,2 0,1 1,0 3,0 4,1 4,5 3,6 1,6",),
    "-": ("1,3 3,3",),
    "+": ("0.5,3 3.5,3", "2,1.5 2,4.5"),
    ".": ("1.8,5.6 2.2,5.6 2.2,6 1.8,6 1.8,5.6",),
    ",": ("2,5.5 1.5,7",),
    ":": ("2,1.8 2,2.2", "2,4.8 2,5.2"),
    "/": ("0,6 4,0",),
    "(": ("3,0 1.5,1.5 1.5,4.5 3,6",),
    ")": ("1,0 2.5,1.5 2.5,4.5 1,6",),
    "'": ("2,0 2,1.5",),
    "?": ("0,1 1,0 3,0 4,1 4,2 2,3.5 2,4.5", "2,5.6 2,6"),
    "#": ("1,0 1,6", "3,0 3,6", "0,2 4,2", "0,4 4,4"),
    "=": ("0.5,2 3.5,2", "0.5,4 3.5,4"),
}
_FALLBACK = ("0,0 4,0 4,6 0,6 0,0",)
_ADVANCE = 5.5  # a glyph's width (4) and the gap after it, in grid units
_ACCENTS = str.maketrans("ÀÂÄÁÃÇÉÈÊËÍÎÏÌÑÓÔÖÒÕÚÛÜÙŸàâäáãçéèêëíîïìñóôöòõúûüùÿ", "AAAAACEEEEIIIINOOOOOUUUUYaaaaaceeeeiiiinooooouuuuy")


def text_width(text: str, size: float) -> float:
    """How wide ``text`` is drawn at cap height ``size``."""
    return max(len(text) * _ADVANCE - 1.5, 0.0) * size / 6


@functools.lru_cache(maxsize=4096)
def text_path(text: str, x: float, y: float, size: float, anchor: str = "middle") -> str:
    """The ``d`` of a path drawing ``text`` with its cap height ``size``; (x, y) is the baseline point.

    ``anchor`` is ``start``, ``middle`` or ``end`` as in SVG. Draw it with a
    stroke and no fill.
    """
    scale = size / 6
    left = x
    if anchor == "middle":
        left = x - text_width(text, size) / 2
    elif anchor == "end":
        left = x - text_width(text, size)
    top = y - size
    parts: list[str] = []
    for index, char in enumerate(text.translate(_ACCENTS).upper()):
        if char == " ":
            continue
        ox = left + index * _ADVANCE * scale
        for stroke in _GLYPHS.get(char, _FALLBACK):
            points = []
            for pair in stroke.split():
                gx, gy = pair.split(",")
                points.append(f"{ox + float(gx) * scale:.1f} {top + float(gy) * scale:.1f}")
            parts.append("M" + " L".join(points))
    return "".join(parts)


@functools.lru_cache(maxsize=4096)
def glyph_paths(text: str, x: float, y: float, size: float, anchor: str = "middle") -> tuple[str, ...]:
    """``text`` as :func:`text_path` draws it, one ``d`` a glyph, each glyph's left edge moved to
    the nearest whole pixel: a glyph drawn anywhere is then the same pixels shifted, so a picture
    whose title is new (a game's name) draws it from glyphs already drawn (:mod:`judge.maps.sprites`)."""
    scale = size / 6
    left = x
    if anchor == "middle":
        left = x - text_width(text, size) / 2
    elif anchor == "end":
        left = x - text_width(text, size)
    top = round(y - size)
    glyphs: list[str] = []
    for index, char in enumerate(text.translate(_ACCENTS).upper()):
        if char == " ":
            continue
        glyphs.append(_glyph(char, round(left + index * _ADVANCE * scale), top, scale))
    return tuple(glyphs)


@functools.lru_cache(maxsize=8192)
def _glyph(char: str, ox: int, top: int, scale: float) -> str:
    """One glyph's ``d`` with its left edge at ``ox`` (a game's new title is mostly glyphs at places
    drawn before)."""
    strokes = (
        "M" + " L".join(
            f"{ox + float(gx) * scale:.1f} {top + float(gy) * scale:.1f}"
            for gx, gy in (pair.split(",") for pair in stroke.split())
        )
        for stroke in _GLYPHS.get(char, _FALLBACK)
    )  # fmt: skip
    return "".join(strokes)
