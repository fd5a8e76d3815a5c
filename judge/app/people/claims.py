"""Proof of ownership: a change to a registration waits for a mail from the address it concerns.

Anyone can forge a From line, but only the owner of a mailbox reads what
is mailed to it: a one-time code mailed to an address, and ``CONFIRM <code>``
sent back *from that address*, is the proof (see
:mod:`judge.app.handlers.confirm`). Nothing of a registration changes on a
claim alone:

* IAMALSO, and a REGISTER from an address not yet someone's naming a
  registered address: the code goes to that registered address (its owner),
  and once it agrees the asking address gets a code of its own (:data:`ADDRESS`);
* a REGISTER from a registration's own address (:data:`UPDATE`): every
  change (fields, primary address, a new address) waits for the code mailed
  to the registration's primary address; a new address then gets a code of
  its own (:data:`ADDRESS`) and is linked only when that one comes back too.
  So an address joins a registration only with the proof of a current
  address *and* of the new one, and a third party's address gets mail only
  after the registration's owner asked for it.

The code is random (80 bits, in a form one can type: ``K7QF-2MZD-9XWP-HT4R``);
the database keeps only its SHA-256 (the code's own entropy makes a slow
hash pointless); it works once, for :data:`LIFETIME`, and a claim dies
after :data:`MAX_ATTEMPTS` wrong codes sent from its address.

No cannon: a code mail carries only the judge's own words and addresses
(never a requester's text, not even a name), and codes are bounded: at
most :data:`PER_MAIL` per inbound mail, :data:`MAX_PENDING` waiting for one
address, and the operator's daily bounds per requesting address and per
domain and hourly bound for the whole judge (:class:`judge.config.Config`).
Past a bound no code is mailed and the requester is told once per mail
(:func:`refusal`).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from judge.app.session.mail_session import MailSession, Outgoing
from judge.db.models import AddressClaim, Person
from judge.db.repositories.people import normalise_address
from judge.i18n import Gettext, translation
from judge.mail.compose import judge_date

LIFETIME = timedelta(days=3)
MAX_ATTEMPTS = 5
MAX_PENDING = 3
PER_MAIL = 1
DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
KEPT = timedelta(days=30)  # expired claims are kept a while (the audit trail keeps what was done)
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and retyped
GROUPS, GROUP_LENGTH = 4, 4

IAMALSO = "iamalso"  # link the requester to the registration that owns the claimed address
REGISTER = "register"  # the same, and apply the REGISTER form kept in the payload
ADDRESS = "address"  # link the claimed address itself to the registration (after its owner agreed)
UPDATE = "update"  # the owner's yes to a REGISTER from their own address: fields, primary, a new address



class ClaimRefused(Exception):
    """No code was mailed; :meth:`explain` says why, in the reader's language."""

    def explain(self, _: Gettext) -> str:
        raise NotImplementedError


class TooManyPending(ClaimRefused):
    """Enough codes already wait for this address; no new one is mailed."""

    def __init__(self, address: str) -> None:
        super().__init__(address)
        self.address = address

    def explain(self, _: Gettext) -> str:
        return _("Codes already wait for an answer from {address}; no new one was mailed.").format(
            address=self.address
        )


class OverBound(ClaimRefused):
    """One of the bounds on confirmation codes is reached (``bound``: which one)."""

    def __init__(self, bound: str, subject: str = "") -> None:
        super().__init__(bound, subject)
        self.bound = bound
        self.subject = subject

    def explain(self, _: Gettext) -> str:
        if self.bound == "mail":
            return _(
                "The judge mails at most one confirmation code per mail: no code was mailed for "
                "this request, nor for any later one in this mail. Send it in a mail of its own."
            )
        if self.bound == "sender":
            return _(
                "The judge has mailed as many confirmation codes as it does in a day at the request "
                "of {address}: no code was mailed, here or for any later request of this mail. "
                "Try again tomorrow."
            ).format(address=self.subject)
        if self.bound == "domain":
            return _(
                "The judge has mailed as many confirmation codes as it does in a day to addresses "
                "at {domain}: no code was mailed. Try again tomorrow."
            ).format(domain=self.subject)
        return _(
            "The judge has mailed as many confirmation codes as it does in an hour: no code was "
            "mailed. Try again in an hour."
        )


def new_token() -> str:
    """A fresh code, e.g. ``K7QF-2MZD-9XWP-HT4R``."""
    return "-".join(
        "".join(secrets.choice(ALPHABET) for _ in range(GROUP_LENGTH)) for _ in range(GROUPS)
    )


