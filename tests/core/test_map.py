"""The Standard map data and the GameMap queries built on it.

The adjacency samples below are checked by hand against the printed board and
the DATC; every DATC case's units must also stand on legal locations.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from judge.core.errors import CoastError, UnknownProvinceError, VariantError
from judge.core.geography import GameMap, Terrain
from judge.core.units import Unit, UnitType
from judge.core.variants import available_variants, load_map, parse_map
from tests.data_dir import datc_cases

DATA_FILE = Path(__file__).resolve().parents[2] / "judge" / "variants" / "standard.json"


@pytest.fixture(scope="module")
def m() -> GameMap:
    return load_map("standard")


def codes(text: str) -> list[str]:
    return text.split()


def raw_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    return data


# ----------------------------------------------------------------- counts


def test_counts(m: GameMap) -> None:
    assert len(m.provinces) == 75
    assert len(m.supply_centers) == 34
    assert sum(len(c) for c in m.home_centers.values()) == 22
    assert len(m.starting_units) == 22
    assert m.win_centers == 18
    assert m.powers == ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def test_terrain_counts(m: GameMap) -> None:
    terrains = Counter(p.terrain for p in m.provinces.values())
    assert terrains == {Terrain.WATER: 19, Terrain.COAST: 42, Terrain.LAND: 14}


def test_water_provinces(m: GameMap) -> None:
    water = {c for c, p in m.provinces.items() if p.terrain is Terrain.WATER}
    assert water == set(codes("NAO NWG MAO ENG IRI NTH HEL SKA BAL BOT BAR LYO WES TYS ION ADR AEG EAS BLA"))


def test_inland_provinces(m: GameMap) -> None:
    inland = {c for c, p in m.provinces.items() if p.terrain is Terrain.LAND}
    assert inland == set(codes("BOH BUD BUR GAL MOS MUN PAR RUH SER SIL TYR UKR VIE WAR"))


def test_home_centres(m: GameMap) -> None:
    assert m.home_centers == {
        "AUSTRIA": {"BUD", "TRI", "VIE"},
        "ENGLAND": {"EDI", "LON", "LVP"},
        "FRANCE": {"BRE", "MAR", "PAR"},
        "GERMANY": {"BER", "KIE", "MUN"},
        "ITALY": {"NAP", "ROM", "VEN"},
        "RUSSIA": {"MOS", "SEV", "STP", "WAR"},
        "TURKEY": {"ANK", "CON", "SMY"},
    }
    assert m.starting_centers == m.home_centers
    assert m.province("STP").home_of == "RUSSIA"
    assert m.province("BEL").home_of is None


def test_neutral_centres(m: GameMap) -> None:
    homes = set().union(*m.home_centers.values())
    assert m.supply_centers - homes == set(codes("BEL BUL DEN GRE HOL NWY POR RUM SER SPA SWE TUN"))


def test_starting_units(m: GameMap) -> None:
    assert set(m.starting_units) == {
        Unit("AUSTRIA", UnitType.ARMY, "VIE"),
        Unit("AUSTRIA", UnitType.ARMY, "BUD"),
        Unit("AUSTRIA", UnitType.FLEET, "TRI"),
        Unit("ENGLAND", UnitType.FLEET, "LON"),
        Unit("ENGLAND", UnitType.FLEET, "EDI"),
        Unit("ENGLAND", UnitType.ARMY, "LVP"),
        Unit("FRANCE", UnitType.FLEET, "BRE"),
        Unit("FRANCE", UnitType.ARMY, "PAR"),
        Unit("FRANCE", UnitType.ARMY, "MAR"),
        Unit("GERMANY", UnitType.FLEET, "KIE"),
        Unit("GERMANY", UnitType.ARMY, "BER"),
        Unit("GERMANY", UnitType.ARMY, "MUN"),
        Unit("ITALY", UnitType.FLEET, "NAP"),
        Unit("ITALY", UnitType.ARMY, "ROM"),
        Unit("ITALY", UnitType.ARMY, "VEN"),
        Unit("RUSSIA", UnitType.ARMY, "WAR"),
        Unit("RUSSIA", UnitType.ARMY, "MOS"),
        Unit("RUSSIA", UnitType.FLEET, "SEV"),
        Unit("RUSSIA", UnitType.FLEET, "STP/SC"),
        Unit("TURKEY", UnitType.FLEET, "ANK"),
        Unit("TURKEY", UnitType.ARMY, "CON"),
        Unit("TURKEY", UnitType.ARMY, "SMY"),
    }


def test_split_coasts(m: GameMap) -> None:
    split = {c: p.coasts for c, p in m.provinces.items() if p.coasts}
    assert split == {"STP": ("NC", "SC"), "SPA": ("NC", "SC"), "BUL": ("EC", "SC")}
    assert m.fleet_locations("STP") == ("STP/NC", "STP/SC")
    assert m.fleet_locations("BRE") == ("BRE",)
    assert m.fleet_locations("PAR") == ()
    assert m.is_split("SPA") and not m.is_split("POR")


def test_names_and_french(m: GameMap) -> None:
    assert m.province("NAO").name == "North Atlantic Ocean"
    assert m.province("MAO").name == "Mid-Atlantic Ocean"
    assert m.province("ENG").french_name == "Manche"
    assert m.province("NTH").french_name == "mer du Nord"
    assert m.province("NTH").french_abbreviation == "NRD"
    assert m.province("STP").french_name == "Saint-Pétersbourg"
    # every province has a French name and a display abbreviation
    assert all(p.french_name and p.french_abbreviation for p in m.provinces.values())


def test_french_display_abbreviations_never_shadow_another_province(m: GameMap) -> None:
    """A French report must not print TYR for the Tyrrhenian Sea: readers would take it for Tyrolia."""
    for code, p in m.provinces.items():
        abbreviation = p.french_abbreviation
        assert abbreviation is not None
        assert abbreviation == code or abbreviation not in m.provinces, code
    abbreviations = [p.french_abbreviation for p in m.provinces.values()]
    assert len(set(abbreviations)) == 75


# ------------------------------------------------------------- adjacency


def test_army_adjacency_is_symmetric(m: GameMap) -> None:
    for code in m.provinces:
        if m.is_water(code):
            assert m.army_moves(code) == frozenset()
        for other in m.army_moves(code):
            assert m.army_adjacent(other, code), (code, other)


def test_fleet_adjacency_is_symmetric(m: GameMap) -> None:
    for p in m.provinces.values():
        for loc in p.fleet_locations:
            assert m.fleet_moves(loc), loc
            for other in m.fleet_moves(loc):
                assert m.fleet_adjacent(other, loc), (loc, other)


def test_edge_totals(m: GameMap) -> None:
    army_edges = sum(len(m.army_moves(c)) for c in m.provinces) // 2
    fleet_edges = sum(len(m.fleet_moves(loc)) for p in m.provinces.values() for loc in p.fleet_locations) // 2
    assert (army_edges, fleet_edges) == (111, 141)


ARMY_YES = [
    ("BUL", "CON"), ("CON", "ANK"), ("CON", "SMY"), ("ANK", "SMY"), ("ARM", "SYR"),
    ("NAF", "TUN"), ("DEN", "SWE"), ("KIE", "DEN"), ("SWE", "NWY"), ("FIN", "NWY"),
    ("STP", "FIN"), ("STP", "LVN"), ("STP", "NWY"), ("STP", "MOS"), ("ROM", "VEN"),
    ("APU", "ROM"), ("TRI", "ALB"), ("TRI", "TYR"), ("TRI", "VEN"), ("SER", "ALB"),
    ("BUR", "BEL"), ("BUR", "MAR"), ("GAS", "SPA"), ("MAR", "SPA"), ("POR", "SPA"),
    ("WAL", "YOR"), ("LVP", "EDI"), ("LVP", "YOR"), ("CLY", "EDI"), ("PIE", "TYR"),
    ("RUM", "UKR"), ("RUM", "GAL"), ("BUD", "RUM"), ("SEV", "ARM"), ("PRU", "SIL"),
    ("MUN", "RUH"), ("KIE", "RUH"), ("HOL", "RUH"), ("BOH", "TYR"), ("GAL", "WAR"),
]

ARMY_NO = [
    ("BER", "DEN"), ("YOR", "CLY"), ("SPA", "NAF"), ("LON", "BEL"), ("ROM", "TRI"),
    ("FIN", "BOT"), ("PAR", "MAR"), ("TUS", "TYR"), ("APU", "TRI"), ("SEV", "CON"),
    ("NAP", "VEN"), ("EDI", "NTH"), ("GAS", "MAO"), ("TUN", "ION"), ("ANK", "BLA"),
    ("ALB", "BUL"), ("MUN", "HOL"), ("WAR", "BOH"), ("PRU", "KIE"), ("MOS", "BOT"),
]


@pytest.mark.parametrize(("src", "dst"), ARMY_YES)
def test_army_adjacent(m: GameMap, src: str, dst: str) -> None:
    assert m.army_adjacent(src, dst)
    assert m.army_adjacent(dst, src)
    assert dst in m.army_moves(src)


@pytest.mark.parametrize(("src", "dst"), ARMY_NO)
def test_army_not_adjacent(m: GameMap, src: str, dst: str) -> None:
    assert not m.army_adjacent(src, dst)
    assert not m.army_adjacent(dst, src)


FLEET_YES = [
    ("BUL/EC", "CON"), ("BUL/SC", "CON"), ("BUL/SC", "AEG"), ("BUL/EC", "BLA"), ("BUL/EC", "RUM"),
    ("BUL/SC", "GRE"), ("KIE", "BER"), ("KIE", "HOL"), ("KIE", "HEL"), ("KIE", "BAL"),
    ("KIE", "DEN"), ("DEN", "SWE"), ("DEN", "BAL"), ("DEN", "SKA"), ("DEN", "HEL"),
    ("DEN", "NTH"), ("SPA/NC", "MAO"), ("SPA/SC", "MAO"), ("SPA/SC", "WES"), ("SPA/SC", "LYO"),
    ("SPA/SC", "MAR"), ("SPA/NC", "GAS"), ("SPA/NC", "POR"), ("SPA/SC", "POR"),
    ("STP/NC", "BAR"), ("STP/NC", "NWY"), ("STP/SC", "BOT"), ("STP/SC", "LVN"), ("STP/SC", "FIN"),
    ("CON", "ANK"), ("CON", "SMY"), ("CON", "AEG"), ("CON", "BLA"), ("ANK", "ARM"),
    ("SMY", "SYR"), ("APU", "VEN"), ("TRI", "VEN"), ("TRI", "ALB"), ("CLY", "EDI"),
    ("CLY", "LVP"), ("LON", "WAL"), ("NAF", "TUN"), ("NAF", "MAO"), ("SWE", "FIN"),
    ("NWY", "SWE"), ("EAS", "SYR"), ("LYO", "TUS"), ("TYS", "TUN"), ("ION", "TUN"),
    ("WES", "TUN"), ("IRI", "NAO"), ("NWG", "BAR"), ("NTH", "NWG"), ("HEL", "HOL"),
    ("ROM", "TUS"), ("ROM", "TYS"), ("NAP", "ROM"), ("PIE", "MAR"), ("PIE", "TUS"),
]

FLEET_NO = [
    ("BUL/EC", "AEG"), ("BUL/SC", "BLA"), ("BUL/EC", "GRE"), ("BUL/SC", "RUM"), ("SPA/NC", "WES"),
    ("SPA/NC", "MAR"), ("SPA/NC", "LYO"), ("SPA/SC", "GAS"), ("STP/NC", "BOT"), ("STP/SC", "BAR"),
    ("STP/NC", "FIN"), ("STP/SC", "NWY"), ("ROM", "VEN"), ("ROM", "APU"), ("TUS", "VEN"),
    ("LVP", "EDI"), ("YOR", "LVP"), ("FIN", "NWY"), ("BLA", "AEG"), ("BAL", "HEL"),
    ("BAL", "SKA"), ("BER", "DEN"), ("SPA/SC", "NAF"), ("MAO", "SPA"), ("POR", "SPA"),
    ("SPA", "POR"), ("ARM", "SYR"), ("ANK", "SMY"), ("GRE", "SER"), ("KIE", "NTH"),
    ("KIE", "MUN"), ("DEN", "NWY"), ("SWE", "NTH"), ("NAF", "TYS"), ("EDI", "LON"),
]


@pytest.mark.parametrize(("src", "dst"), FLEET_YES)
def test_fleet_adjacent(m: GameMap, src: str, dst: str) -> None:
    assert m.fleet_adjacent(src, dst)
    assert m.fleet_adjacent(dst, src)
    assert dst in m.fleet_moves(src)


@pytest.mark.parametrize(("src", "dst"), FLEET_NO)
def test_fleet_not_adjacent(m: GameMap, src: str, dst: str) -> None:
    assert not m.fleet_adjacent(src, dst)
    assert not m.fleet_adjacent(dst, src)


def test_adjacent_dispatches_on_unit_type(m: GameMap) -> None:
    assert m.adjacent(UnitType.ARMY, "ROM", "VEN")
    assert not m.adjacent(UnitType.FLEET, "ROM", "VEN")
    assert m.adjacent(UnitType.FLEET, "ENG", "LON")
    assert not m.adjacent(UnitType.ARMY, "ENG", "LON")


def test_army_cannot_reach_water(m: GameMap) -> None:
    for code in m.provinces:
        if m.is_water(code):
            continue
        assert not any(m.is_water(dst) for dst in m.army_moves(code)), code
    assert not m.army_adjacent("LON", "ENG")
    assert not m.army_adjacent("ENG", "LON")


def test_fleet_never_reaches_inland(m: GameMap) -> None:
    for p in m.provinces.values():
        for loc in p.fleet_locations:
            assert not any(m.is_inland(dst) for dst in m.fleet_moves(loc)), loc


def test_army_moves_ignores_coasts(m: GameMap) -> None:
    assert m.army_moves("STP/NC") == m.army_moves("STP") == {"FIN", "LVN", "MOS", "NWY"}
    assert m.army_adjacent("SPA/SC", "GAS")
    assert m.army_adjacent("SPA/NC", "MAR")
    assert m.army_adjacent("MAR", "SPA/SC")
    assert not m.army_adjacent("PAR", "SPA/SC")
    assert not m.army_adjacent("XYZ/NC", "PAR")


def test_fleet_moves_coast_qualified(m: GameMap) -> None:
    assert m.fleet_moves("MAO") == {
        "NAO", "IRI", "ENG", "BRE", "GAS", "SPA/NC", "SPA/SC", "POR", "WES", "NAF",
    }
    assert m.fleet_moves("CON") == {"BUL/EC", "BUL/SC", "BLA", "AEG", "ANK", "SMY"}
    assert m.fleet_moves("STP/NC") == {"BAR", "NWY"}
    assert m.fleet_moves("STP/SC") == {"BOT", "FIN", "LVN"}
    assert m.fleet_moves("PAR") == frozenset()
    assert m.fleet_moves("SPA") == frozenset()  # a fleet there must name a coast


def test_fleet_coasts_toward(m: GameMap) -> None:
    assert m.fleet_coasts_toward("POR", "SPA") == ("SPA/NC", "SPA/SC")
    assert m.fleet_coasts_toward("MAO", "SPA") == ("SPA/NC", "SPA/SC")
    assert m.fleet_coasts_toward("MAR", "SPA") == ("SPA/SC",)
    assert m.fleet_coasts_toward("GAS", "SPA") == ("SPA/NC",)
    assert m.fleet_coasts_toward("WES", "SPA") == ("SPA/SC",)
    assert m.fleet_coasts_toward("CON", "BUL") == ("BUL/EC", "BUL/SC")
    assert m.fleet_coasts_toward("BLA", "BUL") == ("BUL/EC",)
    assert m.fleet_coasts_toward("AEG", "BUL") == ("BUL/SC",)
    assert m.fleet_coasts_toward("NWY", "STP") == ("STP/NC",)
    assert m.fleet_coasts_toward("FIN", "STP") == ("STP/SC",)
    assert m.fleet_coasts_toward("ION", "STP") == ()
    assert m.fleet_coasts_toward("NTH", "LON") == ("LON",)
    assert m.fleet_coasts_toward("NTH", "PAR") == ()
    assert m.fleet_coasts_toward("ROM", "VEN") == ()
    assert m.fleet_coasts_toward("MAO", "SPA/NC") == ("SPA/NC",)
    assert m.fleet_coasts_toward("MAR", "SPA/NC") == ()
    assert m.fleet_coasts_toward("SPA/NC", "POR") == ("POR",)


def test_queries_reject_unknown_places(m: GameMap) -> None:
    with pytest.raises(UnknownProvinceError):
        m.province("XYZ")
    with pytest.raises(UnknownProvinceError):
        m.army_moves("XYZ")
    with pytest.raises(UnknownProvinceError):
        m.fleet_moves("XYZ/NC")
    with pytest.raises(CoastError):
        m.fleet_moves("SPA/EC")
    with pytest.raises(CoastError):
        m.fleet_coasts_toward("MAO", "POR/NC")
    assert not m.army_adjacent("XYZ", "PAR")
    assert not m.fleet_adjacent("XYZ", "NTH")
    assert not m.can_hold(UnitType.ARMY, "XYZ")


def test_can_hold(m: GameMap) -> None:
    a, f = UnitType.ARMY, UnitType.FLEET
    assert m.can_hold(a, "PAR") and m.can_hold(a, "BRE") and m.can_hold(a, "STP")
    assert not m.can_hold(a, "NTH")
    assert not m.can_hold(a, "STP/NC")
    assert m.can_hold(f, "NTH") and m.can_hold(f, "BRE")
    assert m.can_hold(f, "STP/NC") and m.can_hold(f, "BUL/EC")
    assert not m.can_hold(f, "STP") and not m.can_hold(f, "SPA")
    assert not m.can_hold(f, "PAR") and not m.can_hold(f, "MUN")
    assert not m.can_hold(f, "BRE/NC") and not m.can_hold(f, "BUL/NC")


def test_is_location(m: GameMap) -> None:
    for loc in ("PAR", "STP", "STP/NC", "STP/SC", "BUL/EC", "NTH"):
        assert m.is_location(loc), loc
    for loc in ("PAR/NC", "STP/EC", "BUL/NC", "XYZ", "stp/nc", ""):
        assert not m.is_location(loc), loc


def test_terrain_helpers(m: GameMap) -> None:
    assert m.is_water("NTH") and not m.is_land("NTH")
    assert m.is_coastal("BRE") and m.is_land("BRE") and not m.is_inland("BRE")
    assert m.is_inland("PAR") and m.is_land("PAR") and not m.is_coastal("PAR")
    assert m.is_coastal("STP/NC")
    assert m.is_supply_center("STP/SC") and not m.is_supply_center("PIC")


def test_province_neighbours(m: GameMap) -> None:
    assert m.province_neighbours("KIE") == {"BER", "MUN", "RUH", "HOL", "HEL", "DEN", "BAL"}
    assert m.province_neighbours("STP") == {"BAR", "NWY", "FIN", "BOT", "LVN", "MOS"}
    assert m.province_neighbours("ENG") == {"IRI", "WAL", "LON", "NTH", "BEL", "PIC", "BRE", "MAO"}
    assert "ENG" not in m.province_neighbours("NAO")
    for code in m.provinces:
        for other in m.province_neighbours(code):
            assert code in m.province_neighbours(other)


def test_distances_match_the_french_rules_example(m: GameMap) -> None:
    """Seed 000's civil-disorder example: A MAR is 12 from England's centres, A MOS 13."""
    def total(province: str) -> int:
        return sum(m.distances_from([home])[province] for home in m.home_centers["ENGLAND"])

    assert total("MAR") == 12
    assert total("MOS") == 13
    assert m.distances_from(["PAR", "BRE"])["PAR"] == 0


def test_map_is_immutable(m: GameMap) -> None:
    with pytest.raises(AttributeError):
        m.win_centers = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        m.provinces["XYZ"] = m.provinces["PAR"]  # type: ignore[index]
    with pytest.raises(AttributeError):
        m.province("PAR").name = "Lutèce"  # type: ignore[misc]


# ------------------------------------------------------------- variants


def test_load_map_is_cached_and_case_insensitive() -> None:
    assert load_map() is load_map("standard") is load_map("  Standard ")
    assert "standard" in available_variants()


@pytest.mark.parametrize("name", ["nosuchvariant", "../standard", "", "standard.json"])
def test_unknown_variant(name: str) -> None:
    with pytest.raises(VariantError):
        load_map(name)


def test_parse_map_reads_the_shipped_file() -> None:
    built = parse_map(raw_data(), source="copy")
    assert len(built.provinces) == 75
    assert built.fleet_adjacent("SPA/SC", "WES")


def _broken(edit: Any) -> dict[str, Any]:
    data = copy.deepcopy(raw_data())
    edit(data)
    return data


BROKEN = {
    "one-way army border": lambda d: d["provinces"]["PAR"]["army"].remove("BUR"),
    "one-way fleet border": lambda d: d["provinces"]["APU"]["fleet"].remove("VEN"),
    "unknown neighbour": lambda d: d["provinces"]["PAR"]["army"].append("XYZ"),
    "army into water": lambda d: (d["provinces"]["BRE"]["army"].append("ENG")),
    "fleet to bare split coast": lambda d: d["provinces"]["MAO"]["fleet"].append("SPA"),
    "unknown coast": lambda d: d["provinces"]["CON"]["fleet"].append("BUL/NC"),
    "home of unknown power": lambda d: d["provinces"]["PAR"].update(home="FRANKIA"),
    "home that is not a centre": lambda d: d["provinces"]["PIC"].update(home="FRANCE"),
    "starting fleet inland": lambda d: d["starting_units"]["FRANCE"].append("F BUR"),
    "starting fleet without coast": lambda d: d["starting_units"]["RUSSIA"].__setitem__(3, "F STP"),
    "two starting units in one province": lambda d: d["starting_units"]["FRANCE"].append("F PAR"),
    "too many centres to win": lambda d: d.update(win_centers=35),
    "bad terrain": lambda d: d["provinces"]["PAR"].update(terrain="swamp"),
    "missing name": lambda d: d["provinces"]["PAR"].pop("name"),
    "bad starting unit": lambda d: d["starting_units"]["FRANCE"].append("Army Paris"),
    "win centres not a number": lambda d: d.update(win_centers="18"),
    "neighbours not a list": lambda d: d["provinces"]["PAR"].update(army="BUR"),
    "coasts on a land province": lambda d: d["provinces"]["PAR"].update(coasts={"NC": ["BUR"], "SC": ["GAS"]}),
}


@pytest.mark.parametrize("what", sorted(BROKEN))
def test_inconsistent_data_is_refused(what: str) -> None:
    with pytest.raises(VariantError):
        parse_map(_broken(BROKEN[what]), source=what)


# ------------------------------------------------------------- DATC cross-check


def test_every_datc_unit_stands_on_a_legal_location(m: GameMap) -> None:
    cases = datc_cases()
    assert len(cases) >= 150
    checked = 0
    for case in cases:
        units = list(case.get("units", [])) + list(case.get("expected", {}).get("units", []))
        for unit in units:
            assert m.can_hold(UnitType(unit["type"]), unit["loc"]), (case["id"], unit)
            checked += 1
        for power in case.get("centers", {}).values():
            for center in power:
                assert center in m.supply_centers, (case["id"], center)
    assert checked > 500


def test_power_names_come_from_the_variant_file() -> None:
    from judge.core.variants import load_map

    game_map = load_map("standard")
    assert game_map.power_display_name("GERMANY") == "Germany"
    assert game_map.power_display_name("GERMANY", "fr") == "Allemagne"
    assert game_map.power_names["TURKEY"].display_adjective("en") == "Turkish"
    assert "turque" in game_map.power_names["TURKEY"].every_name()
    assert set(game_map.power_names) == set(game_map.powers)


def test_a_variant_without_power_names_gets_plain_ones_and_unknown_powers_are_refused() -> None:
    import json
    from importlib import resources

    import pytest

    from judge.core.errors import VariantError
    from judge.core.variants import parse_map

    data = json.loads((resources.files("judge") / "variants" / "standard.json").read_text("utf-8"))
    del data["power_names"]
    assert parse_map(data).power_display_name("RUSSIA", "fr") == "Russia"
    data["power_names"] = {"PRUSSIA": {}}
    with pytest.raises(VariantError, match="PRUSSIA"):
        parse_map(data)


def test_reports_name_powers_from_the_variant_data_without_a_map_at_hand() -> None:
    from judge.core.variants import power_names_of

    assert power_names_of("germany").display("fr") == "Allemagne"
    # the feminine form, as reports need it ("l'armée allemande"); the masculine is read too
    assert power_names_of("GERMANY").display_adjective("fr") == "allemande"
    assert "allemand" in power_names_of("GERMANY").aliases
    assert power_names_of("PRUSSIA").display("fr") == "Prussia"
