"""Reading province names in English and French.

Readings taken from the French sources (the rest of seed 002's annex
"Liste des noms de territoires" is checked line by line by
``test_every_name_of_the_french_annex``):

Seed 000 (French rules with examples) writes these abbreviations:
    NRD North Sea, MAN English Channel, AMO Mid-Atlantic Ocean, IRL Irish Sea,
    GLI Gulf of Lyon, MTY Tyrrhenian Sea, MOC Western Mediterranean,
    NOI Black Sea ("F NOIS A ROU-BUL" is "F NOI S A ROU-BUL"),
    ESP Spain, BOU Burgundy, DAN Denmark, NGE Norway, ROU Rumania,
    VAR Warsaw, SEB Sevastopol, LPL Liverpool, HOL Holland, RUH Ruhr,
    and the standard KIE, MAR (Marseilles: "construire ... A MAR" for France),
    TYR (Tyrolia: "A TYR-MUN").
Garbled in transcription, read as the context demands:
    FIE -> Kiel ("F DAN:FIE", "A FIE S AUTRICHE A BOH-MUN": German units in Kiel).
Not taken:
    MOR in "F MOR C ANG. A LON-TUN" looks like a slip for MOC (the Western
    Mediterranean lies on that route), but seed 002 lists "MOr" for the
    Eastern Mediterranean (Méditerranée orientale); the annex wins, MOR reads EAS.
    ANG in the same line is Angleterre, a power, not a province.
Ambiguities found in the tables (exactly two, checked below):
    MAR: Marseilles (standard code) / North Africa (annex: "NAf, AfN, MAR").
    TYR: Tyrolia (standard code) / Tyrrhenian Sea (annex: "Tyn, MTy, TYR").
Seed 002 gives "cn"/"n" for Bulgaria's east coast ("Côte nord ou côte est (pour
Bulgarie) : ce, ec, cn ou n"): a north coast given for Bulgaria reads EC.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.core.errors import AmbiguousProvinceError, CoastError, CoreError, UnknownProvinceError
from judge.core.geography import GameMap, Province, Terrain
from judge.core.names import (
    NameReading,
    name_key,
    name_table,
    province_display_name,
    resolve_location,
)
from judge.core.variants import load_map
from tests.data_dir import SEED_002_PROVINCE_NAMES


@pytest.fixture(scope="module")
def m() -> GameMap:
    return load_map("standard")


def where(text: str, m: GameMap, french: bool = False) -> str:
    return resolve_location(text, m, french=french).location


# ------------------------------------------------------------------ codes and English


def test_every_code_reads_as_itself(m: GameMap) -> None:
    for code in m.provinces:
        reading = resolve_location(code, m)
        assert (reading.province, reading.coast, reading.reading) == (code, None, "code")
        assert resolve_location(code.lower(), m).province == code


def test_every_english_name_reads_as_its_province(m: GameMap) -> None:
    for code, province in m.provinces.items():
        reading = resolve_location(province.name, m)
        assert reading.province == code
        assert reading.reading == "english"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("St Petersburg", "STP"), ("Saint Petersburg", "STP"), ("St. Petersburg", "STP"),
        ("north atlantic ocean", "NAO"), ("North Atlantic", "NAO"), ("Mid-Atlantic Ocean", "MAO"),
        ("mid atlantic", "MAO"), ("MID-ATLANTIC", "MAO"), ("Gulf of Lyon", "LYO"), ("gulf of lyons", "LYO"),
        ("Helgoland Bight", "HEL"), ("Heligoland Bight", "HEL"), ("English Channel", "ENG"),
        ("  north   sea ", "NTH"), ("Gulf of Bothnia", "BOT"), ("Eastern Mediterranean", "EAS"),
        ("western med", "WES"), ("Tyrrhenian Sea", "TYS"), ("Tyrolia", "TYR"), ("Romania", "RUM"),
        ("Sevastopol", "SEV"), ("Marseilles", "MAR"), ("North Africa", "NAF"), ("Skagerrak", "SKA"),
    ],
)  # fmt: skip
def test_english_names(m: GameMap, text: str, expected: str) -> None:
    assert resolve_location(text, m).province == expected


# ------------------------------------------------------------------ French


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mer du Nord", "NTH"), ("MER DU NORD", "NTH"), ("merdunord", "NTH"), ("Manche", "ENG"),
        ("mer d'Irlande", "IRI"), ("mer d’Irlande", "IRI"), ("mer d Irlande", "IRI"),
        ("Saint-Pétersbourg", "STP"), ("saint petersbourg", "STP"), ("ST-PÉTERSBOURG", "STP"),
        ("mer Égée", "AEG"), ("mer egee", "AEG"), ("Méditerranée orientale", "EAS"),
        ("golfe du Lion", "LYO"), ("Atlantique Nord", "NAO"), ("Atlantique", "MAO"),
        ("Pays de Galles", "WAL"), ("Pays-Bas", "HOL"), ("Hollande", "HOL"), ("Espagne", "SPA"),
        ("Bohême", "BOH"), ("Sébastopol", "SEV"), ("Odessa", "SEV"), ("Varsovie", "WAR"),
        ("Londres", "LON"), ("Édimbourg", "EDI"), ("Tyrol", "TYR"), ("mer Tyrrhénienne", "TYS"),
        ("Afrique du Nord", "NAF"), ("Maroc et Algérie", "NAF"), ("Marseille", "MAR"), ("Toulon", "MAR"),
        ("Danemark", "DEN"), ("Norvège", "NWY"), ("mer de Norvège", "NWG"),
        ("mer de Groenland et de Norvège", "NWG"), ("Suède", "SWE"), ("Rhénanie", "RUH"),
        ("Roumanie", "RUM"), ("Grèce", "GRE"), ("Piémont", "PIE"), ("Toscane", "TUS"),
    ],
)  # fmt: skip
def test_french_names(m: GameMap, text: str, expected: str) -> None:
    reading = resolve_location(text, m)
    assert reading.province == expected
    assert resolve_location(text, m, french=True).province == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # seed 000 abbreviations (see the module docstring)
        ("NRD", "NTH"), ("MAN", "ENG"), ("AMO", "MAO"), ("IRL", "IRI"), ("GLI", "LYO"), ("MTY", "TYS"),
        ("MOC", "WES"), ("NOI", "BLA"), ("ESP", "SPA"), ("BOU", "BUR"), ("DAN", "DEN"), ("NGE", "NWY"),
        ("ROU", "RUM"), ("VAR", "WAR"), ("SEB", "SEV"), ("LPL", "LVP"), ("FIE", "KIE"), ("MOR", "EAS"),
        # seed 002 capital abbreviations
        ("EGE", "AEG"), ("MON", "ALB"), ("CAU", "ARM"), ("HIG", "CLY"), ("LEV", "EAS"), ("LIO", "LYO"),
        ("PAY", "HOL"), ("STG", "IRI"), ("LIV", "LVP"), ("LIT", "LVN"), ("TOU", "MAR"), ("ATL", "MAO"),
        ("ISL", "NAO"), ("GRO", "NWG"), ("RHE", "RUH"), ("ODE", "SEV"), ("SUE", "SWE"), ("TOS", "TUS"),
        ("ALP", "TYR"), ("COR", "WAL"), ("MED", "WES"), ("AfN", "NAF"), ("Égé", "AEG"),
    ],
)  # fmt: skip
def test_french_abbreviations(m: GameMap, text: str, expected: str) -> None:
    assert resolve_location(text, m, french=True).province == expected
    assert resolve_location(text, m).province == expected


def _annex_lines() -> list[tuple[str, list[str], list[str]]]:
    """Seed 002's list: (English name, other names, abbreviations) for each of the 75 lines."""
    text = SEED_002_PROVINCE_NAMES.read_text(encoding="utf-8")
    start = text.index("Liste des noms de territoires")
    entries = []
    for line in text[start:].splitlines():
        match = re.match(r"^(?:- )?(\d+)\. (.+?) \(([^)]*)\)\s*$", line.strip())
        if match is None:
            continue
        names = [n.strip().strip("*").strip() for n in match.group(2).split(", ")]
        abbreviations = [a.strip() for a in match.group(3).split(",")]
        entries.append((names[0], names[1:], abbreviations))
        if int(match.group(1)) == 75:
            break
    return entries


