"""The shipped variant files: each loads, its borders go both ways, it starts as documented, and
random games on it keep the board a board.

The documented figures (powers, provinces, centres, home centres, starting units, the centres
needed to win, the first phase) are written here once per variant, from the variant's published
description, so a data file that loses a centre or a unit fails by name. The random games are
seeded: two games of up to 100 phases per variant here (about a second in all), more with
``JUDGE_VARIANT_GAMES=<phases>`` in a manual run.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass

import pytest

from judge.core.adjudicator import Rules, adjudicate
from judge.core.geography import GameMap
from judge.core.names import name_table
from judge.core.orders import (
    Build,
)
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.core.random_orders import RandomOrders, opening_position
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitType
from judge.core.variants import available_variants, load_map


@dataclass(frozen=True)
class Documented:
    """What a variant's published description says about its opening board."""

    powers: int
    provinces: int
    centres: int
    homes: dict[str, int]
    units: int
    win: int
    first_phase: str
    letters: dict[str, str]


def _homes(spec: str) -> dict[str, int]:
    return {power: int(count) for power, count in (item.split("=") for item in spec.split())}


STANDARD_HOMES = _homes("AUSTRIA=3 ENGLAND=3 FRANCE=3 GERMANY=3 ITALY=3 RUSSIA=4 TURKEY=3")
STANDARD_LETTERS = {p: p[0] for p in STANDARD_HOMES}

# The package's letters for Known World 901 (Axum X, Srivijaya V), as our default rule deals them.
KNOWN_WORLD_LETTERS = {
    "ARABIA": "A", "AXUM": "X", "BYZANTINUM": "B", "CHINA": "C", "DENMARK": "D", "EGYPT": "E", "FRANCE": "F",
    "GERMANY": "G", "INDIA": "I", "KHAZARIA": "K", "RUSSIA": "R", "SPAIN": "S", "SRIVIJAYA": "V", "TURAN": "T",
    "WAGADU": "W",
}  # fmt: skip

