"""Per-address flood control: answer a flood once, then drop it quietly.

A player's broken client, a forwarding loop or a prankster can send hundreds
of mails a minute. Each would cost a transaction and a reply; the reply could
feed the loop. The limiter counts every mail an address sends in a sliding
window; past the limit the first mail gets one warning reply and the rest are
stored unanswered until the address has been quiet long enough.

Time is passed in, so tests replay floods without sleeping. Memory per address
is bounded by the limit. Not thread-safe: one worker owns one limiter.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum


class RateDecision(StrEnum):
    ALLOW = "allow"  # process and answer as usual
    WARN_ONCE = "warn-once"  # the flood starts: answer once, saying further mail is ignored
    DROP = "drop"  # in a flood already warned about: store, do not answer


@dataclass
class _AddressHistory:
    arrivals: deque[datetime]
    warned: bool = False


@dataclass
class RateLimiter:
    """At most ``limit`` mails per address in any ``window``; ``limit <= 0`` disables the limit.

    Every arrival counts, dropped ones included, so a looping robot stays
    dropped until it pauses for a whole window.
    """

    limit: int
    window: timedelta
    exempt: frozenset[str] = frozenset()
    _histories: dict[str, _AddressHistory] = field(default_factory=dict, init=False, repr=False)
    _calls: int = field(default=0, init=False, repr=False)

    @classmethod
    def for_addresses(
        cls, limit: int, window: timedelta, exempt: Iterable[str] = ()
    ) -> RateLimiter:
        """A limiter that never limits ``exempt`` (say, the administrator)."""
        return cls(limit, window, frozenset(a.strip().lower() for a in exempt))

    def decide(self, address: str, now: datetime) -> RateDecision:
        """Record one mail from ``address`` at ``now`` and say what to do with it."""
        if now.tzinfo is None:
            raise ValueError("RateLimiter needs timezone-aware datetimes")
        key = address.strip().lower()
        if self.limit <= 0 or key in self.exempt:
            return RateDecision.ALLOW
        self._calls += 1
        if self._calls % 1024 == 0:
            self.forget_idle(now)
        history = self._histories.get(key)
        if history is None:
            history = self._histories[key] = _AddressHistory(deque(maxlen=self.limit))
        arrivals = history.arrivals
        # The deque holds the last `limit` arrivals; the flood is on while the
        # oldest of them is still inside the window.
        flooding = len(arrivals) == self.limit and arrivals[0] > now - self.window
        arrivals.append(now)
        if not flooding:
            history.warned = False
            return RateDecision.ALLOW
        if history.warned:
            return RateDecision.DROP
        history.warned = True
        return RateDecision.WARN_ONCE

    def forget_idle(self, now: datetime) -> None:
        """Drop addresses quiet for a whole window: they would be allowed anyway."""
        horizon = now - self.window
        idle = [
            key for key, h in self._histories.items() if not h.arrivals or h.arrivals[-1] <= horizon
        ]
        for key in idle:
            del self._histories[key]

    @property
    def tracked_addresses(self) -> int:
        """How many addresses are remembered (for the operator's status line)."""
        return len(self._histories)
