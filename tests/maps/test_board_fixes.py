"""Issue 28's corrections, each read from the drawing: a unit once, retreats from the unit, no order
apart from an explicit hold, the picture in the reader's language, `judge map --variant`."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from judge.core.adjudicator import Rules, adjudicate
from judge.core.orders import Hold, Move, Retreat
from judge.core.phase import Phase
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, UnitRef, UnitType
from judge.core.variants import available_variants, load_map
from judge.maps.art import load_art
from judge.maps.contract import svg_from_contract
from judge.maps.render import render_svg

HERE = Path(__file__).parent
POSITION = json.loads((HERE / "standard_f1902_position.json").read_text())
RESULT = json.loads((HERE / "standard_f1902_result.json").read_text())
STANDARD = load_map("standard")


def units(svg: str) -> list[dict[str, str]]:
    """The units drawn on the board (not those drawn again in an inset)."""
    board = svg.partition('<g class="inset"')[0]
    return [dict(re.findall(r'([a-z-]+)="([^"]*)"', e)) for e in re.findall(r'<path class="unit(?: [a-z]+)?"[^>]*>', board)]


def test_a_dislodged_unit_is_drawn_once_beside_its_province_in_the_results() -> None:
    svg = svg_from_contract(POSITION, RESULT)
    art = load_art("standard")
    for entry in RESULT["dislodged"]:
        drawn = [u for u in units(svg) if u["data-loc"] == entry["loc"] and u["data-power"] == entry["power"]]
        assert len(drawn) == 1 and drawn[0]["class"] == "unit dislodged"
        x, y = float(drawn[0]["data-x"]), float(drawn[0]["data-y"])
        home = art.where(entry["loc"])
        assert 15 < math.dist((x, y), home) < 60  # beside, not on, its province's anchor
        for option in re.findall(rf'<path class="retreat-option" data-loc="{entry["loc"]}"[^>]*d="M([\d.]+) ([\d.]+)', svg):
            assert math.dist((float(option[0]), float(option[1])), (x, y)) < 1


def test_a_retreat_arrow_starts_from_the_dislodged_unit_not_from_the_unit_now_in_the_province() -> None:
    pushed = Unit("GERMANY", UnitType.ARMY, "MUN")
    position = Position(
        "standard", Phase.parse("F1901R"), (Unit("FRANCE", UnitType.ARMY, "MUN"),), STANDARD.starting_centers,
        dislodged=(DislodgedUnit(pushed, "BUR"),),
    )  # fmt: skip
    result = adjudicate(position, {"GERMANY": [Retreat(UnitRef(UnitType.ARMY, "MUN"), "BOH")]}, Rules(), STANDARD)
    svg = render_svg(STANDARD, position, result)
    (german,) = [u for u in units(svg) if u["data-power"] == "GERMANY"]
    (french,) = [u for u in units(svg) if u["data-power"] == "FRANCE"]
    assert german["class"] == "unit dislodged" and french["class"] == "unit"
    (x1, y1) = (float(v) for v in re.search(r'class="order retreat succeeds"[^>]*d="M([\d.]+) ([\d.]+)', svg).groups())  # type: ignore[union-attr]
    beside = (float(german["data-x"]), float(german["data-y"]))
    holder = (float(french["data-x"]), float(french["data-y"]))
    assert math.dist((x1, y1), beside) <= 13 < math.dist((x1, y1), holder)


def test_a_unit_without_orders_is_not_drawn_as_an_explicit_hold() -> None:
    position = Position("standard", Phase.parse("S1901M"), STANDARD.opening_units, STANDARD.starting_centers)
    result = adjudicate(
        position,
        {"FRANCE": [Hold(UnitRef(UnitType.ARMY, "PAR")), Move(UnitRef(UnitType.FLEET, "BRE"), "MAO")]},
        Rules(), STANDARD,
    )  # fmt: skip
    svg = render_svg(STANDARD, position, result)
    holds = re.findall(r'class="order hold [a-z]+" data-loc="([A-Z/]+)"', svg)
    unordered = re.findall(r'class="order unordered [a-z]+" data-loc="([A-Z/]+)"', svg)
    assert holds == ["PAR"]
    assert set(unordered) == {u.location for u in STANDARD.opening_units} - {"PAR", "BRE"}
    hold = re.search(r'<circle class="order hold[^>]*>', svg).group(0)  # type: ignore[union-attr]
    other = re.search(r'<circle class="order unordered[^>]*>', svg).group(0)  # type: ignore[union-attr]
    assert "stroke-dasharray" in other and "stroke-dasharray" not in hold


def test_the_french_picture_has_french_title_legend_and_abbreviations() -> None:
    english = svg_from_contract(POSITION, RESULT)
    french = svg_from_contract(POSITION, RESULT, language="fr")
    assert 'data-text="Standard Diplomacy: Automne 1902, mouvements (F1902M)"' in french
    for power in STANDARD.powers:
        names = STANDARD.power_names[power]
        count = len(RESULT["centers"].get(power, ()))
        assert f'data-text="{names.french_name} {count}"' in french
        assert f'data-text="{names.name} {count}"' in english
    labels = re.search(r'class="labels" data-labels="([^"]*)" data-codes="([^"]*)"', french).groups()  # type: ignore[union-attr]
    by_code = dict(zip(labels[1].split(), labels[0].split(), strict=True))
    for code, province in STANDARD.provinces.items():
        assert by_code[code] == (province.french_abbreviation or code).upper()
    assert by_code["ENG"] == "MAN" and by_code["NTH"] == "NRD"


@pytest.mark.parametrize("variant", available_variants())
def test_judge_map_draws_a_variants_opening_without_a_position_file(
    variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from judge.app.game_state.boards import opening_position
    from judge.cli import main

    out = tmp_path / "opening.svg"
    assert main(["map", "--variant", variant, "-o", str(out)]) == 0, capsys.readouterr().err
    svg = out.read_text()
    opening = opening_position(load_map(variant))
    assert f'data-phase="{opening.phase}"' in svg
    drawn = sorted((u["data-power"], u["data-unit"], u["data-loc"]) for u in units(svg))
    assert drawn == sorted((u.power, u.type.value, u.location) for u in opening.units)
    if variant == "standard":
        assert main(["map", "--variant", variant, "--phase", "F1901M", "-o", str(out)]) == 1
        assert "the opening of standard is S1901M" in capsys.readouterr().err
        assert main(["map", "-o", str(out)]) == 2
