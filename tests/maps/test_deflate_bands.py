"""A palette picture's zlib stream in bands of rows (judge.maps.deflate, issue 28): the rows it
shares with a kept background are that background's deflated bytes, the others deflated anew; the
stream is the picture's rows whatever was kept, byte for byte the same."""

from __future__ import annotations

import random
import zlib

import pytest
from isal import isal_zlib

from judge.maps import deflate


def _rows(indices: bytes, width: int, height: int) -> bytes:
    return b"".join(b"\x00" + indices[y * width : (y + 1) * width] for y in range(height))


@pytest.mark.parametrize("lengths", [(0, 5), (1, 1), (70_000, 3), (5, 140_000), (65_521, 65_521)])
def test_the_combined_checksum_is_the_checksum_of_the_two_together(lengths: tuple[int, int]) -> None:
    chance = random.Random(sum(lengths))
    first, second = (bytes(chance.randrange(256) for _ in range(n)) for n in lengths)
    combined = deflate.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def _picture(chance: random.Random, width: int, height: int) -> bytearray:
    """Runs of a few indices, as a board's pixels are."""
    out = bytearray()
    while len(out) < width * height:
        out += bytes([chance.choice((3, 7, 7, 9, 130))]) * chance.randrange(1, 90)
    return out[: width * height]


def test_a_pictures_stream_is_its_rows_whatever_its_background_kept() -> None:
    chance = random.Random(28)
    width, height = 97, 5 * deflate.BAND + 3  # a last band shorter than the others
    board = _picture(chance, width, height)
    kept = deflate.background(bytes(board), width, height)
    picture = bytearray(board)
    for band in (1, 3, 5):  # some bands painted on; between them the background's, kept
        top = band * deflate.BAND * width
        picture[top + 40 : top + 60] = bytes([200]) * 20
    alone = deflate.zlib_stream(bytes(picture), width, height)
    assert zlib.decompress(alone) == _rows(bytes(picture), width, height)
    assert deflate.zlib_stream(bytes(picture), width, height, kept) == alone
    assert deflate.zlib_stream(bytes(board), width, height, kept) == deflate.zlib_stream(bytes(board), width, height)


def test_a_band_that_continues_the_run_before_it_is_deflated_alone() -> None:
    """A band is deflated as if the stream began with it: its first bytes never refer to the band
    before, which may be a kept one (here: one index over the whole picture, all runs crossing bands)."""
    width, height = 50, 3 * deflate.BAND
    plain = bytes([5]) * (width * height)
    kept = deflate.background(plain, width, height)
    painted = bytearray(plain)
    painted[deflate.BAND * width + 10] = 6  # the second band painted, the first and third kept
    stream = deflate.zlib_stream(bytes(painted), width, height, kept)
    assert zlib.decompress(stream) == _rows(bytes(painted), width, height)
    assert kept.bands[1] != deflate.background(bytes(painted), width, height).bands[1]


def test_a_band_painted_as_in_a_picture_before_is_its_kept_bytes() -> None:
    chance = random.Random(5)
    width, height = 61, 2 * deflate.BAND
    board = _picture(chance, width, height)
    kept = deflate.background(bytes(board), width, height)
    picture = bytearray(board)
    picture[3 * width : 3 * width + 9] = bytes([77]) * 9
    first = deflate.zlib_stream(bytes(picture), width, height, kept)
    assert deflate.known(width, bytes(picture[: deflate.BAND * width])) is not None
    again = deflate.zlib_stream(bytes(picture), width, height, kept)
    assert again == first
    assert zlib.decompress(again) == _rows(bytes(picture), width, height)


def test_a_band_found_by_its_checksum_is_used_only_for_the_same_pixels() -> None:
    """Kept bands are found by their pixels' CRC-32, which two bands may share: a kept band whose
    pixels differ is deflated anew, never written for the picture's."""
    chance = random.Random(11)
    width, height = 40, deflate.BAND
    picture = bytes(_picture(chance, width, height))
    other = bytes(_picture(chance, width, height))
    impostor = deflate.background(other, width, height).bands[0]
    deflate._seen[(width, isal_zlib.crc32(picture))] = (other, impostor)  # as if their checksums were the same
    assert deflate.known(width, picture) is None
    stream = deflate.zlib_stream(picture, width, height)
    assert zlib.decompress(stream) == _rows(picture, width, height)
    assert impostor.data not in stream


_ZSTREAM = 48
"""Where python-isal's compressor object holds ISA-L's stream: after its head (16 bytes), level
buffer, dictionary, flag and lock."""
_SLOTS = 0x1FFF
"""ISA-L's level-1 hash table: 8K slots."""


def _hash(four: bytes) -> int:
    """ISA-L's level-1 hash of four bytes (the x86 ``crc32`` instruction: CRC-32C without its
    inversions) on its table."""
    crc = 0
    for byte in four:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc & _SLOTS


def _slot_of(compressor: isal_zlib.Compress) -> int | None:
    """The slot where ISA-L's level-1 deflate looks up and keeps a block's third byte when it starts
    a block with it (hashed from the stream's address shifted 16 bits, not from the bytes); None when
    the object is so near a 64 KB boundary that its stream may lie past it."""
    address = id(compressor)
    if (address & 0xFFFF) > 0xFFFF - 4 * _ZSTREAM:
        return None
    return _hash((((address + _ZSTREAM) >> 16) & 0xFFFFFFFF).to_bytes(4, "little"))


def test_a_bands_bytes_do_not_depend_on_the_compressor_that_deflates_it() -> None:
    """A band's bytes are its rows' alone, whichever compressor deflates them (deflate._FIRST): not
    what ISA-L's level-1 deflate makes of a block's third byte, which it hashes from the compressor's
    address (a byte or two differed now and then, from process to process, for the same picture).
    Here two compressors whose addresses pick different slots, and a band whose third to sixth bytes
    hash to one's slot and come again later in the band: that compressor would find them again
    there, the other not."""
    width, background = 64, 9
    kept = []  # alive: each compressor at an address of its own
    slots: list[tuple[int, isal_zlib.Compress]] = []
    while len(slots) < 2:  # two slots, neither the one a run of the background hashes to
        compressor = deflate._compressor()
        kept.append(compressor)
        slot = _slot_of(compressor)
        if slot is not None and slot not in [_hash(bytes([background] * 4)), *(taken for taken, _ in slots)]:
            slots.append((slot, compressor))
    (slot, first), (_other, second) = slots
    # Three bytes to pick, the fourth a 1: the four hash to the first compressor's slot (one in 8K
    # of the fours tried hashes to any slot).
    four = next(
        bytes((a, b, c, 1))
        for a in range(10, 250)
        for b in range(10, 250)
        for c in range(10, 250)
        if _hash(bytes((a, b, c, 1))) == slot
    )
    pixels = bytearray([background]) * (width * deflate.BAND)
    pixels[0:5] = bytes([5]) + four  # the band's bytes 1 to 5: a pixel, then the four
    pixels[3 * width + 20 : 3 * width + 24] = four  # the four again, lower down
    whole = memoryview(bytes(pixels))
    one = deflate._band(first, whole, width, 0, deflate.BAND)
    two = deflate._band(second, whole, width, 0, deflate.BAND)
    assert zlib.decompressobj(-15).decompress(one.data) == _rows(bytes(pixels), width, deflate.BAND)
    assert one == two
