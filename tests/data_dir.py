"""Where the reference data the tests check against lives: inside the repository, under ``tests/data``.

A fresh clone tests itself with nothing beside it (issue 27): the DATC v3.1 cases (chapter 6 may be
copied freely, says the DATC's licence note) are ``tests/data/datc``, and the province-name annex of
seed 002 (the French championship's arbitration rules) is ``tests/data/seeds``. No test reads
outside the repository; ``tests/test_self_contained.py`` checks that.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
DATC = DATA / "datc"
DATC_CASE_FILES = (DATC / "all_cases.json", DATC / "supplement_v3_1.json")
SEED_002_PROVINCE_NAMES = DATA / "seeds" / "002_province_names.txt"


def datc_cases() -> list[dict[str, Any]]:
    """All 183 DATC cases: the 167 of ``all_cases.json``, then the 16 of the v3.1 supplement."""
    cases: list[dict[str, Any]] = []
    for path in DATC_CASE_FILES:
        cases.extend(json.loads(path.read_text(encoding="utf-8")))
    return cases
