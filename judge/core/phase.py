"""Phases of a game: season, year and kind, written ``S1901M``, ``F1901R``, ``W1901A``.

The Renaissance variant (issue 33) plays a summer campaign between spring and fall,
written with the classic Judge's letter U (``U1454M``, ``U1454R``); every other game
never opens a summer phase (the adjudicator goes from spring to fall).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from judge.core.errors import PhaseError


class Season(StrEnum):
    SPRING = "S"
    SUMMER = "U"
    FALL = "F"
    WINTER = "W"


class PhaseType(StrEnum):
    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"


_PHASE_RE = re.compile(r"^\s*([SUFW])\s*(\d{1,5})\s*([MRAB])\s*$", re.IGNORECASE)
_ORDER = [
    (Season.SPRING, PhaseType.MOVEMENT),
    (Season.SPRING, PhaseType.RETREAT),
    (Season.SUMMER, PhaseType.MOVEMENT),
    (Season.SUMMER, PhaseType.RETREAT),
    (Season.FALL, PhaseType.MOVEMENT),
    (Season.FALL, PhaseType.RETREAT),
    (Season.WINTER, PhaseType.ADJUSTMENT),
]


@dataclass(frozen=True, slots=True, order=True)
class Phase:
    """One phase. Ordered in game time: ``S1901M < S1901R < U1901M < U1901R < F1901M < ... < W1901A``."""

    year: int
    index: int  # position in the year, 0..6 (see _ORDER)

    @classmethod
    def of(cls, season: Season, year: int, type: PhaseType) -> Phase:
        try:
            return cls(year, _ORDER.index((season, type)))
        except ValueError:
            raise PhaseError(f"there is no {type.name.lower()} phase in {season.name.lower()}") from None

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Read ``S1901M``; ``F1901B`` (the Judge's 'builds') is the same as ``W1901A``."""
        match = _PHASE_RE.match(text)
        if match is None:
            raise PhaseError(f"cannot read phase {text!r}: expected e.g. S1901M, U1901M, F1901R, W1901A")
        season_letter, year_text, kind = (g.upper() for g in match.groups())
        year = int(year_text)
        if kind == "B":
            if season_letter in "SU":
                raise PhaseError(f"cannot read phase {text!r}: there are no builds in spring or summer")
            return cls.of(Season.WINTER, year, PhaseType.ADJUSTMENT)
        if season_letter == "W" and kind == "M":
            raise PhaseError(f"cannot read phase {text!r}: winter has no movement phase")
        return cls.of(Season(season_letter), year, PhaseType(kind))

    @property
    def season(self) -> Season:
        return _ORDER[self.index][0]

    @property
    def type(self) -> PhaseType:
        return _ORDER[self.index][1]

    def following(self) -> Phase:
        """The phase after this one in the order of the year, whether or not the game plays it
        (a game without a summer goes from spring to fall: the adjudicator says which comes)."""
        if self.index == len(_ORDER) - 1:
            return Phase(self.year + 1, 0)
        return Phase(self.year, self.index + 1)

    def __str__(self) -> str:
        return _LETTERS[self.index][0] + str(self.year) + _LETTERS[self.index][1]


# The season's and the kind's letters of each index ("S", "M"), as __str__ writes them.
_LETTERS = tuple((season.value, kind.value) for season, kind in _ORDER)

# Phases are immutable values and a game names a few dozen: the engine asks for the next one
# every phase, so each (year, index) is made once (bounded: a table of a few thousand at most).
_MADE: dict[tuple[int, int], Phase] = {}


def phase_of(year: int, index: int) -> Phase:
    """``Phase(year, index)``, one shared value per phase."""
    key = (year, index)
    phase = _MADE.get(key)
    if phase is None:
        phase = Phase(year, index)
        if len(_MADE) < 4096:
            _MADE[key] = phase
    return phase
