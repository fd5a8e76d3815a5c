"""Scores for a finished game: draw-size scoring, sum of squares and C-Diplo.

The classic Judge never scored games; tournaments and leagues played on it
did, by hand, from the final supply-centre counts and the way the game ended.
These are pure functions of that result (:class:`FinalResult`), exact
(:class:`~fractions.Fraction`, so that the scores of a game add up to the
system's total with no rounding), and the game's final summary shows them.
A game chooses its system with ``extra_settings["scoring"]`` (one of the keys
of :data:`SYSTEMS`); without one it is scored by draw size.

How each system reads a result (100 points per game in all of them):

* **solo** (a power reached the winning count) and **concession** (the others
  conceded it the game): the winner scores 100, everyone else 0, in every
  system here — a concession is a win granted, and tournaments score it so;
* **draw-size scoring** (DSS): the powers in the draw share 100 equally, the
  others score 0; who has how many centres does not matter;
* **sum of squares** (SoS): each power scores ``100 * c² / Σ c²`` of the final
  centre counts ``c`` of all powers, whoever is in the draw;
* **C-Diplo** (the system seed 003's game names, "C-Dipo"/C-Diplo, created by
  Bruno-André Giraudon): in a game without a solo every power scores 1 point
  for taking part (eliminated powers included) plus 1 per centre held, and
  the powers first, second and third by centres add 38, 14 and 7 points;
  powers tied for places share the bonuses of the places they cover equally
  (two powers tied for second share (14 + 7) / 2 each). That is 7 + 34 + 59
  = 100 points on the standard board. A solo scores 100 for the winner and 0
  for the others ("C-Diplo 100"). Sources, as published:
  World Diplomacy Database, "C-Diplo 100",
  https://world-diplomacy-database.com/php/scoring/scoring_class.php?id_scoring=5 ;
  Toby Harris, "C-Diplo – Saint or Sinner?",
  https://diplomacyzines.co.uk/home/contents/face-to-face-diplomacy/c-diplo-saint-or-sinner/
  (the English article seed 003 links to). The French page seed 003 links
  (diplomania-gen.fr, scorage:c-diplo) also gives the "C-Diplo 73" reading of
  a solo: 38 + 34 + 1 = 73 points for the winner, 0 for the others; it is
  the system ``c-diplo-73`` here.

The French "Baf" system (seed 002) is a lookup table the seed only
describes; it is not here (see docs/unsupported.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType

from judge.i18n import N_

TOTAL = Fraction(100)
"""What one game is worth in every system here."""

C_DIPLO_PLACE_BONUSES: tuple[int, ...] = (38, 14, 7)
"""C-Diplo's bonuses for the first, second and third powers by centres."""

C_DIPLO_PARTICIPATION = 1
C_DIPLO_73_SOLO = 73


class ResultKind(StrEnum):
    """How a game ended."""

    SOLO = "solo"  # a power reached the winning number of centres
    CONCESSION = "concession"  # the others conceded the game to one power
    DRAW = "draw"  # a draw vote passed


class ScoringError(ValueError):
    """A result that cannot be scored (no winner named, a power not in the game, an unknown system)."""


@dataclass(frozen=True)
class FinalResult:
    """How a game ended: the kind, the powers it ended in favour of, and every power's final centres.

    ``winners`` is the solo winner or the power conceded to (one power), or
    the powers of the draw. ``centres`` names every power of the game (0 for
    the eliminated ones), in the map's order.
    """

    kind: ResultKind
    winners: tuple[str, ...]
    centres: Mapping[str, int]

    def __post_init__(self) -> None:
        if not self.winners:
            raise ScoringError("a finished game has at least one winner or drawing power")
        unknown = [power for power in self.winners if power not in self.centres]
        if unknown:
            raise ScoringError(f"not powers of the game: {', '.join(unknown)}")
        if self.kind is not ResultKind.DRAW and len(self.winners) != 1:
            raise ScoringError(f"a {self.kind.value} has exactly one winner")
        if any(count < 0 for count in self.centres.values()):
            raise ScoringError("centre counts cannot be negative")

    @property
    def won(self) -> bool:
        """A solo or a concession: one power takes the whole game."""
        return self.kind is not ResultKind.DRAW


Scores = dict[str, Fraction]


def _winner_takes_all(result: FinalResult, points: Fraction = TOTAL) -> Scores:
    return {power: (points if power in result.winners else Fraction(0)) for power in result.centres}


def draw_size(result: FinalResult) -> Scores:
    """Draw-size scoring: the powers of the draw share 100 points equally (a win takes them all)."""
    share = TOTAL / len(result.winners)
    return {power: (share if power in result.winners else Fraction(0)) for power in result.centres}