DOCUMENTED: dict[str, Documented] = {
    # Ancient Mediterranean: 5 powers x 3 homes, 34 centres, 18 to win, spring of year 1.
    "ancmed": Documented(5, 79, 34, _homes("CARTHAGE=3 EGYPT=3 GREECE=3 PERSIA=3 ROME=3"), 15, 18, "S1M",
                         {"CARTHAGE": "C", "EGYPT": "E", "GREECE": "G", "PERSIA": "P", "ROME": "R"}),
    # Modern: 38 home + 26 neutral = 64 centres, 33 to win, spring 1995 (DPjudge's file).
    "modern": Documented(
        10, 141, 64,
        _homes("BRITAIN=4 EGYPT=3 FRANCE=4 GERMANY=4 ITALY=4 POLAND=3 RUSSIA=5 SPAIN=3 TURKEY=4 UKRAINE=4"),
        38, 33, "S1995M",
        {"BRITAIN": "B", "EGYPT": "E", "FRANCE": "F", "GERMANY": "G", "ITALY": "I", "POLAND": "P",
         "RUSSIA": "R", "SPAIN": "S", "TURKEY": "T", "UKRAINE": "U"},
    ),
    # Pure: seven provinces, each one power's only centre; 4 to win.
    "pure": Documented(7, 7, 7, {p: 1 for p in STANDARD_HOMES}, 7, 4, "S1901M", STANDARD_LETTERS),
    # Fleet Rome: the Standard board; only Italy's unit in Rome differs.
    "fleet_rome": Documented(7, 75, 34, STANDARD_HOMES, 22, 18, "S1901M", STANDARD_LETTERS),
    # The two-player Classic games (webDiplomacy's ClassicFvA and ClassicGvI, vDiplomacy's ClassicEvT):
    # the Standard board, two powers with their three home centres each, the other 28 centres
    # unowned; 18 to win (webDiplomacy's target, round(18/34 x 34)).
    "france_austria": Documented(2, 75, 34, _homes("AUSTRIA=3 FRANCE=3"), 6, 18, "S1901M",
                                 {"AUSTRIA": "A", "FRANCE": "F"}),
    "germany_italy": Documented(2, 75, 34, _homes("GERMANY=3 ITALY=3"), 6, 18, "S1901M",
                                {"GERMANY": "G", "ITALY": "I"}),
    "england_turkey": Documented(2, 75, 34, _homes("ENGLAND=3 TURKEY=3"), 6, 18, "S1901M",
                                 {"ENGLAND": "E", "TURKEY": "T"}),
    # Known World 901 as webDiplomacy plays it (variants/KnownWorld_901, code 1.1.2): 15 powers x 4 homes,
    # 109 centres (49 neutral, each with a neutral army: 60 + 49 units at the start), 55 to win, spring 901.
    "known_world_901": Documented(
        15, 269, 109, {p: 4 for p in KNOWN_WORLD_LETTERS}, 109, 55, "S901M", KNOWN_WORLD_LETTERS,
    ),
    # Colonial: 58 centres, 30 to win, spring 1870.
    "colonial": Documented(
        7, 119, 58, _homes("BRITAIN=6 CHINA=5 FRANCE=3 HOLLAND=3 JAPAN=4 RUSSIA=5 TURKEY=3"), 29, 30, "S1870M",
        {"BRITAIN": "B", "CHINA": "C", "FRANCE": "F", "HOLLAND": "H", "JAPAN": "J", "RUSSIA": "R", "TURKEY": "T"},
    ),
    # World: 17 powers x 3 homes, 86 centres, 44 to win, spring 2000; Oz is Z (O is the observers').
    "world": Documented(
        17, 192, 86,
        {p: 3 for p in ("ARGENTINA", "BRAZIL", "CHINA", "EUROPE", "FROZEN-ANTARCTICA", "GHANA", "INDIA", "KENYA",
                        "LIBYA", "NEAR-EAST", "OZ", "PACIFIC-RUSSIA", "QUEBEC", "RUSSIA", "SOUTH-AFRICA",
                        "UNITED-STATES", "WESTERN-CANADA")},
        51, 44, "S2000M",
        {"ARGENTINA": "A", "BRAZIL": "B", "CHINA": "C", "EUROPE": "E", "FROZEN-ANTARCTICA": "F", "GHANA": "G",
         "INDIA": "I", "KENYA": "K", "LIBYA": "L", "NEAR-EAST": "N", "OZ": "Z", "PACIFIC-RUSSIA": "P",
         "QUEBEC": "Q", "RUSSIA": "R", "SOUTH-AFRICA": "S", "UNITED-STATES": "U", "WESTERN-CANADA": "W"},
    ),
    # 1898 as the classic Judge plays it: Standard homes, one unit and one centre each, spring 1899.
    "1898": Documented(7, 75, 34, STANDARD_HOMES, 7, 18, "S1899M", STANDARD_LETTERS),
    # Chaos: 34 powers, one centre each, an empty board before the winter 1900 builds.
    "chaos": Documented(34, 75, 34, {}, 0, 18, "F1900M", {
        "ANKARA": "A", "BELGIUM": "B", "BERLIN": "C", "BREST": "D", "BUDAPEST": "E", "BULGARIA": "F",
        "CONSTANTINOPLE": "G", "DENMARK": "H", "EDINBURGH": "I", "GREECE": "J", "HOLLAND": "K", "KIEL": "L",
        "LIVERPOOL": "N", "LONDON": "P", "MARSEILLES": "Q", "MOSCOW": "R", "MUNICH": "S", "NAPLES": "T",
        "NORWAY": "U", "PARIS": "V", "PORTUGAL": "W", "ROME": "X", "RUMANIA": "Y", "SERBIA": "Z",
        "SEVASTOPOL": "0", "SMYRNA": "1", "SPAIN": "2", "ST-PETERSBURG": "3", "SWEDEN": "4", "TRIESTE": "5",
        "TUNIS": "6", "VENICE": "7", "VIENNA": "8", "WARSAW": "9"}),
    # Youngstown: 72 centres, 37 to win; India is N since Italy has I.
    "youngstown": Documented(
        10, 180, 72,
        _homes("AUSTRIA=4 CHINA=3 ENGLAND=4 FRANCE=4 GERMANY=4 INDIA=3 ITALY=4 JAPAN=3 RUSSIA=6 TURKEY=4"),
        39, 37, "S1901M",
        {"AUSTRIA": "A", "CHINA": "C", "ENGLAND": "E", "FRANCE": "F", "GERMANY": "G", "INDIA": "N", "ITALY": "I",
         "JAPAN": "J", "RUSSIA": "R", "TURKEY": "T"},
    ),
}  # fmt: skip
DOCUMENTED["chaos"].homes.update({power: 1 for power in DOCUMENTED["chaos"].letters})

