"""The board's PNG from layers (issue 28, judge.maps.layers): what never changes drawn once per
board and kept, each picture the same, pixel for pixel (but a bounded number of lone pixels on
the edges of order lines, judge.maps.sprites), as the whole SVG drawn without anti-aliasing; a
palette PNG under 150 KB for every shipped variant."""

from __future__ import annotations

import json
import re
import struct
import threading
import zlib
from pathlib import Path

import pytest

from judge.core.position import Position
from judge.core.variants import available_variants, load_map
from judge.maps import deflate, layers, sprites
from judge.maps.contract import svg_from_contract
from judge.maps.png import png_size, red_band, svg_to_png, whole_svg_to_png
from judge.maps.render import render_svg

HERE = Path(__file__).parent
POSITION = json.loads((HERE / "standard_f1902_position.json").read_text())
RESULT = json.loads((HERE / "standard_f1902_result.json").read_text())
MAX_PNG = 150 * 1024


def _opening(variant: str) -> str:
    game_map = load_map(variant)
    return render_svg(
        game_map,
        Position(variant, game_map.first_phase, game_map.opening_units, game_map.starting_centers),
    )


def _crisp(svg: str) -> str:
    """``svg`` as the layers draw it: no anti-aliasing, nothing translucent but the labels' halo."""
    svg = re.sub(r'\s(?:stroke-|fill-)?opacity="[^"]*"', "", svg)
    svg = svg.replace('class="label-halo"', f'class="label-halo" stroke-opacity="{layers.HALO:g}"')
    return svg.replace("<svg ", '<svg shape-rendering="crispEdges" ', 1)


def _chunks(png: bytes) -> dict[bytes, bytes]:
    """Each chunk's data by its kind, every chunk's CRC checked (zlib's)."""
    chunks: dict[bytes, bytes] = {}
    offset = 8
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        kind = png[offset + 4 : offset + 8]
        data = png[offset + 8 : offset + 8 + length]
        assert png[offset + 8 + length : offset + 12 + length] == struct.pack(">I", zlib.crc32(kind + data)), kind
        chunks[kind] = chunks.get(kind, b"") + data
        offset += 12 + length
    return chunks


def _pixels(png: bytes) -> bytes:
    """Every pixel's colour, three bytes a pixel: a palette PNG decoded with the standard library
    (unfiltered rows: what judge.maps.layers writes), an RGB one by libvips."""
    chunks = _chunks(png)
    width, height, _depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    if colour == 3:
        palette = chunks[b"PLTE"].ljust(768, b"\0")
        rows = zlib.decompress(chunks[b"IDAT"])
        assert all(rows[y * (width + 1)] == 0 for y in range(height))
        indices = b"".join(rows[y * (width + 1) + 1 : (y + 1) * (width + 1)] for y in range(height))
        out = bytearray(3 * len(indices))
        for band in range(3):
            out[band::3] = indices.translate(palette[band::3])
        return bytes(out)
    import pyvips  # type: ignore[import-untyped]

    return bytes(pyvips.Image.new_from_buffer(png, "")[:3].write_to_memory())


def _played(variant: str, phases: int, language: str = "en") -> str:
    """The results picture of a seeded random game's phase ``phases`` (1: the first)."""
    import random

    from judge.core.adjudicator import Rules, adjudicate
    from judge.core.random_orders import RandomOrders
    from judge.core.units import Unit

    game_map = load_map(variant)
    position = Position(variant, game_map.first_phase, game_map.opening_units, game_map.starting_centers)
    maker = RandomOrders(game_map, random.Random(1), mischief=0.3)
    options: dict[Unit, tuple[str, ...]] = {}
    for _ in range(phases):
        before = position
        result = adjudicate(position, maker.orders(position, options), Rules(), game_map)
        options, position = dict(result.retreats), result.position
    return render_svg(game_map, before, result, language=language)


