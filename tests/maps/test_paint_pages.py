"""What judge.maps.sprites paints on (issue 28): a page handed back by a picture is painted again by
the next of its size, its old pixels all covered by the base first; the pixels it pastes are
bytearrays (a bytearray's slice assigned from bytes copies them to a new bytearray first); a sprite
wholly inside its box is placed without cutting its runs, as cutting them would place it."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from judge.maps import deflate, layers, sprites
from judge.maps.contract import svg_from_contract
from judge.maps.png import red_band

HERE = Path(__file__).parent
POSITION = json.loads((HERE / "standard_f1902_position.json").read_text())
RESULT = json.loads((HERE / "standard_f1902_result.json").read_text())


def _forget_bands() -> None:
    """No band kept: every band painted on is painted and deflated from the page."""
    sprites._banded.clear()
    deflate._seen.clear()


def test_a_page_handed_back_paints_the_next_picture_as_a_new_page_would() -> None:
    with_orders = svg_from_contract(POSITION, RESULT)
    without = svg_from_contract(POSITION, None)
    sprites._spare.clear()
    _forget_bands()
    alone = layers.layered_png(without, red_band)
    layers.layered_png(with_orders, red_band)  # its page, painted with the orders, handed back
    (page,) = sprites._spare.values()
    _forget_bands()
    again = layers.layered_png(without, red_band)
    assert sprites._spare[len(page)] is page  # painted on again, and handed back again
    assert again is not None and again == alone


def test_a_page_not_handed_back_is_not_painted_on_again() -> None:
    """A composed picture still read (not released) keeps its pixels whatever is composed after."""
    svg = svg_from_contract(POSITION, RESULT)
    split = layers._split(svg)
    assert split is not None
    board = layers._board(split[0], split[1], tuple(sorted(p.removeprefix("#p-") for p in _shaded(split[2]))), red_band)
    assert board is not None
    phase = layers._SHADING.sub("", split[2])
    colours = dict.fromkeys(layers.rgb("#" + c) for c in layers._ATTRIBUTE_COLOUR.findall(phase))
    index = {f"#{r:02x}{g:02x}{b:02x}": board.first_free + n for n, (r, g, b) in enumerate(colours)}
    labels = sprites.Over(board.key, board.uncovered_bytes, board.paint_bytes)
    sprites._spare.clear()
    _forget_bands()
    first = sprites.compose(phase, board.base_over.indices, board.width, board.height, index, red_band, labels)
    assert first is not None
    kept = bytes(first.indices)
    bare = layers._SHADING.sub("", layers._split(svg_from_contract(POSITION, None))[2])  # type: ignore[index]
    second = sprites.compose(bare, board.base_over.indices, board.width, board.height, index, red_band, labels)
    assert second is not None and second.indices is not first.indices
    assert first.indices == kept


def _shaded(phase: str) -> list[str]:
    """The provinces the phase's shading names (the board's centres' indices follow them)."""
    found = layers._SHADING.search(phase)
    assert found is not None
    return [
        selector.strip()
        for selectors, _colour in layers._RULE.findall(found.group(1))
        for selector in selectors.split(",")
    ]


def test_the_pixels_pasted_are_bytearrays() -> None:
    sprites._placed.clear()
    sprites._inked.clear()
    _forget_bands()
    assert layers.layered_png(svg_from_contract(POSITION, RESULT), red_band) is not None
    assert sprites._placed and sprites._inked  # units, centres and legend placed; order lines inked
    for _starts, _ends, codes in (*sprites._placed.values(), *sprites._inked.values()):
        assert all(type(code) is bytearray for code in codes)



def test_a_sprite_inside_its_box_is_placed_as_the_cutting_loop_places_it() -> None:
    """judge.maps.sprites._whole_at_place (no run cut) serves the sprites _inside finds inside their
    box: the same pixels as _at_place's loop, which cuts each run to the box, for boxes whose edges
    pass near each of a picture's sprites (a unit on an inset's frame, cut by its clip)."""
    sprites._memo.clear()
    sprites._groups.clear()
    assert layers.layered_png(svg_from_contract(POSITION, RESULT), red_band) is not None
    found = {step for step in sprites._memo.values() if isinstance(step, sprites.Sprite)}
    assert len(found) > 50
    width = 1200
    over = sprites.Over("bare", b"\xff" * width * 1100, bytes(width * 1100))
    table = bytes(range(256))
    seen = {True: 0, False: 0}
    for sprite in found:
        runs = sprites._sprites[sprite.text]
        # Each edge of the box: a pixel inside its pixels' (cutting them), theirs, or its bounds'.
        left = sprite.dx + min(column for _row, column, _codes in runs)
        right = sprite.dx + max(column + len(codes) for _row, column, codes in runs)
        top, bottom = sprite.dy + runs[0][0], sprite.dy + runs[-1][0] + 1
        x0, y0, x1, y1 = (int(edge) for edge in sprites._bounds(sprite))
        edges = ((left + 1, left, x0), (top + 1, top, y0), (right - 1, right, x1 + 1), (bottom - 1, bottom, y1 + 1))
        for box in itertools.product(*edges):
            if sprites._inside(sprite, box):
                seen[True] += 1
                whole = sprites._whole_at_place(runs, sprite.dx, sprite.dy, width, table, over)
                assert whole == sprites._at_place(runs, sprite.dx, sprite.dy, width, box, table, over)
            else:
                seen[False] += 1
    assert seen[True] and seen[False]
