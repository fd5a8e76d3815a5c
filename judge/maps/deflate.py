"""A palette picture's zlib stream (its PNG's IDAT) in bands of rows, the bands a board shares with
its background deflated once (issue 28).

Every picture of a board is its kept background (:mod:`judge.maps.layers`: the art with the labels
over it) with the phase's elements painted on it, so many of its rows are the background's. The
stream is cut into bands of :data:`BAND` rows, each deflated alone (by ISA-L's deflate, the
``isal`` package: a standard deflate stream, on the boards' rows of palette indices about half
zlib's CPU at its run-length strategy for files 1-3% larger; then a full flush: byte-aligned, not
final, no match reaching before its start), so a band equal to
the background's is that band's kept bytes, and only the others are deflated; those are kept too,
by their pixels (bounded: :data:`KEEP`), for the next picture with the same band (of random
Standard games' pictures drawn game after game, a quarter of the bands painted on had been seen
before; :mod:`judge.maps.sprites` keeps bands by what is painted in them too, and gives them here
already deflated). The zlib checksum
(Adler-32) of the whole is combined from the bands'. The pixels are the same whatever is kept: a
band's bytes are a function of its rows alone.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import NamedTuple

from isal import isal_zlib

BAND = 16
"""Rows a band (a Standard board's 1,058 rows: 67 bands)."""
_LEVEL = 1
"""zlib's level (the run-length strategy uses few of its settings)."""
_HEADER = b"\x78\x01"
"""zlib's header: deflate, a 32 KB window, no dictionary (its check bits make it a multiple of 31)."""
_FIRST = 289
"""How many of a band's bytes ISA-L is given first, alone: its look-ahead (``ISAL_LOOK_AHEAD``, 288
bytes) and one, so that its first call deflates the band's first byte alone. ISA-L's level-1
deflate (``.write_first_byte`` in igzip_icf_body_h1_gr_bt.asm, to 2.32.1 at least) begins a block
(after a full flush: each band) by hashing the block's third byte from a register holding the
compressor's address instead of the bytes: that byte is looked up, and kept, under a slot picked by
where the compressor lies in memory; when that slot is one of the band's own, a match is found or
missed, and the same rows give other bytes (one or two, in each band that compressor deflates):
now and then, from process to process (ASLR), about one compressor in 6,000 on a board's band. A
call given no more than the look-ahead and one byte stops after the first byte; the next goes on
from there, every byte hashed from the bytes: the same bytes whatever the compressor's address
(tests/maps/test_deflate_bands.py). One call more a band, and ISA-L copies the rest into its own
buffer: +0.06% (Standard) and +0.22% (World) of the instructions of drawing a game's pictures."""
_LAST = b"\x03\x00"
"""An empty final block (fixed codes): the end of the deflate stream."""
_BASE = 65521
KEEP = 1024
"""How many bands painted on are kept deflated, by their pixels (about 20 MB for Standard's)."""
_seen: dict[tuple[int, int], tuple[bytes, Band]] = {}
"""Bands painted on, deflated, with their pixels, by their width and their pixels' CRC-32: a unit,
a centre's mark, a legend's line drawn as in another picture (another game's, another phase's) with
the same rows about it. The CRC (ISA-L's: a tenth of the time of hashing the pixels as a key) only
finds a band: its pixels are compared before its bytes are used."""


class Band(NamedTuple):
    """One band's rows deflated alone: its bytes, its rows' Adler-32 and their length."""

    data: bytes
    adler: int
    length: int


class Background(NamedTuple):
    """A board's kept background (one byte a pixel), its bands deflated and their pixels' CRC-32."""

    indices: bytes
    bands: tuple[Band, ...]
    crcs: tuple[int, ...]


def _compressor() -> isal_zlib.Compress:
    return isal_zlib.compressobj(_LEVEL, isal_zlib.DEFLATED, -15)


def _band(compressor: isal_zlib.Compress, whole: memoryview, width: int, top: int, bottom: int) -> Band:
    """Rows ``top``..``bottom - 1``, each after its filter byte (0: none), deflated by ``compressor``
    and fully flushed (a full flush resets the state: what follows is deflated as if anew): a
    function of the rows alone, whatever the compressor deflated before and wherever it lies in
    memory (its first :data:`_FIRST` bytes given alone: see there)."""
    # Joined after an empty first part: each row after its filter byte, in one copy (not the join
    # copied again behind the first filter byte).
    rows = b"\x00".join([b"", *(whole[y * width : (y + 1) * width] for y in range(top, bottom))])
    if len(rows) <= _FIRST:  # a band of a page narrower than ISA-L's look-ahead (no board's)
        short = zlib.compressobj(_LEVEL, zlib.DEFLATED, -15)
        data = short.compress(rows) + short.flush(zlib.Z_FULL_FLUSH)
    else:
        view = memoryview(rows)
        data = compressor.compress(view[:_FIRST]) + compressor.compress(view[_FIRST:]) + compressor.flush(isal_zlib.Z_FULL_FLUSH)
    return Band(data, isal_zlib.adler32(rows), len(rows))


def background(indices: bytes, width: int, height: int) -> Background:
    """``indices`` kept as a background, each band deflated."""
    compressor, whole = _compressor(), memoryview(indices)
    tops = range(0, height, BAND)
    return Background(
        indices,
        tuple(_band(compressor, whole, width, top, min(top + BAND, height)) for top in tops),
        tuple(isal_zlib.crc32(whole[top * width : min(top + BAND, height) * width]) for top in tops),
    )


def known(width: int, pixels: bytes | memoryview, crc: int | None = None) -> Band | None:
    """The kept deflated band of these pixels (rows of ``width``), if one was kept; ``crc``: their
    CRC-32 when known."""
    found = _seen.get((width, isal_zlib.crc32(pixels) if crc is None else crc))
    # Compared as bytes: a view compares byte by byte, thirty times slower than the copy and memcmp.
    return found[1] if found is not None and found[0] == bytes(pixels) else None


def adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's and the second's length
    (zlib's ``adler32_combine``, which Python's module does not offer)."""
    remainder = length % _BASE
    low = first & 0xFFFF
    high = (remainder * low) % _BASE
    low += (second & 0xFFFF) + _BASE - 1
    high += (first >> 16) + (second >> 16) + _BASE - remainder
    return (low % _BASE) | ((high % _BASE) << 16)


def zlib_stream(
    indices: bytes | bytearray, width: int, height: int, kept: Background | None = None,
    given: Mapping[int, Band] | None = None, made: dict[int, Band] | None = None,
) -> bytes:
    """The zlib stream of ``indices`` (one byte a pixel, rows top to bottom) as unfiltered PNG rows;
    the bands equal to ``kept``'s are its bytes. ``given``: bands already deflated, by number (their
    rows in ``indices`` are not read); ``made``: where each other band's deflated bytes are written."""
    whole = memoryview(indices)
    same = kept is not None and len(kept.indices) == len(indices)
    compressor: isal_zlib.Compress | None = None
    parts = [_HEADER]
    adler = 1
    for number, top in enumerate(range(0, height, BAND)):
        if given and (done := given.get(number)) is not None:
            parts.append(done.data)
            adler = adler32_combine(adler, done.adler, done.length)
            continue
        bottom = min(top + BAND, height)
        # The band's pixels as a view (no copy): copied only when kept (a page of judge.maps.sprites
        # is painted over by the next picture).
        pixels = whole[top * width : bottom * width]
        crc = isal_zlib.crc32(pixels)
        if same and kept is not None and kept.crcs[number] == crc and bytes(pixels) == kept.indices[top * width : bottom * width]:
            band = kept.bands[number]
        elif (found := known(width, pixels, crc)) is not None:
            band = found
        else:
            compressor = compressor or _compressor()
            band = _band(compressor, whole, width, top, bottom)
            if len(_seen) >= KEEP:
                _seen.clear()
            _seen[(width, crc)] = (bytes(pixels), band)
        if made is not None:
            made[number] = band
        parts.append(band.data)
        adler = adler32_combine(adler, band.adler, band.length)
    parts.append(_LAST)
    parts.append(adler.to_bytes(4, "big"))
    return b"".join(parts)
