"""A Renaissance phase's orders on its results map (issues 28 and 33), drawn by the plain variants'
path (:func:`judge.maps.render.render_svg`) from what the Renaissance layer hands it
(:func:`judge.maps.machiavelli_layer.season_drawing`): moves, supports, an explicit hold beside a
unit without orders, a siege's besieger, dislodged units with their retreats. Each arrow is found in
the drawing's data and in its pixels (the picture with the orders and without them differ on the
arrow's line); the app's ruling keeps the drawing and the results' picture draws it."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from types import MappingProxyType

from judge.core.machiavelli.board import load_board
from judge.core.machiavelli.campaign import opening_position
from judge.core.machiavelli.orders import Besiege
from judge.core.machiavelli.season import SeasonOrder, play_phase
from judge.core.machiavelli.serialization import position_to_json
from judge.core.orders import Hold, Move, SupportMove
from judge.core.units import Unit, UnitRef, UnitType
from judge.maps.layout import board_art
from judge.maps.machiavelli_layer import (
    drawing_to_json,
    render_machiavelli_svg,
    scenario_svg,
    season_drawing,
)
from judge.maps.png import png_size, svg_to_png
from judge.maps.render import OrdersDrawn
from tests.maps.test_layered_png import _pixels

BOARD = load_board()
OPENING = opening_position(BOARD)
_ARMY = UnitType.ARMY
BESIEGER = Unit("FLORENCE", _ARMY, "SIE")
SPRING = replace(OPENING, units=(*OPENING.units, BESIEGER))
ORDERS: dict[str, list[SeasonOrder]] = {
    "MILAN": [
        Move(UnitRef(_ARMY, "MIL"), "COM"),
        SupportMove(UnitRef(_ARMY, "PAV"), UnitRef(_ARMY, "MIL"), "COM"),
        Hold(UnitRef(_ARMY, "CRE")),
    ],
    "FLORENCE": [Besiege(UnitRef(_ARMY, "SIE")), Hold(UnitRef(_ARMY, "FLO"))],
}


def _played() -> tuple[str, str]:
    """The spring's picture with its orders, and the same board without them."""
    result = play_phase(BOARD, SPRING, ORDERS, seed=1)
    drawn = season_drawing(result)
    with_orders = render_machiavelli_svg(BOARD, SPRING, orders=drawn, after=result.position)
    without = render_machiavelli_svg(BOARD, SPRING, orders=OrdersDrawn(), after=result.position)
    return with_orders, without


def test_a_campaign_s_orders_are_drawn_as_the_plain_variants_draw_them() -> None:
    svg, bare = _played()
    assert 'class="order move succeeds" data-from="MIL" data-to="COM"' in svg
    assert svg.count('class="order support-move succeeds"') == 1
    holds = set(re.findall(r'class="order hold succeeds" data-loc="(\w+)"', svg))
    assert holds == {"CRE", "FLO", "SIE"}  # BESIEGE reads as the besieger's hold, beside the siege's ring
    assert 'class="siege" data-province="SIE"' in svg
    unordered = set(re.findall(r'class="order unordered [a-z]+" data-loc="(\w+)"', svg))
    assert "ARE" in unordered and not unordered & holds  # no order: the grey ring, never a hold's
    assert 'class="order ' not in bare


def test_a_move_s_arrow_is_in_the_pixels_where_it_goes() -> None:
    """The check can fail: without the orders, the pixels on the line from Milan to Como are the
    board's; with them, the arrow is there."""
    svg, bare = _played()
    one, two = svg_to_png(svg), svg_to_png(bare)
    width = png_size(one)[0]
    first, second = _pixels(one), _pixels(two)
    assert len(first) == len(second)
    art = board_art("machiavelli")
    (x1, y1), (x2, y2) = art.where("MIL"), art.where("COM")
    top = re.search(r'class="board" transform="translate\(0 ([\d.]+)\)"', svg)
    assert top is not None
    band = float(top.group(1))
    on_line = 0
    for step in range(30, 71, 5):  # the middle of the line, clear of both units
        x = round(x1 + (x2 - x1) * step / 100)
        y = round(y1 + (y2 - y1) * step / 100 + band)
        near = [3 * ((x + dx) + (y + dy) * width) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        on_line += any(first[i : i + 3] != second[i : i + 3] for i in near)
    assert on_line >= 7, on_line


def test_the_ruling_keeps_the_drawing_and_the_results_picture_draws_it() -> None:
    """What the judge keeps of a processed phase (its position before and after, the drawing in the
    contract's JSON) draws the same orders, titled with the phase played."""
    result = play_phase(BOARD, SPRING, ORDERS, seed=1)
    kept = json.loads(json.dumps(drawing_to_json(season_drawing(result))))
    before = json.loads(json.dumps(position_to_json(SPRING)))
    after = json.loads(json.dumps(position_to_json(result.position)))
    svg = scenario_svg("machiavelli", after, game_name="mach", before=before, drawing=kept)
    direct, _bare = _played()
    assert 'data-text="mach: Spring 1454, campaign (S1454M)"' in svg
    orders = re.findall(r'<(?:path|circle) class="order [^>]*>', svg)
    assert orders and orders == re.findall(r'<(?:path|circle) class="order [^>]*>', direct)
    assert 'class="order ' not in scenario_svg("machiavelli", after, game_name="mach")  # the board as it stands


def test_a_renaissance_ruling_keeps_its_orders_drawing() -> None:
    from judge.app.machiavelli.phase_ruling import rule_renaissance_phase
    from judge.db.models import Game

    game = Game(id=7, name="mach", variant="machiavelli", extra_settings={})
    spring = position_to_json(SPRING)
    ruling = rule_renaissance_phase(game, spring, {"MILAN": ["A MIL - COM", "A PAV S A MIL - COM"]}, dict)
    assert ruling.results is not None
    drawing = ruling.results["drawing"]
    moves = [entry for entry in drawing["results"] if entry["order"] == "A MIL - COM"]
    assert [m["outcome"] for m in moves] == ["succeeds"] and moves[0]["order_value"] is not None
    svg = scenario_svg("machiavelli", ruling.position_after, game_name="mach", before=spring, drawing=drawing)
    assert 'class="order move succeeds" data-from="MIL" data-to="COM"' in svg


def test_the_campaign_that_takes_a_city_keeps_its_siege_ring() -> None:
    """A second BESIEGE ends the garrison: the campaign's picture still rings the city it took (the
    board after has no siege there any more); the next phase's board does not."""
    second = replace(SPRING, sieges=MappingProxyType({"SIE": BESIEGER}))
    result = play_phase(BOARD, second, ORDERS, seed=1)
    assert "SIE" not in result.position.garrisons and "SIE" not in result.position.sieges
    svg = render_machiavelli_svg(BOARD, second, orders=season_drawing(result), after=result.position)
    assert 'class="siege" data-province="SIE"' in svg
    assert 'class="siege" data-province="SIE"' not in render_machiavelli_svg(BOARD, result.position)


def test_the_layered_picture_with_orders_is_the_whole_svg_drawn() -> None:
    """The palette PNG composed over the kept board draws the orders as the whole SVG drawn does."""
    from judge.maps import layers
    from judge.maps.png import red_band
    from tests.maps.test_layered_png import _assert_drawn_as_the_whole_svg

    svg, _bare = _played()
    layered = layers.layered_png(svg, red_band)
    assert layered is not None
    _assert_drawn_as_the_whole_svg(svg, layered)
