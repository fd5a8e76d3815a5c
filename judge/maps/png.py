"""SVG to PNG with libvips (``pyvips`` and the ``pyvips-binary`` wheel: libvips and librsvg inside,
no system library), and the PNG's size read back.

The SVG draws its text as strokes (:mod:`judge.maps.font`), so no font is needed:
the picture is the same on every machine, fonts or not. Its white background
covers the canvas, so the PNG is written without an alpha channel (RGB, a
smaller file), with zlib level 3: the pixels are what cost time, and level 3
keeps a Standard board near 120 KB for a fraction of the time of a harder level.
"""

from __future__ import annotations

import struct
from typing import Any

from judge.collector import collector_paused
from judge.maps.layers import layered_png
from judge.maps.vips import vips

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COMPRESSION = 3


def _vips() -> Any:
    return vips()


def svg_to_png(svg: str) -> bytes:
    """The PNG of ``svg`` at its own size: from its layers when :func:`judge.maps.render.render_svg`
    drew it (:mod:`judge.maps.layers`: the parts that never change drawn once per board), else whole.
    The collector is paused meanwhile (:mod:`judge.collector`): a picture's spans and runs are freed
    by their reference counts, and a collection would trace every board's kept pixels in vain."""
    with collector_paused():
        layered = layered_png(svg, red_band)
    return layered if layered is not None else whole_svg_to_png(svg)


def red_band(svg: str) -> bytes:
    """The red of each pixel of ``svg`` drawn, one byte a pixel, rows top to bottom (0 where nothing
    is drawn). Only the one band leaves libvips: copying all four costs more than drawing a board's
    orders."""
    image = _vips().Image.svgload_buffer(svg.encode("utf-8"))
    return bytes(image[0].write_to_memory())


def whole_svg_to_png(svg: str) -> bytes:
    """The PNG of ``svg`` drawn whole by librsvg (anti-aliased, RGB)."""
    image = _vips().Image.svgload_buffer(svg.encode("utf-8"))
    if image.hasalpha():
        image = image.flatten(background=[255, 255, 255])
    # keep=NONE: no metadata in the file (libvips 8.15 replaced the deprecated strip=True with it).
    return bytes(image.pngsave_buffer(compression=_COMPRESSION, keep=_vips().enums.ForeignKeep.NONE))


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk; ``ValueError`` when ``data`` is not a PNG."""
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return width, height
