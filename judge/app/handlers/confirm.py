"""CONFIRM code: the owner of a claimed address says yes (see :mod:`judge.app.people.claims`).

Four kinds of claim: IAMALSO and a REGISTER naming someone's address, once
their owner confirms, ask the address that asked for a code of its own (the
REGISTER's form is applied at once); an UPDATE (a REGISTER from one of the registration's own
addresses, confirmed from its primary address) applies the form, moves the
primary address among the registration's own, and asks a new address for a
code of its own; an ADDRESS claim, that new address's, links the confirming
address itself to the registration.

Who may run it: anyone, but it does something only when the mail comes
*from* the address the code was mailed to, with a code that is right,
unused and unexpired. Every other case (wrong code, used, expired, sent
from another address, too many wrong tries) gets one and the same answer,
so that CONFIRM tells a guesser nothing; a wrong code sent from an address
with claims waiting counts against them (:data:`judge.app.people.claims.MAX_ATTEMPTS`).

What it reveals: to the confirming address, what was done; to the
registration's address that agreed, by mail, that the new address confirmed.
Nothing else.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from judge.app.people.claims import (
    ADDRESS,
    IAMALSO,
    LIFETIME,
    MAX_ATTEMPTS,
    UPDATE,
    ClaimRefused,
    open_claim,
    refusal,
    token_hash,
)
from judge.app.session.mail_session import MailSession, Outgoing
from judge.app.session.readers import choose_language
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind
from judge.db.models import AddressClaim, Person
from judge.db.repositories.people import normalise_address
from judge.i18n import translation
from judge.lang.commands import Confirm


@handles(Confirm)
def handle(command: Confirm, session: MailSession) -> Next:
    _ = session.gettext
    uow = session.uow
    sender = normalise_address(session.sender)
    claim = uow.people.claim_by_token(token_hash(command.token))
    if not _usable(claim, sender, session):
        for waiting in uow.people.pending_claims(sender, session.now, max_attempts=MAX_ATTEMPTS):
            waiting.attempts += 1
        uow.flush()
        # Answered, not raised: a refusal would roll back the count of wrong tries.
        session.reply.error(
            command.line,
            _(
                "No request waits for this code from this address (the code is wrong, used or "
                "expired, or was mailed to another address). Nothing was changed."
            ),
        )
        return Next.CONTINUE
    assert claim is not None
    claim.used_at = session.now
    person = uow.people.get(claim.person_id)
    if claim.kind == ADDRESS:
        return _link_claimed_address(command, session, claim, person)
    if claim.kind == UPDATE:
        return _apply_update(command, session, claim, person)
    holder = uow.people.by_address(claim.requester)
    if holder is not None and holder.id != person.id:
        raise CommandRefused(
            _(
                "{address} now belongs to another registration: it cannot be linked to yours. "
                "Nothing was changed."
            ).format(address=claim.requester)
        )
    changed: dict[str, Any] = {}
    if claim.kind != IAMALSO:
        changed = _apply_form(session, person, claim.payload)
    if changed:
        uow.audit.record(
            AuditKind.REGISTRATION, session.now, person=person, actor=claim.requester,
            new_value=changed, detail=f"updated, confirmed by {sender}",
        )  # fmt: skip
    messages = [
        _("Registration updated: {fields}.").format(fields=", ".join(sorted(changed)))
        if changed
        else _("Confirmed.")
    ]
    # The asking address gets a code of its own: a forged From line cannot tie an address
    # its writer does not read to a registration (the forger's own, for one).
    messages.append(_ask_new_address(session, claim, person, claim.requester, tell=sender))
    session.reply.ok(command.line, *messages)
    return Next.CONTINUE


def _apply_update(
    command: Confirm, session: MailSession, claim: AddressClaim, person: Person
) -> Next:
    """The primary address agreed to a REGISTER from one of the registration's addresses."""
    _ = session.gettext
    uow = session.uow
    holder = uow.people.by_address(claim.confirm_address)
    if holder is None or holder.id != person.id:
        raise CommandRefused(
            _("This address is no longer an address of that registration. Nothing was changed.")
        )
    payload = claim.payload
    changed = _apply_form(session, person, payload)
    if "language" in changed:
        choose_language(person, person.language)
    primary = payload.get("primary")
    if primary and primary in {a.address for a in person.addresses} and primary != person.primary_address:
        for link in person.addresses:
            link.is_primary = link.address == primary
        uow.flush()
        changed["primary_address"] = primary
    if changed:
        uow.audit.record(
            AuditKind.REGISTRATION, session.now, person=person, actor=claim.requester,
            new_value=changed, detail=f"updated, confirmed by {claim.confirm_address}",
        )  # fmt: skip
    session.person = person
    new_address = payload.get("new_address")
    messages = [
        _("Confirmed: registration updated: {fields}.").format(fields=", ".join(sorted(changed)))
        if changed
        else _("Confirmed.")
        if new_address
        else _("Confirmed: nothing needed changing.")
    ]
    if new_address:
        messages.append(_ask_new_address(session, claim, person, str(new_address), tell=claim.requester))
    session.reply.ok(command.line, *messages)
    return Next.CONTINUE


