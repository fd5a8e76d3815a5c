"""`judge check` through the command line, on each engine: exit 0 when well, 1 naming what needs a person."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from judge.cli import main
from judge.db import Database
from judge.db.enums import InboundState


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def judge_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for variable in ("JUDGE_CONFIG", "JUDGE_RELAY", "JUDGE_DATABASE_URL"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("JUDGE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("JUDGE_WEB_PORT", "0")  # the web role's check: tests/web/test_web_role.py
    return tmp_path


def _failing(out: str) -> list[str]:
    return [line.split(":")[0].removeprefix("FAIL ") for line in out.splitlines() if line.startswith("FAIL")]


def test_a_fresh_judge_is_well(database: Database, judge_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _cli(capsys, "check", "--url", database.url)
    assert status == 0, out
    assert "ok   schema: at " in out and "maildir" in out and "all is well" in out
    status, out, _ = _cli(capsys, "check", "--url", database.url, "--json")
    report = json.loads(out)
    assert report["ok"] is True and report["figures"]["inbound_waiting"] == 0
    if "sqlite" in database.url:
        assert "password" not in out


def test_each_threshold_is_named(database: Database, judge_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = datetime.now(UTC) - timedelta(hours=2)
    waiting = database.store_inbound_mail(b"Subject: x\r\n\r\nVERSION\r\n", "a@example.net", ["j@x"], old)
    stuck = database.store_inbound_mail(b"Subject: y\r\n\r\nVERSION\r\n", "b@example.net", ["j@x"], old)
    with database.unit_of_work() as uow:
        uow.mail_in.quarantine(uow.mail_in.get(stuck), "a bug", old)
        game = uow.games.create("late", old)
        game.next_due_at = old
    status, out, _ = _cli(capsys, "check", "--url", database.url)
    assert status == 1
    assert _failing(out) == ["inbound queue", "inbound failures", "next due game"]
    assert "1 waiting (limit 100), oldest 120.0 min (limit 15 min)" in out
    assert "1 quarantined (limit 0" in out and "is the scheduler running?" in out
    status, out, _ = _cli(capsys, "check", "--url", database.url, "--max-age", "180", "--max-overdue", "180",
                          "--quiet")
    assert status == 1 and _failing(out) == ["inbound failures"] and "ok " not in out
    with database.unit_of_work() as uow:
        uow.mail_in.skip(stuck, "by hand", old)
        uow.mail_in.skip(waiting, "by hand", old)
        uow.games.require("late").next_due_at = None
    assert main(["check", "--url", database.url, "--quiet"]) == 0
    with database.unit_of_work(readonly=True) as uow:
        assert uow.mail_in.get(stuck).state is InboundState.SKIPPED


def test_a_game_or_a_mail_failing_again_and_again_needs_a_person(
    database: Database, judge_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25: `judge check` said all was well while a game kept failing (the scheduler backs a
    failing game off, so it is never overdue) and a mail kept failing (retried, not quarantined)."""
    now = datetime.now(UTC)
    mail_id = database.store_inbound_mail(b"Subject: x\r\n\r\nVERSION\r\n", "a@example.net", ["j@x"], now)
    with database.unit_of_work() as uow:
        game = uow.games.create("broken", now)
        game.next_due_at = now + timedelta(hours=1)  # backed off: not overdue
        game.failed_attempts = 1
        mail = uow.mail_in.get(mail_id)
        mail.state, mail.attempts, mail.next_attempt_at = InboundState.FAILED, 1, now + timedelta(hours=1)
    assert main(["check", "--url", database.url, "--quiet"]) == 0  # once may be the database away
    capsys.readouterr()
    with database.unit_of_work() as uow:
        uow.games.require("broken").failed_attempts = 3
        uow.mail_in.get(mail_id).attempts = 2
    status, out, _ = _cli(capsys, "check", "--url", database.url)
    assert status == 1 and _failing(out) == ["inbound failures", "failing games"], out
    assert "broken (3 in a row)" in out and "1 of them 2 times or more" in out
    status, out, _ = _cli(capsys, "check", "--url", database.url, "--json")
    assert json.loads(out)["figures"]["failing_games"] == {"broken": 3}


def test_a_database_behind_head_needs_a_person(judge_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{judge_env / 'empty.sqlite3'}"
    status, out, _ = _cli(capsys, "check", "--url", url)
    assert status == 1 and "schema" in _failing(out) and "judge db upgrade" in out


@pytest.fixture
def smtp_noop_server() -> Iterator[int]:
    """A relay that greets, answers EHLO and NOOP, then says goodbye: enough for a probe."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    seen: list[str] = []

    def serve() -> None:
        connection, _ = listener.accept()
        with connection, connection.makefile("rwb") as stream:
            stream.write(b"220 relay ready\r\n")
            stream.flush()
            for raw in stream:
                verb = raw.decode().strip().split(" ")[0].upper()
                seen.append(verb)
                answer = {"EHLO": b"250 relay\r\n", "NOOP": b"250 ok\r\n", "QUIT": b"221 bye\r\n"}
                stream.write(answer.get(verb, b"502 no\r\n"))
                stream.flush()
                if verb == "QUIT":
                    break

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield port
    thread.join(timeout=5)
    listener.close()
    assert "NOOP" in seen


def test_the_relay_is_tried(
    sqlite_database_url: str, judge_env: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], smtp_noop_server: int,
) -> None:
    monkeypatch.setenv("JUDGE_RELAY", f"smtp://127.0.0.1:{smtp_noop_server}")
    status, out, _ = _cli(capsys, "check", "--url", sqlite_database_url)
    assert status == 0 and f"smtp 127.0.0.1:{smtp_noop_server} answers NOOP with 250" in out
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    monkeypatch.setenv("JUDGE_RELAY", f"smtp://127.0.0.1:{port}")
    status, out, _ = _cli(capsys, "check", "--url", sqlite_database_url, "--relay-timeout", "2")
    assert status == 1 and _failing(out) == ["relay"]


def test_a_maildir_that_cannot_be_written_needs_a_person(
    sqlite_database_url: str, judge_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = judge_env / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("JUDGE_RELAY", f"maildir:{blocker}/maildir")
    status, out, _ = _cli(capsys, "check", "--url", sqlite_database_url)
    assert status == 1 and _failing(out) == ["relay"] and "not writable" in out


def test_check_has_help_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["check", "--help"])
    assert exit_.value.code == 0 and "example" in capsys.readouterr().out
