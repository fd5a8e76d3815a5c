"""A fresh clone tests itself: nothing under ``tests/`` reads outside the repository (issue 27).

The reference data the tests check against (the DATC cases, seed 002's province names) are files
of ``tests/data``; a test that reached for ``../shared`` or an absolute path of this workplace would
pass here and stop at collection on a new machine, so the patterns that do so are refused.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.data_dir import DATA, DATC_CASE_FILES, REPO, SEED_002_PROVINCE_NAMES, datc_cases

TESTS = REPO / "tests"
OUTSIDE = re.compile(
    r"""(?x)
      \.\./shared            # the shared folder beside the clone
    | /work/                 # this workplace's absolute paths
    | JUDGE_SHARED_DIR       # the old way of pointing at it
    """
)


def test_no_test_reads_outside_the_repository() -> None:
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        if path == Path(__file__):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE.search(line):
                offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_the_reference_data_is_in_the_repository() -> None:
    for path in (*DATC_CASE_FILES, SEED_002_PROVINCE_NAMES):
        assert path.is_file() and path.is_relative_to(DATA), path
    assert len(datc_cases()) == 183
    assert SEED_002_PROVINCE_NAMES.read_text(encoding="utf-8").count("75. Yorkshire") == 1
