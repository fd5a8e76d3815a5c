"""Back up and restore a judge: its database and its raw mail store, in one archive.

Run through ``deploy/backup.sh`` and ``deploy/restore.sh`` (which pick the
judge's Python). Everything a judge knows is in two places:

- the database: games, players, orders, and the raw mail store, since every
  inbound mail is kept byte for byte in the ``mail_in`` table and every
  outgoing one in ``mail_out``;
- the Maildir outbox under the data directory (the default relay, or the
  copy kept when the relay is a Maildir).

SQLite is copied with SQLite's online backup API (a consistent snapshot even
while the judge writes, WAL included); PostgreSQL with ``pg_dump`` in custom
format. The archive is ``judge-backup-<UTC time>.tar.gz`` with a
``MANIFEST.json`` saying what is inside, written under a temporary name and
renamed, mode 0600 (it holds password hashes and private press).

A restore refuses to overwrite a database that has tables, or a Maildir
that holds mail, unless ``--force``: an operator who restores by mistake
onto the live judge loses nothing. All checks run before anything is
written, so a refused restore changes nothing.

Standard library only (plus ``judge.config`` when importable, to read the
settings exactly as the judge does), so it also runs with a bare ``python3``.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

ARCHIVE_FORMAT = 1
MANIFEST_NAME = "MANIFEST.json"
SQLITE_MEMBER = "database.sqlite3"
POSTGRES_MEMBER = "database.pgdump"
MAILDIR_MEMBER = "maildir"
BACKUP_DIR_VARIABLE = "JUDGE_BACKUP_DIR"

EXIT_ERROR = 1
EXIT_REFUSED = 3


class BackupError(Exception):
    """A backup or restore that cannot go on; the message says what to do."""


class RefusedError(BackupError):
    """A restore that would overwrite existing data without ``--force``."""


# ---------------------------------------------------------------------------
# Where things are
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """The judge's database and Maildir, as its configuration names them."""

    database_url: str
    data_dir: Path
    maildir: Path

    @property
    def backend(self) -> str:
        scheme = self.database_url.split(":", 1)[0].lower()
        backend = scheme.split("+", 1)[0]
        if backend in ("postgresql", "postgres"):
            return "postgresql"
        if backend == "sqlite":
            return "sqlite"
        raise BackupError(f"unsupported database URL scheme {scheme!r}: use sqlite or postgresql")

    @property
    def sqlite_path(self) -> Path:
        """The database file of an ``sqlite:///PATH`` URL."""
        rest = self.database_url.split(":", 1)[1]
        if not rest.startswith("///"):
            raise BackupError(f"{self.database_url!r}: expected sqlite:///path/to/file")
        path = rest[3:].split("?", 1)[0]
        if path in ("", ":memory:"):
            raise BackupError("an in-memory SQLite database cannot be backed up")
        return Path(unquote(path))


def read_env_file(path: Path) -> dict[str, str]:
    """The variables of a systemd ``EnvironmentFile`` (``KEY=VALUE``, ``#`` comments, quotes)."""
    values: dict[str, str] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise BackupError(f"cannot read {path}: {error.strerror}") from error
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", ";")):
            continue
        key, equals, value = stripped.partition("=")
        if not equals or not key.strip():
            raise BackupError(f"{path}:{number}: expected KEY=VALUE")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = shlex.split(value)[0] if value[0] == '"' else value[1:-1]
        values[key.strip()] = value
    return values


def resolve_target(env: Mapping[str, str]) -> Target:
    """The database URL, data directory and Maildir of the judge configured by ``env``.

    Uses ``judge.config`` when the judge is importable (so ``$JUDGE_CONFIG``
    TOML files count); otherwise reads the same variables with the same
    defaults.
    """
    try:
        from judge.config import ConfigError, MaildirRelaySpec, load_config
    except ImportError:
        data_dir = Path(env.get("JUDGE_DATA_DIR", "").strip() or "data").expanduser().absolute()
        url = env.get("JUDGE_DATABASE_URL", "").strip() or f"sqlite:///{data_dir / 'judge.sqlite3'}"
        relay = env.get("JUDGE_RELAY", "").strip()
        if relay.lower().startswith("maildir:"):
            maildir = Path(relay[len("maildir:") :].removeprefix("//")).expanduser().absolute()
        else:
            maildir = data_dir / "maildir"
        return Target(url, data_dir, maildir)
    try:
        config = load_config(env)
    except ConfigError as error:
        raise BackupError(f"configuration: {error}") from error
    maildir = (
        config.relay.path
        if isinstance(config.relay, MaildirRelaySpec)
        else config.data_dir / "maildir"
    )
    return Target(config.database_url, config.data_dir, maildir)


