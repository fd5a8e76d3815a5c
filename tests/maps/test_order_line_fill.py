"""An order line's dashes filled row by row (judge.maps.sprites._segment) are the pixels of each dash's
quadrilateral filled on its own as a polygon (judge.maps.sprites._polygon, each pixel whose centre is
inside), in every direction, dashed or whole, cut to a clip; none where a dash's gap is."""

from __future__ import annotations

import itertools
import math

import pytest

from judge.maps.sprites import Line, _line, _polygon

WIDTH, HEIGHT = 400, 300
PAGE = (0, 0, WIDTH, HEIGHT)


def _pixels(spans: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> set[int]:
    return {at for start, end in spans for at in range(start, end)}


def _dash_by_dash(x1: float, y1: float, x2: float, y2: float, half: float, dash: tuple[float, ...], box: tuple[int, int, int, int]) -> set[int]:
    """Each dash a quadrilateral (its ends moved half the stroke either side), filled alone."""
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = -uy * half, ux * half
    pieces, at, k = [], 0.0, 0
    while at < length:
        end = min(at + (dash[k % len(dash)] if dash else length), length)
        if k % 2 == 0:
            pieces.append((at, end))
        at, k = end, k + 1
    spans: list[tuple[int, int]] = []
    for a, b in pieces:
        sx, sy, ex, ey = x1 + ux * a, y1 + uy * a, x1 + ux * b, y1 + uy * b
        _polygon(spans, WIDTH, box, [(sx + nx, sy + ny), (ex + nx, ey + ny), (ex - nx, ey - ny), (sx - nx, sy - ny)])
    return _pixels(spans)


# Ends off the pixels' centres and grid (no dash end or edge exactly on a centre, where either way is cairo's).
SEGMENTS = {
    "horizontal": (20.3, 100.2, 371.7, 100.2),
    "horizontal, leftwards": (371.7, 100.2, 20.3, 100.2),
    "vertical": (200.2, 10.3, 200.2, 281.9),
    "vertical, upwards": (200.2, 281.9, 200.2, 10.3),
    "shallow": (12.1, 40.7, 388.3, 77.9),
    "steep": (150.6, 290.1, 181.4, 12.3),
    "diagonal": (30.7, 20.9, 290.2, 270.6),
    "diagonal, up and left": (290.2, 270.6, 30.7, 20.9),
    "off the page": (-40.3, -20.6, 430.8, 320.1),
}


@pytest.mark.parametrize("dash", [(), (8.0, 5.0), (2.0, 5.0)], ids=["whole", "support", "convoy"])
@pytest.mark.parametrize("name", sorted(SEGMENTS))
@pytest.mark.parametrize("box", [PAGE, (50, 30, 260, 200)], ids=["page", "clip"])
def test_a_segment_filled_row_by_row_is_its_dashes_filled_one_by_one(
    name: str, dash: tuple[float, ...], box: tuple[int, int, int, int]
) -> None:
    x1, y1, x2, y2 = SEGMENTS[name]
    body, head = _line(Line(f"M{x1} {y1}L{x2} {y2}", 0.0, 0.0, 3.0, dash, "#000000", ""), WIDTH, box, False)
    expected = _dash_by_dash(x1, y1, x2, y2, 1.5, dash, box)
    assert expected  # the segment crosses the box
    assert _pixels(body) == expected
    assert len(body) == len(set(body)) and head == ()
    left, top, right, bottom = box
    assert all(left <= at % WIDTH < right and top <= at // WIDTH < bottom for at in _pixels(body))


def test_a_dashed_line_leaves_its_gaps_empty() -> None:
    """A support's dashes (8 on, 5 off) along a row: the row's pixels come in runs of 8, 5 apart."""
    body, _head = _line(Line("M10.3 50.2L140.3 50.2", 0.0, 0.0, 3.0, (8.0, 5.0), "#000000", ""), WIDTH, PAGE, False)
    row = sorted(at - 50 * WIDTH for at in _pixels(body) if at // WIDTH == 50)
    runs = [(row[0], row[0])]
    for column in row[1:]:
        runs[-1:] = [(runs[-1][0], column)] if column == runs[-1][1] + 1 else [runs[-1], (column, column)]
    assert [end - start + 1 for start, end in runs] == [8] * 10
    assert all(b[0] - a[1] - 1 == 5 for a, b in itertools.pairwise(runs))


def test_what_a_boards_inset_draws_beyond_its_frame_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """World's inset draws every unit and order of the board again, most beyond its frame: those
    are left out of its SVG (judge.maps.render.REACH) and, were any there, of what is painted (they
    would paint nothing); those inside are painted."""
    from judge.maps import layers, render, sprites
    from tests.maps.test_layered_png import _played

    def framed(svg: str) -> list[tuple[sprites.Line | sprites.Sprite, tuple[int, int, int, int]]]:
        split = layers._split(svg)
        assert split is not None
        monkeypatch.setattr(sprites, "_groups", {})  # each group's steps read again
        steps = sprites._steps(split[2])
        assert steps is not None
        return [(step, clip) for step, clip in steps if clip is not None]

    kept = framed(_played("world", 2))
    assert kept and not any(sprites._outside(step, clip) for step, clip in kept)
    monkeypatch.setattr(sprites, "_outside", lambda step, clip: False)
    near = framed(_played("world", 2))  # what the SVG holds: the frame's and what lies just beyond it
    monkeypatch.setattr(render, "REACH", math.inf)  # every unit and order drawn in the inset again
    every = framed(_played("world", 2))
    assert set(kept) <= set(near) < set(every)
    assert len(near) - len(kept) < 30 and len(every) - len(near) > 100  # the units beyond the frame


@pytest.mark.parametrize(("variant", "seed"), [("world", 1), ("world", 2), ("youngstown", 1)])
def test_an_insets_elements_beyond_its_frame_left_out_change_no_pixel(
    monkeypatch: pytest.MonkeyPatch, variant: str, seed: int
) -> None:
    """The pictures of a random game's phases (orders, crosses, dislodged units, retreats, builds)
    with what lies beyond the inset's frame left out of the SVG are the same PNG, byte for byte, as
    with everything drawn in the inset again, by the layers and by librsvg drawing the whole SVG."""
    import random

    from judge.core.adjudicator import Rules, adjudicate
    from judge.core.position import Position
    from judge.core.random_orders import RandomOrders
    from judge.core.units import Unit
    from judge.core.variants import load_map
    from judge.maps import render
    from judge.maps.png import svg_to_png, whole_svg_to_png

    game_map = load_map(variant)
    position = Position(variant, game_map.first_phase, game_map.opening_units, game_map.starting_centers)
    maker = random.Random(seed)
    orders = RandomOrders(game_map, maker, mischief=0.3)
    options: dict[Unit, tuple[str, ...]] = {}
    reach, left_out = render.REACH, 0
    for phase in range(12):
        result = adjudicate(position, orders.orders(position, options), Rules(), game_map)
        monkeypatch.setattr(render, "REACH", math.inf)
        every = render.render_svg(game_map, position, result)
        monkeypatch.setattr(render, "REACH", reach)
        framed = render.render_svg(game_map, position, result)
        left_out += every.count("<") - framed.count("<")
        assert svg_to_png(framed) == svg_to_png(every), phase
        if phase in (2, 9):
            assert whole_svg_to_png(framed) == whole_svg_to_png(every), phase
        options, position = dict(result.retreats), result.position
    assert left_out > 12 * 20  # elements were left out in every phase


def test_the_pixels_kept_to_paint_are_nothing_the_garbage_collector_walks() -> None:
    """What a picture keeps to paint again (its elements' and lines' pixels at their places: tens of
    thousands in a crowded picture) is numbers and bytes: once looked at, the collector leaves it
    alone (a slice object kept there is walked by every full collection, all of them)."""
    import gc

    from judge.maps import sprites
    from judge.maps.png import svg_to_png
    from tests.maps.test_layered_png import _played

    sprites._banded.clear()  # no band kept from a test before: every band of the picture painted
    svg_to_png(_played("world", 2))
    kept = [*sprites._placed.values(), *sprites._inked.values()]
    assert sum(len(starts) for starts, _ends, _codes in kept) > 1000
    gc.collect()
    gc.collect()
    assert [painted for painted in kept if gc.is_tracked(painted)] == []


def test_a_path_is_moved_to_near_the_origin_by_whole_pixels_in_one_pass() -> None:
    """Its absolute numbers less the move, its relative ones as written, the extent of its points
    (a subpath closed goes back to its start); a curve, or a move across pixels, is not moved."""
    from judge.maps.sprites import _moved_path

    moved = _moved_path("M261.9 675.5h18v14h-18z M267.4 689.5v-10l0.125,2 H270 V680", 0.0, 44.0)
    assert moved is not None
    assert moved[:3] == ("M0.9 0.5h18v14h-18zM6.4 14.5v-10l0.125 2H9.000V5.000", 261, 719)
    assert moved[3] == pytest.approx((0.9, 0.5, 18.9, 14.5))
    assert _moved_path("M10 10 C 20 20 30 30 40 40", 0.0, 0.0) is None
    assert _moved_path("M10 10 L 20 20", 0.5, 0.0) is None