VARIANTS = sorted(DOCUMENTED)


def test_every_variant_of_the_issue_is_shipped() -> None:
    assert set(VARIANTS) <= set(available_variants())


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_file_loads_with_the_documented_opening(variant: str) -> None:
    game_map = load_map(variant)
    documented = DOCUMENTED[variant]
    assert game_map.name == variant
    assert len(game_map.powers) == documented.powers
    assert len(game_map.provinces) == documented.provinces
    assert len(game_map.supply_centers) == documented.centres
    assert {p: len(c) for p, c in game_map.home_centers.items()} == documented.homes
    assert len(game_map.opening_units) == documented.units
    assert game_map.win_centers == documented.win
    assert str(game_map.first_phase) == documented.first_phase
    assert dict(game_map.letters) == documented.letters


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_border_goes_both_ways(variant: str) -> None:
    game_map = load_map(variant)
    for code in game_map.provinces:
        if not game_map.is_water(code):
            for other in game_map.army_moves(code):
                assert game_map.army_adjacent(other, code), f"{variant}: army {code} -> {other} only"
        for location in game_map.fleet_locations(code):
            for other in game_map.fleet_moves(location):
                assert game_map.fleet_adjacent(other, location), f"{variant}: fleet {location} -> {other} only"


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_board_is_one_piece_and_every_coast_reaches_the_sea(variant: str) -> None:
    game_map = load_map(variant)
    reached = game_map.distances_from([next(iter(game_map.provinces))])
    assert set(reached) == set(game_map.provinces)
    for province in game_map.provinces.values():
        assert (province.terrain.value == "land") == (not game_map.fleet_locations(province.code))
        for location in province.fleet_locations:
            assert game_map.fleet_moves(location), f"{variant}: {location} is a fleet dead end"


# Units a variant's source starts away from a centre: vDiplomacy's England* vs Turkey puts England's
# fleets at sea ("to offset the imbalance of England's start, his fleets now start in open seas").
AT_SEA = {"england_turkey": {"ENGLAND F NTH", "ENGLAND F ENG"}}


@pytest.mark.parametrize("variant", VARIANTS)
def test_starting_units_stand_on_their_powers_centres(variant: str) -> None:
    game_map = load_map(variant)
    owned_at_start = {c for centres in game_map.starting_centers.values() for c in centres}
    for unit in game_map.opening_units:
        if unit.power == NEUTRAL:  # a neutral army holds a centre no power owns
            assert unit.province in game_map.supply_centers and unit.province not in owned_at_start, unit
            continue
        if f"{unit.power} {unit}" in AT_SEA.get(variant, set()):
            assert game_map.is_water(unit.province), unit
            continue
        assert unit.province in game_map.starting_centers[unit.power], unit
    owned = Counter(c for centres in game_map.starting_centers.values() for c in centres)
    assert all(count == 1 for count in owned.values())


@pytest.mark.parametrize("variant", VARIANTS)
def test_names_in_both_languages_and_no_ambiguous_province_name(variant: str) -> None:
    game_map = load_map(variant)
    assert name_table(game_map).ambiguous_keys() == {}
    for power in game_map.powers:
        names = game_map.power_names[power]
        assert names.name and names.french_name and names.adjective and names.french_adjective
    assert game_map.info.keys() == {"en", "fr"}
    assert str(game_map.win_centers) in game_map.info["en"]
    assert str(game_map.win_centers) in game_map.info["fr"]


