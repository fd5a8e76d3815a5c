"""What the operator's console commands share: options, opening the judge, the operator's name.

Not a sub-command (its name starts with '_'): `judge game`, `judge person`
and `judge check` use it.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

URL_HELP = "database URL (default: the settings' database_url, else $JUDGE_DATABASE_URL or data/judge.sqlite3)"


def add_common(parser: argparse.ArgumentParser, example: str) -> None:
    """``--url`` and ``--config``, and an example after the help."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = example
    parser.add_argument("--url", help=URL_HELP)
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="TOML settings file (JUDGE_* environment variables override it)")


def add_operator(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--as", dest="operator", default=None, metavar="NAME",
        help="the operator's name for the audit log (default: your Unix user name)",
    )


def sub(actions: Any, name: str, text: str, example: str) -> argparse.ArgumentParser:
    """A sub-sub-command with its help and one example."""
    parser: argparse.ArgumentParser = actions.add_parser(
        name, help=text, description=f"{text[0].upper()}{text[1:]}.\n\nexample: {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def load_services(args: argparse.Namespace) -> Any:
    """The judge's services (settings, database, system clock) for one console command.

    The database is opened without migrating it: the console never changes
    the schema (`judge db upgrade` does).
    """
    import dataclasses

    from judge.app.runtime.judge_server import build_services
    from judge.config import load_config
    from judge.db import open_database
    from judge.timekeeping.clock import SystemClock

    config = load_config(os.environ, args.config)
    if args.url:
        config = dataclasses.replace(config, database_url=args.url)
    database = open_database(config.database_url, migrate=False)
    return build_services(config, database, SystemClock())


def operator_name(args: argparse.Namespace) -> str:
    if getattr(args, "operator", None):
        return str(args.operator)
    import getpass

    try:
        return getpass.getuser()
    except Exception:
        return "operator"


def safe(text: str) -> str:
    """``text`` with control characters shown as '?': what players wrote must not drive the terminal."""
    return "".join(c if c in "\n\t" or (c >= " " and c != "\x7f" and not "\x80" <= c < "\xa0") else "?"
                   for c in text)
