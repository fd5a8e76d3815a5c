"""WHOIS prefix...: the registrations whose address starts with one of the prefixes.

Prefixes are compared case-insensitively with every address of every
registration (addresses are stored lower case). Each person is shown once,
with the public part of the form (see :mod:`judge.app.reports.person`):
name, addresses, site, country, time zone, level, language and the
dedication record, what players need to find and judge each other. Phone,
postal address, birth date, sex, the package choice and the form's own
fields are personal: shown only to the person (from one of their own
addresses) and to the judge keeper (``config.admin``), unless the operator
restores the classic Judge's public WHOIS (``JUDGE_PUBLIC_WHOIS``). At most
:data:`LIMIT` records per prefix, so that ``WHOIS a`` does not mail the
whole player base.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from judge.app.registry import Next, handles
from judge.app.reports.person import whois_record
from judge.app.session import MailSession
from judge.db.models import Person, PersonAddress
from judge.db.repositories.people import normalise_address
from judge.lang.commands import Whois

LIMIT = 20


def find_people(session: MailSession, prefix: str) -> tuple[list[Person], bool]:
    """People with an address starting with ``prefix``, by address; True when more were left out."""
    key = prefix.strip().strip("<>").lower()
    escaped = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    first_address = func.min(PersonAddress.address)
    ids = list(
        session.uow.session.scalars(
            select(PersonAddress.person_id)
            .where(PersonAddress.address.like(f"{escaped}%", escape="\\"))
            .group_by(PersonAddress.person_id)
            .order_by(first_address)
            .limit(LIMIT + 1)
        )
    )
    more = len(ids) > LIMIT
    ids = ids[:LIMIT]
    people = {
        person.id: person
        for person in session.uow.session.scalars(
            select(Person).where(Person.id.in_(ids)).options(selectinload(Person.addresses))
        )
    }
    return [people[i] for i in ids], more


def may_read_private(session: MailSession, person: Person) -> bool:
    """Whether the sender may read ``person``'s personal fields: their own, the keeper, or a public WHOIS."""
    config = session.services.config
    if config.public_whois:
        return True
    if session.person is not None and session.person.id == person.id:
        return True
    return bool(config.admin) and normalise_address(session.sender) == normalise_address(config.admin)


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
            messages += [*whois_record(person, _, private=may_read_private(session, person)), ""]
        if more:
            messages.append(
                _("More than {count} registrations start with '{prefix}'; give a longer prefix.").format(
                    count=LIMIT, prefix=prefix
                )
            )
    session.reply.ok(command.line, "\n".join(messages).rstrip())
    return Next.CONTINUE
