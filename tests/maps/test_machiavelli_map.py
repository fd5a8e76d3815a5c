"""The Renaissance game's board drawn (issue 33, judge.maps.machiavelli_layer): garrisons in their
cities, distinct from field units; sieges; rebellions and famine; provinces shaded by who controls
them; the title and key in the reader's language. Each mark is found in the picture's pixels: the
board drawn with it and without it differ where it stands, and only there."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest

from judge.core.machiavelli.board import AUTONOMOUS, Control, load_board
from judge.core.machiavelli.campaign import MachiavelliPosition, opening_position
from judge.core.machiavelli.treasury import Rebellion, Unrest
from judge.core.phase import Phase
from judge.core.units import Unit, UnitType
from judge.maps.art import has_art, load_art
from judge.maps.layout import Box
from judge.maps.machiavelli_layer import badge_box, city_point, garrison_box, render_machiavelli_svg
from judge.maps.png import png_size, svg_to_png
from judge.maps.render import power_colours, territory_colour
from tests.maps.test_layered_png import _pixels

BOARD = load_board()
OPENING = opening_position(BOARD)


def _picture(position: MachiavelliPosition) -> tuple[bytes, int]:
    png = svg_to_png(render_machiavelli_svg(BOARD, position))
    return _pixels(png), png_size(png)[0]


def _changed(first: MachiavelliPosition, second: MachiavelliPosition) -> list[tuple[int, int]]:
    """The board's pixels (title band left out) that differ between the two pictures."""
    one, width = _picture(first)
    two, _ = _picture(second)
    assert len(one) == len(two)
    found = []
    for index in range(0, len(one), 3):
        if one[index : index + 3] != two[index : index + 3]:
            found.append(((index // 3) % width, (index // 3) // width))
    return found


def _board_box(box: Box) -> Box:
    """A box of the board's coordinates in the picture's (the board is drawn under a 44 px title band)."""
    return Box(box.left, box.top + 44, box.right, box.bottom + 44)


def _mark(svg: str, kind: str, province: str) -> tuple[float, float]:
    found = re.search(rf'class="{kind}" data-province="{province}"[^>]*data-x="([\d.]+)" data-y="([\d.]+)"', svg)
    assert found, f"no {kind} mark for {province}"
    return float(found.group(1)), float(found.group(2))


def _only_inside(changed: list[tuple[int, int]], box: Box, least: int = 30) -> None:
    inside = [p for p in changed if box.grown(1).contains(p)]
    outside = [p for p in changed if not box.grown(1).contains(p)]
    assert len(inside) >= least, f"only {len(inside)} pixels changed where the mark stands"
    assert outside == [], f"{len(outside)} pixels changed elsewhere, e.g. {outside[:5]}"


def test_the_renaissance_board_has_art_and_its_mails_can_carry_a_map() -> None:
    assert has_art("machiavelli")
    assert set(load_art("machiavelli").provinces) == set(BOARD.game_map.provinces)


def test_a_garrison_is_drawn_as_a_tower_in_its_city_and_only_there() -> None:
    without = replace(OPENING, garrisons=MappingProxyType({c: o for c, o in OPENING.garrisons.items() if c != "GEN"}))
    point = city_point("machiavelli", "GEN")
    assert point is not None
    _only_inside(_changed(without, OPENING), _board_box(garrison_box(point)))


def test_the_openings_garrisons_are_towers_in_their_owners_colours_not_field_units() -> None:
    svg = render_machiavelli_svg(BOARD, OPENING)
    towers = dict(re.findall(r'class="garrison" data-province="(\w+)" data-power="(\w+)"', svg))
    assert towers == dict(BOARD.garrisons)
    assert 'data-province="VEN" data-power="VENICE"' in svg
    venice = power_colours(BOARD.game_map)["VENICE"]
    assert re.search(rf'class="garrison" data-province="VEN"[^>]*fill="{venice}"', svg)
    assert re.search(r'class="garrison" data-province="SIE" data-power="AUTONOMOUS" data-autonomous="yes"[^>]*fill="#ffffff"', svg)
    # The field units are the scenario's armies and fleets, drawn as on every board.
    assert len(re.findall(r'<path class="unit"', svg)) == len(OPENING.units)
    for city, _owner in BOARD.garrisons.items():
        assert _mark(svg, "garrison", city) == city_point("machiavelli", city)


def test_a_siege_is_a_ring_round_the_besieged_city() -> None:
    army = Unit("FLORENCE", UnitType.ARMY, "SIE")
    field = replace(OPENING, units=(*OPENING.units, army))
    besieged = replace(field, sieges=MappingProxyType({"SIE": army}))
    point = city_point("machiavelli", "SIE")
    assert point is not None
    ring = Box(point[0] - 13, point[1] - 13, point[0] + 13, point[1] + 13)
    _only_inside(_changed(field, besieged), _board_box(ring))
    assert re.search(r'class="siege" data-province="SIE" data-power="FLORENCE"', render_machiavelli_svg(BOARD, besieged))


def test_a_rebellion_is_a_badge_beside_its_province_and_one_beside_its_city() -> None:
    rebels = replace(OPENING, unrest=Unrest(MappingProxyType({"ARE": Rebellion("FLORENCE", city=True)})))
    svg = render_machiavelli_svg(BOARD, rebels)
    province = _mark(svg, "rebellion", "ARE")
    assert 'data-where="province" data-against="FLORENCE"' in svg and 'data-where="city" data-against="FLORENCE"' in svg
    city = re.search(r'class="rebellion" data-province="ARE" data-where="city"[^>]*data-x="([\d.]+)" data-y="([\d.]+)"', svg)
    assert city is not None
    city_at = (float(city.group(1)), float(city.group(2)))
    changed = _changed(OPENING, rebels)
    boxes = [_board_box(badge_box(province)), _board_box(badge_box(city_at))]
    assert all(any(b.grown(1).contains(p) for b in boxes) for p in changed)
    assert all(sum(1 for p in changed if b.contains(p)) >= 30 for b in boxes)


def test_famine_is_a_badge_beside_its_province() -> None:
    starving = replace(OPENING, unrest=Unrest(famine=frozenset({"MIL"})))
    svg = render_machiavelli_svg(BOARD, starving)
    _only_inside(_changed(OPENING, starving), _board_box(badge_box(_mark(svg, "famine", "MIL"))))


def test_provinces_are_shaded_by_who_controls_them_and_the_legend_counts_cities() -> None:
    control = Control(MappingProxyType({**OPENING.control.provinces, "SIE": "FLORENCE"}), OPENING.control.cities)
    position = replace(OPENING, control=control)
    svg = render_machiavelli_svg(BOARD, position)
    style = re.search(r'<style class="shading">(.*?)</style>', svg)
    assert style is not None
    florence = territory_colour(power_colours(BOARD.game_map)["FLORENCE"])
    rule = next(r for r in style.group(1).split("}") if florence in r)
    assert "#p-SIE" in rule and "#p-FLO" in rule and "#p-ARE" in rule
    # An autonomous garrison's province in the neutral shade, a sea never shaded.
    assert OPENING.control.provinces.get("GEN") == AUTONOMOUS
    assert "#p-GEN" in style.group(1) and "#p-ETS" not in style.group(1)
    cities = sum(1 for owner in OPENING.control.cities.values() if owner == "FLORENCE")
    assert re.search(rf'data-text="Florence {cities}"', svg)


def test_the_title_and_key_follow_the_readers_language() -> None:
    summer = replace(OPENING, phase=Phase.parse("U1454M"))
    english = render_machiavelli_svg(BOARD, summer, language="en")
    french = render_machiavelli_svg(BOARD, summer, language="fr")
    assert 'data-text="Machiavelli: Summer 1454, campaign (U1454M)"' in english
    assert 'data-text="Machiavelli: Été 1454, campagne (U1454M)"' in french
    for text in ("Garrison", "Siege", "Rebellion", "Famine"):
        assert f'class="key-text" data-text="{text}"' in english
    for text in ("Garnison", "Siège", "Révolte", "Famine"):
        assert f'class="key-text" data-text="{text}"' in french
    assert re.search(r'data-text="Venise \d+"', french)


def test_the_picture_is_a_palette_png_drawn_from_the_layers_under_150_kb() -> None:
    png = svg_to_png(render_machiavelli_svg(BOARD, OPENING))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 150 * 1024
    assert png[25] == 3  # a palette PNG: the board kept once, each picture composed over it (judge.maps.layers)


def test_a_kept_renaissance_position_is_drawn_its_own_way_and_an_ordinary_one_is_left_to_the_board() -> None:
    from judge.app.machiavelli.stored_phase import opening_json
    from judge.maps.machiavelli_layer import has_a_board_of_its_own, scenario_svg

    kept = opening_json(BOARD)
    svg = scenario_svg("Machiavelli", kept, game_name="mach", language="fr")
    assert svg is not None and 'data-text="mach: Hiver 1453, ajustements (W1453A)"' in svg
    assert svg.count('class="garrison"') == len(BOARD.garrisons)
    assert has_a_board_of_its_own("Machiavelli") and not has_a_board_of_its_own("standard")


def test_the_layered_picture_is_the_whole_svg_drawn_with_every_mark() -> None:
    """The palette PNG composed over the kept board is the whole SVG drawn, pixel for pixel (but the
    lone edge pixels tests/maps/test_layered_png.py allows), with a garrison, a siege, rebels and famine."""
    from judge.maps import layers
    from judge.maps.png import red_band
    from tests.maps.test_layered_png import _assert_drawn_as_the_whole_svg

    army = Unit("FLORENCE", UnitType.ARMY, "SIE")
    busy = replace(
        OPENING,
        units=(*OPENING.units, army),
        sieges=MappingProxyType({"SIE": army}),
        unrest=Unrest(MappingProxyType({"ARE": Rebellion("FLORENCE", city=True)}), frozenset({"MIL"})),
    )
    svg = render_machiavelli_svg(BOARD, busy)
    layered = layers.layered_png(svg, red_band)
    assert layered is not None
    _assert_drawn_as_the_whole_svg(svg, layered)


def test_judge_map_draws_the_renaissance_opening_with_its_garrisons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from judge.cli import main

    out = tmp_path / "opening.svg"
    assert main(["map", "--variant", "machiavelli", "--language", "fr", "-o", str(out)]) == 0, capsys.readouterr().err
    svg = out.read_text()
    assert 'data-phase="W1453A"' in svg and 'data-text="Machiavelli: Hiver 1453, ajustements (W1453A)"' in svg
    assert svg.count('class="garrison"') == len(BOARD.garrisons)
    assert main(["map", "--variant", "machiavelli", "--phase", "S1454M", "-o", str(out)]) == 1
    assert "the opening of machiavelli is W1453A" in capsys.readouterr().err


def test_each_reader_of_a_renaissance_phase_gets_the_map_in_his_own_language() -> None:
    """The ruling hands processing each reader's language, which the results letter's map is drawn in."""
    from judge.app.audience.results_readers import ResultsReader
    from judge.app.machiavelli.phase_ruling import rule_renaissance_phase
    from judge.app.machiavelli.stored_phase import opening_json
    from judge.db.models import Game

    game = Game(id=7, name="mach", variant="machiavelli", extra_settings={})
    readers = {
        "fr@example.org": ResultsReader("fr", "", power="FRANCE"),
        "en@example.org": ResultsReader("en", "", power="MILAN"),
        "master@example.org": ResultsReader("fr", "", master=True),
    }
    ruling = rule_renaissance_phase(game, opening_json(BOARD), {}, lambda: readers)
    assert dict(ruling.languages) == {address: reader.language for address, reader in readers.items()}
    assert set(ruling.mails) == set(readers)