CASES = {
    "standard F1902M with orders": lambda: svg_from_contract(POSITION, RESULT),
    "standard F1902M with orders, fr": lambda: svg_from_contract(POSITION, RESULT, language="fr"),
    "world opening": lambda: _opening("world"),
    "youngstown opening": lambda: _opening("youngstown"),
    "chaos opening": lambda: _opening("chaos"),
    "known_world_901 opening": lambda: _opening("known_world_901"),
    # Boards with an inset: its clip and the smaller units of its region on the board, with orders.
    "world F1901M with orders": lambda: _played("world", 2),
    "world F1902M with orders, fr": lambda: _played("world", 5, "fr"),
    "youngstown F1901M with orders": lambda: _played("youngstown", 2),
}


EDGE_PIXELS = 200
"""How many pixels of a picture may differ from the whole SVG drawn: the phase's order lines and
arrowheads are filled here as polygons, each pixel whose centre is inside, and cairo decides a few
pixels on their edges the other way (at most 132 in 80 phases of random Standard games)."""
CLUSTER = 3
"""The most pixels that differ side by side (8-connected): an edge pixel decided the other way stands
alone; a unit, an arrowhead or a line missing or moved is a patch of pixels."""


def _differences(got: bytes, expected: bytes, width: int) -> tuple[int, int]:
    """How many pixels differ, and the largest patch of them side by side."""
    wrong = (
        {n // 3 for n in range(0, len(got), 3) if got[n : n + 3] != expected[n : n + 3]}
        if got != expected
        else set()
    )
    largest, seen = 0, set()
    for start in wrong:
        if start in seen:
            continue
        patch, todo = 0, [start]
        seen.add(start)
        while todo:
            at = todo.pop()
            patch += 1
            x, y = at % width, at // width
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    near = (y + dy) * width + x + dx
                    if 0 <= x + dx < width and near in wrong and near not in seen:
                        seen.add(near)
                        todo.append(near)
        largest = max(largest, patch)
    return len(wrong), largest


def _assert_drawn_as_the_whole_svg(svg: str, layered: bytes) -> None:
    width, _height = png_size(layered)
    count, patch = _differences(_pixels(layered), _pixels(whole_svg_to_png(_crisp(svg))), width)
    assert count <= EDGE_PIXELS and patch <= CLUSTER, f"{count} pixels differ, {patch} side by side"


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_layered_png_is_the_whole_svg_drawn_pixel_for_pixel(case: str) -> None:
    """Pixel for pixel but a bounded number of lone pixels on the order lines' edges (EDGE_PIXELS, CLUSTER)."""
    svg = CASES[case]()
    layered = layers.layered_png(svg, red_band)
    assert layered is not None
    _assert_drawn_as_the_whole_svg(svg, layered)


@pytest.mark.parametrize(
    "planted",
    [
        ("a unit missing", lambda dyn: re.sub(r'<path class="unit"[^>]*/>', "", dyn, count=1)),
        (
            "a unit moved 2 px",
            lambda dyn: re.sub(
                r'(class="unit"[^>]*d="M)(\d+)',
                lambda m: f"{m.group(1)}{int(m.group(2)) + 2}",
                dyn,
                count=1,
            ),
        ),
        ("an arrowhead missing", lambda dyn: dyn.replace(' marker-end="url(#arrow-good)"', "", 1)),
        (
            "an order line moved 2 px",
            lambda dyn: re.sub(
                r'(class="order move[^"]*"[^>]*d="M)(\d+)',
                lambda m: f"{m.group(1)}{int(m.group(2)) + 2}",
                dyn,
                count=1,
            ),
        ),
        ("a support's dashes gone", lambda dyn: dyn.replace(' stroke-dasharray="8 5"', "", 1)),
    ],
    ids=lambda planted: planted[0],
)
def test_a_phase_element_missing_or_misplaced_fails_the_comparison(
    planted: tuple[str, object],
) -> None:
    """The tolerance is no blindfold: the layered picture of a phase part with one element missing
    or moved, compared with the whole SVG drawn as it should be, fails."""
    _name, plant = planted
    svg = svg_from_contract(POSITION, RESULT)
    start, end = svg.index("<!--dyn-->"), svg.rindex("<!--/dyn-->")
    wrong = svg[:start] + plant(svg[start:end]) + svg[end:]  # type: ignore[operator]
    assert wrong != svg
    layered = layers.layered_png(wrong, red_band)
    assert layered is not None
    with pytest.raises(AssertionError):
        _assert_drawn_as_the_whole_svg(svg, layered)


def test_a_board_with_more_centres_and_colours_than_indices_is_a_palette_png_too() -> None:
    """Known World 901's 109 centres and 7 colours of art take 116 of the board's 127 numbers, and
    its phase's part brings 22 colours more: the picture's palette holds each colour once (its 16
    shades, not 109 provinces), the board's numbers translated to it, so it is layered too, under
    150 KB (drawn whole, as RGB, it was 233 KB)."""
    assert len(load_map("known_world_901").supply_centers) > 100
    svg = _opening("known_world_901")
    png = svg_to_png(svg)
    assert _chunks(png)[b"IHDR"][9] == 3
    assert len(png) < MAX_PNG, f"{len(png) / 1024:.0f} KB"
    assert len(re.findall(r'(?<==")#[0-9a-fA-F]{6}(?=")', svg)) > 0
    assert layers._board(*_board_key(svg)).first_free + 20 > 128  # type: ignore[union-attr]  # the numbers alone would not do


def _board_key(svg: str) -> tuple[str, str, tuple[str, ...], object]:
    """The arguments ``judge.maps.layers`` keeps ``svg``'s board under."""
    split = layers._split(svg)
    assert split is not None
    base, over, phase = split
    shading = layers._SHADING.search(phase)
    assert shading is not None
    provinces = sorted(
        p.strip().removeprefix("#p-")
        for selectors, _c in layers._RULE.findall(shading.group(1))
        for p in selectors.split(",")
    )
    return base, over, tuple(provinces), red_band


@pytest.mark.parametrize("variant", available_variants())
def test_every_shipped_variants_opening_is_a_palette_png_under_150_kb(variant: str) -> None:
    svg = _opening(variant)
    png = svg_to_png(svg)
    assert _chunks(png)[b"IHDR"][9] == 3  # palette: drawn from the layers, not whole
    assert png_size(png) == tuple(
        int(float(v)) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', svg).groups()
    )  # type: ignore[union-attr]
    assert len(png) < MAX_PNG, f"{variant}: {len(png) / 1024:.0f} KB"


def test_a_results_map_is_under_150_kb() -> None:
    assert len(svg_to_png(svg_from_contract(POSITION, RESULT))) < MAX_PNG


def test_the_base_is_kept_once_per_board_whatever_the_phase_and_is_bounded() -> None:
    layers._board.cache_clear()
    game_map = load_map("standard")
    opening = Position(
        "standard", game_map.first_phase, game_map.opening_units, game_map.starting_centers
    )
    svg_to_png(render_svg(game_map, opening))
    svg_to_png(svg_from_contract(POSITION, RESULT))  # another phase, another game: the same board
    assert layers._board.cache_info().currsize == 1
    assert layers._board.cache_info().hits == 1
    svg_to_png(
        svg_from_contract(POSITION, RESULT, language="fr")
    )  # French labels: a board of its own
    assert layers._board.cache_info().currsize == 2
    for variant in available_variants():
        svg_to_png(_opening(variant))
    assert layers._board.cache_info().currsize <= layers.KEEP


def test_the_shading_of_each_picture_is_its_own() -> None:
    """Two pictures of the same board in a row: the second's palette is not the first's."""
    game_map = load_map("standard")
    opening = Position(
        "standard", game_map.first_phase, game_map.opening_units, game_map.starting_centers
    )
    first = svg_to_png(render_svg(game_map, opening))
    moved = {**opening.centers, "FRANCE": opening.centers["FRANCE"] | {"SPA"}}
    second = svg_to_png(
        render_svg(game_map, Position("standard", game_map.first_phase, opening.units, moved))
    )
    again = svg_to_png(render_svg(game_map, opening))
    assert first == again != second


def test_threads_drawing_at_once_get_the_pictures_drawn_alone() -> None:
    svgs = [
        svg_from_contract(POSITION, RESULT),
        _opening("standard"),
        svg_from_contract(POSITION, RESULT, language="fr"),
    ]
    alone = [svg_to_png(svg) for svg in svgs]
    layers._board.cache_clear()
    got: dict[int, bytes] = {}

    def draw(n: int) -> None:
        got[n] = svg_to_png(svgs[n % len(svgs)])

    threads = [threading.Thread(target=draw, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [got[n] for n in range(6)] == [alone[n % len(svgs)] for n in range(6)]


def test_an_svg_without_layers_or_with_too_many_colours_is_drawn_whole() -> None:
    plain = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 12 8" width="12" height="8"><rect width="12" height="8" fill="#ff0000"/></svg>'
    assert layers.layered_png(plain, red_band) is None
    assert _chunks(svg_to_png(plain))[b"IHDR"][9] == 2  # RGB: drawn whole
    svg = svg_from_contract(POSITION, RESULT)
    many = "".join(
        f'<rect x="{n % 40}" y="{n // 40}" width="1" height="1" fill="#{n:06x}"/>'
        for n in range(1, 140)
    )
    crowded = svg.replace("<!--dyn-->", f"<!--dyn-->{many}", 1)
    assert layers.layered_png(crowded, red_band) is None
    assert _chunks(svg_to_png(crowded))[b"IHDR"][9] == 2


def test_a_phase_part_drawn_in_a_colour_no_index_says_is_drawn_whole() -> None:
    """A gradient or a colour by name would draw pixels of no index: the picture is drawn whole."""
    svg = svg_from_contract(POSITION, RESULT)
    for extra in (
        '<rect x="100" y="100" width="40" height="40" fill="red"/>',
        '<linearGradient id="g"><stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/>'
        '</linearGradient><rect x="100" y="100" width="40" height="40" fill="url(#g)"/>',
    ):
        odd = svg.replace("<!--dyn-->", f"<!--dyn-->{extra}", 1)
        assert layers.layered_png(odd, red_band) is None
        assert _chunks(svg_to_png(odd))[b"IHDR"][9] == 2
    unread = svg.replace(
        '<style class="shading">', '<style class="shading">#p-PAR{fill:#123456;stroke:#000000}', 1
    )
    assert layers.layered_png(unread, red_band) is None


def test_a_fog_of_war_picture_is_drawn_whole_with_its_dimmed_provinces() -> None:
    game_map = load_map("standard")
    opening = Position(
        "standard", game_map.first_phase, game_map.opening_units, game_map.starting_centers
    )
    svg = render_svg(game_map, opening, seen=frozenset(game_map.provinces) - {"NTH"})
    assert 'class="fog"' in svg
    assert layers.layered_png(svg, red_band) is None
    assert _chunks(svg_to_png(svg))[b"IHDR"][9] == 2


def test_the_palette_png_writer_round_trips() -> None:
    palette = [(0, 0, 0), (255, 0, 0), (0, 128, 255)]
    png = layers.palette_png(3, 2, bytes([0, 1, 2, 2, 1, 0]), palette)
    assert _pixels(png) == b"".join(bytes(palette[i]) for i in (0, 1, 2, 2, 1, 0))
    assert png_size(png) == (3, 2)
    with pytest.raises(ValueError):
        layers.palette_png(3, 2, bytes(5), palette)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_labels_applied_to_each_element_painted_are_the_labels_merged_over_the_whole(language: str) -> None:
    """judge.maps.sprites applies the labels' halo and letters to each element's pixels as it paints
    them on the base with its labels (and keeps them so, at their place): the picture is the phase
    painted on the bare base with the labels then merged over the whole, the first time and when
    painted again from what was kept."""
    svg = svg_from_contract(POSITION, RESULT, language=language)
    board = layers._board(*_board_key(svg))
    assert board is not None
    split = layers._split(svg)
    assert split is not None
    phase = layers._OPACITY.sub("", layers._SHADING.sub("", split[2]))
    colours = dict.fromkeys(layers.rgb("#" + c) for c in layers._ATTRIBUTE_COLOUR.findall(phase))
    index = {f"#{r:02x}{g:02x}{b:02x}": board.first_free + n for n, (r, g, b) in enumerate(colours)}
    width, height = board.width, board.height
    size = width * height
    composed = sprites.compose(
        phase, board.base_bytes, width, height, index, red_band, sprites.Over("bare", b"\xff" * size, bytes(size))
    )
    assert composed is not None and not composed.known  # nothing kept with these bare labels
    bare = composed.indices
    whole = layers._overlay(bare, board.uncovered_bytes, board.paint_bytes, width, height)
    under_labels = sum(
        1 for drawn, base, label in zip(bare, board.base_bytes, board.paint_bytes, strict=True) if drawn != base and label
    )
    assert under_labels > 100  # the phase's lines pass under labels: the labels are applied to them
    labels = sprites.Over(board.key, board.uncovered_bytes, board.paint_bytes)
    for _ in range(2):
        painted = sprites.compose(phase, board.base_over.indices, width, height, index, red_band, labels)
        assert painted is not None
        assert _bands(painted, width, height) == _bands(sprites.Composed(whole, {}, {}), width, height)


def _bands(composed: sprites.Composed, width: int, height: int) -> list[bytes]:
    """Each band's rows of a composed picture: a band kept (not painted) from its deflated bytes."""
    bands = []
    for number, top in enumerate(range(0, height, deflate.BAND)):
        rows = range(top, min(top + deflate.BAND, height))
        kept = composed.known.get(number)
        if kept is None:
            bands.append(b"".join(b"\x00" + composed.indices[y * width : (y + 1) * width] for y in rows))
        else:  # deflated alone (a full flush after it): inflated alone
            bands.append(zlib.decompressobj(-15).decompress(kept.data))
    return bands


def test_a_band_painted_as_in_a_picture_before_is_neither_painted_nor_deflated_again() -> None:
    """The same elements over the same base in the same indices paint the same pixels: a picture's
    band whose recipe was kept is its kept deflated bytes; a band with an element changed is painted
    again. Either way the picture is its elements drawn (the same PNG as drawn with nothing kept)."""
    first, second = (svg_from_contract(POSITION, RESULT, title=title) for title in ("one", "two"))
    sprites._banded.clear()
    alone = layers.layered_png(second, red_band)
    sprites._banded.clear()
    layers.layered_png(first, red_band)
    painted: list[sprites.Composed] = []
    real = sprites.compose

    def noted(*args: object) -> sprites.Composed | None:
        composed = real(*args)  # type: ignore[arg-type]
        assert composed is not None
        painted.append(composed)
        return composed

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sprites, "compose", noted)
        again = layers.layered_png(second, red_band)
    assert again is not None and alone is not None and _pixels(again) == _pixels(alone)
    (composed,) = painted
    assert composed.known and composed.recipes  # the board's bands kept; the title's painted again
    assert 0 in composed.recipes and 0 not in composed.known
    # Without the orders: the bands their lines crossed are painted again, the others kept.
    bare = svg_from_contract(POSITION, None, title="two")
    sprites._banded.clear()
    alone = layers.layered_png(bare, red_band)
    sprites._banded.clear()
    layers.layered_png(second, red_band)
    painted.clear()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sprites, "compose", noted)
        again = layers.layered_png(bare, red_band)
    assert again is not None and alone is not None and _pixels(again) == _pixels(alone)
    (composed,) = painted
    assert len(composed.recipes) > 10 and composed.known


@pytest.mark.parametrize("variant", ["world", "youngstown"])
def test_a_board_with_an_inset_is_composed_without_librsvg_once_its_elements_are_kept(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The inset's clip and the smaller units of its region on the board are read by
    judge.maps.sprites: a picture drawn again asks librsvg for nothing (its board, sprites and
    placements kept), where a whole page of the phase's part would be drawn."""
    import judge.maps.png as png_module

    svg = _played(variant, 2)
    first = layers.layered_png(svg, red_band)
    asked: list[int] = []
    real = png_module._vips

    def counted() -> object:
        asked.append(1)
        return real()

    monkeypatch.setattr(png_module, "_vips", counted)
    assert layers.layered_png(svg, red_band) == first
    assert asked == []


def test_libvips_draws_with_one_thread_the_same_pixels_as_with_its_pool() -> None:
    """judge.maps.vips runs libvips on one thread (its pool cost more CPU than it saved on the small
    pages a picture asks for): a picture drawn whole, and its red band, are the same with four."""
    from judge.maps.vips import vips

    pyvips = vips()
    assert pyvips.concurrency_get() == 1
    svg = _played("world", 2)
    alone = (whole_svg_to_png(svg), red_band(svg))
    pyvips.concurrency_set(4)
    try:
        assert (whole_svg_to_png(svg), red_band(svg)) == alone
    finally:
        pyvips.concurrency_set(1)
