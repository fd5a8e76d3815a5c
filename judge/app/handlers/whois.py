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
whole player base; and, so that many prefixes do not either (36 lines
``WHOIS a`` ... ``WHOIS 9``), at most :data:`PER_MAIL` registrations per mail
and ``JUDGE_WHOIS_PER_DAY`` per sender in 24 hours (counted in the database),
the sender's own registration not counted. Past either bound the reply says
so once and shows no more.

Who may run it: anyone. What it reveals: to anyone, the public part of at
most that many registrations; the personal part only as said above.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from judge.app.mail_out.bounces import bounce_state
from judge.app.reports.person import whois_record
from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.db.models import Person, PersonAddress
from judge.db.repositories.people import normalise_address
from judge.lang.commands import Whois

PER_MAIL = 5
LIMIT = PER_MAIL
DAY = timedelta(days=1)


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


def _left(session: MailSession) -> int:
    """This mail's WHOIS budget: registrations still to show in it (counted at its first WHOIS)."""
    if session.whois_left is None:
        seen = session.uow.people.whois_shown(session.sender, session.now - DAY)
        session.whois_left = max(0, min(PER_MAIL, session.services.config.whois_per_day - seen))
    return session.whois_left


def _is_own(session: MailSession, person: Person) -> bool:
    return session.person is not None and session.person.id == person.id


@handles(Whois)
def handle(command: Whois, session: MailSession) -> Next:
    _ = session.gettext
    messages: list[str] = []
    shown: set[int] = set()
    _left(session)
    counted = 0
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
            if not _is_own(session, person):
                if _left(session) <= 0:
                    if not session.whois_bound_told:
                        session.whois_bound_told = True
                        messages.append(
                            _(
                                "WHOIS shows at most {per_mail} registrations per mail, and {per_day} "
                                "in a day to one address: the others were left out."
                            ).format(per_mail=PER_MAIL, per_day=session.services.config.whois_per_day)
                        )
                    break
                session.whois_left = _left(session) - 1
                counted += 1
            shown.add(person.id)
            messages += [*whois_record(person, _, private=may_read_private(session, person))]
            if _is_own(session, person):
                messages += _own_bounces(session, person)
            messages.append("")
        if more:
            messages.append(
                _("More than {count} registrations start with '{prefix}'; give a longer prefix.").format(
                    count=LIMIT, prefix=prefix
                )
            )
    if counted:
        session.uow.people.record_whois(session.sender, counted, session.now, kept=DAY)
    session.reply.ok(command.line, "\n".join(messages).rstrip())
    return Next.CONTINUE


def _own_bounces(session: MailSession, person: Person) -> list[str]:
    """A person's own addresses whose mail bounces (judge.app.mail_out.bounces): shown to them alone."""
    _ = session.gettext
    lines: list[str] = []
    for row in bounce_state(session.uow, [a.address for a in person.addresses]).values():
        line = _("Mail to {address} bounces: {count} bounce(s), the last on {date}: {reason}").format(
            address=row.address, count=row.bounces, date=session.tell_date(row.last_bounce_at), reason=row.last_reason
        )
        if row.bouncing_since is not None:
            line += " " + _("(marked bouncing since {date})").format(date=session.tell_date(row.bouncing_since))
        lines.append(line)
    return lines