def test_opening_units_as_documented() -> None:
    def units(variant: str) -> set[str]:
        return {f"{u.power} {u}" for u in load_map(variant).opening_units}

    assert "ITALY F ROM" in units("fleet_rome")
    assert units("fleet_rome") - {"ITALY F ROM"} == units("standard") - {"ITALY A ROM"}
    assert units("1898") == {
        "AUSTRIA A TRI", "ENGLAND F EDI", "FRANCE A BRE", "GERMANY A KIE",
        "ITALY A NAP", "RUSSIA A STP", "TURKEY A SMY",
    }  # fmt: skip
    assert {c for cs in load_map("1898").starting_centers.values() for c in cs} == {
        "TRI", "EDI", "BRE", "KIE", "NAP", "STP", "SMY",
    }  # fmt: skip
    assert units("pure") == {f"{p} A {c}" for p, c in zip(
        ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"),
        ("VIE", "LON", "PAR", "BER", "ROM", "MOS", "CON"), strict=True)}  # fmt: skip
    assert {"RUSSIA A MUR", "RUSSIA F STP", "RUSSIA F ROS"} <= units("modern")
    assert {"INDIA A DEL", "INDIA F MAD", "INDIA A CAL", "RUSSIA F STP/SC"} <= units("youngstown")
    assert {"FROZEN-ANTARCTICA F CAS", "EUROPE F FRA/NC"} <= units("world")
    assert {"BRITAIN F HON", "RUSSIA F POR", "CHINA A MAC"} <= units("colonial")
    standard = units("standard")
    assert units("france_austria") == {u for u in standard if u.split()[0] in ("FRANCE", "AUSTRIA")}
    assert units("germany_italy") == {u for u in standard if u.split()[0] in ("GERMANY", "ITALY")}
    assert units("england_turkey") == {"ENGLAND F NTH", "ENGLAND A LON", "ENGLAND F ENG"} | {
        u for u in standard if u.startswith("TURKEY ")
    }


# webDiplomacy's KnownWorld_901 (adjudicatorPreGame.php: countryUnits, written out by name there).
KNOWN_WORLD_START = {
    "ARABIA": "A ARD, A BAG, A ISF, F BSR", "AXUM": "A AXU, A ROH, A MAL, F ADU",
    "BYZANTINUM": "F TAR, A CON, F ATT, F CHS", "CHINA": "F GUA, A NAN, A CHA, A YAN",
    "DENMARK": "F JLN, A VIK, F SCA, F JOR/EC", "EGYPT": "A AQA, A ALE, F BAR, F JER",
    "FRANCE": "F PAR, A AQT, A GAS, A NAR", "GERMANY": "A BAV, A SWA, A SAX, F BRE",
    "KHAZARIA": "A SRK, A ATI, A BAL, A TAM", "RUSSIA": "F NOV, A ROS, A SMO, A KIE",
    "SPAIN": "F CAD, A SAL, A COR, F VAL", "TURAN": "A URG, A HER, A BUK, A SAM",
    "SRIVIJAYA": "F CAH, F PLM, F KAL, A JAM", "WAGADU": "F AWL, A NIO, A KUS, A WAL",
    "INDIA": "F UJJ, A KNJ, A IND, A VAR",
}  # fmt: skip
KNOWN_WORLD_NEUTRALS = (
    "DUB WSX BRI LOT LBU PAM MAU CRS SAR ROM SIC IFR CRE CYP THR MOR MAZ BOR EST BJA BUL GEO ARM AZE PEC "
    "DAL BAS GHU ORB UYG TIB KAS MAN CHO SER PAG KAM SIL SAI BUT TKA ZAW KAN JEJ ZIM MAH MAK YEM SOC"
)


