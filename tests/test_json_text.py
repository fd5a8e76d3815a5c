"""judge.json_text: orjson's reading and writing give the documents the standard library would."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime

import pytest

from judge.json_text import dumps, loads

DOCUMENTS = [
    {"position": {"units": ["A PAR", "F BRE"], "centers": {"FRANCE": ["PAR"]}}, "turn": 3, "ok": True, "x": None},
    {1: "a key that is not a string", "é": "Général, à Saint-Pétersbourg", "n": -0.5},
    {"a lone surrogate": "\udc80", "past 64 bits": 2**70},  # orjson refuses both: the standard library writes them
    ["\x00 a control character", 1e300, [], {}],
]


@pytest.mark.parametrize("value", DOCUMENTS)
def test_what_is_written_reads_back_as_the_standard_library_reads_its_own(value: object) -> None:
    assert loads(dumps(value)) == json.loads(json.dumps(value))
    assert json.loads(dumps(value)) == json.loads(json.dumps(value))


def test_what_orjson_will_not_read_is_read_by_the_standard_library() -> None:
    assert math.isnan(loads("NaN"))
    assert loads(b'"\\udc80"') == "\udc80"
    assert loads(str(2**70)) == 2**70


def test_what_the_standard_library_refuses_is_still_refused() -> None:
    with pytest.raises(TypeError):
        dumps({"at": datetime(2026, 1, 1, tzinfo=UTC)})
    with pytest.raises(TypeError):
        dumps({"a set": {1, 2}})
    with pytest.raises(json.JSONDecodeError):
        loads("{not json")
