"""deploy/backup.sh and deploy/restore.sh: a judge's database and Maildir come back byte for byte.

The scripts are run as an operator runs them (subprocesses, settings in the
environment), on real databases: a temporary SQLite file always, PostgreSQL
too when JUDGE_TEST_POSTGRES_URL is set.
"""

from __future__ import annotations

import importlib.util
import json
import mailbox
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest
from sqlalchemy import create_engine, text

from judge.db import open_database

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
BACKUP = DEPLOY / "backup.sh"
RESTORE = DEPLOY / "restore.sh"
REFUSED = 3

MAILS = [
    (b"From: a@example.org\r\nSubject: hi\r\n\r\nSIGNON Fgame pw\r\n", "a@example.org"),
    (b"From: b@example.org\r\n\r\n\xe9t\xe9 latin-1 bytes kept as they came\r\n", "b@example.org"),
    (b"From: c@example.org\r\n\r\nHELP\r\n", "C@Example.org"),
]


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("judge_backup", DEPLOY / "judge_backup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["judge_backup"] = module
    spec.loader.exec_module(module)
    return module


tool = _load_tool()


def run_script(script: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full_env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "JUDGE_PYTHON": sys.executable,
        **env,
    }
    return subprocess.run(
        [str(script), *args], env=full_env, capture_output=True, text=True, check=False, timeout=120
    )


def store_mails(url: str, mails: list[tuple[bytes, str]]) -> None:
    database = open_database(url)
    try:
        for raw, sender in mails:
            database.store_inbound_mail(
                raw,
                sender,
                ["judge@example.org"],
                datetime(2024, 3, 1, 12, tzinfo=UTC),
                "127.0.0.1",
            )
    finally:
        database.dispose()


def inbound_rows(url: str) -> list[tuple[object, ...]]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT id, raw, mail_from, sender_key, state FROM mail_in ORDER BY id")
            )
            return [(r[0], bytes(r[1]), r[2], r[3], r[4]) for r in rows]
    finally:
        engine.dispose()


def maildir_snapshot(path: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()
    }