def test_known_world_901_starts_as_webdiplomacy_sets_it_up() -> None:
    game_map = load_map("known_world_901")
    units = {f"{u.power} {u}" for u in game_map.opening_units}
    expected = {f"{power} {unit}" for power, listed in KNOWN_WORLD_START.items() for unit in listed.split(", ")}
    expected |= {f"{NEUTRAL} A {code}" for code in KNOWN_WORLD_NEUTRALS.split()}
    assert len(expected) == 109
    assert units == expected
    # Every power's four units stand on its four home centres; build anywhere; neutrals raised again.
    for power in game_map.powers:
        assert {u.province for u in game_map.opening_units if u.power == power} == set(game_map.home_centers[power])
    special = game_map.special
    assert special.build_any_owned_centre and not special.builds_need_a_home_centre
    assert special.neutral_rebuild and len(special.neutral_units) == 49
    # The six split-coast provinces of the board, and Cheremissia, a coast without a sea (land here).
    split = {c for c, p in game_map.provinces.items() if len(p.fleet_locations) > 1}
    assert split == {"BLH", "JOR", "PEC", "ROM", "SAA", "VEL"}
    assert game_map.provinces["CHE"].terrain.value == "land"


@pytest.mark.parametrize(
    ("variant", "played"),
    [("france_austria", ("AUSTRIA", "FRANCE")), ("germany_italy", ("GERMANY", "ITALY")),
     ("england_turkey", ("ENGLAND", "TURKEY"))],
)  # fmt: skip
def test_two_player_classic_is_the_standard_board_with_two_powers(variant: str, played: tuple[str, ...]) -> None:
    """The Standard map unchanged; the five powers not played are gone, their home centres neutral."""
    standard, game_map = load_map("standard"), load_map(variant)
    assert game_map.powers == played
    assert set(game_map.provinces) == set(standard.provinces)
    for code, province in standard.provinces.items():
        assert game_map.provinces[code].supply_center == province.supply_center, code
        assert game_map.army_moves(code) == standard.army_moves(code), code
        for location in standard.fleet_locations(code):
            assert game_map.fleet_moves(location) == standard.fleet_moves(location), location
    for power in played:
        assert game_map.home_centers[power] == standard.home_centers[power]
        assert game_map.starting_centers[power] == standard.starting_centers[power]
    owned = {c for centres in game_map.starting_centers.values() for c in centres}
    assert len(owned) == 6
    assert all(not game_map.provinces[c].home_of for c in game_map.supply_centers if c not in owned)
    assert game_map.special.names == ()


def test_special_rules_as_documented() -> None:
    assert load_map("chaos").special.names == ("build_any_owned_centre",)
    colonial = load_map("colonial").special
    assert colonial.names == ("hong_kong", "railway", "suez_canal")
    assert colonial.hong_kong is not None and (colonial.hong_kong.province, colonial.hong_kong.not_for) == (
        "HON", "CHINA",
    )  # fmt: skip
    assert colonial.railway is not None and colonial.railway.power == "RUSSIA"
    assert colonial.railway.provinces == ("MOS", "PRM", "OMS", "KRA", "IRK", "VLA")
    railway_map = load_map("colonial")
    for a, b in zip(colonial.railway.provinces, colonial.railway.provinces[1:], strict=False):
        assert railway_map.army_adjacent(a, b), f"the railway jumps from {a} to {b}"
    assert colonial.suez_canal is not None and colonial.suez_canal.seas == ("MED", "RED")
    assert load_map("known_world_901").special.names == ("build_any_owned_centre", "neutral_units")
    for variant in ("ancmed", "modern", "pure", "fleet_rome", "world", "1898", "youngstown", "france_austria",
                    "germany_italy", "england_turkey"):
        assert load_map(variant).special.names == (), variant


# ------------------------------------------------------------------ random games


def check_board(game_map: GameMap, position: Position) -> None:
    provinces = [u.province for u in position.units]
    assert len(provinces) == len(set(provinces)), "two units in one province"
    for unit in position.units:
        assert game_map.can_hold(unit.type, unit.location), f"{unit} cannot stand there"
        if unit.type is UnitType.FLEET:
            assert not game_map.is_inland(unit.location), f"fleet inland: {unit}"
        else:
            assert not game_map.is_water(unit.location), f"army at sea: {unit}"
    owners = [c for centres in position.centers.values() for c in centres]
    assert len(owners) == len(set(owners)), "a centre with two owners"
    for power, centres in position.centers.items():
        for centre in centres:
            assert game_map.counts_as_centre(centre, power), f"{power} owns {centre}"


