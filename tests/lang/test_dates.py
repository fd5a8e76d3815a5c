"""Dates and phases as players write them in SET, HISTORY, PHASE and PROCESS."""

from __future__ import annotations

import pytest

from judge.core.phase import Phase
from judge.lang.dates import DateSpec, read_date, read_phase
from judge.lang.errors import CommandError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Mon", DateSpec("Mon", weekday=0)),
        ("sunday 10:30", DateSpec("sunday 10:30", weekday=6, hour=10, minute=30)),
        ("5 Jan", DateSpec("5 Jan", day=5, month=1)),
        ("Jan 5, 2004 23:30", DateSpec("Jan 5, 2004 23:30", day=5, month=1, year=2004, hour=23, minute=30)),
        ("1 Jan 99", DateSpec("1 Jan 99", day=1, month=1, year=1999)),
        ("Tue Jan 06 2004 23:30:00 +0000", DateSpec("Tue Jan 06 2004 23:30:00 +0000", 1, 6, 1, 2004, 23, 30)),
        ("2026-11-23T23:30:00+01:00", DateSpec("2026-11-23T23:30:00+01:00", None, 23, 11, 2026, 23, 30)),
        ("29 Feb 2024", DateSpec("29 Feb 2024", day=29, month=2, year=2024)),
    ],
)
def test_dates_read(text: str, expected: DateSpec) -> None:
    assert read_date(text) == expected


@pytest.mark.parametrize(
    ("text", "column", "fragment"),
    [
        ("Mon 25:00", 5, "Not a time of day"),
        ("5 Jan blah", 7, "Cannot read date -> blah"),
        ("30 Feb", 1, "no such day"),
        ("29 Feb 2023", 1, "no such day"),
        ("5 Jan 77", 7, "Cannot tell what this number is"),
        ("", 1, "missing"),
    ],
)
def test_bad_dates_point_at_the_word(text: str, column: int, fragment: str) -> None:
    with pytest.raises(CommandError) as caught:
        read_date(text)
    assert fragment in caught.value.message
    assert caught.value.column == column


def test_date_columns_are_relative_to_the_line() -> None:
    with pytest.raises(CommandError) as caught:
        read_date("Mon xyz", column=14)
    assert caught.value.column == 18


@pytest.mark.parametrize(
    ("text", "phase"),
    [
        ("Fall 1905 Movement", "F1905M"),
        ("f 1905 m", "F1905M"),
        ("Spring 1902 Retreat", "S1902R"),
        ("Winter 1901 Adjustment", "W1901A"),
        ("Fall 1901 Build", "W1901A"),
        ("W1901B", "W1901A"),
        ("S1903M", "S1903M"),
        ("Printemps 1902 Mouvement", "S1902M"),
        ("Automne 1902 Retraite", "F1902R"),
        ("Hiver 1902 Ajustement", "W1902A"),
    ],
)
def test_phases_read_by_first_letters(text: str, phase: str) -> None:
    assert read_phase(text) == Phase.parse(phase)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("Winter 1901 Movement", "Winter has only an adjustment phase"),
        ("Summer 1901 Movement", "no summer phases"),
        ("U1901M", "no summer phases"),
        ("Spring 1901 Adjustment", "no adjustment phase in spring"),
        ("Xmas 1901 Movement", "Unknown season"),
        ("Fall nineteen Movement", "Not a year"),
        ("Fall 1901 Zzz", "Unknown phase"),
        ("Fall 1901", "season, a year and a phase"),
        ("F1901X", "Cannot read phase"),
    ],
)
def test_bad_phases(text: str, fragment: str) -> None:
    with pytest.raises(CommandError, match=fragment):
        read_phase(text)