def test_every_name_of_the_french_annex(m: GameMap) -> None:
    entries = _annex_lines()
    assert len(entries) == 75
    codes = [resolve_location(english, m).province for english, _, _ in entries]
    assert sorted(codes) == sorted(m.provinces)  # one line per province, none read twice
    for code, (_english, others, abbreviations) in zip(codes, entries, strict=True):
        for name in others:
            assert resolve_location(name, m, french=True).province == code, name
            assert resolve_location(name, m).province == code, name
        for abbreviation in abbreviations:
            # "Mar" and "Tyr" in their own lines are the standard codes: read them in English mode.
            french = abbreviation.upper() != code
            assert resolve_location(abbreviation, m, french=french).province == code, abbreviation


# ------------------------------------------------------------------ ambiguity


def test_only_mar_and_tyr_are_ambiguous(m: GameMap) -> None:
    assert name_table(m).ambiguous_keys() == {"mar": ("MAR", "NAF"), "tyr": ("TYR", "TYS")}


def test_standard_code_wins_by_default(m: GameMap) -> None:
    assert resolve_location("MAR", m) == NameReading("MAR", "MAR", None, "code", ("NAF",))
    assert resolve_location("tyr", m) == NameReading("tyr", "TYR", None, "code", ("TYS",))


def test_french_reading_wins_in_french(m: GameMap) -> None:
    assert resolve_location("MAR", m, french=True) == NameReading("MAR", "NAF", None, "french", ("MAR",))
    assert resolve_location("TYR", m, french=True) == NameReading("TYR", "TYS", None, "french", ("TYR",))


