"""Per-address rate limiting with a fake clock: a flood is answered once, then dropped."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from judge.mail.ratelimit import RateCheck, RateDecision, RateLimiter, flood_end, next_decision

T0 = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def test_under_the_limit_everything_is_allowed() -> None:
    limiter = RateLimiter(limit=3, window=timedelta(hours=1))
    decisions = [limiter.decide("a@x.org", T0 + i * 30 * MINUTE) for i in range(10)]
    assert decisions == [RateDecision.ALLOW] * 10  # never more than 2 in an hour


def test_a_flood_is_answered_once_then_dropped() -> None:
    limiter = RateLimiter(limit=3, window=timedelta(hours=1))
    decisions = [limiter.decide("a@x.org", T0 + i * MINUTE) for i in range(8)]
    assert (
        decisions == [RateDecision.ALLOW] * 3 + [RateDecision.WARN_ONCE] + [RateDecision.DROP] * 4
    )


def test_the_flood_ends_after_a_quiet_window_and_warns_again_next_time() -> None:
    limiter = RateLimiter(limit=2, window=timedelta(hours=1))
    for i in range(5):
        limiter.decide("a@x.org", T0 + i * MINUTE)
    later = T0 + 4 * MINUTE + timedelta(hours=1, seconds=1)
    assert limiter.decide("a@x.org", later) is RateDecision.ALLOW
    assert limiter.decide("a@x.org", later + MINUTE) is RateDecision.ALLOW
    assert limiter.decide("a@x.org", later + 2 * MINUTE) is RateDecision.WARN_ONCE
    assert limiter.decide("a@x.org", later + 3 * MINUTE) is RateDecision.DROP


def test_a_robot_that_never_pauses_stays_dropped() -> None:
    limiter = RateLimiter(limit=2, window=timedelta(minutes=10))
    decisions = [limiter.decide("loop@x.org", T0 + i * MINUTE) for i in range(60)]
    assert decisions.count(RateDecision.WARN_ONCE) == 1
    assert decisions[3:] == [RateDecision.DROP] * 57


def test_addresses_are_counted_separately_and_case_insensitively() -> None:
    limiter = RateLimiter(limit=1, window=timedelta(hours=1))
    assert limiter.decide("A@X.org", T0) is RateDecision.ALLOW
    assert limiter.decide("b@x.org", T0) is RateDecision.ALLOW
    assert limiter.decide("a@x.ORG", T0 + MINUTE) is RateDecision.WARN_ONCE


def test_exempt_addresses_and_a_disabled_limit() -> None:
    limiter = RateLimiter.for_addresses(1, timedelta(hours=1), exempt=["Admin@x.org"])
    assert all(limiter.decide("admin@x.org", T0) is RateDecision.ALLOW for _ in range(10))
    disabled = RateLimiter(limit=0, window=timedelta(hours=1))
    assert all(disabled.decide("a@x.org", T0) is RateDecision.ALLOW for _ in range(10))


def test_idle_addresses_are_forgotten() -> None:
    limiter = RateLimiter(limit=5, window=timedelta(hours=1))
    limiter.decide("a@x.org", T0)
    limiter.decide("b@x.org", T0 + timedelta(minutes=50))
    limiter.forget_idle(T0 + timedelta(minutes=90))
    assert limiter.tracked_addresses == 1


def test_an_address_quiet_for_exactly_a_window_is_forgotten_one_second_less_is_not() -> None:
    """The edge of forget_idle: a last mail exactly one window old is forgotten (it would be allowed
    anyway), one a second younger is kept."""
    limiter = RateLimiter(limit=5, window=timedelta(hours=1))
    limiter.decide("a@x.org", T0)
    limiter.forget_idle(T0 + timedelta(hours=1) - timedelta(seconds=1))
    assert limiter.tracked_addresses == 1
    limiter.forget_idle(T0 + timedelta(hours=1))
    assert limiter.tracked_addresses == 0


def test_naive_datetimes_are_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        RateLimiter(limit=1, window=MINUTE).decide("a@x.org", datetime(2026, 1, 1))


# --- when a flood ends: the window's edges, pinned with fixed times --------------------------

HOUR = timedelta(hours=1)
NINE = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


def _flooding(limit: int = 3) -> RateLimiter:
    """Three mails at 09:00, 09:10, 09:20, then a fourth at 09:30: the flood starts (warned)."""
    limiter = RateLimiter(limit=limit, window=HOUR)
    for minutes in (0, 10, 20):
        assert limiter.decide("a@x.org", NINE + minutes * MINUTE) is RateDecision.ALLOW
    return limiter


def test_the_warning_knows_when_the_flood_ends() -> None:
    check = _flooding().check("a@x.org", NINE + 30 * MINUTE)
    # The last three arrivals are 09:10, 09:20, 09:30: the next mail is read from 10:10:00 on.
    assert check == RateCheck(RateDecision.WARN_ONCE, datetime(2026, 11, 22, 10, 10, tzinfo=UTC))


def test_one_second_before_the_end_is_still_the_flood() -> None:
    limiter = _flooding()
    limiter.decide("a@x.org", NINE + 30 * MINUTE)
    check = limiter.check("a@x.org", datetime(2026, 11, 22, 10, 9, 59, tzinfo=UTC))
    assert check.decision is RateDecision.DROP
    # ... and that mail counts: the end moves to an hour after 09:20 (arrivals 09:20, 09:30, 10:09:59).
    assert check.until == datetime(2026, 11, 22, 10, 20, tzinfo=UTC)


def test_at_the_end_the_mail_is_read() -> None:
    limiter = _flooding()
    limiter.decide("a@x.org", NINE + 30 * MINUTE)
    assert limiter.check("a@x.org", datetime(2026, 11, 22, 10, 10, tzinfo=UTC)) == RateCheck(RateDecision.ALLOW)


@pytest.mark.parametrize(
    ("remembered", "end"),
    [
        ((NINE, NINE + MINUTE, NINE + 2 * MINUTE), NINE + HOUR),
        ((NINE + MINUTE, NINE + 2 * MINUTE), None),  # fewer than the limit: no flood
        ((NINE - HOUR, NINE, NINE + MINUTE, NINE + 2 * MINUTE), NINE + HOUR),  # only the last three count
    ],
)
def test_flood_end_is_an_hour_after_the_oldest_of_the_last_limit_arrivals(
    remembered: tuple[datetime, ...], end: datetime | None
) -> None:
    assert flood_end(remembered, 3, HOUR) == end
    if end is not None:  # the decision agrees with the end, one second either side
        assert next_decision(remembered, True, end - timedelta(seconds=1), 3, HOUR)[0] is RateDecision.DROP
        assert next_decision(remembered, True, end, 3, HOUR)[0] is RateDecision.ALLOW


def test_a_limit_of_one_mail_ends_its_flood_a_window_after_that_mail() -> None:
    assert flood_end((NINE,), 1, HOUR) == NINE + HOUR
    assert flood_end((NINE - HOUR, NINE), 1, HOUR) == NINE + HOUR
    assert flood_end((), 1, HOUR) is None
    assert flood_end((), 0, HOUR) is None  # a limit of 0 is no limit: never a flood
    assert flood_end((NINE,), 0, HOUR) is None


class _TableStore:
    """A store that is not the memory one (as the database's table): the limiter counts nothing."""

    def __init__(self) -> None:
        self.rows: dict[str, tuple[tuple[datetime, ...], bool]] = {}

    def load(self, key: str) -> tuple[tuple[datetime, ...], bool]:
        return self.rows.get(key, ((), False))

    def save(self, key: str, arrivals: Sequence[datetime], warned: bool, now: datetime) -> None:
        self.rows[key] = (tuple(arrivals), warned)


def test_only_a_memory_store_reports_how_many_senders_it_tracks() -> None:
    memory = RateLimiter(3, HOUR)
    memory.check("a@example.org", NINE)
    assert memory.tracked_addresses == 1
    table = RateLimiter(3, HOUR).with_store(_TableStore())
    table.check("a@example.org", NINE)
    assert table.tracked_addresses == 0
