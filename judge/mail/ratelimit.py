"""Per-sender flood control: answer a flood once, then drop it quietly (a player's own mail aside).

A player's broken client, a forwarding loop or a prankster can send hundreds
of mails a minute. Each would cost a transaction and a reply; the reply could
feed the loop. The limiter counts every mail a sender sends in a sliding
window; past the limit the first mail gets one warning reply and the rest are
stored unanswered until the sender has been quiet long enough.

A mail is counted under each of its keys: the From address, and the envelope
sender when it differs (rotating the From line alone then buys nothing). The
memory is a :class:`FloodStore`: in the running judge a table of the database
(so a restart forgets no flood), in tests a dict.

Time is passed in, so tests replay floods without sleeping. Memory per sender
is bounded by the limit.

The limiter only says whether a sender is flooding and until when; the
worker decides what a flood mail gets (judge.app.mail_in.worker: a mail that signs on
to its sender's own seat of a game in play is read all the same).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol


class RateDecision(StrEnum):
    ALLOW = "allow"  # process and answer as usual
    WARN_ONCE = "warn-once"  # the flood starts: answer once, saying further mail is ignored
    DROP = "drop"  # in a flood already warned about: store, do not answer


class FloodStore(Protocol):
    """Where the limiter keeps, per sender key, its last arrivals and whether it warned."""

    def load(self, key: str) -> tuple[Sequence[datetime], bool]: ...

    def save(self, key: str, arrivals: Sequence[datetime], warned: bool, now: datetime) -> None: ...


@dataclass
class MemoryFloodStore:
    """A :class:`FloodStore` in a dict: forgets everything at restart (tests, tools)."""

    histories: dict[str, tuple[tuple[datetime, ...], bool]] = field(default_factory=dict)

    def load(self, key: str) -> tuple[Sequence[datetime], bool]:
        return self.histories.get(key, ((), False))

    def save(self, key: str, arrivals: Sequence[datetime], warned: bool, now: datetime) -> None:
        del now
        self.histories[key] = (tuple(arrivals), warned)


def next_decision(
    arrivals: Sequence[datetime], warned: bool, now: datetime, limit: int, window: timedelta
) -> tuple[RateDecision, tuple[datetime, ...], bool]:
    """One more mail at ``now`` from a sender whose last ``arrivals`` (oldest first) are given.

    Returns the decision, the arrivals to remember (the last ``limit``) and
    whether the sender has now been warned. The flood is on while the oldest
    of the last ``limit`` arrivals is still inside the window; every arrival
    counts, dropped ones included, so a looping robot stays dropped until it
    pauses for a whole window.
    """
    kept = tuple(arrivals)[-limit:]
    flooding = len(kept) == limit and kept[0] > now - window
    remembered = (*kept, now)[-limit:]
    if not flooding:
        return RateDecision.ALLOW, remembered, False
    if warned:
        return RateDecision.DROP, remembered, True
    return RateDecision.WARN_ONCE, remembered, True


def flood_end(remembered: Sequence[datetime], limit: int, window: timedelta) -> datetime | None:
    """When the next mail of a sender whose ``remembered`` arrivals (:func:`next_decision`'s) are
    given is allowed again, if that sender sends nothing before; None when it is allowed now.

    The next mail at ``t`` is allowed when the oldest of the last ``limit``
    arrivals is no longer inside the window, ``oldest <= t - window``: from
    ``oldest + window`` on (one second before, it is still in the flood).
    Every mail sent before then moves that time later.
    """
    kept = tuple(remembered)[-limit:]
    return kept[0] + window if limit > 0 and len(kept) == limit else None


@dataclass(frozen=True, slots=True)
class RateCheck:
    """One mail's :class:`RateDecision` and, in a flood, when it ends (:func:`flood_end`)."""

    decision: RateDecision
    until: datetime | None = None


_SEVERITY = {RateDecision.ALLOW: 0, RateDecision.WARN_ONCE: 1, RateDecision.DROP: 2}


@dataclass
class RateLimiter:
    """At most ``limit`` mails per sender in any ``window``; ``limit <= 0`` disables the limit."""

    limit: int
    window: timedelta
    exempt: frozenset[str] = frozenset()
    store: FloodStore = field(default_factory=MemoryFloodStore, repr=False)
    _calls: int = field(default=0, init=False, repr=False)

    @classmethod
    def for_addresses(
        cls, limit: int, window: timedelta, exempt: Iterable[str] = ()
    ) -> RateLimiter:
        """A limiter that never limits ``exempt`` (say, the administrator)."""
        return cls(limit, window, frozenset(a.strip().lower() for a in exempt))

    def with_store(self, store: FloodStore) -> RateLimiter:
        """The same limits, remembered in ``store`` (the worker passes its transaction's table)."""
        return replace(self, store=store)

    def decide(self, address: str, now: datetime, *, also: Iterable[str] = ()) -> RateDecision:
        """:meth:`check`'s decision alone."""
        return self.check(address, now, also=also).decision

    def check(self, address: str, now: datetime, *, also: Iterable[str] = ()) -> RateCheck:
        """Record one mail from ``address`` (and under the other keys ``also``) at ``now``.

        The answer is the strictest of the keys': a sender warned under one
        key is not warned again under another. In a flood, ``until`` is the
        latest end among the keys that flood.
        """
        if now.tzinfo is None:
            raise ValueError("RateLimiter needs timezone-aware datetimes")
        keys = list(dict.fromkeys(k for k in (_key(address), *map(_key, also)) if k))
        # Exempt only when every key is: an envelope sender or a From line is anyone's
        # to write, so naming the keeper in one of them must not lift the limit.
        if self.limit <= 0 or all(key in self.exempt for key in keys):
            return RateCheck(RateDecision.ALLOW)
        self._calls += 1
        if self._calls % 1024 == 0:
            self.forget_idle(now)
        decisions = []
        ends: list[datetime] = []
        for key in keys:
            arrivals, warned = self.store.load(key)
            decision, arrivals, warned = next_decision(
                arrivals, warned, now, self.limit, self.window
            )
            self.store.save(key, arrivals, warned, now)
            decisions.append(decision)
            end = flood_end(arrivals, self.limit, self.window) if decision is not RateDecision.ALLOW else None
            if end is not None:
                ends.append(end)
        worst = max(decisions, key=_SEVERITY.__getitem__, default=RateDecision.ALLOW)
        return RateCheck(worst, max(ends) if ends and worst is not RateDecision.ALLOW else None)

    def forget_idle(self, now: datetime) -> None:
        """Drop senders quiet for a whole window from a memory store: they would be allowed anyway."""
        if not isinstance(self.store, MemoryFloodStore):
            return  # the database's table is pruned by the daily purge
        horizon = now - self.window
        histories = self.store.histories
        for key in [
            k for k, (arrivals, _) in histories.items() if not arrivals or arrivals[-1] <= horizon
        ]:
            del histories[key]

    @property
    def tracked_addresses(self) -> int:
        """How many senders a memory store remembers (for the operator's status line)."""
        return len(self.store.histories) if isinstance(self.store, MemoryFloodStore) else 0


def _key(address: str) -> str:
    return address.strip().strip("<>").strip().lower()
