"""The Judge's date forms for SET DEADLINE / GRACE / START / ABSENCE."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from judge.timekeeping.dates import DateRole, format_judge_date, parse_judge_date
from judge.timekeeping.errors import DateInPastError, DateSyntaxError, DateTooFarError

PARIS = ZoneInfo("Europe/Paris")
NOW = datetime(2026, 11, 20, 10, 0, tzinfo=PARIS)  # Friday


def read(text: str, *, now: datetime = NOW, role: DateRole = DateRole.DEADLINE,
         clock: int | None = 1410) -> str:
    return format_judge_date(parse_judge_date(text, now=now, zone=PARIS, role=role, clock=clock), PARIS)


@pytest.mark.parametrize("text, expected", [
    ("Mon Nov 23 2026 23:30", "Mon Nov 23 2026 23:30:00 +0100"),
    ("23:30 Nov 23", "Mon Nov 23 2026 23:30:00 +0100"),
    ("Nov 23 2026", "Mon Nov 23 2026 23:30:00 +0100"),
    ("23 November", "Mon Nov 23 2026 23:30:00 +0100"),
    ("nov 23, 2026 18:00", "Mon Nov 23 2026 18:00:00 +0100"),
    ("Nov 23 18:00:45", "Mon Nov 23 2026 18:00:45 +0100"),
    ("25", "Wed Nov 25 2026 23:30:00 +0100"),
    ("Dec", "Thu Dec 31 2026 23:30:00 +0100"),
    ("2026-11-23T23:30:00+01:00", "Mon Nov 23 2026 23:30:00 +0100"),
    ("2026-11-23T22:30:00Z", "Mon Nov 23 2026 23:30:00 +0100"),
    ("2026-11-23 23:30:00", "Mon Nov 23 2026 23:30:00 +0100"),
    ("2026-11-23T23:30", "Mon Nov 23 2026 23:30:00 +0100"),
    ("Tue Jan 05 2027 23:30:00 +0000", "Wed Jan 06 2027 00:30:00 +0100"),
    ("Nov 23 2026 17:30 -0500", "Mon Nov 23 2026 23:30:00 +0100"),
])
def test_accepted_forms(text: str, expected: str) -> None:
    assert read(text) == expected


def test_the_judges_own_format_reads_back_to_the_same_instant() -> None:
    when = datetime(2026, 12, 1, 22, 15, 30, tzinfo=UTC)
    assert parse_judge_date(format_judge_date(when, PARIS), now=NOW, zone=PARIS) == when


def test_results_are_aware_utc() -> None:
    result = parse_judge_date("Nov 23", now=NOW, zone=PARIS)
    assert result.tzinfo is UTC


def test_default_time_is_the_phase_clock_else_2330() -> None:
    assert read("Nov 23", clock=600) == "Mon Nov 23 2026 10:00:00 +0100"
    assert read("Nov 23", clock=None) == "Mon Nov 23 2026 23:30:00 +0100"


def test_absence_start_is_midnight_and_end_is_the_end_of_that_day() -> None:
    assert read("Nov 23", role=DateRole.ABSENCE_START) == "Mon Nov 23 2026 00:00:00 +0100"
    assert read("Nov 23", role=DateRole.ABSENCE_END) == "Tue Nov 24 2026 00:00:00 +0100"
    assert read("Nov 23 18:00", role=DateRole.ABSENCE_END) == "Mon Nov 23 2026 18:00:00 +0100"
    assert read("Mon", role=DateRole.ABSENCE_END) == "Tue Nov 24 2026 00:00:00 +0100"


def test_week_day_alone_is_the_next_such_day_still_ahead() -> None:
    assert read("Mon") == "Mon Nov 23 2026 23:30:00 +0100"
    assert read("Fri") == "Fri Nov 20 2026 23:30:00 +0100"  # today, still to come
    assert read("friday 9:00") == "Fri Nov 27 2026 09:00:00 +0100"  # today's 9:00 is gone


def test_time_alone_is_today_or_tomorrow() -> None:
    assert read("18:00") == "Fri Nov 20 2026 18:00:00 +0100"
    assert read("9:00") == "Sat Nov 21 2026 09:00:00 +0100"


def test_past_day_of_month_rolls_to_next_month() -> None:
    assert read("19") == "Sat Dec 19 2026 23:30:00 +0100"


def test_past_day_of_month_skips_months_without_it() -> None:
    now = datetime(2027, 1, 31, 23, 45, tzinfo=PARIS)
    assert read("31", now=now) == "Wed Mar 31 2027 23:30:00 +0200"


def test_past_month_and_day_rolls_to_next_year() -> None:
    now = datetime(2026, 12, 20, 10, 0, tzinfo=PARIS)
    assert read("Jan 5", now=now) == "Tue Jan 05 2027 23:30:00 +0100"


def test_a_guess_more_than_120_days_ahead_is_refused() -> None:
    with pytest.raises(DateTooFarError, match="give the year, the month and the day"):
        read("Nov 19")  # yesterday -> next year
    assert read("Nov 19 2027") == "Fri Nov 19 2027 23:30:00 +0100"


def test_fully_given_past_date_is_refused() -> None:
    with pytest.raises(DateInPastError, match="in the past"):
        read("Nov 10 2026")
    with pytest.raises(DateInPastError):
        read("2026-11-20T09:59:59+01:00")
    with pytest.raises(DateInPastError):
        read("Nov 23 95")  # two-digit years are 19xx as in the Judge


@pytest.mark.parametrize("text, fragment", [
    ("", "no date"),
    ("tomorrow", "'tomorrow' is not a month"),
    ("Feb 30", "February has no day 30"),
    ("Feb 29 2027", "February has no day 29 in 2027"),
    ("25:00", "not a time of day"),
    ("Nov 23 2026 12:61", "not a time of day"),
    ("Nov 23 2026 2027", "cannot tell"),
    ("Tue Nov 23 2026", "is a Monday, not a Tuesday"),
    ("2026-13-01T00:00:00", "month"),
    ("Nov 23 +2500", "offset"),
    ("Nov #3", "is not a month"),
])
def test_precise_errors(text: str, fragment: str) -> None:
    with pytest.raises(DateSyntaxError) as caught:
        read(text)
    assert fragment in str(caught.value)
    assert caught.value.text == text


def test_dates_are_read_on_the_judges_wall_clock_across_dst() -> None:
    now = datetime(2026, 3, 27, 10, 0, tzinfo=PARIS)
    assert parse_judge_date("Mar 30 23:30", now=now, zone=PARIS) == datetime(2026, 3, 30, 21, 30, tzinfo=UTC)
    assert parse_judge_date("Mar 27 23:30", now=now, zone=PARIS) == datetime(2026, 3, 27, 22, 30, tzinfo=UTC)


def test_naive_now_is_refused() -> None:
    with pytest.raises(ValueError, match="aware"):
        parse_judge_date("Nov 23", now=datetime(2026, 11, 20), zone=PARIS)


def test_format_judge_date_shape() -> None:
    assert format_judge_date(datetime(2004, 1, 6, 23, 30, tzinfo=UTC), ZoneInfo("UTC")) == \
        "Tue Jan 06 2004 23:30:00 +0000"
    assert format_judge_date(NOW + timedelta(days=200), PARIS) == "Tue Jun 08 2027 10:00:00 +0200"


def test_an_absence_may_start_today() -> None:
    assert read("Nov 20", role=DateRole.ABSENCE_START) == "Fri Nov 20 2026 00:00:00 +0100"
    assert read("Fri", role=DateRole.ABSENCE_START) == "Fri Nov 20 2026 00:00:00 +0100"
    with pytest.raises(DateInPastError):
        read("Nov 20 2026 09:00", role=DateRole.ABSENCE_START)
    with pytest.raises(DateInPastError):
        read("Nov 19 2026", role=DateRole.ABSENCE_START)


def test_a_date_is_told_in_the_reader_s_zone_named_and_in_utc_across_the_change_to_summer_time() -> None:
    from judge.i18n import translation
    from judge.timekeeping.dates import tell_date, zone_named

    english, french = translation("en").gettext, translation("fr").gettext
    paris, new_york = zone_named("Europe/Paris"), zone_named("America/New_York")
    assert paris is not None and new_york is not None
    winter = datetime(2027, 1, 15, 22, 30, tzinfo=UTC)
    between = datetime(2027, 3, 20, 22, 30, tzinfo=UTC)  # New York already on summer time, Paris not
    summer = datetime(2027, 4, 2, 22, 30, tzinfo=UTC)
    assert tell_date(winter, paris, english) == "Friday 15 January 2027, 23:30 CET (Europe/Paris), that is 22:30 UTC"
    assert tell_date(summer, paris, english) == (
        "Saturday 3 April 2027, 00:30 CEST (Europe/Paris), that is Friday 2 April 2027, 22:30 UTC")
    assert tell_date(winter, new_york, english) == (
        "Friday 15 January 2027, 17:30 EST (America/New_York), that is 22:30 UTC")
    assert tell_date(between, new_york, english) == (
        "Saturday 20 March 2027, 18:30 EDT (America/New_York), that is 22:30 UTC")
    assert tell_date(between, paris, english) == "Saturday 20 March 2027, 23:30 CET (Europe/Paris), that is 22:30 UTC"
    assert tell_date(summer, paris, french) == "samedi 3 avril 2027, 00:30 CEST (Europe/Paris), soit vendredi 2 avril 2027, 22:30 UTC"
    assert tell_date(winter, ZoneInfo("UTC"), french) == "vendredi 15 janvier 2027, 22:30 UTC"


def test_only_names_of_the_tz_database_are_zones() -> None:
    from judge.timekeeping.dates import zone_named

    assert zone_named("Mars/Olympus_Mons") is None
    assert zone_named("../../etc/passwd") is None
    assert zone_named("+0100") is None
    assert zone_named("") is None
    found = zone_named(" america/new_york ")
    assert found is not None and found.key == "America/New_York"
