"""docs/operator-guide.md stays true: its settings, files and commands exist.

An operator follows the guide word for word; a renamed variable, a moved
file or a command that does not exist would strand them mid-install.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.cli import build_parser, command_modules
from tests.deploy.test_deploy_files import judge_variables

ROOT = Path(__file__).resolve().parents[2]
GUIDE_TEXT = (ROOT / "docs" / "operator-guide.md").read_text()
ROLES = ("inbound", "worker", "outbound", "scheduler", "web")


def code_text() -> str:
    """The guide's code blocks and inline code spans, where commands are written."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", GUIDE_TEXT, re.DOTALL)
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", GUIDE_TEXT, flags=re.DOTALL))
    return "\n".join(blocks + spans)


def judge_invocations() -> list[list[str]]:
    """Each `judge ...` command line in code: from `bin/judge X` or a span/line starting `judge X`."""
    found = []
    for line in code_text().splitlines():
        for match in re.finditer(
            r"(?:bin/judge|^judge|\bexec judge judge|\brun --rm judge) ([^#|&;]*)", line.strip()
        ):
            words = match.group(1).split()
            if words:
                found.append(words)
    return found


def test_every_setting_is_documented() -> None:
    table_rows = {m for m in re.findall(r"^\| `(JUDGE_[A-Z_]+)`", GUIDE_TEXT, re.MULTILINE)}
    assert judge_variables() - table_rows == set()


def test_every_deploy_file_named_exists() -> None:
    named = set(re.findall(r"\bdeploy/[\w./@-]*\w", GUIDE_TEXT))
    assert named, "the guide names no deploy/ file"
    missing = sorted(path for path in named if not (ROOT / path).exists())
    assert missing == []


def test_every_judge_command_exists() -> None:
    invocations = judge_invocations()
    used = {words[0] for words in invocations if not words[0].startswith("-")}
    assert {"db", "serve", "version"} <= used, used
    known = {module.NAME for module in command_modules()}
    missing = used - known
    assert missing == set()


def test_every_db_action_parses() -> None:
    parser = build_parser()
    checked = 0
    for words in judge_invocations():
        if words[0] != "db" or len(words) == 1:  # prose like "`judge db` reads ..."
            continue
        arguments = [
            w.strip("'\":")
            for w in words
            if not (w.startswith("<") or w.endswith(">") or w == "...")
        ]
        if arguments[-1] == "downgrade":  # "downgrade <previous revision>"
            arguments.append("base")
        elif arguments[-1].isupper():  # a placeholder like REVISION
            arguments[-1] = "base"
        parser.parse_args(arguments)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("role", ROLES)
def test_serve_accepts_each_documented_role(role: str) -> None:
    assert f"judge serve --only {role}" in GUIDE_TEXT
    build_parser().parse_args(["serve", "--only", role])


def test_serve_accepts_a_config_file() -> None:
    assert "judge serve --config FILE" in GUIDE_TEXT
    build_parser().parse_args(["serve", "--config", "/etc/diplomacy-judge/judge.toml"])


def test_the_monitoring_queries_name_real_tables_and_states() -> None:
    from judge.db.enums import InboundState, OutboundState
    from judge.db.models.base import Base

    sql = "\n".join(re.findall(r"```sql\n(.*?)```", GUIDE_TEXT, re.DOTALL))
    tables = set(re.findall(r"\bFROM (\w+)", sql))
    assert tables and tables <= set(Base.metadata.tables)
    for table, column in re.findall(r"\bFROM (\w+)[^;]*?\b(\w+) IN \(", sql):
        assert column in Base.metadata.tables[table].columns
    states = set(re.findall(r"'(\w+)'", sql))
    assert states <= {s.value for s in InboundState} | {s.value for s in OutboundState} | {"active"}
    columns = set(re.findall(r"SELECT ([\w,\s]+?)\s+FROM (\w+)", sql))
    assert len(columns) >= 3
    for names, table in columns:
        for name in (n.strip() for n in names.split(",")):
            if name and name != "count":
                assert name in Base.metadata.tables[table].columns, f"{table}.{name}"
