"""The Judge's schedule parameters, per phase type: clock, min, next, grace, delay, days.

Defaults are those of njudge 1.7.6 as it runs (its C code), which differ from
its older help files (72/168/24/72, ``--TWTF-``):

    Move    clock 1410 min 12.00 next 71.00 grace 167.00 delay 0.50 days -MTWTF-
    Retreat clock   -1 min  0.00 next 23.00 grace  71.00 delay 0.50 days -mTWTF-
    Adjust  clock   -1 min  0.00 next 23.00 grace  71.00 delay 0.50 days -mTWTF-

The code's ``-mTWTF-`` for retreats and adjustments (Monday only after noon)
is kept rather than the docs' ``-MTWTF-``: it is what players of the Judge
actually got, and it spares them a Monday-morning deadline after a weekend.

* clock: minutes after midnight (judge zone) at which deadlines fall; ``-1``
  (stored as None) = no snapping.
* min: hours after the phase starts before it may be processed at all.
* next: hours from processing to the next deadline (before snapping).
* grace: hours after the deadline before a late power is abandoned / put in CD.
* delay: hours after the last orders before early processing.
* days: seven characters Sunday..Saturday; upper case = allowed, lower case =
  allowed from 12:00 only, ``-`` = never. At least one day must be allowed.

Hours are elapsed time (a 23-hour ``next`` is 23 real hours even across a
daylight-saving change); ``clock`` and ``days`` are read on the judge's wall
clock. Values are bounded (hours at most one year) to catch typos early.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import timedelta
from enum import Enum, StrEnum

from judge.core.phase import PhaseType
from judge.timekeeping.errors import ScheduleError

MAX_HOURS = 24 * 366
NMR_MIN_SAFE_GRACE_HOURS = 36.0
_DAY_LETTERS = "SMTWTFS"
_DAY_NAMES = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")


class DayRule(Enum):
    """What a ``days`` letter allows on that week day."""

    NEVER = "never"
    AFTERNOON = "afternoon"
    ALL_DAY = "all day"


@dataclass(frozen=True, slots=True)
class WeekDays:
    """The ``days`` parameter, e.g. ``-MTWTF-``; index 0 is Sunday as in the Judge."""

    pattern: str

    def __post_init__(self) -> None:
        if len(self.pattern) != 7:
            raise ScheduleError("DAYS", self.pattern,
                                "give seven characters, Sunday to Saturday, e.g. -MTWTF-")
        for index, char in enumerate(self.pattern):
            if char != "-" and char.upper() != _DAY_LETTERS[index]:
                raise ScheduleError(
                    "DAYS", self.pattern,
                    f"position {index + 1} is {_DAY_NAMES[index]}: use {_DAY_LETTERS[index]}, "
                    f"{_DAY_LETTERS[index].lower()} or -",
                )
        if set(self.pattern) == {"-"}:
            raise ScheduleError("DAYS", self.pattern, "at least one day must be allowed")

    def rule(self, python_weekday: int) -> DayRule:
        """The rule for a day given as Python numbers it (Monday = 0 ... Sunday = 6)."""
        char = self.pattern[(python_weekday + 1) % 7]
        if char == "-":
            return DayRule.NEVER
        return DayRule.AFTERNOON if char.islower() else DayRule.ALL_DAY

    def __str__(self) -> str:
        return self.pattern


class ScheduleKind(StrEnum):
    """The three schedules of a game, named as in SET MOVE|RETREAT|ADJUST."""

    MOVE = "move"
    RETREAT = "retreat"
    ADJUST = "adjust"

    @classmethod
    def of(cls, phase_type: PhaseType) -> ScheduleKind:
        return {
            PhaseType.MOVEMENT: cls.MOVE,
            PhaseType.RETREAT: cls.RETREAT,
            PhaseType.ADJUSTMENT: cls.ADJUST,
        }[phase_type]

    @classmethod
    def parse(cls, word: str) -> ScheduleKind:
        """Read MOVE(S), MOVEMENT(S), RETREAT(S), ADJUST(S), ADJUSTMENT(S), BUILD(S)."""
        key = word.strip().upper()
        for kind, words in _KIND_WORDS.items():
            if key in words:
                return kind
        raise ScheduleError("SET", word, "expected MOVE, RETREAT or ADJUST (or BUILD)")


_KIND_WORDS: dict[ScheduleKind, frozenset[str]] = {
    ScheduleKind.MOVE: frozenset({"MOVE", "MOVES", "MOVEMENT", "MOVEMENTS"}),
    ScheduleKind.RETREAT: frozenset({"RETREAT", "RETREATS"}),
    ScheduleKind.ADJUST: frozenset({"ADJUST", "ADJUSTS", "ADJUSTMENT", "ADJUSTMENTS",
                                    "BUILD", "BUILDS"}),
}


@dataclass(frozen=True, slots=True)
class PhaseSchedule:
    """How deadlines of one phase type are computed. ``clock`` None = no snapping."""

    clock: int | None
    min_hours: float
    next_hours: float
    grace_hours: float
    delay_hours: float
    days: WeekDays

    def __post_init__(self) -> None:
        if self.clock is not None and not 0 <= self.clock < 24 * 60:
            raise ScheduleError("CLOCK", str(self.clock),
                                "minutes after midnight, 0 to 1439, or -1 for none")
        if (self.clock is not None and self.clock < 12 * 60
                and not any(char.isupper() for char in self.days.pattern)):
            raise ScheduleError(
                "DAYS", str(self.days),
                f"with the clock at {self.clock // 60:02d}:{self.clock % 60:02d} (before noon) "
                "lower-case days can never hold a deadline; allow one day in capitals",
            )
        for name, value in (("MIN", self.min_hours), ("NEXT", self.next_hours),
                            ("GRACE", self.grace_hours), ("DELAY", self.delay_hours)):
            if not 0 <= value <= MAX_HOURS:
                raise ScheduleError(name, f"{value:g}", f"hours from 0 to {MAX_HOURS}")

    @property
    def minimum(self) -> timedelta:
        return timedelta(hours=self.min_hours)

    @property
    def next(self) -> timedelta:
        return timedelta(hours=self.next_hours)

    @property
    def grace(self) -> timedelta:
        return timedelta(hours=self.grace_hours)

    @property
    def delay(self) -> timedelta:
        return timedelta(hours=self.delay_hours)

    def format(self) -> str:
        """The Judge's one-line form: ``clock 1410 min 12.00 next 71.00 grace 167.00 delay 0.50 days -MTWTF-``."""
        clock = -1 if self.clock is None else self.clock
        return (f"clock {clock:4d} min {self.min_hours:5.2f} next {self.next_hours:5.2f} "
                f"grace {self.grace_hours:6.2f} delay {self.delay_hours:4.2f} days {self.days}")

    def with_settings(self, text: str) -> PhaseSchedule:
        """Apply ``CLOCK 1410 NEXT 48 DELAY 1.0 ...`` (what follows SET MOVE) and return the result.

        Keywords are case-insensitive and may come in any order; the last one
        given wins. CLOCK also accepts ``HH:MM`` (an addition: 23:30 is easier
        to get right than 1410); any negative clock means "none".
        """
        tokens = text.replace(",", " ").split()
        if not tokens:
            raise ScheduleError("SET", text, "expected CLOCK, MIN, NEXT, GRACE, DELAY or DAYS and a value")
        changes: dict[str, object] = {}
        index = 0
        while index < len(tokens):
            keyword = tokens[index].upper()
            field = _FIELD_OF.get(keyword)
            if field is None:
                raise ScheduleError("SET", tokens[index],
                                    "expected CLOCK, MIN, NEXT, GRACE, DELAY or DAYS")
            if index + 1 >= len(tokens):
                raise ScheduleError(keyword, "", "a value is missing")
            value = tokens[index + 1]
            if field == "clock":
                changes[field] = parse_clock(value)
            elif field == "days":
                changes[field] = WeekDays(value)
            else:
                changes[field] = parse_hours(keyword, value)
            index += 2
        return replace(self, **changes)  # type: ignore[arg-type]


