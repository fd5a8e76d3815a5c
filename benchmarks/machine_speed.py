"""How fast this machine runs Python now: a fixed workload's CPU time, printed beside benchmark figures.

Not a test. The machines these figures come from differ from one session to the next (one ran the
same code 2.4 times slower than another), and a shared machine's speed varies by the minute: a
figure is comparable with another only beside this reference, measured in the same run. The
workload is pure Python (integer arithmetic, a dictionary, string formatting, sorting): what
the judge's own code spends its time on, without the libraries' C.

    .venv/bin/python benchmarks/machine_speed.py
"""

from __future__ import annotations

import time


def workload() -> int:
    """The fixed work: the same every run, its result used so nothing is optimised away."""
    total = 0
    seen: dict[str, int] = {}
    for number in range(300_000):
        key = f"p{number % 997}"
        seen[key] = seen.get(key, 0) + number
        total += number * 7 % 13
    ordered = sorted(range(200_000), key=lambda n: (n * 7919) % 100_003)
    return total + len(seen) + ordered[0]


def reference_seconds(rounds: int = 3) -> float:
    """The least CPU time of ``rounds`` runs of :func:`workload` (the least: the machine's speed
    without the moments another process took it)."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        workload()
        times.append(time.process_time() - start)
    return min(times)


def reference_line() -> str:
    return f"machine reference: a fixed Python workload takes {reference_seconds():.3f} s of CPU here (least of 3)"


if __name__ == "__main__":
    print(reference_line())