def _ask_new_address(
    session: MailSession, claim: AddressClaim, person: Person, address: str, *, tell: str
) -> str:
    """The owner agreed to add ``address``: now ``address`` itself gets a code (what the reply says).

    ``tell``: the registration's address told by mail once ``address`` confirmed.
    """
    _ = session.gettext
    holder = session.uow.people.by_address(address)
    if holder is not None:
        if holder.id == person.id:
            return _("{address} is already an address of your registration.").format(address=address)
        return _("{address} belongs to another registration; it was not added.").format(address=address)
    try:
        open_claim(
            session, kind=ADDRESS, confirm_address=address, person=person,
            payload={"primary": bool(claim.payload.get("new_primary")), "tell": tell},
            requester=claim.requester,
        )  # fmt: skip
    except ClaimRefused as error:
        told = refusal(session, error, _)
        refused = _("{address} was not added.").format(address=address)
        return refused + (" " + told if told else "")
    return _(
        "A confirmation code has been mailed to {address}: it becomes an address of your "
        "registration only when CONFIRM <code> comes back from it, within {days} days."
    ).format(address=address, days=LIFETIME.days)


def _link_claimed_address(
    command: Confirm, session: MailSession, claim: AddressClaim, person: Person
) -> Next:
    """REGISTER Email: the confirming address joins the registration that named it."""
    _ = session.gettext
    uow = session.uow
    address = claim.confirm_address
    holder = uow.people.by_address(address)
    if holder is not None and holder.id != person.id:
        raise CommandRefused(
            _("This address already belongs to another registration. Nothing was changed.")
        )
    uow.people.add_address(person, address, session.now)
    if claim.payload.get("primary"):
        for link in person.addresses:
            link.is_primary = link.address == address
        uow.flush()
    uow.audit.record(
        AuditKind.NEW_ADDRESS, session.now, person=person, actor=address,
        new_value=address, detail=f"new address confirmed by {address}",
    )  # fmt: skip
    session.person = person
    session.reply.ok(
        command.line,
        _("Confirmed: {address} is now an address of {name}'s registration.").format(
            address=address, name=person.name
        ),
    )
    _tell_registrant(session, claim, person)
    return Next.CONTINUE


def _tell_registrant(session: MailSession, claim: AddressClaim, person: Person) -> None:
    """The registration's address that agreed learns that the new one is now linked."""
    _ = translation(person.language).gettext
    config = session.services.config
    told = str(claim.payload.get("tell") or claim.requester)
    if told == claim.confirm_address:
        return
    body = _(
        "{address} confirmed: it is now an address of your registration on the judge {code}."
    ).format(address=claim.confirm_address, code=config.code)
    session.send(Outgoing((told,), f"{config.code} CONFIRM", body + "\n"))


def _usable(claim: AddressClaim | None, sender: str, session: MailSession) -> bool:
    return (
        claim is not None
        and claim.used_at is None
        and claim.expires_at > session.now
        and claim.attempts < MAX_ATTEMPTS
        and claim.confirm_address == sender
    )


def _apply_form(session: MailSession, person: Person, payload: dict[str, Any]) -> dict[str, Any]:
    """The REGISTER form kept with the claim, applied now that the owner agreed."""
    values = dict(payload.get("values") or {})
    if values.get("birth_date"):
        values["birth_date"] = date.fromisoformat(values["birth_date"])
    extra = payload.get("extra") or {}
    if extra:
        values["extra"] = {**(person.extra or {}), **extra}
    changed = session.uow.people.update_registration(person, values, session.now)
    return {key: str(new) if isinstance(new, date) else new for key, (_old, new) in changed.items()}
