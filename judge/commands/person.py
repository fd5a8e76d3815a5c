"""`judge person show|edit|merge|block|unblock`: the judgekeeper's hand on the people the judge knows.

A person is named by any of their addresses. ``edit`` changes one field of
the registration or the person's addresses, ``merge A B`` makes B's
addresses, games and record A's (B is gone), ``block`` sets a person's mail
aside unanswered (kept, readable with `judge mail show`) until ``unblock``.
Every change is audited with the operator's name.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from judge.commands._console import (
    add_common,
    add_operator,
    load_services,
    operator_name,
    safe,
    sub,
)

NAME = "person"
HELP = "show, edit, merge, block or unblock a person (by any of their addresses)"

_EPILOG = """\
examples:
  judge person show ann@example.org --json
  judge person edit ann@example.org name="Ann Smith"
  judge person edit ann@example.org add_address=ann@work.example
  judge person merge ann@example.org ann.smith@example.net --as alice
  judge person block troll@example.com --reason "abusive press"
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common(parser, _EPILOG)
    actions = parser.add_subparsers(dest="person_action", required=True)
    show = sub(actions, "show", "a person: registration, addresses, record, games, block",
               "judge person show ann@example.org")
    show.add_argument("address")
    show.add_argument("--json", action="store_true", help="as one JSON object")
    edit = sub(actions, "edit", "change fields: name, phone, site, postal_address, country, sex, level, "
               "language, time_zone, primary, add_address, remove_address",
               "judge person edit ann@example.org language=fr time_zone=Europe/Paris")
    edit.add_argument("address")
    edit.add_argument("changes", nargs="+", metavar="FIELD=VALUE")
    add_operator(edit)
    merge = sub(actions, "merge", "make B's addresses, games and record A's; B is gone",
                "judge person merge ann@example.org ann.smith@example.net")
    merge.add_argument("keep", metavar="A")
    merge.add_argument("gone", metavar="B")
    add_operator(merge)
    for action, text, example in (
        ("block", "keep a person's mail unanswered (stored, marked ignored)",
         'judge person block troll@example.com --reason "abusive press"'),
        ("unblock", "answer a blocked person's mail again", "judge person unblock troll@example.com"),
    ):
        one = sub(actions, action, text, example)
        one.add_argument("address")
        if action == "block":
            one.add_argument("--reason", default="", help="why, for the audit log")
        add_operator(one)


def run(args: argparse.Namespace) -> int:
    from judge.app.console.people_actions import PersonRefusal
    from judge.mail.addresses import AddressError

    try:
        services = load_services(args)
    except Exception as error:
        print(f"judge person: cannot open the judge: {error}", file=sys.stderr)
        return 1
    action = args.person_action
    try:
        return {"show": _show, "edit": _edit, "merge": _merge}.get(action, _block)(services, args)
    except (PersonRefusal, AddressError) as error:
        print(f"judge person {action}: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # an operator command: report, do not dump a trace
        print(f"judge person {action}: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    finally:
        services.db.dispose()


def _show(services: Any, args: argparse.Namespace) -> int:
    from judge.app.console.people_actions import find_person
    from judge.app.console.views import person_details

    with services.db.unit_of_work(readonly=True) as uow:
        view = person_details(uow, find_person(uow, args.address))
    if args.json:
        print(json.dumps(view, ensure_ascii=False, indent=2))
        return 0
    print(safe(f"person {view['id']}: {view['name']} <{view['primary']}>"))
    print("addresses: " + ", ".join(view["addresses"]))
    for key in ("language", "level", "country", "time_zone", "phone", "site", "registered"):
        if view[key]:
            print(safe(f"{key}: {view[key]}"))
    print("record: " + ", ".join(f"{k} {v}" for k, v in view["record"].items()))
    games = [f"{g['game']} ({g['power'] or 'waiting'}, {g['status']})" for g in view["games"]]
    print("games: " + (", ".join(games) or "none"))
    block = view["blocked"]
    if block:
        print(safe(f"BLOCKED since {block.get('at')} by {block.get('by')}: {block.get('reason') or '-'}"))
    for bounced in view["bounces"]:
        state = f"BOUNCING since {bounced['bouncing_since']}" if bounced["bouncing_since"] else "not bouncing yet"
        print(safe(
            f"bounces: {bounced['address']} score {bounced['score']:g} ({bounced['bounces']} bounce(s), "
            f"the last {bounced['last_bounce']}: {bounced['last_reason']}); {state}"
        ))  # fmt: skip
    return 0


def _edit(services: Any, args: argparse.Namespace) -> int:
    from judge.app.console.people_actions import PersonRefusal, edit_person, find_person

    operator = operator_name(args)
    pairs = []
    for change in args.changes:
        field, equals, value = change.partition("=")
        if not equals:
            raise PersonRefusal(f"{change!r}: write FIELD=VALUE")
        pairs.append((field, value))
    now = services.clock.now()
    with services.db.unit_of_work() as uow:
        person = find_person(uow, args.address)
        done = [(field, *edit_person(uow, person, field, value, operator, now)) for field, value in pairs]
    for field, old, new in done:
        print(safe(f"{field}: {old!r} -> {new!r}"))
    print(f"audited as {operator}")
    return 0


def _merge(services: Any, args: argparse.Namespace) -> int:
    from judge.app.console.people_actions import find_person, merge_people

    operator = operator_name(args)
    with services.db.unit_of_work() as uow:
        keep = find_person(uow, args.keep)
        gone = find_person(uow, args.gone)
        name = keep.name
        moved = merge_people(uow, keep, gone, operator, services.clock.now())
    print(safe(f"merged into {name}: {', '.join(moved)} (audited as {operator})"))
    return 0


def _block(services: Any, args: argparse.Namespace) -> int:
    from judge.app.console.people_actions import block_person, find_person

    operator = operator_name(args)
    blocked = args.person_action == "block"
    with services.db.unit_of_work() as uow:
        person = find_person(uow, args.address)
        changed = block_person(uow, person, operator, services.clock.now(), blocked=blocked,
                               reason=getattr(args, "reason", ""))
        name = person.name
    state = "blocked: their mail is kept and not answered" if blocked else "not blocked: their mail is answered"
    print(safe(f"{name} is {state}" + (f" (audited as {operator})" if changed else " (already so)")))
    return 0