def sum_of_squares(result: FinalResult) -> Scores:
    """Sum of squares: ``100 * c² / Σ c²`` of every power's final centres (a win takes all 100)."""
    if result.won:
        return _winner_takes_all(result)
    squares = {power: count * count for power, count in result.centres.items()}
    total = sum(squares.values())
    if total == 0:
        return draw_size(result)  # nobody holds a centre: only the draw itself is left to score
    return {power: TOTAL * square / total for power, square in squares.items()}


def place_bonuses(centres: Mapping[str, int], bonuses: Sequence[int]) -> Scores:
    """Each power's share of the place bonuses: powers tied on centres share the places they cover.

    With bonuses (38, 14, 7), counts 9, 7, 7, 4 give 38 to the first and
    (14 + 7) / 2 to each of the two tied second; the fourth gets nothing.
    """
    ranked = sorted(centres.items(), key=lambda item: -item[1])
    out: Scores = {power: Fraction(0) for power in centres}
    place = 0
    while place < len(ranked):
        count = ranked[place][1]
        tied = [power for power, c in ranked[place:] if c == count]
        covered = sum(bonuses[place : place + len(tied)])
        for power in tied:
            out[power] = Fraction(covered, len(tied))
        place += len(tied)
    return out


def c_diplo(result: FinalResult, *, solo: int = 100) -> Scores:
    """C-Diplo: 1 to take part, 1 per centre, 38/14/7 to the first three by centres; a win scores ``solo``."""
    if result.won:
        return _winner_takes_all(result, Fraction(solo))
    bonuses = place_bonuses(result.centres, C_DIPLO_PLACE_BONUSES)
    return {
        power: C_DIPLO_PARTICIPATION + count + bonuses[power] for power, count in result.centres.items()
    }


def c_diplo_73(result: FinalResult) -> Scores:
    """C-Diplo as diplomania-gen.fr publishes it: a solo scores 38 + 34 + 1 = 73 (and 0 for the others)."""
    return c_diplo(result, solo=C_DIPLO_73_SOLO)


@dataclass(frozen=True)
class ScoringSystem:
    """A system a game may be scored by: its key (``extra_settings["scoring"]``), its name, its rule.

    ``name`` is English, marked for translation (the final summary shows it in the reader's language).
    """

    key: str
    name: str
    score: Callable[[FinalResult], Scores]


SYSTEMS: Mapping[str, ScoringSystem] = MappingProxyType({system.key: system for system in (
    ScoringSystem("draw-size", N_("Draw-size scoring"), draw_size),
    ScoringSystem("sum-of-squares", N_("Sum of squares"), sum_of_squares),
    ScoringSystem("c-diplo", N_("C-Diplo"), c_diplo),
    ScoringSystem("c-diplo-73", N_("C-Diplo (73-point solo)"), c_diplo_73),
)})  # fmt: skip
"""Every scoring system this judge has, by key."""

DEFAULT_SYSTEM = "draw-size"

ALIASES: Mapping[str, str] = MappingProxyType({
    "dss": "draw-size", "draw size": "draw-size", "drawsize": "draw-size",
    "sos": "sum-of-squares", "sum of squares": "sum-of-squares", "sumofsquares": "sum-of-squares",
    "cdiplo": "c-diplo", "c-dipo": "c-diplo", "c diplo": "c-diplo", "c-diplo-100": "c-diplo",
    "cdiplo73": "c-diplo-73",
})  # fmt: skip
"""Other spellings of the keys (seed 003 writes "C-Dipo")."""


def system_named(key: str | None) -> ScoringSystem:
    """The system a game's ``extra_settings["scoring"]`` names (None: the default, draw size)."""
    if key is None or not key.strip():
        return SYSTEMS[DEFAULT_SYSTEM]
    wanted = key.strip().lower()
    wanted = ALIASES.get(wanted, wanted)
    if wanted not in SYSTEMS:
        raise ScoringError(f"unknown scoring system {key!r}; known: {', '.join(SYSTEMS)}")
    return SYSTEMS[wanted]


def score(result: FinalResult, key: str | None = None) -> Scores:
    """The scores of ``result`` under the system ``key`` names, in the order of ``result.centres``."""
    return system_named(key).score(result)


def shown(points: Fraction) -> str:
    """A score as the final summary prints it: ``48``, ``18.5``, ``33.33``."""
    if points.denominator == 1:
        return str(points.numerator)
    text = f"{float(points):.2f}".rstrip("0").rstrip(".")
    return text
