"""WHOIS prefix...: the registrations whose address starts with one of the prefixes.

Prefixes are compared case-insensitively with every address of every
registration (addresses are stored lower case). Each person is shown once,
with the public part of the form (see :mod:`judge.app.reports.person`); the
sender's own record is shown whole. At most :data:`LIMIT` records per
prefix, so that ``WHOIS a`` does not mail the whole player base.
"""

from __future__ import annotations

from sqlalchemy import select

from judge.app.registry import Next, handles
from judge.app.reports.person import whois_record
from judge.app.session import MailSession
from judge.db.models import Person, PersonAddress
from judge.lang.commands import Whois

LIMIT = 20


def find_people(session: MailSession, prefix: str) -> tuple[list[Person], bool]:
    """People with an address starting with ``prefix``, by address; True when more were left out."""
    key = prefix.strip().strip("<>").lower()
    escaped = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows = session.uow.session.scalars(
        select(PersonAddress)
        .where(PersonAddress.address.like(f"{escaped}%", escape="\\"))
        .order_by(PersonAddress.address)
    )
    people: dict[int, Person] = {}
    for row in rows:
        if row.person_id not in people:
            if len(people) == LIMIT:
                return list(people.values()), True
            people[row.person_id] = row.person
    return list(people.values()), False


@handles(Whois)
def handle(command: Whois, session: MailSession) -> Next:
    _ = session.gettext
    messages: list[str] = []
    shown: set[int] = set()
    for prefix in command.prefixes:
        people, more = find_people(session, prefix)
        if not people:
            messages.append(
                _("No registration has an address starting with '{prefix}'.").format(prefix=prefix)
            )
            continue
        for person in people:
            if person.id in shown:
                continue
            shown.add(person.id)
            own = session.person is not None and session.person.id == person.id
            messages += [*whois_record(person, _, private=own), ""]
        if more:
            messages.append(
                _("More than {count} registrations start with '{prefix}'; give a longer prefix.").format(
                    count=LIMIT, prefix=prefix
                )
            )
    session.reply.ok(command.line, "\n".join(messages).rstrip())
    return Next.CONTINUE
