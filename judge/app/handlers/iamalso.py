"""IAMALSO address: the address this mail comes from is also the registered person at ``address``.

Sent from the new address (conventions §1), as the Judge required. The Judge
checked nothing more, so anyone could claim to be someone else's alias; we
keep its behaviour but close what that would open:

* an address that already belongs to another registration is never moved;
* linking an address gives no password: signing on to a power still needs
  the power's password, and the reply says so;
* the registration's primary address is told of the new link by mail, so a
  false claim does not go unnoticed.
"""

from __future__ import annotations

from judge.app.errors import CommandRefused
from judge.app.registry import Next, handles
from judge.app.session import MailSession, Outgoing
from judge.db.enums import AuditKind
from judge.db.models import Person
from judge.db.repositories.people import normalise_address
from judge.i18n import translation
from judge.lang.commands import IAmAlso


@handles(IAmAlso)
def handle(command: IAmAlso, session: MailSession) -> Next:
    _ = session.gettext
    uow = session.uow
    claimed = normalise_address(command.address)
    sender = normalise_address(session.sender)
    owner = uow.people.by_address(claimed)
    if owner is None:
        raise CommandRefused(
            _(
                "No registration has the address {address}. Send IAMALSO with an address you "
                "registered, or register with REGISTER."
            ).format(address=claimed)
        )
    current = session.person
    if current is not None and current.id == owner.id:
        session.reply.ok(
            command.line,
            _("{sender} is already an address of {name}'s registration.").format(
                sender=sender, name=owner.name
            ),
        )
        return Next.CONTINUE
    if current is not None:
        raise CommandRefused(
            _(
                "This address already belongs to another registration; it cannot be linked "
                "to {address}."
            ).format(address=claimed)
        )
    uow.people.add_address(owner, sender, session.now)
    uow.audit.record(
        AuditKind.NEW_ADDRESS, session.now, person=owner, actor=sender,
        new_value=sender, detail=f"IAMALSO {claimed}",
    )  # fmt: skip
    session.person = owner
    session.language = owner.language
    _ = session.gettext
    session.reply.ok(
        command.line,
        _("{sender} is now an address of {name}'s registration ({address}).").format(
            sender=sender, name=owner.name, address=claimed
        ),
        _(
            "This gives no password: to play a power from this address you still sign on with "
            "that power's password."
        ),
    )
    _tell_owner(session, owner, sender)
    return Next.CONTINUE


def _tell_owner(session: MailSession, owner: Person, added: str) -> None:
    """The registration's primary address learns that an address was linked to it."""
    primary = owner.primary_address
    if primary is None or primary == added:
        return
    _ = translation(owner.language).gettext
    config = session.services.config
    body = _(
        "The address {address} has been linked to your registration on the judge {code} "
        "with IAMALSO. If this was not you, write to the judge keeper at {admin}."
    ).format(address=added, code=config.code, admin=config.admin or config.address)
    session.send(Outgoing((primary,), f"{config.code} IAMALSO", body + "\n"))
