"""`judge db upgrade|downgrade|current|heads|purge`: manage the database schema and its size.

The judge also upgrades a fresh database on first start; these commands are
for operators who want to do it by hand, check where a database stands, or
step back before downgrading the judge. ``purge`` deletes the mail the judge
is done with (``judge serve`` does it daily, per ``retention_days``).
"""

from __future__ import annotations

import argparse
import sys

NAME = "db"
HELP = "manage the database schema (upgrade, downgrade, current, heads) and purge old mail"

_PURGE_HELP = """\
Delete processed, ignored and skipped inbound mail and delivered outbound mail
older than DAYS days. Failed and quarantined inbound mail and outbound mail
not yet delivered stay until handled (see `judge mail`). Replies, orders and
press that pointed at a deleted mail keep their own text.

example: judge db purge --older-than 90
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--url",
        help="database URL (default: $JUDGE_DATABASE_URL, else the SQLite file in the data directory)",
    )
    actions = parser.add_subparsers(dest="db_action", required=True)
    upgrade = actions.add_parser(
        "upgrade", help="bring the database up to a revision (default: head)"
    )
    upgrade.add_argument("revision", nargs="?", default="head")
    downgrade = actions.add_parser("downgrade", help="take the database down to a revision")
    downgrade.add_argument("revision", help="e.g. base, or a revision id")
    actions.add_parser("current", help="print the database's revision ('none' if never migrated)")
    actions.add_parser("heads", help="print the newest revision this judge knows")
    purge = actions.add_parser(
        "purge", help="delete mail the judge is done with, older than DAYS days",
        description=_PURGE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    purge.add_argument("--older-than", dest="days", type=int, required=True, metavar="DAYS",
                       help="age in days (0: all mail done with)")


def run(args: argparse.Namespace) -> int:
    from judge.config import database_url
    from judge.db import migrate

    url: str = args.url or database_url()
    try:
        if args.db_action == "upgrade":
            migrate.upgrade(url, args.revision)
            print(f"database at {migrate.current_revision(url) or 'none'}")
        elif args.db_action == "downgrade":
            migrate.downgrade(url, args.revision)
            print(f"database at {migrate.current_revision(url) or 'none'}")
        elif args.db_action == "purge":
            return _purge(url, args.days)
        elif args.db_action == "current":
            current = migrate.current_revision(url)
            head = migrate.head_revision()
            note = " (head)" if current == head else f" (head is {head})"
            print(f"{current or 'none'}{note}")
        else:
            print(migrate.head_revision())
    except Exception as error:  # an operator command: report, do not dump a trace
        from sqlalchemy.engine import make_url

        shown = make_url(url).render_as_string(hide_password=True)
        print(f"judge db {args.db_action}: {shown}: {error}", file=sys.stderr)
        return 1
    return 0


def _purge(url: str, days: int) -> int:
    from datetime import UTC, datetime, timedelta

    from judge.app.console.housekeeping import purge_mail
    from judge.db import open_database

    if days < 0:
        print("judge db purge: --older-than takes a number of days, 0 or more", file=sys.stderr)
        return 2
    database = open_database(url, migrate=False)
    try:
        with database.unit_of_work() as uow:
            report = purge_mail(uow, datetime.now(UTC) - timedelta(days=days))
    finally:
        database.dispose()
    print(f"purged mail older than {days} days: {report}")
    return 0
