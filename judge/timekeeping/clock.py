"""Where "now" comes from: a protocol, the real clock and a fake one for tests.

No rule in judge.timekeeping reads the clock itself; each takes ``now``. The
edges (scheduler, mail handlers) hold a Clock and pass ``clock.now()`` in, so a
test can run weeks of game time in milliseconds by advancing a FakeClock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


def require_aware(when: datetime, what: str = "time") -> datetime:
    """Return ``when`` unchanged, or raise if it has no time zone.

    A naive datetime is ambiguous (judge zone? UTC? the server's?), so every
    public function refuses one instead of guessing.
    """
    if when.tzinfo is None or when.tzinfo.utcoffset(when) is None:
        raise ValueError(f"{what} must be timezone-aware, got {when!r}")
    return when


class Clock(Protocol):
    """Anything that can tell the current time as an aware datetime."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real clock, in UTC (the judge's zone is applied only when formatting)."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FakeClock:
    """A clock that only moves when a test moves it, and never backwards.

    Refusing to go back mirrors the real world and catches tests that would
    otherwise "travel" into a state the judge can never be in.
    """

    def __init__(self, start: datetime) -> None:
        self._now = require_aware(start, "start").astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta | None = None, *, hours: float = 0, minutes: float = 0,
                days: float = 0, seconds: float = 0) -> datetime:
        """Move forward by ``delta`` and/or the given amounts; return the new now."""
        step = (delta or timedelta()) + timedelta(days=days, hours=hours, minutes=minutes,
                                                  seconds=seconds)
        if step < timedelta():
            raise ValueError(f"a FakeClock cannot go backwards (asked for {step})")
        self._now += step
        return self._now

    def set(self, when: datetime) -> datetime:
        """Jump to ``when`` (not earlier than the current time)."""
        target = require_aware(when, "when").astimezone(UTC)
        if target < self._now:
            raise ValueError(f"a FakeClock cannot go backwards from {self._now} to {target}")
        self._now = target
        return self._now