def token_hash(token: str) -> str:
    """What the database keeps of a code: the code read leniently (case, dashes, blanks), hashed."""
    cleaned = "".join(c for c in token.upper() if c.isalnum())
    return hashlib.sha256(cleaned.encode("ascii", "replace")).hexdigest()


def refusal(session: MailSession, error: ClaimRefused, _: Gettext) -> str | None:
    """Why no code was mailed, the first time a bound refuses one in this mail; None after.

    A mail asking for a thousand codes gets one sentence, not a thousand.
    """
    told = session.claim_refusals_told
    key = type(error).__name__ if isinstance(error, OverBound) else repr(error.args)
    if key in told:
        return None
    told.add(key)
    return error.explain(_)


def _check_bounds(session: MailSession, confirm_address: str, requester: str) -> None:
    """Raise ClaimRefused when one more code may not be mailed now (see the module's docstring)."""
    if session.codes_mailed >= PER_MAIL:
        raise OverBound("mail")
    people = session.uow.people
    if len(people.pending_claims(confirm_address, session.now)) >= MAX_PENDING:
        raise TooManyPending(confirm_address)
    config = session.services.config
    if people.claims_since(session.now - DAY, requester=requester) >= config.confirmations_per_sender_per_day:
        raise OverBound("sender", requester)
    domain = confirm_address.rpartition("@")[2]
    if people.claims_since(session.now - DAY, domain=domain) >= config.confirmations_per_domain_per_day:
        raise OverBound("domain", domain)
    if people.claims_since(session.now - HOUR) >= config.confirmations_per_hour:
        raise OverBound("hour")


def open_claim(
    session: MailSession,
    *,
    kind: str,
    confirm_address: str,
    person: Person,
    payload: dict[str, Any] | None = None,
    requester: str | None = None,
) -> AddressClaim:
    """Store a claim and mail its code to ``confirm_address``; raises ClaimRefused past a bound.

    ``requester``: the address the request came from (the sender, unless the
    claim continues an earlier one). The mail says what a CONFIRM would do,
    in the judge's words only, and that doing nothing refuses. It is written
    in the language of the registration that owns ``confirm_address`` (the
    reader of that mailbox), else in the judge's default.
    """
    uow = session.uow
    uow.people.purge_claims(session.now - KEPT)
    confirm_address = normalise_address(confirm_address)
    asking = normalise_address(requester or session.sender)
    _check_bounds(session, confirm_address, asking)
    token = new_token()
    claim = uow.people.add_claim(
        kind=kind,
        confirm_address=confirm_address,
        requester=asking,
        person=person,
        payload=payload or {},
        token_hash=token_hash(token),
        now=session.now,
        lifetime=LIFETIME,
    )
    session.codes_mailed += 1
    _mail_code(session, claim, person, token)
    return claim


def update_summary(payload: dict[str, Any], _: Gettext) -> str:
    """What an UPDATE claim would do, in the judge's words: field names and addresses, never values."""
    parts: list[str] = []
    fields = sorted(payload.get("values") or {})
    if fields:
        parts.append(_("change {fields}").format(fields=", ".join(fields)))
    if payload.get("extra"):
        parts.append(_("change your own fields"))
    if payload.get("primary"):
        parts.append(_("make {address} the primary address").format(address=payload["primary"]))
    if payload.get("new_address"):
        parts.append(_("add the address {address} (which gets a code of its own)").format(
            address=payload["new_address"]
        ))
    return "; ".join(parts)


def _mail_code(session: MailSession, claim: AddressClaim, person: Person, token: str) -> None:
    """The code mail: the judge's own text, addresses and the code, nothing a requester wrote."""
    owner = session.uow.people.by_address(claim.confirm_address)
    _ = translation(owner.language if owner is not None else person.language).gettext
    config = session.services.config
    if claim.kind == IAMALSO:
        what = _(
            "The address {requester} asks to be linked to your registration on the judge {code}, "
            "with IAMALSO. Once linked, mail from {requester} would be read as yours (it gives no "
            "game password)."
        )
    elif claim.kind == REGISTER:
        what = _(
            "The address {requester} sent a REGISTER form that would change your registration on "
            "the judge {code} and link {requester} to it."
        )
    elif claim.kind == UPDATE:
        what = _(
            "The address {requester}, one of your registration's, sent a REGISTER form that would "
            "change your registration on the judge {code}: {changes}."
        )
    else:
        what = _(
            "Someone asked the judge {code} to add this address ({address}) to a registration, "
            "and that registration's owner agreed. Once added, the judge's mail for that person "
            "would come here, and mail from here would be read as theirs."
        )
    lines = [
        what.format(
            requester=claim.requester, code=config.code, address=claim.confirm_address,
            changes=update_summary(claim.payload, _),
        ),
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