# ---------------------------------------------------------------------------
# PostgreSQL through its command-line tools
# ---------------------------------------------------------------------------


def libpq_command_env(url: str, env: Mapping[str, str]) -> tuple[str, dict[str, str]]:
    """A libpq URL (no ``+driver``, no password) and an environment carrying the password.

    The password goes in ``PGPASSWORD`` so it never shows in ``ps`` output.
    """
    parts = urlsplit(url)
    netloc = parts.netloc
    child_env = dict(env)
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        user, colon, password = userinfo.partition(":")
        if colon:
            child_env["PGPASSWORD"] = unquote(password)
        netloc = f"{user}@{host}"
    return urlunsplit(("postgresql", netloc, parts.path, parts.query, "")), child_env


def _run(command: Sequence[str], env: Mapping[str, str]) -> str:
    tool = command[0]
    if shutil.which(tool) is None:
        raise BackupError(f"{tool} not found: install the PostgreSQL client tools")
    result = subprocess.run(
        list(command), env=dict(env), capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise BackupError(f"{tool} failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def postgres_table_count(url: str, env: Mapping[str, str]) -> int:
    """How many tables the database's public schema holds (0 for a fresh database)."""
    dsn, child_env = libpq_command_env(url, env)
    query = "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
    return int(_run(["psql", "--no-psqlrc", "-At", "-c", query, dsn], child_env).strip())


def postgres_scalar(url: str, env: Mapping[str, str], query: str) -> str:
    dsn, child_env = libpq_command_env(url, env)
    return _run(["psql", "--no-psqlrc", "-At", "-c", query, dsn], child_env).strip()


# ---------------------------------------------------------------------------
# Backup
# ---------------------------------------------------------------------------


def _sqlite_facts(path: Path) -> dict[str, object]:
    """Schema revision and mail counts of a SQLite database, for the manifest."""
    facts: dict[str, object] = {}
    with sqlite3.connect(path) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        if "alembic_version" in tables:
            row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
            facts["revision"] = row[0] if row else None
        for table in ("mail_in", "mail_out", "games"):
            if table in tables:
                facts[f"{table}_rows"] = connection.execute(
                    f"SELECT count(*) FROM {table}"
                ).fetchone()[0]
    return facts


def _postgres_facts(url: str, env: Mapping[str, str]) -> dict[str, object]:
    facts: dict[str, object] = {}
    try:
        facts["revision"] = (
            postgres_scalar(url, env, "SELECT version_num FROM alembic_version") or None
        )
        for table in ("mail_in", "mail_out", "games"):
            facts[f"{table}_rows"] = int(postgres_scalar(url, env, f"SELECT count(*) FROM {table}"))
    except (BackupError, ValueError):
        pass  # facts are a courtesy; the dump itself is what matters
    return facts


def sqlite_copy(source: Path, destination: Path) -> None:
    """Copy one SQLite database into another with the online backup API."""
    source_connection = sqlite3.connect(source)
    try:
        destination_connection = sqlite3.connect(destination)
        try:
            source_connection.backup(destination_connection)
        finally:
            destination_connection.close()
    finally:
        source_connection.close()


def _archive_path(directory: Path, now: datetime) -> Path:
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    candidate = directory / f"judge-backup-{stamp}.tar.gz"
    counter = 1
    while candidate.exists():
        counter += 1
        candidate = directory / f"judge-backup-{stamp}-{counter}.tar.gz"
    return candidate


def backup(target: Target, output_dir: Path, env: Mapping[str, str], now: datetime) -> Path:
    """Write a timestamped archive of the database and the Maildir; return its path."""
    output_dir.mkdir(parents=True, exist_ok=True)
    archive = _archive_path(output_dir, now)
    manifest: dict[str, object] = {
        "format": ARCHIVE_FORMAT,
        "created_at": now.isoformat(timespec="seconds").replace("+00:00", "Z"),
        "backend": target.backend,
    }
    try:
        from judge import __version__ as judge_version

        manifest["judge_version"] = judge_version
    except ImportError:
        pass
    with tempfile.TemporaryDirectory(prefix=".judge-backup-", dir=output_dir) as work:
        staging = Path(work)
        if target.backend == "sqlite":
            source = target.sqlite_path
            if not source.is_file():
                raise BackupError(f"no database at {source}: is JUDGE_DATA_DIR right?")
            sqlite_copy(source, staging / SQLITE_MEMBER)
            manifest["database"] = SQLITE_MEMBER
            manifest.update(_sqlite_facts(staging / SQLITE_MEMBER))
        else:
            dsn, child_env = libpq_command_env(target.database_url, env)
            _run(
                [
                    "pg_dump",
                    "--format=custom",
                    "--no-owner",
                    "--no-privileges",
                    f"--file={staging / POSTGRES_MEMBER}",
                    dsn,
                ],
                child_env,
            )
            manifest["database"] = POSTGRES_MEMBER
            manifest.update(_postgres_facts(target.database_url, env))
        has_maildir = target.maildir.is_dir()
        manifest["maildir"] = MAILDIR_MEMBER if has_maildir else None
        manifest["maildir_messages"] = _maildir_count(target.maildir) if has_maildir else 0
        (staging / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
        partial = staging / "archive.partial"
        with tarfile.open(partial, "w:gz") as tar:
            tar.add(staging / MANIFEST_NAME, arcname=MANIFEST_NAME)
            database_member = str(manifest["database"])
            tar.add(staging / database_member, arcname=database_member)
            if has_maildir:
                tar.add(target.maildir, arcname=MAILDIR_MEMBER)
        partial.chmod(0o600)
        os.replace(partial, archive)
    return archive


def _maildir_count(maildir: Path) -> int:
    return sum(
        1
        for folder in ("new", "cur")
        if (maildir / folder).is_dir()
        for entry in (maildir / folder).iterdir()
        if entry.is_file()
    )


# ---------------------------------------------------------------------------
# Restore
# ---------------------------------------------------------------------------


def read_manifest(archive: Path) -> dict[str, object]:
    try:
        with tarfile.open(archive, "r:gz") as tar:
            member = tar.extractfile(MANIFEST_NAME)
            if member is None:
                raise BackupError(f"{archive}: {MANIFEST_NAME} is not a file")
            manifest = json.loads(member.read().decode("utf-8"))
    except KeyError:
        raise BackupError(f"{archive}: no {MANIFEST_NAME}; not a judge backup") from None
    except (OSError, tarfile.TarError, json.JSONDecodeError) as error:
        raise BackupError(f"{archive}: cannot read the archive ({error})") from error
    if not isinstance(manifest, dict) or manifest.get("format") != ARCHIVE_FORMAT:
        raise BackupError(
            f"{archive}: unknown backup format (this script reads format {ARCHIVE_FORMAT})"
        )
    return manifest


def _sqlite_has_tables(path: Path) -> bool:
    if not path.exists() or path.stat().st_size == 0:
        return False
    with sqlite3.connect(path) as connection:
        row = connection.execute(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
        ).fetchone()
    return bool(row and row[0])


def _maildir_has_mail(maildir: Path) -> bool:
    return maildir.is_dir() and any(path.is_file() for path in maildir.rglob("*"))


def restore(
    archive: Path, target: Target, env: Mapping[str, str], *, force: bool
) -> dict[str, object]:
    """Put the archive's database and Maildir back; returns the manifest.

    Raises :class:`RefusedError` (before changing anything) when data would be
    overwritten and ``force`` is false.
    """
    manifest = read_manifest(archive)
    backend = manifest.get("backend")
    if backend != target.backend:
        raise BackupError(
            f"the backup holds a {backend} database but the judge is configured for "
            f"{target.backend} ({target.database_url.split(':', 1)[0]}:...)"
        )
    # Every refusal first, so a refused restore writes nothing.
    if not force:
        occupied = []
        if target.backend == "sqlite" and _sqlite_has_tables(target.sqlite_path):
            occupied.append(f"the database {target.sqlite_path} has tables")
        if target.backend == "postgresql" and postgres_table_count(target.database_url, env) > 0:
            occupied.append("the PostgreSQL database has tables")
        if manifest.get("maildir") and _maildir_has_mail(target.maildir):
            occupied.append(f"the Maildir {target.maildir} holds mail")
        if occupied:
            raise RefusedError(
                "; ".join(occupied) + ": stop the judge and pass --force to overwrite"
            )
    with tempfile.TemporaryDirectory(prefix="judge-restore-") as work:
        staging = Path(work)
        with tarfile.open(archive, "r:gz") as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(staging, filter="data")
            else:  # Python before 3.11.4: refuse anything but plain relative members
                for member in tar.getmembers():
                    if member.name.startswith(("/", "..")) or ".." in Path(member.name).parts:
                        raise BackupError(f"{archive}: unsafe member {member.name!r}")
                tar.extractall(staging)
        database_member = staging / str(manifest.get("database"))
        if not database_member.is_file():
            raise BackupError(f"{archive}: the database file is missing")
        if target.backend == "sqlite":
            destination = target.sqlite_path
            destination.parent.mkdir(parents=True, exist_ok=True)
            sqlite_copy(database_member, destination)
        else:
            dsn, child_env = libpq_command_env(target.database_url, env)
            _run(
                [
                    "pg_restore",
                    "--clean",
                    "--if-exists",
                    "--no-owner",
                    "--no-privileges",
                    "--single-transaction",
                    "--exit-on-error",
                    f"--dbname={dsn}",
                    str(database_member),
                ],
                child_env,
            )
        if manifest.get("maildir"):
            source = staging / MAILDIR_MEMBER
            if target.maildir.exists():
                shutil.rmtree(target.maildir)
            target.maildir.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(source, target.maildir)
    return manifest


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="judge-backup", description="Back up or restore a judge's database and Maildir."
    )
    actions = parser.add_subparsers(dest="action", required=True)
    make = actions.add_parser("backup", help="write judge-backup-<time>.tar.gz")
    make.add_argument(
        "--output-dir",
        type=Path,
        help=f"where to write the archive (default: ${BACKUP_DIR_VARIABLE}, else DATA_DIR/backups)",
    )
    put = actions.add_parser("restore", help="restore an archive written by backup")
    put.add_argument("archive", type=Path)
    put.add_argument(
        "--force",
        action="store_true",
        help="overwrite a database with tables / a Maildir with mail",
    )
    for sub in (make, put):
        sub.add_argument(
            "--env-file",
            type=Path,
            help="read JUDGE_* settings from this file too (e.g. /etc/diplomacy-judge/judge.env)",
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    env = dict(os.environ)
    try:
        if args.env_file is not None:
            # The file fills in; a variable set in the environment still wins.
            env = {**read_env_file(args.env_file), **env}
        target = resolve_target(env)
        if args.action == "backup":
            output = args.output_dir or (
                Path(env[BACKUP_DIR_VARIABLE])
                if env.get(BACKUP_DIR_VARIABLE, "").strip()
                else target.data_dir / "backups"
            )
            archive = backup(target, output, env, datetime.now(UTC))
            print(archive)
        else:
            manifest = restore(args.archive, target, env, force=args.force)
            counts = ", ".join(
                f"{key.removesuffix('_rows')}={value}"
                for key, value in manifest.items()
                if key.endswith("_rows")
            )
            print(
                f"restored {manifest.get('backend')} database"
                f" (revision {manifest.get('revision') or 'unknown'}; {counts or 'no counts'})"
                f" and {manifest.get('maildir_messages', 0)} Maildir messages"
                f" from {args.archive}; now run `judge db upgrade` before starting the judge"
            )
    except RefusedError as error:
        print(f"judge-backup: refused: {error}", file=sys.stderr)
        return EXIT_REFUSED
    except BackupError as error:
        print(f"judge-backup: {error}", file=sys.stderr)
        return EXIT_ERROR
    return 0


if __name__ == "__main__":
    sys.exit(main())
