"""Every English and French name of every shipped variant reads as its own province (issue 34).

Two checks, because either alone can be fooled:
- the names each variant file gives are pinned in ``tests/data/province_names/<variant>.json``: a
  name moved to another province in the variant's data ("Lituanie" given to Prussia) changes the
  table and fails here until the change is made on purpose, in both places;
- each of those names, read by the judge's name reader in its language, gives back its province
  (English names and aliases in English, French names and abbreviations in French).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from judge.core.geography import GameMap, Province
from judge.core.names import resolve_location
from judge.core.variants import available_variants, load_map
from tests.data_dir import DATA

PINNED = DATA / "province_names"


def names_of(province: Province) -> dict[str, Any]:
    return {
        "name": province.name,
        "english_aliases": list(province.english_aliases),
        "french_name": province.french_name,
        "french_names": list(province.french_names),
        "french_abbreviation": province.french_abbreviation,
        "french_abbreviations": list(province.french_abbreviations),
    }


def test_every_shipped_variant_has_its_pinned_table() -> None:
    assert sorted(path.stem for path in PINNED.glob("*.json")) == sorted(available_variants())


@pytest.mark.parametrize("variant", available_variants())
def test_the_variant_file_gives_each_name_to_the_pinned_province(variant: str) -> None:
    pinned = json.loads((PINNED / f"{variant}.json").read_text(encoding="utf-8"))
    game_map = load_map(variant)
    given = {code: names_of(province) for code, province in game_map.provinces.items()}
    moved = {code for code in pinned.keys() | given.keys() if pinned.get(code) != given.get(code)}
    assert not moved, {code: (pinned.get(code), given.get(code)) for code in sorted(moved)}


def _english(province: Province) -> tuple[str, ...]:
    return (province.name, *province.english_aliases)


def _french(province: Province) -> tuple[str, ...]:
    abbreviation = (province.french_abbreviation,) if province.french_abbreviation else ()
    return (province.french_name, *province.french_names, *abbreviation, *province.french_abbreviations)


def _misread(game_map: GameMap) -> list[tuple[str, str, str, str]]:
    wrong = []
    for code, province in game_map.provinces.items():
        for language, names in (("en", _english(province)), ("fr", _french(province))):
            for name in names:
                read = resolve_location(name, game_map, french=language == "fr").province
                if read != code:
                    wrong.append((language, name, code, read))
    return wrong


@pytest.mark.parametrize("variant", available_variants())
def test_every_name_reads_as_its_own_province(variant: str) -> None:
    assert _misread(load_map(variant)) == []
