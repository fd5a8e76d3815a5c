"""How many answers the web role (judge.web) gave in this process, by HTTP status: the metrics' count of
pages served (``judge_web_pages_served_total``). Kept in memory, unlike the database figures:
pages leave no trace in the database (the web role never writes)."""

from __future__ import annotations

import threading
from collections import Counter

_counts: Counter[int] = Counter()
_lock = threading.Lock()


def count(status: int) -> None:
    with _lock:
        _counts[status] += 1


def counts() -> dict[int, int]:
    """{status: answers} since the process started."""
    with _lock:
        return dict(_counts)
