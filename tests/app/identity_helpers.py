"""Helpers for the identity and information tests: REGISTER forms by mail, and what the database holds.

Everything a player does goes through mail (``harness.exchange``); what the
judge stored is read back in a fresh read-only unit of work, so a test sees
what was committed, not what a session still had in memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage

from judge.db.enums import AuditKind
from judge.db.models import AuditEvent
from tests.app.conftest import Harness, text


def form(*lines: str) -> str:
    """A REGISTER form from ``Keyword: value`` lines."""
    return "REGISTER\n" + "".join(f"{line}\n" for line in lines) + "END\n"


def register(harness: Harness, sender: str, *lines: str) -> EmailMessage:
    """Send a REGISTER form from ``sender``; returns the judge's reply."""
    return harness.exchange(sender, form(*lines))


def register_simply(harness: Harness, sender: str, name: str, *, language: str = "en") -> None:
    """A registered person, registered by mail as a player would."""
    reply = register(harness, sender, f"Name: {name}", "Country: France", f"Language: {language}")
    assert "[Error Flag]" not in reply["Subject"], text(reply)


@dataclass
class PersonRow:
    name: str
    country: str
    phone: str
    postal_address: str
    level: str
    language: str
    birth_date: str | None
    wants_package: bool
    time_zone: str
    extra: dict[str, object]
    addresses: list[str]
    primary: str | None


def person(harness: Harness, address: str) -> PersonRow | None:
    """The stored registration holding ``address``, or None."""
    with harness.db.unit_of_work(readonly=True) as uow:
        found = uow.people.by_address(address)
        if found is None:
            return None
        return PersonRow(
            name=found.name,
            country=found.country,
            phone=found.phone,
            postal_address=found.postal_address,
            level=found.level,
            language=found.language,
            birth_date=found.birth_date.isoformat() if found.birth_date else None,
            wants_package=found.wants_package,
            time_zone=found.time_zone,
            extra=dict(found.extra or {}),
            addresses=sorted(a.address for a in found.addresses),
            primary=found.primary_address,
        )


def people_count(harness: Harness) -> int:
    from judge.db.models import Person

    with harness.db.unit_of_work(readonly=True) as uow:
        return uow.session.query(Person).count()


def audit(harness: Harness, kind: AuditKind) -> list[tuple[str, str | None]]:
    """(actor, detail) of every audit event of ``kind``, oldest first."""
    with harness.db.unit_of_work(readonly=True) as uow:
        rows = uow.session.query(AuditEvent).filter(AuditEvent.kind == kind).order_by(AuditEvent.id)
        return [(row.actor, row.detail) for row in rows]


def set_record(harness: Harness, address: str, **counters: int) -> None:
    """Give a registered person a dedication record (the phase processing's job, done here directly)."""
    with harness.db.unit_of_work() as uow:
        found = uow.people.by_address(address)
        assert found is not None
        uow.people.add_to_record(found, **counters)


def body(message: EmailMessage) -> str:
    return text(message).replace("\r\n", "\n")


def code_sent_to(harness: Harness, address: str) -> str:
    """The code of the one confirmation mail the last exchange queued for ``address``."""
    [mail] = [m for m in harness.others if m["To"] == address]
    return body(mail).split("CONFIRM ")[1].split()[0]


def confirm(harness: Harness, address: str) -> EmailMessage:
    """``address`` answers the code just mailed to it; returns the judge's reply."""
    return harness.exchange(address, f"CONFIRM {code_sent_to(harness, address)}\n")


def add_address(harness: Harness, owner: str, address: str) -> None:
    """``address`` joins the registration of ``owner`` as a second address, as a player does it:
    REGISTER with both on the Email line, then CONFIRM from ``owner`` and from ``address``."""
    register(harness, owner, f"Email: {owner}, {address}")
    confirm(harness, owner)
    confirm(harness, address)
