"""Reading and writing dates the way the Judge does.

Accepted (case-insensitive, in any order, commas and extra blanks ignored):

* the Judge's free form: any of a week-day name, a month name (three letters
  or more), a day of the month (1-31), a time ``HH:MM`` (``:SS`` allowed), a
  year (four digits, or 81-99 for 19xx), and a trailing numeric offset
  ``+0100``/``-0500`` — so a date copied from a Judge mail
  (``Tue Jan 06 2004 23:30:00 +0000``) reads back to the same instant;
* ISO 8601: ``2026-11-23T23:30:00+01:00``, ``2026-11-23 23:30:00``,
  ``2026-11-23T22:30:00Z``, seconds optional; without an offset the judge's
  zone is meant.

Missing parts are filled as the Judge fills them (njudge ml_date.c):
the time from the role (a deadline takes the phase's clock, or 23:30 if it
has none; an absence starts at 00:00 and runs to the end of its last day);
a year alone means Dec 31, a month alone its last day, a day alone the
current month. A result in the past is rolled forward by the smallest
missing unit (day, then month, then year); still in the past -> error. A
partly given date more than 120 days ahead is refused.

Choices where the Judge differs or is silent:

* A week day alone (``Mon 18:00``) is the first such day whose time is still
  ahead — today if it is still to come; njudge always skipped to next week.
* A week day together with a full date is allowed (players paste the
  Judge's own format) but must agree with it.
* An absence start given as a day alone may be today (the absence is then
  already running); njudge refused it as "in the past".
* The Judge has no relative forms (``+48h``); none are invented here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from enum import Enum
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from judge.core.errors import N_
from judge.timekeeping.clock import require_aware
from judge.timekeeping.errors import DateInPastError, DateSyntaxError, DateTooFarError

GUESS_LIMIT_DAYS = 120
DEFAULT_DEADLINE_TIME = time(23, 30)

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_FULL = ("january", "february", "march", "april", "may", "june", "july", "august",
               "september", "october", "november", "december")
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # Python's order
_WEEKDAY_FULL = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$",
                  re.IGNORECASE)
_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?$")
_OFFSET = re.compile(r"^([+-])(\d{2}):?(\d{2})$")
_TOKEN = re.compile(r"[^\s,]+")


class DateRole(Enum):
    """What the date is for: it decides the default time of day."""

    DEADLINE = "deadline"  # SET DEADLINE / GRACE / START: the phase's clock, else 23:30
    ABSENCE_START = "absence start"  # 00:00
    ABSENCE_END = "absence end"  # end of that day (next 00:00, exclusive)


_DAY_ABBREVIATIONS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTH_ABBREVIATIONS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
# The names a reader is told, marked for the catalogs (``_(name)`` in the reader's language).
_DAY_NAMES = (N_("Monday"), N_("Tuesday"), N_("Wednesday"), N_("Thursday"), N_("Friday"), N_("Saturday"),
              N_("Sunday"))
_MONTH_NAMES = (N_("January"), N_("February"), N_("March"), N_("April"), N_("May"), N_("June"), N_("July"),
                N_("August"), N_("September"), N_("October"), N_("November"), N_("December"))


def format_judge_date(when: datetime, zone: tzinfo) -> str:
    """``Tue Jan 06 2004 23:30:00 +0000``: the Judge's own form, in English whatever the reader's
    language, as the ``:: Deadline:`` header line carries it for the players' tools (and as
    :func:`parse_judge_date` reads it back)."""
    local = require_aware(when, "when").astimezone(zone)
    offset = local.strftime("%z") or "+0000"
    return (
        f"{_DAY_ABBREVIATIONS[local.weekday()]} {_MONTH_ABBREVIATIONS[local.month - 1]} {local.day:02d} "
        f"{local.year:04d} {local.hour:02d}:{local.minute:02d}:{local.second:02d} {offset}"
    )


def tell_date(when: datetime, zone: tzinfo, gettext: Callable[[str], str]) -> str:
    """A moment as a person is told it: in their ``zone`` with the zone's name, then in UTC,
    with the day and month names of their language (``gettext``).

    ``Monday 23 November 2026, 00:30 CET (Europe/Paris), that is Sunday 22 November 2026,
    23:30 UTC``; the UTC part gives only the time when the day is the same, and is left out
    when the zone is UTC. Every date a reader is told goes through here.
    """
    _ = gettext
    local = require_aware(when, "when").astimezone(zone)
    key = str(getattr(zone, "key", "") or "")
    abbreviation = local.tzname() or ""
    if key in _UTC_NAMES and abbreviation in _UTC_NAMES:
        return _("{day}, {time} UTC").format(day=_day(local, _), time=f"{local:%H:%M}")
    named = abbreviation if not key or key == abbreviation else f"{abbreviation} ({key})"
    utc = local.astimezone(UTC)
    at = f"{utc:%H:%M}" if utc.date() == local.date() else _("{day}, {time}").format(
        day=_day(utc, _), time=f"{utc:%H:%M}")
    return _("{day}, {time} {zone}, that is {utc} UTC").format(
        day=_day(local, _), time=f"{local:%H:%M}", zone=named, utc=at)


_UTC_NAMES = frozenset({"UTC", "Etc/UTC", "Etc/UCT", "UCT", "Universal", "Etc/Universal", "Zulu", "Etc/Zulu",
                        "GMT", "Etc/GMT", ""})


def _day(local: datetime, _: Callable[[str], str]) -> str:
    return _("{weekday} {day} {month} {year}").format(
        weekday=_(_DAY_NAMES[local.weekday()]), day=local.day, month=_(_MONTH_NAMES[local.month - 1]),
        year=local.year)


@cache
def _zone_names() -> dict[str, str]:
    """Every IANA zone name the installed tz database knows, by its lower-case form."""
    return {name.lower(): name for name in available_timezones()}


def zone_named(name: str) -> ZoneInfo | None:
    """The IANA time zone ``name`` (``Europe/Paris``, any case), or None when there is no such zone
    (``Mars/Olympus_Mons``, a path, an offset): only names of the tz database are zones."""
    canonical = _zone_names().get(name.strip().lower())
    return ZoneInfo(canonical) if canonical is not None else None


def _word_index(word: str, short: tuple[str, ...], full: tuple[str, ...]) -> int | None:
    """Index of a name given as its three-letter abbreviation or any longer prefix of its full name."""
    if len(word) < 3:
        return None
    for index, name in enumerate(full):
        if name.startswith(word) or word == short[index]:
            return index
    return None


class _Parts:
    """The fields found in a free-form date, each None until seen."""

    def __init__(self) -> None:
        self.weekday: int | None = None
        self.month: int | None = None
        self.day: int | None = None
        self.hour: int | None = None
        self.minute: int | None = None
        self.second: int | None = None
        self.year: int | None = None
        self.offset: timezone | None = None


def _read_parts(text: str) -> _Parts:
    parts = _Parts()
    tokens = _TOKEN.findall(text)
    if not tokens:
        raise DateSyntaxError(text, "no date given")
    for token in tokens:
        word = token.lower().rstrip(".")
        if word.isalpha():
            weekday = _word_index(word, _WEEKDAYS, _WEEKDAY_FULL)
            month = _word_index(word, _MONTHS, _MONTH_FULL)
            if weekday is not None and parts.weekday is None:
                parts.weekday = weekday
            elif month is not None and parts.month is None:
                parts.month = month + 1
            elif word in ("utc", "gmt", "z") and parts.offset is None:
                parts.offset = UTC
            else:
                raise DateSyntaxError(text, f"{token!r} is not a month, a week day or a time")
            continue
        time_match = _TIME.match(word)
        if time_match and parts.hour is None:
            hour, minute = int(time_match.group(1)), int(time_match.group(2))
            second = int(time_match.group(3) or 0)
            if hour > 23 or minute > 59 or second > 59:
                raise DateSyntaxError(text, f"{token!r} is not a time of day")
            parts.hour, parts.minute, parts.second = hour, minute, second
            continue
        offset_match = _OFFSET.match(word)
        if offset_match and parts.offset is None and (word[0] == "-" or word[0] == "+"):
            sign = -1 if offset_match.group(1) == "-" else 1
            hours, minutes = int(offset_match.group(2)), int(offset_match.group(3))
            if hours > 14 or minutes > 59:
                raise DateSyntaxError(text, f"{token!r} is not a time-zone offset")
            parts.offset = timezone(sign * timedelta(hours=hours, minutes=minutes))
            continue
        if word.isdigit():
            value = int(word)
            if len(word) <= 2 and 1 <= value <= 31 and parts.day is None:
                parts.day = value
            elif len(word) == 4 and value > 1900 and parts.year is None:
                parts.year = value
            elif len(word) == 2 and 80 < value < 100 and parts.year is None:
                parts.year = 1900 + value
            else:
                raise DateSyntaxError(text, f"cannot tell what {token!r} is")
            continue
        raise DateSyntaxError(text, f"{token!r} is not a month, a day, a year or a time")
    return parts


def _default_time(role: DateRole, clock: int | None) -> time:
    if role is DateRole.ABSENCE_START or role is DateRole.ABSENCE_END:
        return time(0, 0)
    if clock is None:
        return DEFAULT_DEADLINE_TIME
    return time(clock // 60, clock % 60)


def _instant(day: date, wall: time, zone: ZoneInfo | timezone, role: DateRole,
             time_given: bool) -> datetime:
    if role is DateRole.ABSENCE_END and not time_given:
        day = day + timedelta(days=1)
    return datetime.combine(day, wall, tzinfo=zone).astimezone(UTC)


def _last_day(year: int, month: int) -> int:
    following = date(year + month // 12, month % 12 + 1, 1)
    return (following - timedelta(days=1)).day


def _parse_iso(text: str, zone: ZoneInfo) -> datetime:
    try:
        value = datetime.fromisoformat(text.strip().replace("z", "Z"))
    except ValueError as error:
        raise DateSyntaxError(text, str(error)) from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone)
    return value.astimezone(UTC)


def parse_judge_date(
    text: str,
    *,
    now: datetime,
    zone: ZoneInfo,
    role: DateRole = DateRole.DEADLINE,
    clock: int | None = None,
) -> datetime:
    """Read ``text`` as a future instant (aware, UTC). ``clock`` is the phase's clock parameter.

    Raises DateSyntaxError, DateInPastError or DateTooFarError.
    """
    now = require_aware(now, "now").astimezone(UTC)
    stripped = text.strip()
    if _ISO.match(stripped):
        when = _parse_iso(stripped, zone)
        if when < now:
            raise DateInPastError(text, when.astimezone(zone))
        return when
    parts = _read_parts(stripped)
    place: ZoneInfo | timezone = parts.offset or zone
    today = now.astimezone(place).date()
    time_given = parts.hour is not None
    wall = (time(parts.hour, parts.minute or 0, parts.second or 0) if parts.hour is not None
            else _default_time(role, clock))

    if parts.weekday is not None and parts.day is None and parts.month is None and parts.year is None:
        ahead = (parts.weekday - today.weekday()) % 7
        first = _instant(today + timedelta(days=ahead), wall, place, role, time_given)
        if not _in_past(first, now, role, time_given):
            return first
        return _instant(today + timedelta(days=ahead + 7), wall, place, role, time_given)

    chosen: tuple[date, datetime] | None = None
    for day in _candidate_days(parts, today, text):
        chosen = (day, _instant(day, wall, place, role, time_given))
        if not _in_past(chosen[1], now, role, time_given):
            break
    assert chosen is not None  # _candidate_days yields at least one day or raises
    actual, when = chosen
    if _in_past(when, now, role, time_given):
        raise DateInPastError(text, when.astimezone(zone))
    if parts.weekday is not None and actual.weekday() != parts.weekday:
        raise DateSyntaxError(
            text, f"{actual:%b %d %Y} is a {_WEEKDAY_FULL[actual.weekday()].title()}, "
            f"not a {_WEEKDAY_FULL[parts.weekday].title()}")
    complete = parts.year is not None and parts.month is not None and parts.day is not None
    if not complete and when - now > timedelta(days=GUESS_LIMIT_DAYS):
        raise DateTooFarError(text, when.astimezone(zone), GUESS_LIMIT_DAYS)
    return when


def names_a_day(text: str) -> bool:
    """Whether a free-form date names its day (a week day, a day, a month or a year), not a time alone.

    A time alone ("13:51") means the next such time: today's, or tomorrow's
    once today's has passed; a reply then says which day was taken. An ISO
    8601 date always names its day.
    """
    stripped = text.strip()
    if _ISO.match(stripped):
        return True
    try:
        parts = _read_parts(stripped)
    except DateSyntaxError:
        return False
    return any(field is not None for field in (parts.weekday, parts.day, parts.month, parts.year))


def _in_past(when: datetime, now: datetime, role: DateRole, time_given: bool) -> bool:
    """Is ``when`` over? An absence given by its day alone may start today: that day is not over."""
    if role is DateRole.ABSENCE_START and not time_given:
        return when + timedelta(days=1) <= now
    return when < now


def _valid(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _candidate_days(parts: _Parts, today: date, text: str) -> Iterator[date]:
    """The days the given parts may mean, earliest first, each step rolling the smallest missing unit.

    Only the first day that is not in the past will be used; a fully given
    date has exactly one candidate.
    """
    if parts.day is None and parts.month is None and parts.year is None:
        yield today
        yield today + timedelta(days=1)
        return
    if parts.month is None and parts.year is None:
        assert parts.day is not None
        found = False
        for step in range(13):
            index = today.month - 1 + step
            candidate = _valid(today.year + index // 12, index % 12 + 1, parts.day)
            if candidate is not None:
                found = True
                yield candidate
        if not found:  # pragma: no cover - every day 1-31 exists in some month
            raise DateSyntaxError(text, f"no month has a day {parts.day}")
        return
    month = parts.month if parts.month is not None else 12
    years = [parts.year] if parts.year is not None else [today.year + step for step in range(9)]
    found = False
    for year in years:
        day = parts.day if parts.day is not None else _last_day(year, month)
        candidate = _valid(year, month, day)
        if candidate is not None:
            found = True
            yield candidate
    if not found:
        raise DateSyntaxError(
            text, f"{_MONTH_FULL[month - 1].title()} has no day {parts.day}"
            + (f" in {parts.year}" if parts.year is not None else ""))
