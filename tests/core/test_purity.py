"""The core is pure: no mail, no SQL, no scheduling, no clock, no I/O but its own data files.

Checked twice: by importing every core module in a fresh interpreter and
looking at what got imported, and by reading the source for calls that read
the clock or touch files, sockets or processes.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import judge.core

CORE = Path(judge.core.__file__).resolve().parent
FORBIDDEN_MODULES = (
    "judge.db", "judge.mail", "judge.app", "judge.timekeeping", "judge.commands",
    "sqlalchemy", "alembic", "psycopg", "aiosmtpd", "apscheduler", "smtplib", "socket",
    "asyncio", "subprocess", "sqlite3",
)  # fmt: skip
FORBIDDEN_CALLS = {
    ("datetime", "now"), ("datetime", "utcnow"), ("date", "today"), ("time", "time"),
    ("time", "monotonic"), ("time", "perf_counter"), ("os", "system"), ("os", "environ"),
}  # fmt: skip
# Reading the variant files shipped in the package is the core's only I/O.
ALLOWED_IO = {"variants.py"}


def core_modules() -> list[str]:
    return sorted(
        "judge.core." + ".".join(path.relative_to(CORE).with_suffix("").parts).removesuffix(".__init__")
        for path in CORE.rglob("*.py")
    )


def test_importing_the_core_loads_nothing_from_the_edges() -> None:
    script = (
        "import importlib, json, sys\n"
        f"for name in {core_modules()!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    loaded = json.loads(subprocess.run([sys.executable, "-c", script], check=True,
                                       capture_output=True, text=True).stdout)
    bad = [m for m in loaded for f in FORBIDDEN_MODULES if m == f or m.startswith(f + ".")]
    assert not bad, f"the core imports edge modules: {bad}"


def test_the_core_source_reads_no_clock_and_opens_nothing() -> None:
    problems = []
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and (node.value.id, node.attr) in FORBIDDEN_CALLS
            ):
                problems.append(f"{path.name}:{node.lineno} {node.value.id}.{node.attr}")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in {"open", "input", "print", "exec", "eval"}
                and path.name not in ALLOWED_IO
            ):
                problems.append(f"{path.name}:{node.lineno} {node.func.id}()")
    assert not problems, problems
