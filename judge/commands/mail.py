"""`judge mail list|show|retry|skip`: see the mail the judge received, and act on what failed.

A mail the judge could not process is marked failed, tried again, and after
``mail_max_attempts`` tries quarantined: it waits for the operator, who reads
it here (``show``: headers, decoded body, error, attempts) and either puts it
back in the queue after a fix (``retry``) or sets it aside for good (``skip``).
Every change is written to the audit log with the operator's name.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

NAME = "mail"
HELP = "list and show received mail; retry or skip mail that failed"

_EPILOG = """\
examples:
  judge mail list --quarantined          mail set aside after failing too often
  judge mail list --failed --json        failed mail, as JSON lines
  judge mail show 42                     headers, decoded body, error and attempts of mail 42
  judge mail retry 42 --as alice         back to the queue, attempts reset (audited as alice)
  judge mail skip 42                     marked handled, never processed (audited as $USER)
"""

LISTED_STATES = ("received", "processed", "failed", "quarantined", "ignored", "skipped", "duplicate")
RETRYABLE = ("failed", "quarantined", "ignored", "skipped")
SKIPPABLE = ("received", "failed", "quarantined")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    parser.add_argument(
        "--url",
        help="database URL (default: $JUDGE_DATABASE_URL, else the SQLite file in the data directory)",
    )
    actions = parser.add_subparsers(dest="mail_action", required=True)
    listing = actions.add_parser(
        "list", help="the newest received mail, newest first",
        description="The newest received mail, newest first.\n\nexample: judge mail list --failed",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    which = listing.add_mutually_exclusive_group()
    for state in ("failed", "quarantined", "ignored"):
        which.add_argument(f"--{state}", dest="state", action="store_const", const=state,
                           help=f"only {state} mail")
    which.add_argument("--state", dest="state", choices=LISTED_STATES, help="only mail in this state")
    listing.add_argument("--limit", type=int, default=50, help="at most this many (default: 50)")
    listing.add_argument("--json", action="store_true", help="one JSON object per line")
    show = actions.add_parser(
        "show", help="one mail: headers, decoded body, error, attempts",
        description="One mail: headers, decoded body, error, attempts.\n\nexample: judge mail show 42",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    show.add_argument("id", type=int)
    show.add_argument("--json", action="store_true", help="as one JSON object")
    for action, text, example in (
        ("retry", "put a failed, quarantined, ignored or skipped mail back in the queue, attempts reset",
         "judge mail retry 42 --as alice"),
        ("skip", "mark a mail handled without processing it", "judge mail skip 42"),
    ):
        sub = actions.add_parser(
            action, help=text, description=f"{text[0].upper()}{text[1:]}.\n\nexample: {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.add_argument("id", type=int)
        sub.add_argument(
            "--as", dest="operator", default=None,
            help="the operator's name for the audit log (default: your Unix user name)",
        )


def run(args: argparse.Namespace) -> int:
    from judge.config import database_url
    from judge.db import open_database
    from judge.db.errors import NotFoundError

    url: str = args.url or database_url()
    try:
        database = open_database(url, migrate=False)
    except Exception as error:
        print(f"judge mail: cannot open the database: {error}", file=sys.stderr)
        return 1
    try:
        if args.mail_action == "list":
            return _list(database, args)
        if args.mail_action == "show":
            return _show(database, args)
        return _change(database, args)
    except NotFoundError:
        print(f"judge mail {args.mail_action}: there is no mail {args.id}", file=sys.stderr)
        return 1
    except Exception as error:  # an operator command: report, do not dump a trace
        print(f"judge mail {args.mail_action}: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    finally:
        database.dispose()


def _list(database: Any, args: argparse.Namespace) -> int:
    import json

    from judge.db.enums import InboundState

    states = [InboundState(args.state)] if args.state else None
    with database.unit_of_work(readonly=True) as uow:
        rows = [_summary(mail) for mail in uow.mail_in.listing(states, limit=max(1, args.limit))]
    if args.json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
        return 0
    if not rows:
        print("no mail" + (f" {args.state}" if args.state else ""))
        return 0
    print(f"{'ID':>6}  {'STATE':<11} {'TRIES':>5}  {'RECEIVED (UTC)':<19}  {'FROM':<30} SUBJECT / ERROR")
    for row in rows:
        tail = row["subject"] + (f"  [{row['error']}]" if row["error"] else "")
        print(
            f"{row['id']:>6}  {row['state']:<11} {row['attempts']:>5}  {row['received_at'][:19]:<19}  "
            f"{_cut(row['from'], 30):<30} {_cut(tail, 80)}"
        )
    return 0


def _show(database: Any, args: argparse.Namespace) -> int:
    import json

    from judge.config import ConfigError, load_config
    from judge.mail.authresults import auth_results_of

    with database.unit_of_work(readonly=True) as uow:
        mail = uow.mail_in.get(args.id)
        row = _summary(mail)
        row["error"] = _safe(mail.error or "")
        row["peer"] = _safe(mail.peer)
        row["recipients"] = [_safe(r) for r in mail.rcpt_tos]
        row["processed_at"] = mail.processed_at.isoformat() if mail.processed_at else None
        row["next_attempt_at"] = mail.next_attempt_at.isoformat() if mail.next_attempt_at else None
        headers, body, problems = _decoded(mail.raw)
        row.update(headers=headers, body=body, problems=problems, size=len(mail.raw))
        try:
            authserv_id = load_config().authserv_id
        except ConfigError:  # the settings are judge serve's business; the mail is still shown
            authserv_id = ""
        checked = auth_results_of(mail.raw, authserv_id)  # the operator's MTA's verdict
        row["authentication"] = (
            None if checked is None else {"by": checked.authserv_id, "spf": checked.spf, "dkim": checked.dkim,
                                          "dmarc": checked.dmarc}
        )  # fmt: skip
    if args.json:
        print(json.dumps(row, ensure_ascii=False, indent=2))
        return 0
    print(f"mail {row['id']}: {row['state']}, {row['attempts']} attempt(s), {row['size']} bytes")
    for label, key in (("received", "received_at"), ("done", "processed_at"),
                       ("next try", "next_attempt_at"), ("envelope from", "from"), ("peer", "peer")):
        if row.get(key):
            print(f"{label}: {row[key]}")
    print(f"envelope to: {', '.join(row['recipients'])}")
    if checked is not None:
        print(f"authentication: {_safe(str(checked))}")
    if row["error"]:
        print(f"error: {row['error']}")
    for problem in problems:
        print(f"decoding: {problem}")
    print("\n----- headers\n" + headers.rstrip("\n"))
    print("\n----- body (decoded)\n" + body.rstrip("\n"))
    return 0


def _change(database: Any, args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from judge.db.enums import AuditKind, InboundState

    operator = args.operator or _unix_user()
    now = datetime.now(UTC)
    action = args.mail_action
    allowed = RETRYABLE if action == "retry" else SKIPPABLE
    with database.unit_of_work() as uow:
        mail = uow.mail_in.get(args.id)
        before = mail.state
        if before.value not in allowed:
            why = (
                "it was processed: retrying would carry its commands out twice"
                if before is InboundState.PROCESSED
                else f"it is {before.value}"
            )
            print(f"judge mail {action}: mail {args.id} is not changed: {why} "
                  f"({action} takes mail that is {', '.join(allowed)})", file=sys.stderr)
            return 1
        if action == "retry":
            mail = uow.mail_in.requeue(args.id, reset_attempts=True)
            done = "back in the queue, attempts reset"
        else:
            mail = uow.mail_in.skip(args.id, f"skipped by {operator}", now)
            done = "marked handled, never to be processed"
        uow.audit.record(
            AuditKind.MAIL, now, actor=operator, setting="mail_in.state",
            old_value=before.value, new_value=mail.state.value,
            detail=f"judge mail {action} {args.id}: {done}",
        )
    print(f"mail {args.id}: {before.value} -> {mail.state.value} ({done}; audited as {operator})")
    return 0


def _summary(mail: Any) -> dict[str, Any]:
    subject = ""
    try:
        from judge.mail.decode import decode_mail

        subject = decode_mail(mail.raw).subject
    except Exception:
        subject = "(cannot be decoded)"
    return {
        "id": mail.id,
        "state": mail.state.value,
        "attempts": mail.attempts,
        "received_at": mail.received_at.isoformat(),
        "from": _safe(mail.mail_from),
        "subject": _safe(subject),
        "error": _safe((mail.error or "").splitlines()[0] if mail.error else ""),
    }


def _decoded(raw: bytes) -> tuple[str, str, list[str]]:
    """The header block as received, the body as the judge reads it, and what went wrong decoding."""
    head = raw.split(b"\r\n\r\n", 1)[0] if b"\r\n\r\n" in raw else raw.split(b"\n\n", 1)[0]
    headers = _safe(head.decode("utf-8", errors="replace").replace("\r\n", "\n"), keep_lines=True)
    try:
        from judge.mail.decode import decode_mail

        decoded = decode_mail(raw)
        return headers, _safe(decoded.body, keep_lines=True), [_safe(p) for p in decoded.problems]
    except Exception as error:
        text = raw.decode("utf-8", errors="replace")
        return headers, _safe(text, keep_lines=True), [f"cannot be decoded: {type(error).__name__}: {error}"]


def _safe(text: str, *, keep_lines: bool = False) -> str:
    """``text`` with control characters shown as '?': a hostile mail must not drive the terminal."""
    keep = "\n\t" if keep_lines else "\t"
    return "".join(c if c in keep or (c >= " " and c != "\x7f" and not "\x80" <= c < "\xa0") else "?" for c in text)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _unix_user() -> str:
    import getpass

    try:
        return getpass.getuser()
    except Exception:
        return "operator"
