"""`judge check`: is the judge well, or does something need a person? For cron and monitoring probes.

Checks that the database answers and is at the newest schema, that the relay
answers (SMTP connect, TLS and login as configured, then NOOP) or the Maildir
takes files, that the web pages answer (unless web_port is 0), and reads the queues: inbound mail waiting and the oldest one's
age, quarantined mail, the outbox's depth, age and failures, the next game
due and how overdue it is. Exit status 0 when all is well, 1 when something
needs a person (each line says which threshold), 2 when the settings cannot
be read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from judge.commands._console import add_common

NAME = "check"
HELP = "check the judge's health (database, schema, relay, queues, next game); exit 1 if a person is needed"

_EPILOG = """\
examples:
  judge check                              one line per check, exit 1 when one fails
  judge check --json                       the same as one JSON object, with the figures
  */5 * * * * judge check --quiet || mail -s "judge needs you" keeper@example.org
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from judge.app.console.health import Thresholds

    add_common(parser, _EPILOG)
    limits = Thresholds()
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--quiet", action="store_true", help="print only what needs a person")
    parser.add_argument("--max-waiting", type=int, default=limits.inbound_waiting, metavar="N",
                        help=f"inbound mails waiting (default: {limits.inbound_waiting})")
    parser.add_argument("--max-age", type=float, default=limits.inbound_age_minutes, metavar="MINUTES",
                        help=f"age of the oldest waiting inbound mail (default: {limits.inbound_age_minutes:g})")
    parser.add_argument("--max-outbox", type=int, default=limits.outbox_pending, metavar="N",
                        help=f"outgoing mails pending (default: {limits.outbox_pending})")
    parser.add_argument("--max-outbox-age", type=float, default=limits.outbox_age_minutes, metavar="MINUTES",
                        help=f"age of the oldest pending outgoing mail (default: {limits.outbox_age_minutes:g})")
    parser.add_argument("--max-overdue", type=float, default=limits.overdue_minutes, metavar="MINUTES",
                        help=f"how late a due game may be (default: {limits.overdue_minutes:g})")
    parser.add_argument("--relay-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="how long to wait for the relay (default: 10)")


def run(args: argparse.Namespace) -> int:
    import dataclasses
    from datetime import UTC, datetime

    from judge.app.console.health import Thresholds, check
    from judge.config import ConfigError, load_config

    try:
        config = load_config(os.environ, args.config)
    except ConfigError as error:
        print(f"judge check: {error}", file=sys.stderr)
        return 2
    if args.url:
        config = dataclasses.replace(config, database_url=args.url)
    limits = Thresholds(
        inbound_waiting=args.max_waiting, inbound_age_minutes=args.max_age, outbox_pending=args.max_outbox,
        outbox_age_minutes=args.max_outbox_age, overdue_minutes=args.max_overdue,
    )
    report = check(config, datetime.now(UTC), limits, relay_timeout=args.relay_timeout)
    if args.json:
        print(json.dumps(report.as_json(), ensure_ascii=False, indent=2))
    else:
        for finding in report.findings:
            if finding.ok and args.quiet:
                continue
            print(f"{'ok  ' if finding.ok else 'FAIL'} {finding.name}: {finding.detail}")
        if not args.quiet or not report.ok:
            print("all is well" if report.ok else "the judge needs a person: see FAIL above")
    return 0 if report.ok else 1
