"""`judge serve`: run the judge, answering mail until stopped (SIGINT or SIGTERM).

With no options it runs every role in one process with the embedded defaults
(SMTP on 127.0.0.1:2525, an SQLite database and a Maildir under ./data), so a
fresh checkout answers mail at once. ``--only ROLE`` (repeatable) runs some
roles only, for several processes sharing one PostgreSQL database.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from judge.app.runtime.judge_server import WebServe

NAME = "serve"
HELP = "run the judge: SMTP in, commands, deadlines, mail out, the web pages"
ROLE_NAMES = ("inbound", "worker", "outbound", "scheduler", "web")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="TOML settings file (JUDGE_* environment variables override it)",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=ROLE_NAMES,
        metavar="ROLE",
        help="run only this role (inbound, worker, outbound, scheduler or web); repeatable",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="answer mail with N workers in this process (PostgreSQL; each sender's mail "
        "stays in order; default 1)",
    )
    parser.add_argument(
        "--no-migrate",
        action="store_true",
        help="do not upgrade the database schema; refuse to start unless it is current "
        "(when the operator runs `judge db upgrade` before the roles start)",
    )


def run(args: argparse.Namespace) -> int:
    import asyncio
    import dataclasses
    import logging
    import os
    import sys

    from judge.app.runtime.judge_server import (
        ALL_ROLES,
        Role,
        build_services,
        serve,
        tuning_from_config,
    )
    from judge.config import ConfigError, load_config
    from judge.db.database import open_database
    from judge.db.errors import SchemaError
    from judge.logs import configure_logging, log_event
    from judge.timekeeping.clock import SystemClock

    try:
        config = load_config(os.environ, args.config)
        configure_logging(config)
    except ConfigError as error:
        print(f"judge serve: {error}", file=sys.stderr)
        return 2
    log = logging.getLogger("judge.serve")
    try:
        database = open_database(config.database_url, migrate=not args.no_migrate)
    except SchemaError as error:
        print(f"judge serve: {error}", file=sys.stderr)
        return 2
    roles = frozenset(Role(name) for name in args.only) if args.only else ALL_ROLES
    services = build_services(config, database, SystemClock())
    metrics = None
    try:
        if config.metrics_port:
            from judge.app.console.metrics import start_metrics

            metrics = start_metrics(database, services.clock.now, config.metrics_port)
        tuning = dataclasses.replace(tuning_from_config(config), workers=max(1, args.workers))
        healthy = asyncio.run(
            serve(services, roles=roles, tuning=tuning, ready=_say_where(config, metrics), web=load_web_pages)
        )
    except OSError as error:  # typically: the SMTP port (or the metrics port) is taken
        log_event(log, "server.failed", level=logging.ERROR, error=str(error))
        print(f"judge serve: {error}", file=sys.stderr)
        return 1
    finally:
        if metrics is not None:
            metrics.close()
        database.dispose()
    return 0 if healthy else 1


def _say_where(config: Any, metrics: Any) -> Callable[[Any], None]:
    """Print, once the roles are up, one readable line: where the judge listens, its database,
    where replies go (judge.app.runtime.startup_line), beside the structured log."""

    def ready(server: Any) -> None:
        from judge.app.runtime.judge_server import Role
        from judge.app.runtime.startup_line import startup_line

        listening = f"{server.host}:{server.port}" if Role.INBOUND in server.running_roles else None
        web = f"{config.web_host}:{server.web_port}" if Role.WEB in server.running_roles else None
        line = startup_line(config, listening=listening, roles=[r.value for r in server.running_roles],
                            metrics_port=metrics.port if metrics is not None else None, web=web)
        print(line, flush=True)

    return ready


def load_web_pages() -> WebServe:
    """The web role's pages (:mod:`judge.web`), loaded when the role starts: the pages sit beside
    this command, above the application, so the command hands them to the server."""
    from judge.web.serving import serve_web

    return serve_web