def play(variant: str, seed: int, phases: int) -> int:
    """Play ``phases`` phases of random orders from the opening; return how many phases were played."""
    rng = random.Random(seed)
    game_map = load_map(variant)
    rules = Rules(paradox=rng.choice(["szykman", "descartes"]))
    maker = RandomOrders(game_map, rng, mischief=0.3)
    position = opening_position(game_map)
    options: dict[Unit, tuple[str, ...]] = {}
    played = 0
    for _ in range(phases):
        kind = position.phase.type
        orders = maker.orders(position, options)
        result = adjudicate(position, orders, rules, game_map)
        played += 1
        assert result.next_phase > position.phase
        check_board(game_map, result.position)
        if kind is PhaseType.MOVEMENT:
            assert len(position.units) == len(result.position.units) + len(result.dislodged)
            if position.phase.season.value == "S" or result.position.phase.type is PhaseType.RETREAT:
                assert result.position.centers == position.centers
        elif kind is PhaseType.RETREAT:
            assert len(result.position.units) <= len(position.units) + len(position.dislodged)
        else:
            for power in game_map.powers:
                centres = len(position.centers.get(power, ()))
                before = sum(1 for u in position.units if u.power == power)
                after = sum(1 for u in result.position.units if u.power == power)
                if before > centres:
                    assert after == centres, f"{power}: {before} units, {centres} centres, {after} after"
                else:
                    assert before <= after <= centres, f"{power}: {before} units, {centres} centres, {after} after"
                new = {u for u in result.position.units if u.power == power} - set(position.units)
                for unit in new:
                    assert game_map.can_build_in(unit.province, power), f"{power} built {unit}"
                    assert unit.province in position.centers.get(power, ()), f"{power} built {unit} unowned"
        options = dict(result.retreats)
        position = result.position
        if result.winner is not None:
            break
    return played


PHASES = int(os.environ.get("JUDGE_VARIANT_GAMES", "100"))


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_keep_the_board_consistent(variant: str, seed: int) -> None:
    assert play(variant, seed * 7919 + len(variant), PHASES) > 0


def test_chaos_opens_with_the_winter_1900_builds() -> None:
    game_map = load_map("chaos")
    start = Position("chaos", game_map.first_phase, game_map.opening_units, game_map.starting_centers)
    empty = adjudicate(start, {}, Rules(), game_map)
    assert empty.next_phase == Phase.parse("W1900A")
    built = adjudicate(
        empty.position,
        {"LONDON": [Build(UnitType.FLEET, "LON")], "MUNICH": [Build(UnitType.ARMY, "MUN")]},
        Rules(),
        game_map,
    )
    assert {f"{u.power} {u}" for u in built.position.units} == {"LONDON F LON", "MUNICH A MUN"}
    assert built.next_phase == Phase.parse("S1901M")


# ------------------------------------------------------------------ special rules on the real maps
# Hand cases in the DATC's style, the expected outcome written from each rule's text.


def _play(variant: str, phase: str, units: list[str], orders: dict[str, list[str]], centres: dict[str, set[str]]) -> tuple[set[str], dict[str, frozenset[str]]]:
    from judge.lang.orders import read_order

    game_map = load_map(variant)
    board = tuple(Unit(u.split()[0], UnitType(u.split()[1]), u.split()[2]) for u in units)
    position = Position(variant, Phase.parse(phase), board, {p: frozenset(c) for p, c in centres.items()})
    kind = position.phase.type
    parsed = {p: [read_order(line, game_map, phase_type=kind).order for line in lines] for p, lines in orders.items()}
    result = adjudicate(position, parsed, Rules(), game_map)
    return {f"{u.power} {u.type.value} {u.location}" for u in result.position.units}, dict(result.position.centers)


