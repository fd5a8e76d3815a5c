"""The board as a picture (issue 16): every unit, centre, order and result drawn where and as it should be."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from judge.core.adjudicator import Rules, adjudicate
from judge.core.phase import Phase, PhaseType
from judge.core.position import DislodgedUnit, Position
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.units import Unit, UnitType
from judge.core.variants import available_variants, load_map
from judge.maps.art import load_art
from judge.maps.contract import svg_from_contract
from judge.maps.png import png_size, svg_to_png
from judge.maps.render import power_colours, render_svg

HERE = Path(__file__).parent
POSITION = json.loads((HERE / "standard_f1902_position.json").read_text())
RESULT = json.loads((HERE / "standard_f1902_result.json").read_text())
STANDARD = load_map("standard")
COLOURS = power_colours(STANDARD)


def _elements(svg: str, css: str) -> list[str]:
    return re.findall(rf'<[a-z]+ class="{css}"[^>]*>', svg)


def _attr(element: str, name: str) -> str:
    match = re.search(rf'{name}="([^"]*)"', element)
    assert match, f"{name} missing in {element}"
    return match.group(1)


def test_every_unit_is_drawn_at_its_place_in_its_power_colour() -> None:
    svg = svg_from_contract(POSITION)
    art = load_art("standard")
    units = _elements(svg, "unit")
    assert len(units) == len(POSITION["units"])
    for given in POSITION["units"]:
        drawn = next(u for u in units if _attr(u, "data-loc") == given["loc"])
        assert _attr(drawn, "data-power") == given["power"]
        assert _attr(drawn, "data-unit") == given["type"]
        assert _attr(drawn, "fill") == COLOURS[given["power"]]
        x, y = art.where(given["loc"])
        assert f"{x - 9:.1f} {y - 7:.1f}" in drawn or f"{x - 12:.1f} {y - 1:.1f}" in drawn


def test_centres_take_their_owners_colour_and_neutral_ones_stay_white() -> None:
    svg = svg_from_contract(POSITION)
    centres = {_attr(c, "data-province"): c for c in _elements(svg, "centre")}
    assert set(centres) == set(STANDARD.supply_centers)
    for power, owned in POSITION["centers"].items():
        for code in owned:
            assert _attr(centres[code], "fill") == COLOURS[power]
    assert _attr(centres["RUM"], "fill") == "#ffffff"


def test_the_legend_lists_each_power_with_its_colour_and_centre_count() -> None:
    svg = svg_from_contract(POSITION)
    for power in STANDARD.powers:
        assert f'data-power="{power}" x=' in svg
        count = len(POSITION["centers"].get(power, ()))
        assert f'data-text="{STANDARD.power_names[power].name} {count}"' in svg
    assert 'data-text="Standard Diplomacy: Fall 1902, movement (F1902M)"' in svg


def test_each_kind_of_order_and_result_is_drawn_apart() -> None:
    svg = svg_from_contract(POSITION, RESULT)
    kinds = {(m.group(1), m.group(2)) for m in re.finditer(r'class="order ([a-z -]+?) (succeeds|fails|invalid)"', svg)}
    assert ("move", "succeeds") in kinds  # F MAO - POR
    assert ("move", "fails") in kinds  # A BUR - MUN bounces
    assert ("support-move", "succeeds") in kinds
    assert ("support-hold", "fails") in kinds  # F NWG S F NTH, which moved
    assert ("convoy", "succeeds") in kinds or ("convoy", "fails") in kinds
    assert ("hold", "succeeds") in kinds or ("hold", "fails") in kinds
    supports = _elements(svg, "order support-move succeeds")
    assert all('stroke-dasharray="8 5"' in s for s in supports)
    assert all('stroke-dasharray="2 5"' in c for c in re.findall(r'<path class="order convoy [^>]*>', svg))
    failed = re.findall(r'<path class="order [a-z -]+ fails"[^>]*>', svg)
    assert failed and all('stroke="#d62020"' in f for f in failed)
    assert len(re.findall(r'class="cross fails"', svg)) == len(failed)


def test_dislodged_units_stand_beside_their_province_with_their_retreats() -> None:
    svg = svg_from_contract(POSITION, RESULT)
    assert RESULT["dislodged"], "the fixture dislodges someone"
    for entry in RESULT["dislodged"]:
        drawn = [u for u in _elements(svg, "unit dislodged") if _attr(u, "data-loc") == entry["loc"]]
        assert len(drawn) == 1 and _attr(drawn[0], "data-power") == entry["power"]
        options = {_attr(o, "data-to") for o in re.findall(rf'<path class="retreat-option" data-loc="{entry["loc"]}"[^>]*>', svg)}
        assert options == set(entry["retreats"])


def test_a_retreat_and_adjustment_phase_draw_retreats_disbands_builds_and_removals() -> None:
    game_map = STANDARD
    pushed = Unit("GERMANY", UnitType.ARMY, "MUN")
    retreat_phase = Position(
        "standard", Phase.parse("F1901R"),
        (Unit("FRANCE", UnitType.ARMY, "MUN"), Unit("ENGLAND", UnitType.FLEET, "NTH")),
        game_map.starting_centers,
        dislodged=(DislodgedUnit(pushed, "BUR"), DislodgedUnit(Unit("ENGLAND", UnitType.FLEET, "EDI"), "NWG")),
    )  # fmt: skip
    from judge.core.orders import Build, Disband, Remove, Retreat, Waive
    from judge.core.units import UnitRef

    result = adjudicate(
        retreat_phase,
        {"GERMANY": [Retreat(UnitRef(UnitType.ARMY, "MUN"), "BOH")], "ENGLAND": [Disband(UnitRef(UnitType.FLEET, "EDI"))]},
        Rules(), game_map,
    )  # fmt: skip
    svg = render_svg("standard", retreat_phase, result)
    assert re.search(r'class="order retreat succeeds"', svg)
    assert re.search(r'class="order disband succeeds"', svg)
    assert len(_elements(svg, "unit dislodged")) == 2
    winter = Position("standard", Phase.parse("W1901A"), (Unit("FRANCE", UnitType.ARMY, "BUR"), Unit("FRANCE", UnitType.ARMY, "PIC"),
                      Unit("ENGLAND", UnitType.FLEET, "NTH")),
                      {"FRANCE": frozenset({"PAR", "MAR", "BRE"}), "ENGLAND": frozenset()})  # fmt: skip
    result = adjudicate(
        winter,
        {"FRANCE": [Build(UnitType.FLEET, "BRE"), Waive()], "ENGLAND": [Remove(UnitRef(UnitType.FLEET, "NTH"))]},
        Rules(), game_map,
    )  # fmt: skip
    svg = render_svg("standard", winter, result)
    built = [u for u in _elements(svg, "unit built")]
    assert len(built) == 1 and _attr(built[0], "data-loc") == "BRE" and _attr(built[0], "fill") == COLOURS["FRANCE"]
    assert re.search(r'class="order build succeeds" data-power="FRANCE"', svg)
    assert re.search(r'class="order remove succeeds"', svg)


def test_the_png_has_the_svg_size() -> None:
    svg = svg_from_contract(POSITION, RESULT)
    width, height = (int(float(v)) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())  # type: ignore[union-attr]
    png = svg_to_png(svg)
    assert png_size(png) == (width, height)
    # Decoded with the standard library: every chunk's CRC holds, the pixels inflate to one
    # filter byte and width pixels per row (8-bit RGBA, colour type 6, RGB, type 2, or palette
    # indices, type 3: the layered drawing's, judge.maps.layers).
    import struct
    import zlib

    offset, idat, colour = 8, b"", None
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        kind, data = png[offset + 4 : offset + 8], png[offset + 8 : offset + 8 + length]
        assert struct.unpack(">I", png[offset + 8 + length : offset + 12 + length])[0] == zlib.crc32(kind + data)
        if kind == b"IHDR":
            colour = data[9]
        if kind == b"IDAT":
            idat += data
        offset += 12 + length
    channels = {6: 4, 2: 3, 3: 1}[colour]  # type: ignore[index]
    assert len(zlib.decompress(idat)) == height * (1 + width * channels)
    with pytest.raises(ValueError):
        png_size(b"GIF89a" + png[6:])


@pytest.mark.parametrize("variant", available_variants())
def test_every_phase_of_a_random_game_renders(variant: str) -> None:
    game_map = load_map(variant)
    maker = RandomOrders(game_map, random.Random(16), mischief=0.3)
    position = opening_position(game_map)
    options: dict[Unit, tuple[str, ...]] = {}
    rendered = 0
    for _ in range(24):
        orders = maker.orders(position, options)
        result = adjudicate(position, orders, Rules(), game_map)
        svg = render_svg(game_map, position, result).partition('<g class="inset"')[0]  # the board, not its inset
        # Every unit once: a unit dislodged this phase beside its province, never also in it.
        away = len(result.dislodged) if position.phase.type is PhaseType.MOVEMENT else 0
        assert svg.count('class="unit"') == len(position.units) - away
        assert svg.count('class="unit dislodged"') == away + len(position.dislodged)
        rendered += 1
        options = dict(result.retreats)
        position = result.position
        if result.winner:
            break
    assert rendered >= 10


def test_judge_map_on_the_command_line_writes_png_and_svg(tmp_path: Path) -> None:
    position = tmp_path / "position.json"
    result = tmp_path / "result.json"
    position.write_text(json.dumps(POSITION))
    result.write_text(json.dumps(RESULT))
    for name in ("board.png", "board.svg"):
        out = tmp_path / name
        done = subprocess.run(
            [sys.executable, "-m", "judge.cli", "map", str(position), "--orders-result", str(result), "-o", str(out)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        data = out.read_bytes()
        assert data.startswith(b"\x89PNG") if name.endswith("png") else b'class="order move fails"' in data
    bad = subprocess.run(
        [sys.executable, "-m", "judge.cli", "map", str(result), "-o", str(tmp_path / "x.png")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode == 1 and "phase" in bad.stderr


def test_an_arrow_runs_from_the_unit_to_its_destination_and_an_invalid_order_is_grey() -> None:
    from judge.ruling import rule_on

    position = {
        "variant": "standard", "phase": "S1901M",
        "units": [{"power": "FRANCE", "type": "F", "loc": "BRE"}, {"power": "FRANCE", "type": "A", "loc": "PAR"}],
        "centers": {"FRANCE": ["BRE", "PAR", "MAR"]},
        "orders": {"FRANCE": ["F BRE - MAO", "A PAR - MOS"]},
    }  # fmt: skip
    result = rule_on(position)
    svg = svg_from_contract(position, result)
    art = load_art("standard")
    (move,) = re.findall(r'<path class="order move succeeds"[^>]*? d="M([\d.]+) ([\d.]+)L([\d.]+) ([\d.]+)"', svg)
    x1, y1, x2, y2 = (float(v) for v in move)
    (bx, by), (mx, my) = art.where("BRE"), art.where("MAO")
    assert abs(x1 - bx) + abs(y1 - by) < 30 and abs(x2 - mx) + abs(y2 - my) < 30
    assert (x2 - x1) * (mx - bx) + (y2 - y1) * (my - by) > 0  # pointing the right way
    invalid = re.findall(r'<path class="order move invalid"[^>]*>', svg)
    assert len(invalid) == 1 and 'stroke="#808080"' in invalid[0]
    assert 'class="cross invalid"' in svg


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,  # past any reader's depth
        '{"variant": "standard", "phase": "S1901M", "units": ' + "[" * 900 + "]" * 900 + "}",
        '{"variant": "standard", "phase": "S1901M", "units": {"ENGLAND": ' + '{"a":' * 1000 + "1" + "}" * 1000 + "}}",
    ],
    ids=["deep-array", "deep-units", "deep-objects"],
)
def test_judge_map_on_a_deeply_nested_file_says_so_without_a_traceback(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25: a deeply nested file printed a RecursionError's traceback."""
    from judge.cli import main

    position = tmp_path / "deep.json"
    position.write_text(text)
    assert main(["map", str(position), "-o", str(tmp_path / "x.svg")]) == 1
    error = capsys.readouterr().err
    assert error.startswith("judge map: ") and "Traceback" not in error and len(error.splitlines()) == 1, error
    assert not (tmp_path / "x.svg").exists()
