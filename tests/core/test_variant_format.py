"""The variant file format (docs/variants.md): what the loader reads, and the sentence it refuses a broken file with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from judge.core.errors import VariantError
from judge.core.geography import default_letters
from judge.core.phase import Phase
from judge.core.special_rules import NEUTRAL
from judge.core.variants import (
    available_variants,
    load_map,
    load_map_file,
    register_map,
    unregister_map,
)
from tests.core.tiny_variant import TINYLAND, tiny_data, tiny_map


def refused(data: dict[str, Any]) -> str:
    from judge.core.variants import parse_map

    with pytest.raises(VariantError) as caught:
        parse_map(data, source="tinyland")
    return str(caught.value)


# ------------------------------------------------------------------ what is read


def test_tinyland_loads_from_a_path_with_its_optional_fields() -> None:
    game_map = load_map_file(TINYLAND)
    assert game_map.name == "tinyland"
    assert game_map.powers == ("NORTH", "SOUTH", "FROZEN-ANTARCTICA")
    assert game_map.win_centers == 4
    assert game_map.first_phase == Phase.parse("S1901M")
    assert game_map.letters == {"NORTH": "N", "SOUTH": "S", "FROZEN-ANTARCTICA": "F"}
    assert game_map.info["fr"].startswith("Tinyland : trois puissances")
    assert game_map.starting_centers == {"NORTH": {"AAA"}, "SOUTH": {"FFF"}, "FROZEN-ANTARCTICA": {"GGG"}}
    assert game_map.special.names == ()


def test_standard_keeps_its_fields_and_defaults() -> None:
    standard = load_map("standard")
    assert standard.letters == {
        "AUSTRIA": "A", "ENGLAND": "E", "FRANCE": "F", "GERMANY": "G", "ITALY": "I", "RUSSIA": "R", "TURKEY": "T"
    }
    assert standard.first_phase == Phase.parse("S1901M")
    assert standard.win_centers == 18
    assert standard.starting_centers == standard.home_centers


def test_start_centre_owners_letters_and_victory_are_read() -> None:
    game_map = tiny_map(
        start={"year": 1898, "season": "fall"},
        centre_owners={"NORTH": ["AAA", "DDD"], "SOUTH": ["FFF"], "FROZEN-ANTARCTICA": ["GGG"]},
        letters={"FROZEN-ANTARCTICA": "Z"},
        victory={"centres": 3},
    )
    assert game_map.first_phase == Phase.parse("F1898M")
    assert game_map.starting_centers["NORTH"] == {"AAA", "DDD"}
    assert game_map.letters == {"NORTH": "N", "SOUTH": "S", "FROZEN-ANTARCTICA": "Z"}
    assert game_map.win_centers == 3


def test_victory_and_win_centers_may_both_be_given_if_they_agree() -> None:
    assert tiny_map(victory={"centres": 4}, win_centers=4).win_centers == 4
    assert "disagree" in refused(tiny_data(victory={"centres": 4}, win_centers=3))
    data = tiny_data()
    del data["victory"]
    assert "victory threshold is missing" in refused(data)


def test_default_letters_follow_the_judge() -> None:
    # Youngstown: Italy takes I, so India takes the next letter of its name, N.
    assert default_letters(["ITALY", "INDIA"]) == {"ITALY": "I", "INDIA": "N"}
    # O and M are the observers' and the master's; a name with no free letter takes a free one, then a digit.
    assert default_letters(["MOO"]) == {"MOO": "A"}
    many = default_letters([f"P{n:02d}" for n in range(34)])
    assert len(set(many.values())) == 34
    assert "O" not in many.values() and "M" not in many.values()
    with pytest.raises(VariantError, match=r"more than the 34"):
        default_letters([f"P{n:02d}" for n in range(35)])


def test_a_registered_map_is_found_by_name_and_leaves_again() -> None:
    game_map = tiny_map()
    register_map(game_map)
    try:
        assert load_map("TinyLand") is game_map
        assert "tinyland" in available_variants()
    finally:
        unregister_map("tinyland")
    assert "tinyland" not in available_variants()


def test_a_file_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match="cannot be read"):
        load_map_file(tmp_path / "absent.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(VariantError, match=r"broken\.json: not valid JSON"):
        load_map_file(broken)
    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps(tiny_data()), encoding="utf-8")
    assert load_map_file(fixed).name == "tinyland"


# ------------------------------------------------------------------ refusals name the province


def test_one_way_border_names_both_provinces() -> None:
    data = tiny_data()
    data["provinces"]["CCC"]["army"] = ["BBB", "DDD", "GGG", "EEE"]
    message = refused(data)
    assert "one-way border" in message and "province CCC lists EEE" in message and "EEE does not list CCC" in message


def test_unknown_code_in_a_border_is_named() -> None:
    data = tiny_data()
    data["provinces"]["BBB"]["army"] = ["AAA", "CCC", "KKK", "XYZ"]
    assert "province BBB has a army border to XYZ, which is an unknown code" in refused(data)


def test_centre_without_a_province_is_named() -> None:
    message = refused(tiny_data(centre_owners={"NORTH": ["AAA", "QQQ"]}))
    assert "province QQQ, which is not a supply centre" in message
    message = refused(tiny_data(centre_owners={"NORTH": ["BBB"]}))
    assert "province BBB, which is not a supply centre" in message


def test_home_centre_that_is_not_a_centre_is_named() -> None:
    data = tiny_data()
    data["provinces"]["BBB"]["home"] = "NORTH"
    assert "home centre BBB of NORTH is not a supply centre" in refused(data)


def test_unreachable_coast_is_named() -> None:
    data = tiny_data()
    data["provinces"]["KKK"]["coasts"] = {"NC": ["WWW"], "SC": []}
    del data["provinces"]["KKK"]["fleet"]
    data["provinces"]["WWW"]["fleet"] = ["KKK/NC"]
    data["starting_units"]["NORTH"] = ["A AAA", "F KKK/NC"]
    assert "the SC coast of province KKK is unreachable" in refused(data)


def test_unknown_special_rule_is_refused_with_the_known_ones() -> None:
    message = refused(tiny_data(special_rules=["gateways"]))
    assert "unknown special rule 'gateways'" in message and "build_any_owned_centre" in message


def test_special_rule_parameters_are_checked_against_the_map() -> None:
    assert "railway names province WWW, which is not a land province" in refused(
        tiny_data(special_rules=[{"name": "railway", "power": "NORTH", "provinces": ["AAA", "BBB", "WWW"]}])
    )
    assert "railway names unknown power RUSSIA" in refused(
        tiny_data(special_rules=[{"name": "railway", "provinces": ["AAA", "BBB", "CCC"]}])
    )
    assert "hong_kong names province CCC, which is not a supply centre" in refused(
        tiny_data(special_rules=[{"name": "hong_kong", "province": "CCC", "not_for": "SOUTH"}])
    )
    assert "two starting units in province AAA" in refused(
        tiny_data(special_rules=[{"name": "neutral_units", "units": ["A AAA"]}])
    )
    assert "listed twice" in refused(tiny_data(special_rules=["build_any_owned_centre", "build_any_owned_centre"]))


def test_neutral_is_no_power_name_and_letters_are_checked() -> None:
    data = tiny_data()
    data["powers"] = ["NORTH", "SOUTH", "FROZEN-ANTARCTICA", NEUTRAL]
    assert "reserved for neutral units" in refused(data)
    assert "cannot have letter O" in refused(tiny_data(letters={"NORTH": "O"}))
    assert "two powers share one letter" in refused(tiny_data(letters={"NORTH": "X", "SOUTH": "X"}))
    assert "letters names unknown power WEST" in refused(tiny_data(letters={"WEST": "W"}))


def test_starting_unit_of_an_unknown_power_or_place_is_named() -> None:
    data = tiny_data()
    data["starting_units"]["WEST"] = ["A BBB"]
    assert "starting_units names unknown power WEST" in refused(data)
    data = tiny_data()
    data["starting_units"]["SOUTH"] = ["F FFF"]
    assert "the starting unit F FFF of SOUTH cannot stand in province FFF" in refused(data)


def test_info_only_in_english_and_french() -> None:
    assert "only en and fr" in refused(tiny_data(info={"de": "Winzigland"}))


def test_the_docs_table_is_the_shipped_variants() -> None:
    from judge.app.game_state.boards import opening_position

    docs = (Path(__file__).resolve().parents[2] / "docs" / "variants.md").read_text(encoding="utf-8")
    for name in available_variants():
        game_map = load_map(name)
        rules = ", ".join(game_map.special.names) or "-"
        row = (
            f"| `{name}` | {game_map.title} | {len(game_map.powers)} | {len(game_map.supply_centers)} | "
            f"{game_map.win_centers} | {opening_position(game_map).phase} | {rules} |"
        )
        assert row in docs, f"docs/variants.md lacks or misstates: {row}"


def test_a_power_code_has_the_same_names_in_every_shipped_variant() -> None:
    # Reports name a power without its game's map at hand (judge.core.variants.power_names_of):
    # that is right only while no two variants give one power code different names.
    # (Aliases may differ: reading a power's name is done with the game's map.)
    seen: dict[str, tuple[str, tuple[str, ...]]] = {}
    for name in available_variants():
        for power, names in load_map(name).power_names.items():
            shown = (names.name, names.adjective, names.french_name, names.french_adjective)
            first = seen.setdefault(power, (name, shown))
            assert first[1] == shown, f"{power} is written {first[1]} in {first[0]} but {shown} in {name}"


def test_more_refusals_name_the_province() -> None:
    data = tiny_data()
    data["starting_units"]["SOUTH"] = ["A QQQ"]
    assert "starting unit A QQQ of SOUTH stands in unknown province QQQ" in refused(data)
    assert "a railway needs at least three provinces" in refused(
        tiny_data(special_rules=[{"name": "railway", "power": "NORTH", "provinces": ["AAA", "BBB"]}])
    )
    assert "suez_canal joins KKK to AAA, but no fleet border lists it" in refused(
        tiny_data(special_rules=[{"name": "suez_canal", "province": "KKK", "seas": ["AAA"]}])
    )
    assert "suez_canal names province AAA, which is not coastal" in refused(
        tiny_data(special_rules=[{"name": "suez_canal", "province": "AAA", "seas": ["WWW"]}])
    )
    assert "needs_home must be true or false" in refused(
        tiny_data(special_rules=[{"name": "build_any_owned_centre", "needs_home": "yes"}])
    )
    assert "centre DDD is owned by both NORTH and SOUTH" in refused(
        tiny_data(centre_owners={"NORTH": ["AAA", "DDD"], "SOUTH": ["DDD"]})
    )
    assert "start.season must be spring or fall" in refused(tiny_data(start={"year": 1901, "season": "summer"}))
