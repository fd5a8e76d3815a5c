"""`judge serve` options, and its refusals at start-up (no server is started here)."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.cli import build_parser, main


@pytest.fixture(autouse=True)
def _no_outside_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the settings a test gives count (not a JUDGE_* of the shell running the suite)."""
    for name in [
        n for n in os.environ if n.startswith("JUDGE_") and n != "JUDGE_TEST_POSTGRES_URL"
    ]:
        monkeypatch.delenv(name)


@pytest.fixture(autouse=True)
def _restore_logging() -> Iterator[None]:
    """`judge serve` configures the process's logging; put it back for the next tests."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)


def test_only_takes_each_role_and_may_be_repeated() -> None:
    args = build_parser().parse_args(["serve", "--only", "worker", "--only", "outbound"])
    assert args.only == ["worker", "outbound"]
    assert build_parser().parse_args(["serve"]).only is None


def test_an_unknown_role_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--only", "everything"])
    assert "invalid choice: 'everything'" in capsys.readouterr().err


def test_no_migrate_refuses_a_database_that_is_not_current(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JUDGE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("JUDGE_DATABASE_URL", f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    assert main(["serve", "--no-migrate"]) == 2
    assert "run `judge db upgrade`" in capsys.readouterr().err


def test_a_bad_setting_stops_the_start_with_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JUDGE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("JUDGE_SMTP_PORT", "99999")
    assert main(["serve"]) == 2
    assert "smtp_port (from $JUDGE_SMTP_PORT)" in capsys.readouterr().err


def test_a_config_file_that_is_missing_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--config", str(tmp_path / "nowhere.toml")]) == 2
    assert "nowhere.toml" in capsys.readouterr().err


def test_a_taken_smtp_port_fails_the_start_with_status_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.setenv("JUDGE_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("JUDGE_SMTP_PORT", str(taken.getsockname()[1]))
        assert main(["serve"]) == 1
    assert "address already in use" in capsys.readouterr().err