def fill_maildir(path: Path, count: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    box = mailbox.Maildir(str(path), factory=None, create=True)
    for number in range(count):
        box.add(f"X-Envelope-To: p{number}@example.org\nSubject: reply {number}\n\nbody\n".encode())


@pytest.fixture
def judge_home(tmp_path: Path) -> Iterator[tuple[dict[str, str], str, Path]]:
    """A judge's data directory with a migrated SQLite database, three mails and a Maildir."""
    data = tmp_path / "data"
    env = {"JUDGE_DATA_DIR": str(data)}
    url = f"sqlite:///{data / 'judge.sqlite3'}"
    store_mails(url, MAILS)
    fill_maildir(data / "maildir", 2)
    yield env, url, data


def _archive_from(result: subprocess.CompletedProcess[str]) -> Path:
    assert result.returncode == 0, result.stderr
    archive = Path(result.stdout.strip().splitlines()[-1])
    assert archive.is_file()
    return archive


class TestSqliteRoundTrip:
    def test_backup_then_forced_restore_brings_everything_back(
        self, judge_home: tuple[dict[str, str], str, Path]
    ) -> None:
        env, url, data = judge_home
        rows_before = inbound_rows(url)
        mail_before = maildir_snapshot(data / "maildir")
        assert len(rows_before) == 3 and len(mail_before) == 2

        archive = _archive_from(run_script(BACKUP, env=env))
        assert archive.parent == data / "backups"
        assert re.fullmatch(r"judge-backup-\d{8}T\d{6}Z\.tar\.gz", archive.name)
        assert stat.S_IMODE(archive.stat().st_mode) == 0o600

        # Life goes on: a new mail arrives, a delivered copy is deleted.
        store_mails(url, [(b"From: d@example.org\r\n\r\nlate\r\n", "d@example.org")])
        next(iter((data / "maildir" / "new").iterdir())).unlink()

        refused = run_script(RESTORE, str(archive), env=env)
        assert refused.returncode == REFUSED, refused.stderr
        assert "--force" in refused.stderr
        assert len(inbound_rows(url)) == 4, "a refused restore must change nothing"

        restored = run_script(RESTORE, "--force", str(archive), env=env)
        assert restored.returncode == 0, restored.stderr
        assert "mail_in=3" in restored.stdout
        assert inbound_rows(url) == rows_before
        assert maildir_snapshot(data / "maildir") == mail_before

    def test_restore_onto_a_fresh_machine_needs_no_force(
        self, judge_home: tuple[dict[str, str], str, Path], tmp_path: Path
    ) -> None:
        env, url, data = judge_home
        archive = _archive_from(run_script(BACKUP, "--output-dir", str(tmp_path / "out"), env=env))
        assert archive.parent == tmp_path / "out"
        fresh = tmp_path / "fresh"
        result = run_script(RESTORE, str(archive), env={"JUDGE_DATA_DIR": str(fresh)})
        assert result.returncode == 0, result.stderr
        assert inbound_rows(f"sqlite:///{fresh / 'judge.sqlite3'}") == inbound_rows(url)
        assert maildir_snapshot(fresh / "maildir") == maildir_snapshot(data / "maildir")

    def test_the_manifest_says_what_is_inside(
        self, judge_home: tuple[dict[str, str], str, Path]
    ) -> None:
        env, _url, _data = judge_home
        archive = _archive_from(run_script(BACKUP, env=env))
        with tarfile.open(archive) as tar:
            names = set(tar.getnames())
            manifest_file = tar.extractfile("MANIFEST.json")
            assert manifest_file is not None
            manifest = json.loads(manifest_file.read())
        assert {"MANIFEST.json", "database.sqlite3", "maildir"} <= names
        assert manifest["backend"] == "sqlite"
        assert manifest["mail_in_rows"] == 3
        assert manifest["maildir_messages"] == 2
        assert manifest["revision"]

    def test_settings_can_come_from_the_systemd_environment_file(
        self, judge_home: tuple[dict[str, str], str, Path], tmp_path: Path
    ) -> None:
        _env, _url, data = judge_home
        env_file = tmp_path / "judge.env"
        env_file.write_text(
            f'# judge settings\nJUDGE_DATA_DIR="{data}"\nJUDGE_BACKUP_DIR={tmp_path / "b"}\n'
        )
        archive = _archive_from(run_script(BACKUP, "--env-file", str(env_file), env={}))
        assert archive.parent == tmp_path / "b"

    def test_a_judge_without_a_maildir_backs_up_its_database(self, tmp_path: Path) -> None:
        data = tmp_path / "data"
        store_mails(f"sqlite:///{data / 'judge.sqlite3'}", MAILS[:1])
        archive = _archive_from(run_script(BACKUP, env={"JUDGE_DATA_DIR": str(data)}))
        fresh = tmp_path / "fresh"
        result = run_script(RESTORE, str(archive), env={"JUDGE_DATA_DIR": str(fresh)})
        assert result.returncode == 0, result.stderr
        assert not (fresh / "maildir").exists()


class TestRefusals:
    def test_no_database_is_an_error_not_an_empty_backup(self, tmp_path: Path) -> None:
        result = run_script(BACKUP, env={"JUDGE_DATA_DIR": str(tmp_path / "nothing")})
        assert result.returncode == 1
        assert "no database" in result.stderr
        assert not (tmp_path / "nothing" / "backups").exists() or not any(
            (tmp_path / "nothing" / "backups").glob("*.tar.gz")
        )

    def test_a_backup_of_another_engine_is_refused(
        self, judge_home: tuple[dict[str, str], str, Path]
    ) -> None:
        env, _url, _data = judge_home
        archive = _archive_from(run_script(BACKUP, env=env))
        result = run_script(
            RESTORE,
            str(archive),
            env={**env, "JUDGE_DATABASE_URL": "postgresql+psycopg://judge@127.0.0.1:1/none"},
        )
        assert result.returncode == 1
        assert "sqlite database" in result.stderr and "postgresql" in result.stderr

    def test_a_file_that_is_not_a_backup_is_refused(self, tmp_path: Path) -> None:
        bogus = tmp_path / "bogus.tar.gz"
        with tarfile.open(bogus, "w:gz") as tar:
            tar.add(__file__, arcname="something.py")
        result = run_script(RESTORE, str(bogus), env={"JUDGE_DATA_DIR": str(tmp_path / "d")})
        assert result.returncode == 1
        assert "not a judge backup" in result.stderr

    def test_an_archive_escaping_its_directory_is_refused(self, tmp_path: Path) -> None:
        evil = tmp_path / "evil.tar.gz"
        manifest = tmp_path / "MANIFEST.json"
        manifest.write_text(json.dumps({"format": 1, "backend": "sqlite", "database": "x"}))
        with tarfile.open(evil, "w:gz") as tar:
            tar.add(manifest, arcname="MANIFEST.json")
            tar.add(__file__, arcname="../escaped.py")
        result = run_script(RESTORE, str(evil), env={"JUDGE_DATA_DIR": str(tmp_path / "d")})
        assert result.returncode == 1
        assert not (tmp_path / "escaped.py").exists()


class TestHelpers:
    def test_env_file_syntax(self, tmp_path: Path) -> None:
        env_file = tmp_path / "judge.env"
        env_file.write_text(
            "# comment\n\nJUDGE_NAME=\"Paris Judge\"\nJUDGE_CODE='PAR'\n JUDGE_ADDRESS = judge@x.org\n"
        )
        assert tool.read_env_file(env_file) == {
            "JUDGE_NAME": "Paris Judge",
            "JUDGE_CODE": "PAR",
            "JUDGE_ADDRESS": "judge@x.org",
        }

    def test_env_file_errors_name_the_line(self, tmp_path: Path) -> None:
        env_file = tmp_path / "judge.env"
        env_file.write_text("JUDGE_CODE=X\nnot a setting\n")
        with pytest.raises(tool.BackupError, match=r"judge\.env:2"):
            tool.read_env_file(env_file)

    def test_postgres_password_travels_in_the_environment_not_the_command_line(self) -> None:
        dsn, env = tool.libpq_command_env(
            "postgresql+psycopg://judge:s%40cret@db:5432/judge?sslmode=require", {}
        )
        assert dsn == "postgresql://judge@db:5432/judge?sslmode=require"
        assert env["PGPASSWORD"] == "s@cret"


@pytest.mark.postgres
def test_postgres_round_trip(postgres_available: str, tmp_path: Path) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.fail("JUDGE_TEST_POSTGRES_URL is set but pg_dump/pg_restore are not installed")
    from tests.conftest import create_postgres_database, drop_postgres_database

    source, target = create_postgres_database(), create_postgres_database()
    try:
        store_mails(source, MAILS)
        data = tmp_path / "data"
        fill_maildir(data / "maildir", 1)
        env = {"JUDGE_DATA_DIR": str(data), "JUDGE_DATABASE_URL": source}
        archive = _archive_from(run_script(BACKUP, env=env))

        restored = run_script(
            RESTORE,
            str(archive),
            env={"JUDGE_DATA_DIR": str(tmp_path / "t"), "JUDGE_DATABASE_URL": target},
        )
        assert restored.returncode == 0, restored.stderr
        assert inbound_rows(target) == inbound_rows(source)

        store_mails(source, MAILS[:1])
        refused = run_script(RESTORE, str(archive), env=env)
        assert refused.returncode == REFUSED
        assert len(inbound_rows(source)) == 4
        forced = run_script(RESTORE, "--force", str(archive), env=env)
        assert forced.returncode == 0, forced.stderr
        assert inbound_rows(source) == inbound_rows(target)
    finally:
        drop_postgres_database(source)
        drop_postgres_database(target)
