"""`judge db upgrade|downgrade|current|heads`: manage the database schema.

The judge also upgrades a fresh database on first start; these commands are
for operators who want to do it by hand, check where a database stands, or
step back before downgrading the judge.
"""

from __future__ import annotations

import argparse
import sys

NAME = "db"
HELP = "manage the database schema (upgrade, downgrade, current, heads)"


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