_FIELD_OF = {
    "CLOCK": "clock",
    "MIN": "min_hours",
    "MINIMUM": "min_hours",
    "NEXT": "next_hours",
    "GRACE": "grace_hours",
    "DELAY": "delay_hours",
    "DAYS": "days",
}
_HHMM = re.compile(r"^(\d{1,2}):(\d{2})$")


def parse_clock(text: str) -> int | None:
    """Read a clock value: minutes after midnight (``1410``), ``HH:MM``, or negative for none."""
    match = _HHMM.match(text.strip())
    if match:
        hours, minutes = int(match.group(1)), int(match.group(2))
        if hours > 23 or minutes > 59:
            raise ScheduleError("CLOCK", text, "not a time of day")
        return hours * 60 + minutes
    try:
        value = int(text)
    except ValueError:
        raise ScheduleError("CLOCK", text, "minutes after midnight (e.g. 1410) or HH:MM") from None
    if value < 0:
        return None
    if value >= 24 * 60:
        raise ScheduleError("CLOCK", text, "minutes after midnight, 0 to 1439, or -1 for none")
    return value


def parse_hours(parameter: str, text: str) -> float:
    """Read an hours value such as ``12``, ``0.5`` or ``71.00``."""
    try:
        value = float(text)
    except ValueError:
        raise ScheduleError(parameter, text, "a number of hours, e.g. 48 or 0.5") from None
    if value != value or not 0 <= value <= MAX_HOURS:  # value != value: NaN
        raise ScheduleError(parameter, text, f"hours from 0 to {MAX_HOURS}")
    return value


