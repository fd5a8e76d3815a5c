"""Proof of ownership: a change to a registration waits for a mail from the address it concerns.

IAMALSO, and a REGISTER that would change someone's record from an address
not yet theirs, change nothing at once: the judge mails a one-time code to
the address being claimed, and only ``CONFIRM <code>`` sent *from that
address* carries the change out (see :mod:`judge.app.handlers.confirm`).
Anyone can forge a From line, but only the owner of a mailbox reads what
is mailed to it: that is the proof.

The code is random (80 bits, in a form one can type: ``K7QF-2MZD-9XWP-HT4R``);
the database keeps only its SHA-256 (the code's own entropy makes a slow
hash pointless); it works once, for :data:`LIFETIME`, and a claim dies
after :data:`MAX_ATTEMPTS` wrong codes sent from its address. At most
:data:`MAX_PENDING` claims wait for one address, so nobody can use the
judge to flood a mailbox with codes.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from judge.app.session import MailSession, Outgoing
from judge.db.models import AddressClaim, Person
from judge.db.repositories.people import normalise_address
from judge.i18n import translation
from judge.mail.compose import judge_date

LIFETIME = timedelta(days=3)
MAX_ATTEMPTS = 5
MAX_PENDING = 3
KEPT = timedelta(days=30)  # expired claims are kept a while (the audit trail keeps what was done)
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and retyped
GROUPS, GROUP_LENGTH = 4, 4

IAMALSO = "iamalso"  # link the requester to the registration that owns the claimed address
REGISTER = "register"  # the same, and apply the REGISTER form kept in the payload
ADDRESS = "address"  # link the claimed address to the requester's registration (REGISTER Email:)


class TooManyPending(Exception):
    """Enough codes already wait for this address; no new one is mailed."""


def new_token() -> str:
    """A fresh code, e.g. ``K7QF-2MZD-9XWP-HT4R``."""
    return "-".join(
        "".join(secrets.choice(ALPHABET) for _ in range(GROUP_LENGTH)) for _ in range(GROUPS)
    )


def token_hash(token: str) -> str:
    """What the database keeps of a code: the code read leniently (case, dashes, blanks), hashed."""
    cleaned = "".join(c for c in token.upper() if c.isalnum())
    return hashlib.sha256(cleaned.encode("ascii", "replace")).hexdigest()


def open_claim(
    session: MailSession,
    *,
    kind: str,
    confirm_address: str,
    person: Person,
    payload: dict[str, Any] | None = None,
) -> AddressClaim:
    """Store a claim and mail its code to ``confirm_address``; raises TooManyPending.

    The mail says who asked, what a CONFIRM would do, and that doing
    nothing refuses. It is written in the language of the registration
    that owns ``confirm_address`` (the reader of that mailbox).
    """
    uow = session.uow
    uow.people.purge_claims(session.now - KEPT)
    if len(uow.people.pending_claims(confirm_address, session.now)) >= MAX_PENDING:
        raise TooManyPending
    token = new_token()
    claim = uow.people.add_claim(
        kind=kind,
        confirm_address=confirm_address,
        requester=normalise_address(session.sender),
        person=person,
        payload=payload or {},
        token_hash=token_hash(token),
        now=session.now,
        lifetime=LIFETIME,
    )
    _mail_code(session, claim, person, token)
    return claim


def _mail_code(session: MailSession, claim: AddressClaim, person: Person, token: str) -> None:
    _ = translation(person.language).gettext
    config = session.services.config
    if claim.kind == IAMALSO:
        what = _(
            "The address {requester} asks to be linked to your registration ({name}) on the "
            "judge {code}, with IAMALSO. Once linked, mail from {requester} would be read as "
            "yours (it gives no game password)."
        )
    elif claim.kind == REGISTER:
        what = _(
            "The address {requester} sent a REGISTER form that would change your registration "
            "({name}) on the judge {code} and link {requester} to it."
        )
    else:
        what = _(
            "The address {requester} asks to add this address to the registration of {name} on "
            "the judge {code}: the judge's mail for that person would come here, and mail from "
            "here would be read as theirs."
        )
    lines = [
        what.format(requester=claim.requester, name=person.name, code=config.code),
        "",
        _("If this was you, answer from this address ({address}) with this line:").format(
            address=claim.confirm_address
        ),
        "",
        f"CONFIRM {token}",
        "",
        _(
            "The code works once, only from this address, until {date}. If this was not you, "
            "do nothing: nothing changes and the code expires."
        ).format(date=judge_date(claim.expires_at, config.timezone)),
    ]
    session.send(
        Outgoing((claim.confirm_address,), f"{config.code} {_('Confirmation needed')}", "\n".join(lines) + "\n")
    )