def test_unambiguous_names_list_no_alternatives(m: GameMap) -> None:
    assert resolve_location("PAR", m).alternatives == ()
    assert resolve_location("Marseille", m, french=True).alternatives == ()
    assert resolve_location("NAF", m, french=True) == NameReading("NAF", "NAF", None, "code", ())


def test_settled_ambiguity_then_coast_check(m: GameMap) -> None:
    """The coast is checked against the province the rule chose, not the other one."""
    with pytest.raises(CoastError):
        resolve_location("MAR/SC", m)  # Marseilles has one coast only
    with pytest.raises(CoastError):
        resolve_location("MAR (cs)", m, french=True)  # nor has North Africa


def _tiny_map(second_abbreviation: str) -> GameMap:
    """Two provinces whose French abbreviations are the same: nothing can settle which one is meant."""

    def province(code: str, name: str, abbreviation: str) -> Province:
        return Province(code, name, Terrain.LAND, True, "AAA", (), name, abbreviation)

    return GameMap.build(
        name="tiny",
        powers=["AAA"],
        provinces=[province("ONE", "One", "UNO"), province("TWO", "Two", second_abbreviation)],
        army_adjacency={"ONE": ["TWO"], "TWO": ["ONE"]},
        fleet_adjacency={},
        starting_units=[],
        win_centers=2,
    )


def test_unsettled_ambiguity_raises() -> None:
    tiny = _tiny_map("UNO")
    with pytest.raises(AmbiguousProvinceError) as caught:
        resolve_location("uno", tiny)
    assert caught.value.candidates == ("ONE", "TWO")
    with pytest.raises(AmbiguousProvinceError):
        resolve_location("uno", tiny, french=True)
    assert resolve_location("one", tiny).province == "ONE"


def test_tables_are_per_map(m: GameMap) -> None:
    tiny = _tiny_map("DUE")
    assert resolve_location("due", tiny).province == "TWO"
    with pytest.raises(UnknownProvinceError):
        resolve_location("due", m)


# ------------------------------------------------------------------ coasts


