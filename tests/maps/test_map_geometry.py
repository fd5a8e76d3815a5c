"""The map art cannot contradict the game (issue 16).

For every shipped variant, the drawing (``judge/variants/maps/<variant>.svg``) is parsed with the
standard library; which provinces touch is derived from the geometry alone (two province outlines
sharing a stretch of border of positive length, wherever their vertices lie on it), and compared
with the variant's adjacency: every pair of game neighbours touches or is declared in the sidecar's
``crossings`` (drawn by the renderer as a marker), and no pair touches that is not neighbours.
Every province, coast and supply centre has its path and its anchors, inside its own outline.
A deliberately broken small drawing shows the checks fail.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources

import pytest

from judge.core.geography import GameMap, Terrain
from judge.core.variants import SCENARIO_DIRECTORIES, available_variants, load_map

SVG = "{http://www.w3.org/2000/svg}"
Point = tuple[float, float]
Loop = list[Point]


@dataclass(frozen=True)
class Drawing:
    width: float
    height: float
    paths: Mapping[str, tuple[str, list[Loop]]]  # code -> (class, loops)
    sidecar: Mapping[str, object]


_TOKEN = re.compile(r"[MLZmlz]|-?\d+(?:\.\d+)?")


def parse_path(d: str) -> list[Loop]:
    """Closed polygons of a path written with absolute M, L and Z (the contract's form)."""
    loops: list[Loop] = []
    current: Loop = []
    tokens = _TOKEN.findall(d)
    i = 0
    command = ""
    while i < len(tokens):
        token = tokens[i]
        if token in "MLZmlz":
            if token.islower():
                raise AssertionError(
                    f"relative path command {token!r}: the contract asks for absolute coordinates"
                )
            command = token
            i += 1
            if command == "Z":
                assert current, "Z without a polygon"
                loops.append(current)
                current = []
            continue
        x, y = float(tokens[i]), float(tokens[i + 1])
        i += 2
        if command == "M" and current:
            raise AssertionError("a polygon that is not closed by Z")
        current.append((x, y))
        command = "L"
    assert not current, "a polygon that is not closed by Z"
    return loops


def parse_drawing(svg_text: str, sidecar_text: str) -> Drawing:
    root = ET.fromstring(svg_text)
    view = root.get("viewBox", "").split()
    assert len(view) == 4 and view[:2] == ["0", "0"], f"viewBox must be '0 0 W H', got {view}"
    paths: dict[str, tuple[str, list[Loop]]] = {}
    for element in root.iter(f"{SVG}path"):
        ident = element.get("id", "")
        cls = element.get("class", "")
        if ident.startswith("x-"):
            assert cls == "void", f"{ident}: a void area has class 'void'"
            continue
        assert ident.startswith("p-"), f"path without a province id: {ident!r}"
        code = ident[2:]
        assert code == code.upper(), f"{ident}: codes are upper case"
        assert code not in paths, f"two paths for {code}"
        paths[code] = (cls, parse_path(element.get("d", "")))
    return Drawing(float(view[2]), float(view[3]), paths, json.loads(sidecar_text))


def _segments(loops: Iterable[Loop]) -> Iterable[tuple[Point, Point]]:
    for loop in loops:
        for i, a in enumerate(loop):
            b = loop[(i + 1) % len(loop)]
            if a != b:
                yield a, b


def _overlaps(paths: Mapping[str, tuple[str, list[Loop]]]) -> Iterable[tuple[str, str, bool]]:
    """Each pair of segments of two provinces lying on one line and overlapping by more than a
    hair (a shared point alone is no border), with whether the two segments are the same one."""
    by_line: dict[tuple[float, float, float], list[tuple[float, float, str]]] = defaultdict(list)
    for code, (_, loops) in paths.items():
        for (x1, y1), (x2, y2) in _segments(loops):
            dx, dy = x2 - x1, y2 - y1
            length = math.hypot(dx, dy)
            ux, uy = dx / length, dy / length
            if ux < -1e-9 or (abs(ux) <= 1e-9 and uy < 0):
                ux, uy = -ux, -uy
            offset = x1 * uy - y1 * ux
            key = (round(ux, 6), round(uy, 6), round(offset, 3))
            t1, t2 = x1 * ux + y1 * uy, x2 * ux + y2 * uy
            by_line[key].append((min(t1, t2), max(t1, t2), code))
    for intervals in by_line.values():
        intervals.sort()
        for i, (start, end, code) in enumerate(intervals):
            for other_start, other_end, other in intervals[i + 1 :]:
                if other_start >= end - 1e-6:
                    break
                if other != code and min(end, other_end) - other_start > 1e-6:
                    same = abs(start - other_start) < 1e-6 and abs(end - other_end) < 1e-6
                    yield code, other, same


def touching_pairs(paths: Mapping[str, tuple[str, list[Loop]]]) -> set[frozenset[str]]:
    """Pairs of provinces whose outlines share a stretch of border of positive length.

    Segments are grouped by the straight line they lie on; on each line, two provinces touch when
    their intervals overlap by more than a hair, wherever their vertices lie.
    """
    return {frozenset((code, other)) for code, other, _ in _overlaps(paths)}


def unshared_vertices(paths: Mapping[str, tuple[str, list[Loop]]]) -> set[frozenset[str]]:
    """Pairs of provinces whose common border is not drawn with the same vertices on both sides
    (the contract: neighbours share exactly the same boundary vertices)."""
    return {frozenset((code, other)) for code, other, same in _overlaps(paths) if not same}


def inside(point: Point, loops: list[Loop]) -> bool:
    """Even-odd rule, as the paths are filled."""
    x, y = point
    crossings = 0
    for (x1, y1), (x2, y2) in _segments(loops):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            crossings += 1
    return crossings % 2 == 1


def game_neighbours(game_map: GameMap) -> set[frozenset[str]]:
    return {
        frozenset((code, other))
        for code in game_map.provinces
        for other in game_map.province_neighbours(code)
        if other != code
    }


def problems(game_map: GameMap, drawing: Drawing) -> list[str]:
    """Every way the drawing contradicts the game or misses a province, coast or centre."""
    found: list[str] = []
    codes = set(game_map.provinces)
    for code in sorted(codes - set(drawing.paths)):
        found.append(f"province {code} has no path")
    for code in sorted(set(drawing.paths) - codes):
        found.append(f"path p-{code} is no province of {game_map.name}")
    for code in sorted(codes & set(drawing.paths)):
        cls, loops = drawing.paths[code]
        wanted = "sea" if game_map.provinces[code].terrain is Terrain.WATER else "land"
        if cls != wanted:
            found.append(f"{code} has class {cls!r}, not {wanted!r}")
        if not loops:
            found.append(f"{code} has an empty path")
    neighbours = game_neighbours(game_map)
    crossings = {frozenset(pair) for pair in drawing.sidecar.get("crossings", [])}  # type: ignore[attr-defined]
    touching = touching_pairs(drawing.paths)
    for pair in sorted(neighbours - touching - crossings, key=sorted):
        first, second = sorted(pair)
        found.append(f"neighbours {first} and {second} do not touch and are no declared crossing")
    for pair in sorted(touching - neighbours, key=sorted):
        first, second = sorted(pair)
        found.append(f"{first} and {second} touch but are not neighbours")
    for pair in sorted(unshared_vertices(drawing.paths), key=sorted):
        first, second = sorted(pair)
        found.append(f"{first} and {second} share a border but not its vertices")
    for pair in sorted(crossings - neighbours, key=sorted):
        found.append(f"crossing {'-'.join(sorted(pair))} is not a game adjacency")
    anchors = drawing.sidecar.get("provinces", {})  # type: ignore[attr-defined]
    for code in sorted(codes):
        entry = anchors.get(code)
        if entry is None:
            found.append(f"province {code} has no anchors")
            continue
        province = game_map.provinces[code]
        loops = drawing.paths.get(code, ("", []))[1]
        points = {"label": entry.get("label"), "unit": entry.get("unit")}
        for coast in province.coasts:
            point = entry.get("coasts", {}).get(coast)
            if point is None:
                found.append(f"coast {code}/{coast} has no anchor")
            points[f"coast {coast}"] = point
        centre = entry.get("centre")
        if province.supply_center and centre is None:
            found.append(f"centre {code} has no anchor")
        if not province.supply_center and centre is not None:
            found.append(f"{code} is no supply centre but has a centre anchor")
        points["centre"] = centre
        points["city"] = entry.get("city")  # a fortress's (the Renaissance game's boards)
        for what, point in points.items():
            if (
                point is not None
                and loops
                and not inside((float(point[0]), float(point[1])), loops)
            ):
                found.append(f"{code}: {what} anchor {point} is outside the province")
        for what in ("label", "unit"):
            if points[what] is None:
                found.append(f"province {code} has no {what} anchor")
    return found


DRAWN = (*available_variants(), *sorted(SCENARIO_DIRECTORIES))
"""Every shipped drawing: the variants', and the scenarios' played by a flow of their own (Machiavelli)."""


def shipped_drawing(variant: str) -> Drawing:
    maps = resources.files("judge.variants.maps")
    return parse_drawing(
        maps.joinpath(f"{variant}.svg").read_text(encoding="utf-8"),
        maps.joinpath(f"{variant}.json").read_text(encoding="utf-8"),
    )


@pytest.mark.parametrize("variant", DRAWN)
def test_the_drawing_agrees_with_the_game(variant: str) -> None:
    game_map = load_map(variant)
    drawing = shipped_drawing(variant)
    assert problems(game_map, drawing) == []
    side = drawing.sidecar
    assert (side["width"], side["height"]) == (drawing.width, drawing.height)


@pytest.mark.parametrize("variant", DRAWN)
def test_no_unit_is_drawn_in_the_art(variant: str) -> None:
    text = (
        resources.files("judge.variants.maps")
        .joinpath(f"{variant}.svg")
        .read_text(encoding="utf-8")
    )
    root = ET.fromstring(text)
    tags = {element.tag.removeprefix(SVG) for element in root.iter()}
    assert tags <= {"svg", "style", "rect", "path"}


def test_every_city_and_fortress_of_the_renaissance_board_has_its_point_inside_its_province() -> None:
    """Issue 33: a garrison is drawn in its city, so every city (at its centre marker) and every
    fortress (at its own ``city`` point) has a point, inside its province, and no two share one."""
    from judge.core.machiavelli.board import load_board

    board = load_board("machiavelli")
    drawing = shipped_drawing("machiavelli")
    anchors = drawing.sidecar["provinces"]  # type: ignore[index]
    points = {}
    for code in (*board.cities, *board.fortresses):
        entry = anchors[code]
        point = entry.get("city") or entry.get("centre")
        assert point is not None, code
        assert inside((float(point[0]), float(point[1])), drawing.paths[code][1]), code
        points[code] = tuple(point)
    assert len(set(points.values())) == len(points)
    assert {code for code in anchors if anchors[code].get("city")} == set(board.fortresses)


def test_a_city_point_outside_its_province_is_named() -> None:
    side = json.loads(json.dumps(GOOD_SIDECAR))
    side["provinces"]["CCC"]["city"] = [5, 5]
    found = problems(small_map(), parse_drawing(small_svg(GOOD_PATHS), json.dumps(side)))
    assert found == ["CCC: city anchor [5, 5] is outside the province"]


# ---------------------------------------------------------------- the test can fail

TRIANGLE = {
    "name": "triangle",
    "powers": ["ONE"],
    "victory": {"centres": 1},
    "starting_units": {"ONE": ["A AAA"]},
    "provinces": {
        "AAA": {
            "name": "A",
            "terrain": "land",
            "supply_center": True,
            "home": "ONE",
            "army": ["BBB"],
        },
        "BBB": {"name": "B", "terrain": "coast", "army": ["AAA", "CCC"], "fleet": ["SSS"]},
        "CCC": {"name": "C", "terrain": "land", "army": ["BBB"]},
        "SSS": {"name": "S", "terrain": "water", "fleet": ["BBB"]},
    },
}


def small_map() -> GameMap:
    from judge.core.variants import parse_map

    return parse_map(TRIANGLE, source="triangle")


def small_svg(paths: Mapping[str, str]) -> str:
    body = "".join(
        f'<path id="p-{code}" class="{"sea" if code == "SSS" else "land"}" d="{d}"/>'
        for code, d in paths.items()
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 20">{body}</svg>'


GOOD_PATHS = {
    # AAA | BBB | CCC in a row along the top, the sea under BBB only (void under AAA and CCC)
    "AAA": "M0 0 L10 0 L10 10 L0 10 Z",
    "BBB": "M10 0 L20 0 L20 10 L10 10 Z",
    "CCC": "M20 0 L30 0 L30 10 L20 10 Z",
    "SSS": "M10 10 L20 10 L20 20 L10 20 Z",
}
GOOD_SIDECAR = {
    "width": 30,
    "height": 20,
    "provinces": {
        "AAA": {"label": [5, 3], "unit": [5, 6], "coasts": {}, "centre": [3, 8]},
        "BBB": {"label": [15, 3], "unit": [15, 6], "coasts": {}, "centre": None},
        "CCC": {"label": [25, 3], "unit": [25, 6], "coasts": {}, "centre": None},
        "SSS": {"label": [15, 13], "unit": [15, 16], "coasts": {}, "centre": None},
    },
    "crossings": [],
}


@pytest.mark.parametrize("variant", ["1898", "chaos", "fleet_rome", "france_austria", "germany_italy", "england_turkey"])
def test_the_variants_on_standard_s_board_share_its_drawing(variant: str) -> None:
    # Their provinces and borders are Standard's (tests/core/test_variant_data.py), so is the art
    # (tools/mapgen/README.md copies it); a change to Standard's drawing is made to all of them.
    folder = resources.files("judge.variants.maps")
    for suffix in (".svg", ".json"):
        assert folder.joinpath(variant + suffix).read_bytes() == folder.joinpath("standard" + suffix).read_bytes()


def test_a_correct_small_drawing_passes() -> None:
    drawing = parse_drawing(small_svg(GOOD_PATHS), json.dumps(GOOD_SIDECAR))
    assert problems(small_map(), drawing) == []


def test_a_broken_small_drawing_fails_with_every_fault_named() -> None:
    paths = dict(GOOD_PATHS)
    # the sea spreads under AAA too (touching a non-neighbour along a stretch, with vertices
    # elsewhere than AAA's), and CCC moves away from BBB (a missing contact)
    paths["SSS"] = "M0 10 L20 10 L20 20 L0 20 Z"
    paths["CCC"] = "M21 0 L30 0 L30 10 L21 10 Z"
    side = json.loads(json.dumps(GOOD_SIDECAR))
    side["provinces"]["AAA"]["centre"] = None
    side["provinces"]["CCC"]["unit"] = [15, 6]
    del side["provinces"]["SSS"]
    found = problems(small_map(), parse_drawing(small_svg(paths), json.dumps(side)))
    assert found == [
        "neighbours BBB and CCC do not touch and are no declared crossing",
        "AAA and SSS touch but are not neighbours",
        "AAA and SSS share a border but not its vertices",
        "BBB and SSS share a border but not its vertices",
        "centre AAA has no anchor",
        "CCC: unit anchor [15, 6] is outside the province",
        "province SSS has no anchors",
    ]


def test_a_declared_crossing_stands_for_a_missing_contact_but_only_between_neighbours() -> None:
    paths = dict(GOOD_PATHS, CCC="M21 0 L30 0 L30 10 L21 10 Z")
    side = dict(GOOD_SIDECAR, crossings=[["BBB", "CCC"], ["AAA", "CCC"]])
    found = problems(small_map(), parse_drawing(small_svg(paths), json.dumps(side)))
    assert found == ["crossing AAA-CCC is not a game adjacency"]


def test_a_point_contact_is_no_border() -> None:
    paths = {
        "A": [[(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]],
        "B": [[(10.0, 10.0), (20.0, 10.0), (20.0, 20.0), (10.0, 20.0)]],
    }
    assert touching_pairs({code: ("land", loops) for code, loops in paths.items()}) == set()


def test_a_border_drawn_with_different_vertices_on_each_side_is_named() -> None:
    paths = dict(GOOD_PATHS, BBB="M10 0 L20 0 L20 10 L10 10 L10 5 Z")
    found = problems(small_map(), parse_drawing(small_svg(paths), json.dumps(GOOD_SIDECAR)))
    assert found == ["AAA and BBB share a border but not its vertices"]


def test_a_missing_province_is_named() -> None:
    paths = {code: d for code, d in GOOD_PATHS.items() if code != "CCC"}
    found = problems(small_map(), parse_drawing(small_svg(paths), json.dumps(GOOD_SIDECAR)))
    assert found[0] == "province CCC has no path"
