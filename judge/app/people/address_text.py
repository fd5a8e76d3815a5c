"""Reading an address a person gives in a command, and saying in their language why it is refused.

Every address typed into a command (REGISTER ``Email:``, SET ADDRESS,
IAMALSO, CONFIRM's sender) goes through
:func:`judge.mail.addresses.canonical_address`, the one form the judge
stores and compares. Its :class:`AddressError` carries an English reason;
:func:`reason` gives it in the reader's language when it is one of those
known here (else in English), :func:`shown` the address as it may be echoed.
"""

from __future__ import annotations

from judge.i18n import N_, Gettext
from judge.mail.addresses import AddressError, canonical_address, printable

# The reasons judge.mail.addresses gives, marked for translation.
KNOWN_REASONS = frozenset(
    {
        N_("it is empty"),
        N_("it contains spaces or control characters"),
        N_("it needs the form name@domain"),
        N_("only one @ and no quoted names are accepted"),
        N_("the part before the @ has a misplaced dot"),
        N_("the part before the @ has characters mail does not allow"),
        N_("addresses at an IP literal are not accepted"),
        N_("the domain is empty"),
        N_("the domain is not a valid international name"),
        N_("the domain is too long"),
        N_("the domain has an empty or malformed part"),
        N_("the domain has characters a domain name cannot have"),
    }
)


def reason(error: AddressError, _: Gettext) -> str:
    """Why the address cannot be used, in the reader's language when the reason is a known one."""
    return _(error.reason) if error.reason in KNOWN_REASONS else error.reason


def shown(error: AddressError) -> str:
    """The refused address as it may be echoed: control characters masked, cut short."""
    return printable(error.address)


def read_address(text: str) -> str:
    """The canonical form of an address given in a command; AddressError when unusable."""
    return canonical_address(text)
