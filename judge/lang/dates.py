"""Reading the Judge's dates and phases as players write them in commands.

Dates (``SET DEADLINE``, ``SET ABSENCE``, ``HISTORY FROM``) are any
combination of a weekday, a day of the month, a month (English, three letters
or more), a year (four digits, or two: 80-99 = 1980-1999, as the Judge had it)
and a time ``hh:mm`` (24 hours); a comma may follow the day. A trailing
offset (``+0000``, ``UTC``) and ISO 8601 are accepted too, as the deadline
code reads them. What is read is
a :class:`DateSpec`: the parts as given, not a point in time. Turning it into
one needs the clock and the judge's time zone, which the parser has neither
of; the deadline code does that (an omitted year is the next such date, an
omitted time 00:00, as the Judge did).

Phases (``PHASE``, ``PROCESS``, ``HISTORY EXCLSTART``) are ``season year
phase`` where the first letter counts (``Fall 1905 Movement``, ``f 1905 m``),
or the compact ``F1905M``; French initials are accepted too (Printemps,
Automne, Hiver; Mouvement, Retraite, Ajustement).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass

from judge.core.errors import PhaseError
from judge.core.phase import Phase, PhaseType, Season
from judge.lang.errors import N_, CommandError, Message

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?$")
_OFFSET = re.compile(r"^[+-]\d{2}:?\d{2}$")
_ISO = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$",
    re.IGNORECASE,
)
_PIECE = re.compile(r"[^\s,]+")


@dataclass(frozen=True, slots=True)
class DateSpec:
    """A date as written: ``text`` verbatim, and the parts that were read from it.

    Every part is optional; the meaning is settled later with a clock and a
    time zone (:func:`judge.timekeeping.dates.parse_judge_date` reads
    ``text``). ``weekday`` is 0 (Monday) to 6 (Sunday), ``month`` 1 to 12.
    """

    text: str
    weekday: int | None = None
    day: int | None = None
    month: int | None = None
    year: int | None = None
    hour: int | None = None
    minute: int | None = None

    def __str__(self) -> str:
        return self.text


def _prefix_of(word: str, names: tuple[str, ...]) -> int | None:
    """Index of the name ``word`` abbreviates (three letters or more), or None."""
    if len(word) < 3:
        return None
    for index, name in enumerate(names):
        if name.startswith(word):
            return index
    return None


def read_date(text: str, column: int = 1) -> DateSpec:
    """Read a date; ``column`` is where ``text`` starts in its line, for error columns.

    Accepts what the deadline code accepts (the Judge's free form, a trailing
    ``+0000`` offset or ``UTC``, ISO 8601). Raises :class:`CommandError`
    naming the word that cannot be read.
    """
    stripped = text.strip()
    if not stripped:
        raise CommandError(Message(N_("A date is missing here (e.g. 'Mon 23:30', '5 Jan 2024').")), column)
    iso = _ISO.match(stripped)
    if iso:
        iso_year, iso_month, iso_day = int(iso.group(1)), int(iso.group(2)), int(iso.group(3))
        iso_hour = int(iso.group(4)) if iso.group(4) else None
        iso_minute = int(iso.group(5)) if iso.group(5) else None
        _check_day(stripped, iso_year, iso_month, iso_day, column)
        return DateSpec(stripped, None, iso_day, iso_month, iso_year, iso_hour, iso_minute)
    weekday: int | None = None
    day: int | None = None
    month: int | None = None
    year: int | None = None
    hour: int | None = None
    minute: int | None = None
    for match in _PIECE.finditer(text):
        token = match.group()
        word = token.lower().rstrip(".")
        where = column + match.start()
        time = _TIME.match(word)
        if time and hour is None:
            hour, minute = int(time.group(1)), int(time.group(2))
            if hour > 23 or minute > 59 or int(time.group(3) or 0) > 59:
                raise CommandError(Message(N_("Not a time of day (00:00 to 23:59) -> {token}"), token=token), where)
        elif _OFFSET.match(word) or word in ("utc", "gmt", "z"):
            continue
        elif word.isdigit():
            value = int(word)
            if len(word) <= 2 and 1 <= value <= 31 and day is None:
                day = value
            elif len(word) == 4 and value > 1900 and year is None:
                year = value
            elif len(word) == 2 and value >= 80 and year is None:
                year = 1900 + value
            else:
                raise CommandError(Message(N_("Cannot tell what this number is in a date -> {token}"), token=token), where)
        elif (index := _prefix_of(word, _WEEKDAYS)) is not None and weekday is None:
            weekday = index
        elif (index := _prefix_of(word, _MONTHS)) is not None and month is None:
            month = index + 1
        else:
            raise CommandError(
                Message(N_("Cannot read date -> {token} (use e.g. 'Mon 23:30', '5 Jan 2024 23:30')"), token=token), where
            )
    if day is not None and month is not None:
        _check_day(stripped, year if year is not None else 2000, month, day, column)
    return DateSpec(stripped, weekday, day, month, year, hour, minute)


def _check_day(text: str, year: int, month: int, day: int, column: int) -> None:
    if not 1 <= month <= 12 or not 1 <= day <= calendar.monthrange(year, month)[1]:
        raise CommandError(Message(N_("There is no such day -> {text}"), text=text), column)


_SEASONS = {"s": Season.SPRING, "p": Season.SPRING, "f": Season.FALL, "a": Season.FALL, "w": Season.WINTER, "h": Season.WINTER}
_PHASE_TYPES = {"m": PhaseType.MOVEMENT, "r": PhaseType.RETREAT, "a": PhaseType.ADJUSTMENT, "b": PhaseType.ADJUSTMENT}


def read_phase(text: str, column: int = 1) -> Phase:
    """Read ``Fall 1905 Movement`` / ``f 1905 m`` / ``F1905M``; raises :class:`CommandError`."""
    words = text.split()
    if len(words) == 1:
        try:
            phase = Phase.parse(words[0])
        except PhaseError as error:
            raise CommandError(Message(N_("Cannot read phase -> {word}: {error}"), word=words[0], error=error), column) from None
        if phase.season is Season.SUMMER:  # the core knows U1454M (issue 33); no game plays it yet
            raise CommandError(Message(N_("There are no summer phases in this game -> {season_word}"), season_word=words[0]), column)
        return phase
    if len(words) != 3:
        raise CommandError(
            Message(N_("A phase is a season, a year and a phase, e.g. 'Fall 1905 Movement' -> {text}"), text=text.strip()),
            column,
        )
    season_word, year_word, type_word = words
    season_letter = season_word[0].lower()
    if season_letter in ("u", "e", "é") or season_word.lower().startswith("su"):
        raise CommandError(Message(N_("There are no summer phases in this game -> {season_word}"), season_word=season_word), column)
    season = _SEASONS.get(season_letter)
    if season is None:
        raise CommandError(Message(N_("Unknown season -> {season_word} (Spring, Fall or Winter)"), season_word=season_word), column)
    if not year_word.isdigit() or len(year_word) > 5:
        raise CommandError(Message(N_("Not a year -> {year_word}"), year_word=year_word), column + text.find(year_word))
    phase_type = _PHASE_TYPES.get(type_word[0].lower())
    if phase_type is None:
        raise CommandError(
            Message(N_("Unknown phase -> {type_word} (Movement, Retreat, Adjustment or Build)"), type_word=type_word),
            column + text.rfind(type_word),
        )
    year = int(year_word)
    if type_word[0].lower() == "b" and season is Season.FALL:
        season = Season.WINTER
    if season is Season.WINTER and phase_type is not PhaseType.ADJUSTMENT:
        raise CommandError(Message(N_("Winter has only an adjustment phase -> {text}"), text=text.strip()), column)
    try:
        return Phase.of(season, year, phase_type)
    except PhaseError as error:
        raise CommandError(Message(N_("{error} -> {text}"), error=error, text=text.strip()), column) from None
