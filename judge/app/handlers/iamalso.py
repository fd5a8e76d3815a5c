"""IAMALSO address: the address this mail comes from is also the registered person at ``address``.

Sent from the new address (conventions §1), as the Judge required. The Judge
linked it at once, so anyone could make themselves someone else's alias
and then read and rewrite that person's registration. Here the claim must
be proved (see :mod:`judge.app.people.claims`): nothing is linked, changed or
revealed until ``CONFIRM <code>`` comes back from ``address``, to which
the judge mails the code.

Who may run it: anyone. What it reveals: whether ``address`` is a
registered address (WHOIS shows registered addresses anyway), nothing of
the registration; the claimed address is told who asked.

* an address that already belongs to another registration is never moved;
* a confirmed link gives no password: signing on to a power still needs
  the power's password.
"""

from __future__ import annotations

from judge.app.people.address_text import read_address, reason, shown
from judge.app.people.claims import IAMALSO, LIFETIME, ClaimRefused, open_claim, refusal
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.repositories.people import normalise_address
from judge.lang.commands import IAmAlso
from judge.mail.addresses import AddressError


@handles(IAmAlso)
def handle(command: IAmAlso, session: MailSession) -> Next:
    _ = session.gettext
    uow = session.uow
    try:
        claimed = read_address(command.address)
    except AddressError as error:
        raise CommandRefused(
            _("This is not a mail address: {address} ({reason}). Nothing was changed.").format(
                address=shown(error), reason=reason(error, _)
            )
        ) from None
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
    try:
        open_claim(session, kind=IAMALSO, confirm_address=claimed, person=owner)
    except ClaimRefused as error:
        told = refusal(session, error, _)
        raise CommandRefused(_("Nothing was linked.") + ("\n" + told if told else "")) from None
    session.reply.ok(
        command.line,
        _(
            "Nothing is linked yet. A confirmation code has been mailed to {address}. {sender} "
            "becomes an address of that registration only when CONFIRM <code> is sent back from "
            "{address}, within {days} days, and then {sender} answers the code the judge mails it. "
            "If nobody does, nothing changes."
        ).format(address=claimed, sender=sender, days=LIFETIME.days),
    )
    return Next.CONTINUE
