"""Does PostgreSQL still see every SQL statement the tests left on SQLite only would have sent it?

A module marked ``engine_blind`` has its tests' PostgreSQL variants left out (tests/conftest.py),
on the ground that its SQL is also run on PostgreSQL by the tests kept there (docs/testing.md).
This checks that ground: it runs the given tests with every variant (``JUDGE_TEST_EVERY_ENGINE=1``),
records each statement each test sends to PostgreSQL, and lists what only left-out variants ran:
a statement (numbers of bound parameters and expanded lists made alike), or a column an INSERT
or UPDATE wrote (so a column written by one kept test counts, whatever the other columns of the
statement). The schema's own DDL (the template database's migration) is left aside. For each
gap it names the cheapest left-out test that runs it (mark it ``engine_sql``). A run by hand,
not part of ``bin/test``::

    JUDGE_TEST_POSTGRES_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python benchmarks/engine_coverage.py tests/app -k "not council"

The last line says ``statements only left-out tests run: N``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

OUT = "JUDGE_ENGINE_COVERAGE_OUT"
_PARAMETERS = re.compile(r"\((?:%\(\w+\)s|\?)(?:::[\w\[\] ]+)?(?:, (?:%\(\w+\)s|\?)(?:::[\w\[\] ]+)?)*\)")
_NUMBERED = re.compile(r"_\d+\b")
_DDL = re.compile(r"(CREATE|ALTER|DROP|COMMENT) |.*\balembic_version\b|EXPLAIN |SET |SELECT pg_")


def units(statement: str) -> set[str]:
    """What one statement makes PostgreSQL do, as this check counts it."""
    text = _NUMBERED.sub("_N", re.sub(r"(\(\?\)(?:, )?)+", "(?)", _PARAMETERS.sub("(?)", " ".join(statement.split()))))
    if _DDL.match(text):
        return set()
    update = re.match(r"UPDATE (\w+) SET (.*?) WHERE", text)
    if update:
        return {f"write {update[1]}.{c.split('=')[0].strip()}" for c in re.split(r", (?=\w+=)", update[2])}
    insert = re.match(r"INSERT INTO (\w+) \(([^)]*)\)", text)
    if insert:
        return {f"write {insert[1]}.{c.strip()}" for c in insert[2].split(",")}
    return {text}


class _Recorder:
    """The pytest plugin: each test's PostgreSQL units, whether it is a left-out variant, its time."""

    def __init__(self) -> None:
        self.current: str | None = None
        self.tests: dict[str, dict[str, Any]] = {}

    def on_execute(self, conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if self.current is not None and conn.dialect.name == "postgresql":
            self.tests[self.current]["units"].update(units(statement))

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
        callspec = getattr(item, "callspec", None)
        engine = callspec.params.get("database_url") if callspec is not None else None
        blind = item.get_closest_marker("engine_blind") and not item.get_closest_marker("engine_sql")
        self.current = item.nodeid
        self.tests[item.nodeid] = {"units": set(), "left_out": bool(engine == "postgresql" and blind)}
        started = time.perf_counter()
        yield
        self.tests[item.nodeid]["seconds"] = time.perf_counter() - started
        self.current = None

    def pytest_sessionfinish(self) -> None:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        path = Path(os.environ[OUT]) / f"{worker}.json"
        path.write_text(json.dumps({k: {**v, "units": sorted(v["units"])} for k, v in self.tests.items()}))


def pytest_configure(config: pytest.Config) -> None:
    """Loaded with ``-p benchmarks.engine_coverage``: record (never on its own)."""
    if os.environ.get(OUT):
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        recorder = _Recorder()
        event.listen(Engine, "before_cursor_execute", recorder.on_execute)
        config.pluginmanager.register(recorder, "engine_coverage_recorder")


def main(arguments: list[str]) -> int:
    if not os.environ.get("JUDGE_TEST_POSTGRES_URL"):
        print("JUDGE_TEST_POSTGRES_URL is not set: nothing runs on PostgreSQL", file=sys.stderr)
        return 2
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, OUT: out, "JUDGE_TEST_EVERY_ENGINE": "1"}
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "benchmarks.engine_coverage"]
        subprocess.run([*command, *arguments], cwd=root, env=env, check=False)
        tests: dict[str, dict[str, Any]] = {}
        for path in Path(out).glob("*.json"):
            tests.update(json.loads(path.read_text()))
    kept: set[str] = set()
    only_left_out: dict[str, list[str]] = defaultdict(list)
    for test in tests.values():
        if not test["left_out"]:
            kept.update(test["units"])
    for name, test in tests.items():
        for unit in test["units"]:
            if test["left_out"] and unit not in kept:
                only_left_out[unit].append(name)
    for unit, names in sorted(only_left_out.items()):
        cheapest = min(names, key=lambda name: tests[name].get("seconds", 0.0))
        print(f"{unit[:200]}\n    run only by {len(names)} left-out test(s), e.g. {cheapest}")
    left_out = sum(test["left_out"] for test in tests.values())
    print(f"tests run: {len(tests)}, of them left out of the suite: {left_out}")
    print(f"statements only left-out tests run: {len(only_left_out)}")
    return 1 if only_left_out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