DEFAULT_MOVE = PhaseSchedule(clock=1410, min_hours=12, next_hours=71, grace_hours=167,
                             delay_hours=0.5, days=WeekDays("-MTWTF-"))
DEFAULT_RETREAT = PhaseSchedule(clock=None, min_hours=0, next_hours=23, grace_hours=71,
                                delay_hours=0.5, days=WeekDays("-mTWTF-"))
DEFAULT_ADJUST = PhaseSchedule(clock=None, min_hours=0, next_hours=23, grace_hours=71,
                               delay_hours=0.5, days=WeekDays("-mTWTF-"))


@dataclass(frozen=True, slots=True)
class Schedule:
    """The three schedules of a game."""

    move: PhaseSchedule = DEFAULT_MOVE
    retreat: PhaseSchedule = DEFAULT_RETREAT
    adjust: PhaseSchedule = DEFAULT_ADJUST

    def of(self, kind: ScheduleKind) -> PhaseSchedule:
        return {ScheduleKind.MOVE: self.move, ScheduleKind.RETREAT: self.retreat,
                ScheduleKind.ADJUST: self.adjust}[kind]

    def for_phase(self, phase_type: PhaseType) -> PhaseSchedule:
        return self.of(ScheduleKind.of(phase_type))

    def with_kind(self, kind: ScheduleKind, schedule: PhaseSchedule) -> Schedule:
        return replace(self, **{kind.value: schedule})

    def apply_set(self, text: str) -> Schedule:
        """Apply the rest of a ``SET MOVES NEXT 48.0 DELAY 1.0`` line (from MOVES on)."""
        parts = text.strip().split(None, 1)
        if not parts:
            raise ScheduleError("SET", text, "expected MOVE, RETREAT or ADJUST")
        kind = ScheduleKind.parse(parts[0])
        rest = parts[1] if len(parts) > 1 else ""
        return self.with_kind(kind, self.of(kind).with_settings(rest))

    def format(self) -> str:
        """The three lines shown by LIST and in Parameter Change notices."""
        return "\n".join(
            f"{label:<8}{self.of(kind).format()}"
            for label, kind in (("Move", ScheduleKind.MOVE), ("Retreat", ScheduleKind.RETREAT),
                                ("Adjust", ScheduleKind.ADJUST))
        )

    def nmr_grace_warning(self) -> tuple[ScheduleKind, ...]:
        """Kinds whose grace is shorter than 36 h: in an NMR game the Judge warns the master
        because a power could go into civil disorder before it has had a full day's notice."""
        return tuple(kind for kind in ScheduleKind
                     if self.of(kind).grace_hours < NMR_MIN_SAFE_GRACE_HOURS)


DEFAULT_SCHEDULE = Schedule()
