"""The memos of position reading (units, centres, phases) and of the ruling's result matching
give what a full reading gives: same values, same errors, whatever was read before."""

from __future__ import annotations

from typing import Any

import pytest

from judge.core.errors import PositionError
from judge.core.serialization import position_from_json
from judge.ruling import rule_on

BASE: dict[str, Any] = {
    "variant": "standard",
    "phase": "S1901M",
    "units": [
        {"power": "FRANCE", "type": "A", "loc": "PAR"},
        {"power": "FRANCE", "type": "F", "loc": "BRE"},
        {"power": "ENGLAND", "type": "F", "loc": "LON"},
    ],
    "centers": {"FRANCE": ["PAR", "BRE"], "ENGLAND": ["LON"]},
}


def _with(**changes: Any) -> dict[str, Any]:
    return {**BASE, **changes}


def test_a_position_read_twice_gives_equal_values() -> None:
    first = position_from_json(BASE).position
    second = position_from_json(BASE).position
    assert first == second
    assert first.centers == {"FRANCE": frozenset({"PAR", "BRE"}), "ENGLAND": frozenset({"LON"})}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        # a bad unit after units already read (and remembered): the full reading words the error
        ({"units": [*BASE["units"], {"power": "FRANCE", "type": "A", "loc": "ENG"}]}, "units 4"),
        ({"units": [*BASE["units"], {"power": "FRANCE", "type": "A", "loc": ["PAR"]}]}, "units 4"),
        ({"units": [*BASE["units"], "A PAR"]}, "units 4"),
        ({"units": [*BASE["units"], {"power": "GERMANY", "type": "A", "loc": "PAR"}]}, "two units in PAR"),
        # centres: each power's list valid alone (and remembered), together not
        ({"centers": {"FRANCE": ["PAR", "BRE"], "ENGLAND": ["LON", "PAR"]}}, "owned by both"),
        ({"centers": {"FRANCE": ["PAR", "BRE"], "ENGLAND": ["LON", "NTH"]}}, "not a supply centre"),
        ({"centers": {"FRANCE": ["PAR", ["BRE"]]}}, "province code"),
    ],
)
def test_errors_are_the_full_readings_after_the_fast_path_remembered_valid_entries(
    changes: dict[str, Any], message: str
) -> None:
    position_from_json(BASE)  # fills the memos with the valid entries
    with pytest.raises(PositionError, match=message):
        position_from_json(_with(**changes))


def test_one_power_written_two_ways_is_merged() -> None:
    position_from_json(BASE)
    read = position_from_json(_with(centers={"FRANCE": ["PAR"], "france": ["BRE"], "ENGLAND": ["LON"]}))
    assert read.position.centers["FRANCE"] == frozenset({"PAR", "BRE"})


def test_a_centre_listed_twice_for_one_power_is_fine() -> None:
    read = position_from_json(_with(centers={"FRANCE": ["PAR", "PAR", "BRE"], "ENGLAND": ["LON"]}))
    assert read.position.centers["FRANCE"] == frozenset({"PAR", "BRE"})


def test_repeated_and_duplicate_lines_each_get_their_own_result() -> None:
    # The same text twice is the same order object (the reading cache): the second line takes the
    # engine's second result, not the first one again.
    data = _with(orders={"FRANCE": ["A PAR - BUR", "A PAR - BUR", "A PAR - PIC", "F BRE H", "X"]})
    results = rule_on(data)["results"]
    assert [(r["order"], r["outcome"], r["reason"]) for r in results[:5]] == [
        ("A PAR - BUR", "invalid", "same order given twice"),
        ("A PAR - BUR", "invalid", "superseded by a later order"),
        ("A PAR - PIC", "succeeds", ""),
        ("F BRE H", "succeeds", ""),
        (None, "invalid", "Unrecognized source province -> X"),
    ]
    assert [r["unit"] for r in results] == ["A PAR", "A PAR", "A PAR", "F BRE", None, "F LON"]
    first = rule_on({**data, "rules": {"duplicate_orders": "first"}})["results"]
    assert [(r["order"], r["outcome"], r["reason"]) for r in first[:3]] == [
        ("A PAR - BUR", "succeeds", ""),
        ("A PAR - BUR", "invalid", "same order given twice"),
        ("A PAR - PIC", "invalid", "superseded by an earlier order"),
    ]
