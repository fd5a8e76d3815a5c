"""SVG to PNG with resvg (a wheel with no system library), and the PNG's size read back.

The SVG draws its text as strokes (:mod:`judge.maps.font`), so system fonts
are skipped: the picture is the same on every machine, fonts or not.
"""

from __future__ import annotations

import struct

import resvg_py

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def svg_to_png(svg: str) -> bytes:
    """The PNG of ``svg`` at its own size."""
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True))


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk; ``ValueError`` when ``data`` is not a PNG."""
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return width, height
