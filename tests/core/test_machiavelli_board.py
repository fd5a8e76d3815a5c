"""The Renaissance scenario of 1454 (the Balance of Power) as data: every figure the rules give.

The facts come from two places of the classic Judge's own files, checked here against each
other: the province table of its map file (terrain, ownership, city income and kind) gave the
data file; the list of cities in the map file's "ownership ordering", the powers' provinces and
units of its info file and the rules file's counts ("70 provinces and 11 sea areas") are
written below by hand, so a data file that loses a city, a home province or a unit fails by name.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from judge.core.errors import VariantError
from judge.core.geography import Terrain
from judge.core.machiavelli.board import AUTONOMOUS, MachiavelliBoard, load_board, parse_board
from judge.core.phase import Phase
from judge.core.units import Unit, UnitType
from judge.core.variants import available_variants, load_map, offered_variants

DATA = Path(__file__).resolve().parents[2] / "judge" / "variants" / "machiavelli" / "machiavelli.json"

# The map file's ownership ordering: the 44 cities, in the Judge's order.
_CITY_LINES = (
    "AVI MAR SWI TUR SLZ SAV COR GEN MON PAV CRE MIL TRT TYR AUS HUN CRN CRO DAL TRV PAD VEN",
    "MAN FER MOD LUC PSA FLO PIO SIE ARE BOL PER RME ANC NAP BAR MES PAL SAR TUN DUR ALB RAG",
)
CITIES = tuple(code for line in _CITY_LINES for code in line.split())

# The info file: each power's provinces at the start (its home country).
HOME_COUNTRIES = {
    "AUSTRIA": {"AUS", "CRI", "HUN", "TYR"},
    "FRANCE": {"AVI", "MAR", "PRO", "SWI"},
    "FLORENCE": {"ARE", "FLO", "PSA", "PST"},
    "MILAN": {"COM", "CRE", "FOR", "MIL", "PAR", "PAV", "PIA"},
    "NAPLES": {"AQU", "BAR", "CAP", "MES", "NAP", "OTR", "PAL", "SLR"},
    "PAPACY": {"ANC", "BOL", "PAT", "PER", "RMA", "RME", "SPO", "URB"},
    "TURKEY": {"ALB", "BOS", "DUR", "HER", "TUN"},
    "VENICE": {"BER", "BRE", "DAL", "FRI", "IST", "PAD", "TRV", "VEN", "VER", "VIC"},
}

# The info file: the units at the start (A army, F fleet, G garrison).
STARTING_UNITS = {
    "AUSTRIA": "A AUS, A HUN, A TYR",
    "FRANCE": "A AVI, F MAR, A SWI",
    "FLORENCE": "A ARE, A FLO, F PSA",
    "MILAN": "A CRE, A MIL, A PAV",
    "NAPLES": "A BAR, A MES, F NAP, F PAL",
    "PAPACY": "F ANC, A BOL, A PER, A RME",
    "TURKEY": "A ALB, F DUR, F TUN",
    "VENICE": "F DAL, A PAD, G VEN, A VER",
    AUTONOMOUS: "G FER, G GEN, G LUC, G MAN, G MOD, G MON, G PIO, G RAG, G SLZ, G SAV, G SIE, G TRT",
}

# The map file: the cities worth more than one ducat.
MAJOR_CITIES = {"FLO": 3, "GEN": 3, "MIL": 3, "VEN": 3, "NAP": 2, "RME": 2, "TUN": 2}

# The map file: fortified places without income (in play only with fortresses on), and their ports.
FORTRESSES = {"AQU", "BER", "BRE", "FOR", "PAR", "PAT", "PIA", "RMA", "SLR", "SPO", "TIV", "URB", "VER", "VIC"}
FORTRESS_PORTS = {"SLR", "TIV"}

# The map file: unfortified cities, and the ports among all cities.
UNFORTIFIED = {"ALB", "COR", "CRN", "CRO", "DAL", "HUN", "SAR", "SWI"}
PORTS = {"ANC", "BAR", "COR", "DUR", "GEN", "MAR", "MES", "NAP", "PAL", "PIO", "PSA", "RAG", "SAR", "SAV", "TUN", "VEN"}


@pytest.fixture(scope="module")
def board() -> MachiavelliBoard:
    return load_board()


def _data() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return copy.deepcopy(loaded)


def test_the_board_has_70_provinces_and_11_seas(board: MachiavelliBoard) -> None:
    terrains = [p.terrain for p in board.game_map.provinces.values()]
    assert sum(t is Terrain.WATER for t in terrains) == 11
    assert sum(t is not Terrain.WATER for t in terrains) == 70


def test_eight_powers_with_their_letters(board: MachiavelliBoard) -> None:
    letters = {power: board.game_map.power_letter(power) for power in board.game_map.powers}
    assert letters == {
        "AUSTRIA": "A", "FLORENCE": "L", "FRANCE": "F", "MILAN": "I",
        "NAPLES": "N", "PAPACY": "P", "TURKEY": "T", "VENICE": "V",
    }


def test_the_cities_are_the_judges_44_and_each_stands_in_a_land_province(board: MachiavelliBoard) -> None:
    assert sorted(board.cities) == sorted(CITIES)
    assert board.game_map.supply_centers == frozenset(CITIES)
    for code in CITIES:
        assert board.game_map.is_land(code), code


def test_major_cities_yield_their_number_and_the_others_one_ducat(board: MachiavelliBoard) -> None:
    assert {code: city.income for code, city in board.cities.items() if city.major} == MAJOR_CITIES
    assert all(city.income == 1 for code, city in board.cities.items() if code not in MAJOR_CITIES)


def test_fortified_cities_and_ports(board: MachiavelliBoard) -> None:
    assert {code for code, city in board.cities.items() if not city.fortified} == UNFORTIFIED
    assert {code for code, city in board.cities.items() if city.port} == PORTS
    for code in PORTS | FORTRESS_PORTS:
        assert board.game_map.is_coastal(code), code


def test_fortresses_count_only_when_in_play(board: MachiavelliBoard) -> None:
    assert set(board.fortresses) == FORTRESSES
    assert {code for code, fort in board.fortresses.items() if fort.port} == FORTRESS_PORTS
    assert all(fort.income == 0 and fort.fortified for fort in board.fortresses.values())
    assert not board.may_garrison("AQU")
    assert board.may_garrison("AQU", fortresses=True)
    assert not board.is_port("SLR") and board.is_port("SLR", fortresses=True)
    assert not set(board.fortresses) & board.game_map.supply_centers


def test_garrisons_stand_only_in_fortified_places(board: MachiavelliBoard) -> None:
    assert board.may_garrison("FLO") and board.may_garrison("VEN")
    assert not board.may_garrison("ALB")  # an unfortified city
    assert not board.may_garrison("COM")  # no city at all
    assert not board.may_garrison("ETS")


def test_home_countries_include_provinces_without_a_city(board: MachiavelliBoard) -> None:
    assert {power: set(codes) for power, codes in board.home_countries.items()} == HOME_COUNTRIES
    for power, home in HOME_COUNTRIES.items():
        # Builds go in home cities: the map's home centres are the home country's cities.
        assert board.game_map.home_centers[power] == frozenset(home) & frozenset(CITIES), power
    assert board.home_country_of("CRI") == "AUSTRIA"
    assert board.home_country_of("GEN") is None


def test_the_units_at_the_start_with_autonomous_garrisons(board: MachiavelliBoard) -> None:
    found: dict[str, set[str]] = {}
    for unit in board.game_map.starting_units:
        found.setdefault(unit.power, set()).add(str(unit))
    for province, owner in board.garrisons.items():
        found.setdefault(owner, set()).add(f"G {province}")
    assert found == {power: set(units.split(", ")) for power, units in STARTING_UNITS.items()}
    assert len(board.game_map.starting_units) == 26  # and the Venetian garrison: 27 units for the powers
    assert list(board.garrisons.values()).count(AUTONOMOUS) == 12


def test_treasuries_start_empty_and_the_game_opens_with_the_adjustments_of_1453(board: MachiavelliBoard) -> None:
    assert dict(board.treasuries) == dict.fromkeys(board.game_map.powers, 0)
    assert board.first_phase == Phase.parse("W1453A")
    assert str(board.game_map.first_phase) == "S1454M"


def test_fifteen_cities_win(board: MachiavelliBoard) -> None:
    assert board.game_map.win_centers == 15


def test_every_border_goes_both_ways(board: MachiavelliBoard) -> None:
    game_map = board.game_map
    for code in game_map.provinces:
        if game_map.is_land(code):
            for other in game_map.army_moves(code):
                assert game_map.army_adjacent(other, code), (code, other)
        for location in game_map.fleet_locations(code):
            for other in game_map.fleet_moves(location):
                assert game_map.fleet_adjacent(other, location), (location, other)


def test_provence_and_croatia_have_two_coasts(board: MachiavelliBoard) -> None:
    game_map = board.game_map
    assert game_map.coasts("PRO") == ("NC", "SC")
    assert game_map.coasts("CRO") == ("NC", "SC")
    assert game_map.fleet_adjacent("PRO/SC", "EGL") and not game_map.fleet_adjacent("PRO/NC", "EGL")
    assert game_map.fleet_adjacent("CRO/NC", "UAS") and not game_map.fleet_adjacent("CRO/SC", "UAS")


def test_istria_and_dalmatia_are_joined_by_a_land_bridge(board: MachiavelliBoard) -> None:
    assert board.game_map.army_adjacent("IST", "DAL")


def test_venice_is_one_space_reached_only_through_its_lagoon(board: MachiavelliBoard) -> None:
    game_map = board.game_map
    assert board.single_space == frozenset({"VEN"})
    assert game_map.army_moves("VEN") == frozenset()
    assert game_map.fleet_moves("VEN") == frozenset({"LAG"})
    assert game_map.is_water("LAG")


def test_fleets_in_piombino_and_messina_hold_the_straits(board: MachiavelliBoard) -> None:
    assert {(s.province, frozenset(s.joins), s.first_edition_only) for s in board.straits} == {
        ("PIO", frozenset({"ETS", "PSA"}), True),  # the second edition keeps Messina's only
        ("MES", frozenset({"GON", "ION"}), False),
    }
    # The Judge's rule: a held strait is closed to other powers' moves, supports and convoys.
    assert {s.closes for s in board.straits} == {frozenset({"moves", "supports", "convoys"})}


def test_control_at_the_start(board: MachiavelliBoard) -> None:
    control = board.starting_control()
    for power, home in HOME_COUNTRIES.items():
        assert {p for p, owner in control.provinces.items() if owner == power} == home, power
        assert {c for c, owner in control.cities.items() if owner == power} == home & set(CITIES), power
    autonomous = {p for p, owner in control.cities.items() if owner == AUTONOMOUS}
    assert autonomous == {p for p, owner in board.garrisons.items() if owner == AUTONOMOUS}
    assert {p for p, owner in control.provinces.items() if owner == AUTONOMOUS} == autonomous
    # Nobody holds Turin, Corsica or the seas.
    for code in ("TUR", "COR", "SAR", "ETS"):
        assert code not in control.provinces and code not in control.cities


def test_the_scenario_is_offered_with_its_own_flow_but_is_no_variant_file() -> None:
    """CREATE, SET VARIANT and SIGNON offer it (its game hooks play it:
    tests/app/test_machiavelli_mail.py); the tools that walk the variant files do not see it."""
    assert "machiavelli" in offered_variants()
    assert "machiavelli" not in available_variants()


def test_the_scenarios_map_is_known_by_its_name_without_being_offered() -> None:
    """The flow reads a game's kept positions with ``load_map(game.variant)``: the scenario's map,
    the very one its board plays on."""
    assert load_map("machiavelli") is load_board().game_map
    assert load_map(" Machiavelli ") is load_map("machiavelli")
    assert "machiavelli" not in available_variants()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["provinces"]["ETS"].update(city={"income": 1}), "sea has no city"),
        (lambda d: d["provinces"]["SWI"]["city"].update(port=True), "port must be on the coast"),
        (lambda d: d["provinces"]["FLO"].update(fortress={"port": False}), "not both"),
        (lambda d: d["provinces"]["MIL"]["city"].update(income=0), "income"),
        (lambda d: d["provinces"]["COM"].update(home_country="SPAIN"), "unknown power"),
        (lambda d: d["provinces"]["FLO"].pop("home_country"), "home city"),
        (lambda d: d["machiavelli"]["autonomous_garrisons"].append("ALB"), "no fortified city"),
        (lambda d: d["machiavelli"]["autonomous_garrisons"].append("VEN"), "two garrisons"),
        (lambda d: d["machiavelli"]["treasuries"].pop("TURKEY"), "each power"),
        (lambda d: d["machiavelli"].update(first_phase="X1453"), "first_phase"),
        (lambda d: d["machiavelli"]["straits"].append({"province": "TUR", "joins": ["ETS", "PSA"]}), "coastal"),
        (lambda d: d["machiavelli"]["straits"].append({"province": "PIO", "joins": ["ETS", "WMS"]}), "no fleet border"),
        (lambda d: d.pop("machiavelli"), "section is missing"),
        (lambda d: d["machiavelli"]["straits"][0].update(first_edition_only="yes"), "first_edition_only"),
        (lambda d: d["machiavelli"]["straits"][0].update(closes=["retreats"]), "closes lists some of"),
        (lambda d: d["machiavelli"]["straits"][0].update(closes=[]), "closes lists some of"),
        (lambda d: d["machiavelli"]["second_edition_special_units"].pop("TURKEY"), "name each power once"),
        (lambda d: d["machiavelli"]["second_edition_special_units"].update(TURKEY=["knights"]), "second_edition_special_units of TURKEY"),
    ],
)
def test_a_broken_scenario_is_refused_by_name(change: Any, message: str) -> None:
    data = _data()
    change(data)
    with pytest.raises(VariantError, match=message):
        parse_board(data, source="broken")


def test_one_unit_only_in_venice() -> None:
    data = _data()
    data["starting_units"]["VENICE"].append("A VEN")
    with pytest.raises(VariantError, match="one unit only"):
        parse_board(data, source="broken")


def test_a_garrison_owner_is_a_power_or_autonomous() -> None:
    data = _data()
    data["machiavelli"]["garrisons"]["SPAIN"] = ["MIL"]
    with pytest.raises(VariantError, match="unknown power"):
        parse_board(data, source="broken")
    assert Unit("VENICE", UnitType.FLEET, "DAL") in load_board().game_map.starting_units


def test_an_unknown_scenario_is_refused() -> None:
    with pytest.raises(VariantError, match="unknown scenario"):
        load_board("nowhere")
    with pytest.raises(VariantError, match="unknown scenario"):
        load_board("../standard")
