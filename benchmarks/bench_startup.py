"""Seconds from launching ``judge serve`` to its SMTP port accepting a connection (issue 14: < 1.5 s).

Not a test: it prints figures. The database is an existing SQLite file at the head revision
(migrated once before the runs), as a judge restarted in production finds it; each run starts
a fresh Python process (``judge.cli.main`` with ``serve``), polls the port, then stops it.

    .venv/bin/python benchmarks/bench_startup.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVE = "import sys; from judge.cli import main; sys.argv = ['judge', 'serve']; sys.exit(main())"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    env = dict(
        os.environ, JUDGE_ADDRESS="judge@example.org", JUDGE_CODE="XPY", JUDGE_DATA_DIR=str(folder),
        JUDGE_DATABASE_URL=f"sqlite:///{folder / 'judge.sqlite3'}", JUDGE_RELAY=f"maildir:{folder / 'out'}",
        PYTHONPATH=str(ROOT),
    )
    subprocess.run(
        [sys.executable, "-c", "import os; from judge.db.migrate import upgrade; upgrade(os.environ['JUDGE_DATABASE_URL'])"],
        env=env, check=True, cwd=ROOT,
    )
    samples: list[float] = []
    for _ in range(args.runs):
        port = free_port()
        env["JUDGE_SMTP_PORT"] = str(port)
        env["JUDGE_WEB_PORT"] = "0"
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-c", SERVE], env=env, cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.05).close()
                    break
                except OSError:
                    if process.poll() is not None or time.perf_counter() - started > 30:
                        sys.exit(f"judge serve did not start (exit status {process.poll()})")
                    time.sleep(0.01)
            samples.append(time.perf_counter() - started)
        finally:
            process.terminate()
            process.wait(10)
    print(f"load average {os.getloadavg()[0]:.2f}; runs: {', '.join(f'{s:.2f}' for s in samples)}")
    print(f"judge serve listening after {statistics.median(samples):.2f} s (median of {args.runs})")


if __name__ == "__main__":
    main()