COLONIAL_HOMES = {p: set(c) for p, c in load_map("colonial").home_centers.items()}


def test_colonial_hong_kong_is_no_centre_for_china() -> None:
    # A Chinese army takes Hong Kong from Britain in the fall: Britain loses it, China does not gain it.
    units, centres = _play("colonial", "F1870M", ["CHINA A CAN"], {"CHINA": ["A CAN - HON"]}, COLONIAL_HOMES)
    assert units == {"CHINA A HON"}
    assert "HON" not in centres["BRITAIN"]
    assert centres["CHINA"] == COLONIAL_HOMES["CHINA"]


def test_colonial_hong_kong_is_a_centre_for_the_other_powers() -> None:
    # A French fleet takes Hong Kong from Britain in the fall: it is France's.
    units, centres = _play("colonial", "F1870M", ["FRANCE F SCS"], {"FRANCE": ["F SCS - HON"]}, COLONIAL_HOMES)
    assert units == {"FRANCE F HON"}
    assert "HON" in centres["FRANCE"] and "HON" not in centres["BRITAIN"]


def test_colonial_railway_carries_a_russian_army_through_its_own_army() -> None:
    # Moscow to Irkutsk: Perm and Krasnoyarsk empty, Omsk held by a Russian army.
    units, _ = _play(
        "colonial", "S1870M", ["RUSSIA A MOS", "RUSSIA A OMS"], {"RUSSIA": ["A MOS - IRK", "A OMS H"]}, COLONIAL_HOMES
    )
    assert units == {"RUSSIA A IRK", "RUSSIA A OMS"}


def test_colonial_railway_is_blocked_by_a_foreign_army_on_the_line() -> None:
    units, _ = _play(
        "colonial", "S1870M", ["RUSSIA A MOS", "CHINA A KRA"], {"RUSSIA": ["A MOS - IRK"], "CHINA": ["A KRA H"]},
        COLONIAL_HOMES,
    )
    assert units == {"RUSSIA A MOS", "CHINA A KRA"}


def test_colonial_railway_is_russia_s_alone() -> None:
    units, _ = _play("colonial", "S1870M", ["CHINA A KRA"], {"CHINA": ["A KRA - PRM"]}, COLONIAL_HOMES)
    assert units == {"CHINA A KRA"}


def test_colonial_suez_fleets_pass_egypt_between_the_mediterranean_and_the_red_sea() -> None:
    units, _ = _play("colonial", "S1870M", ["TURKEY F MED"], {"TURKEY": ["F MED - EGY"]}, COLONIAL_HOMES)
    assert units == {"TURKEY F EGY"}
    units, _ = _play("colonial", "F1870M", ["TURKEY F EGY"], {"TURKEY": ["F EGY - RED"]}, COLONIAL_HOMES)
    assert units == {"TURKEY F RED"}


def test_chaos_builds_in_any_owned_centre() -> None:
    # London owns Paris and has one unit: it builds an army in Paris, not in a centre it does not own.
    centres = {"LONDON": {"LON", "PAR"}}
    units, _ = _play("chaos", "W1901A", ["LONDON F NTH"], {"LONDON": ["BUILD A PAR"]}, centres)
    assert units == {"LONDON F NTH", "LONDON A PAR"}
    units, _ = _play("chaos", "W1901A", ["LONDON F NTH"], {"LONDON": ["BUILD A BUR"]}, centres)
    assert units == {"LONDON F NTH"}


def test_1898_a_power_builds_only_in_home_centres_it_owns() -> None:
    # France owns Brest and Belgium, has one unit: Paris is home but not owned, Brest is free.
    centres = {"FRANCE": {"BRE", "BEL"}}
    units, _ = _play("1898", "W1899A", ["FRANCE A BEL"], {"FRANCE": ["BUILD A PAR"]}, centres)
    assert units == {"FRANCE A BEL"}
    units, _ = _play("1898", "W1899A", ["FRANCE A BEL"], {"FRANCE": ["BUILD F BRE"]}, centres)
    assert units == {"FRANCE A BEL", "FRANCE F BRE"}
