from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from judge.timekeeping.clock import Clock, FakeClock, SystemClock, require_aware

T0 = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)


def test_fake_clock_advances_and_jumps() -> None:
    clock = FakeClock(T0)
    assert clock.now() == T0
    assert clock.advance(hours=2, minutes=30) == T0 + timedelta(hours=2, minutes=30)
    assert clock.advance(timedelta(days=1)) == T0 + timedelta(days=1, hours=2, minutes=30)
    target = datetime(2026, 12, 1, 12, 0, tzinfo=ZoneInfo("Europe/Paris"))
    assert clock.set(target) == target
    assert clock.now().tzinfo is UTC


def test_fake_clock_never_goes_backwards() -> None:
    clock = FakeClock(T0)
    with pytest.raises(ValueError, match="backwards"):
        clock.advance(hours=-1)
    with pytest.raises(ValueError, match="backwards"):
        clock.set(T0 - timedelta(seconds=1))


def test_naive_datetimes_are_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        FakeClock(datetime(2026, 1, 1))
    with pytest.raises(ValueError, match="timezone-aware"):
        require_aware(datetime(2026, 1, 1), "deadline")


def test_system_clock_is_aware_and_satisfies_the_protocol() -> None:
    clocks: list[Clock] = [SystemClock(), FakeClock(T0)]
    for clock in clocks:
        assert clock.now().utcoffset() == timedelta(0)