@pytest.mark.parametrize(
    ("text", "location"),
    [
        ("STP/NC", "STP/NC"), ("STP(NC)", "STP/NC"), ("STP (nc)", "STP/NC"), ("stp/north coast", "STP/NC"),
        ("STP NC", "STP/NC"), ("St Petersburg north coast", "STP/NC"), ("St Petersburg (south coast)", "STP/SC"),
        ("stp / n", "STP/NC"), ("STP-NC", "STP/NC"), ("Saint-Pétersbourg cs", "STP/SC"),
        ("Saint-Pétersbourg côte nord", "STP/NC"), ("Espagne (cn)", "SPA/NC"), ("Espagne cs", "SPA/SC"),
        ("ESP/S", "SPA/SC"), ("spa(sc)", "SPA/SC"), ("Spain south coast", "SPA/SC"), ("BUL/EC", "BUL/EC"),
        ("BUL/SC", "BUL/SC"), ("Bulgarie ce", "BUL/EC"), ("Bulgarie (côte est)", "BUL/EC"),
        ("BUL cn", "BUL/EC"), ("BUL/N", "BUL/EC"), ("Bulgaria east coast", "BUL/EC"),
        ("SPA", "SPA"), ("Spain", "SPA"),
    ],
)  # fmt: skip
def test_coast_forms(m: GameMap, text: str, location: str) -> None:
    assert where(text, m) == location
    assert where(text, m, french=True) == location


@pytest.mark.parametrize("text", ["PAR/NC", "Paris north coast", "STP/EC", "SPA (ce)", "BUL/SC/NC", "Rome cs"])
def test_coast_that_does_not_exist(m: GameMap, text: str) -> None:
    with pytest.raises((CoastError, UnknownProvinceError)):
        resolve_location(text, m)


def test_missing_coast_is_not_an_error(m: GameMap) -> None:
    assert resolve_location("STP", m).coast is None


def test_names_ending_like_coasts_are_names(m: GameMap) -> None:
    """'mer du Nord' must not lose 'Nord' to a coast, nor 'BUL S' read as the south coast."""
    assert where("mer du nord", m) == "NTH"
    with pytest.raises(UnknownProvinceError):
        resolve_location("BUL S", m)


# ------------------------------------------------------------------ unknown names


@pytest.mark.parametrize(
    ("text", "suggestion"),
    [("Londn", "LON"), ("Pariss", "PAR"), ("mer du nort", "NTH"), ("Tyrolea", "TYR"), ("Sant Petersburg", "STP")],
)
def test_unknown_names_suggest(m: GameMap, text: str, suggestion: str) -> None:
    with pytest.raises(UnknownProvinceError) as caught:
        resolve_location(text, m)
    assert caught.value.text == text
    assert suggestion in caught.value.suggestions
    assert len(caught.value.suggestions) <= 3
    assert suggestion in str(caught.value)


@pytest.mark.parametrize("text", ["", "   ", "xyz", "qqqqqq", "/", "()", "a" * 500])
def test_unknown_names(m: GameMap, text: str) -> None:
    with pytest.raises(UnknownProvinceError):
        resolve_location(text, m)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_only_core_errors_on_any_text(text: str) -> None:
    m = load_map()
    for french in (False, True):
        try:
            reading = resolve_location(text, m, french=french)
        except CoreError:
            continue
        assert reading.province in m.provinces
        assert reading.coast is None or reading.coast in m.provinces[reading.province].coasts


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(load_map().provinces)), st.sampled_from(["", " ", "-", "  "]), st.booleans())
def test_names_survive_case_and_spacing(code: str, separator: str, upper: bool) -> None:
    m = load_map()
    name = m.provinces[code].french_name.replace(" ", separator or " ")
    name = name.upper() if upper else name.lower()
    assert resolve_location(name, m, french=True).province == code


def test_name_key_folds() -> None:
    assert name_key("Saint-Pétersbourg") == name_key("SAINT PETERSBOURG") == "saintpetersbourg"
    assert name_key("mer d’Irlande") == "merdirlande"
    assert name_key("Cœur") == "coeur"


# ------------------------------------------------------------------ display


def test_display_names(m: GameMap) -> None:
    assert province_display_name("ENG") == "English Channel"
    assert province_display_name("ENG", "fr") == "Manche"
    assert province_display_name("STP/NC", "en") == "St Petersburg (north coast)"
    assert province_display_name("STP/NC", "fr") == "Saint-Pétersbourg (côte nord)"
    assert province_display_name("BUL/EC", "fr", m) == "Bulgarie (côte est)"
    assert province_display_name("PAR", "fr", m) == "Paris"
    with pytest.raises(UnknownProvinceError):
        province_display_name("XYZ")


def test_every_province_has_display_names(m: GameMap) -> None:
    for code in m.provinces:
        for language in ("en", "fr"):
            assert province_display_name(code, language, m)
