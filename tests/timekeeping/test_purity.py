"""The rules stay pure: no imports from the edges, no reading of the clock."""

from __future__ import annotations

import ast
from pathlib import Path

import judge.timekeeping

PACKAGE = Path(judge.timekeeping.__file__).parent
FORBIDDEN_MODULES = ("judge.db", "judge.mail", "judge.app", "sqlalchemy", "apscheduler",
                     "smtplib", "aiosmtpd", "socket", "os", "time")


def _sources() -> list[Path]:
    return sorted(PACKAGE.glob("*.py"))


def test_no_imports_from_the_edges() -> None:
    for path in _sources():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN_MODULES), \
                    f"{path.name} imports {name}"


def test_only_the_system_clock_reads_the_time() -> None:
    for path in _sources():
        text = path.read_text()
        calls = text.count("datetime.now(") + text.count("datetime.utcnow(") + text.count("date.today(")
        assert calls == (1 if path.name == "clock.py" else 0), path.name


def test_public_api_is_importable() -> None:
    for name in judge.timekeeping.__all__:
        assert hasattr(judge.timekeeping, name), name
