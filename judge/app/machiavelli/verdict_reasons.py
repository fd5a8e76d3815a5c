"""Why an order of the Renaissance game failed, in the reader's language.

The core gives each verdict a short English reason (:mod:`judge.core.machiavelli.campaign`,
:mod:`~judge.core.machiavelli.money`, :mod:`~judge.core.machiavelli.adjustments`, and the plain
adjudicator's words for the moves it resolves: "bounce", "cut"...), some with a number or a power
in them ("famine relief costs 3 ducats", "the strait is held by VENICE"). The core stays pure and
writes no sentence for a reader; this table is the one place where each of those reasons becomes
a message of the catalogs, its number or power put back in (a power by its name in the reader's
language). ``tests/app/test_machiavelli_reasons.py`` reads every reason the core's source can give
and fails when one has no line here, so a new reason cannot reach a French reader in English.

A reason several of whose parts the core joined with commas ("bounce, dislodged") is said part by
part. A reason this table does not know (the plain adjudicator's sentence for an order that is
not a legal order on the board at all, written from an :class:`~judge.core.errors.OrderError`
the ruling no longer has) is shown as it is to an English reader and left out in any other
language: the outcome ("invalid") is said either way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Final

from judge.core.errors import N_
from judge.i18n import Gettext

REASONS: Final[Mapping[str, str]] = {
    # the moves, as the plain adjudicator says them
    "bounce": N_("bounce"),
    "cut": N_("cut"),
    "void": N_("void"),
    "no convoy": N_("no convoy"),
    "disrupted": N_("disrupted"),
    "dislodged": N_("dislodged"),
    "destroyed": N_("destroyed"),
    # the campaign: garrisons, sieges, conversions, straits
    "no order": N_("no order, holds"),
    "no order, disbanded": N_("no order, disbanded"),
    "not a place it may retreat to": N_("not a place it may retreat to"),
    "no such place": N_("no such place"),
    "no such unit": N_("no such unit"),
    "no such garrison": N_("no such garrison"),
    "disbanded": N_("disbanded"),
    "no disbanding in a campaign (SET DISBAND)": N_("no disbanding in a campaign (SET DISBAND)"),
    "no garrisons in this game (SET NO GARRISONS)": N_("no garrisons in this game (SET NO GARRISONS)"),
    "the strait is held by {power}": N_("the strait is held by {power}"),
    "holds: the siege is abandoned": N_("holds: the siege is abandoned"),
    "Venice attacked": N_("Venice attacked"),
    "no fortified city": N_("no fortified city"),
    "city occupied": N_("city occupied"),
    "fleets convert only at ports": N_("fleets convert only at ports"),
    "the city rebels": N_("the city rebels"),
    "no garrison to besiege": N_("no garrison to besiege"),
    "own garrison: holds": N_("own garrison: holds"),
    "cannot be besieged": N_("cannot be besieged"),
    "fleets besiege only ports": N_("fleets besiege only ports"),
    "besieged": N_("besieged"),
    # money: the bank, gifts and loans
    "no money in this game (SET NO MONEY)": N_("no money in this game (SET NO MONEY)"),
    "no ducats to pay": N_("no ducats to pay"),
    "no debt to the bank": N_("no debt to the bank"),
    "paid {ducats} ducats only": N_("paid {ducats} ducats only"),
    "no such power to give to": N_("no such power to give to"),
    "no ducats to give": N_("no ducats to give"),
    "a power in debt to the bank gives nothing": N_("a power in debt to the bank gives nothing"),
    "not enough ducats": N_("not enough ducats"),
    "no loans in this game (SET NO LOANS)": N_("no loans in this game (SET NO LOANS)"),
    "the bank lends nothing to a power that defaulted": N_("the bank lends nothing to a power that defaulted"),
    "a loan runs for 1 or 2 years": N_("a loan runs for 1 or 2 years"),
    "no ducats to borrow": N_("no ducats to borrow"),
    "the bank lends {ducats} ducats at most": N_("the bank lends {ducats} ducats at most"),
    # money: the expenses
    "expenses are numbered 1 to 4": N_("expenses are numbered 1 to 4"),
    "assassinated by the bank": N_("assassinated by the bank"),
    "no famine there": N_("no famine there"),
    "no unit near": N_("no unit near"),
    "famine relief costs {ducats} ducats": N_("famine relief costs {ducats} ducats"),
    "no rebellion there": N_("no rebellion there"),
    "pacifying a rebellion costs {ducats} ducats": N_("pacifying a rebellion costs {ducats} ducats"),
    "a power does not bribe its own unit": N_("a power does not bribe its own unit"),
    "only another power's garrison is made autonomous": N_("only another power's garrison is made autonomous"),
    "a counter-bribe is {ducats} ducats or more": N_("a counter-bribe is {ducats} ducats or more"),
    "tied with another bribe": N_("tied with another bribe"),
    "outbid": N_("outbid"),
    "countered": N_("countered"),
    "too few ducats": N_("too few ducats"),
    "no land province": N_("no land province"),
    "no power controls it": N_("no power controls it"),
    "a power does not raise rebels against itself": N_("a power does not raise rebels against itself"),
    "already in rebellion": N_("already in rebellion"),
    "Venice holds a unit": N_("Venice holds a unit"),
    "this rebellion costs {ducats} ducats": N_("this rebellion costs {ducats} ducats"),
    # money: assassinations and their chits
    "no assassinations in this game": N_("no assassinations in this game"),
    "no such power": N_("no such power"),
    "a power does not assassinate itself": N_("a power does not assassinate itself"),
    "an assassination costs {ducats} ducats or more": N_("an assassination costs {ducats} ducats or more"),
    "no chit against {power}": N_("no chit against {power}"),
    "the die was {die}": N_("the die was {die}"),
    # the adjustments
    "already maintained": N_("already maintained"),
    "not maintained": N_("not maintained"),
    "the province rebels": N_("the province rebels"),
    "famine": N_("famine"),
    "removals are due": N_("removals are due"),
    "no more removals are due": N_("no more removals are due"),
    "civil disorder": N_("civil disorder"),
    "no new unit for an old one in one place": N_("no new unit for an old one in one place"),
    "no build is due": N_("no build is due"),
    "not a home city whose city and province are controlled": N_(
        "not a home city whose city and province are controlled"
    ),
    "one new unit a province": N_("one new unit a province"),
    "Venice holds one unit": N_("Venice holds one unit"),
    "province occupied": N_("province occupied"),
    "fleets are built only at ports": N_("fleets are built only at ports"),
    "no special units in this game (SET SPECIAL, with money)": N_(
        "no special units in this game (SET SPECIAL, with money)"
    ),
    "one special unit a power": N_("one special unit a power"),
    "this power raises no such special unit (SET MACH2)": N_("this power raises no such special unit (SET MACH2)"),
}  # fmt: skip
"""Each reason the core gives (English, ``{name}`` where it puts a value) -> its message."""


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The reasons with a value in them, as patterns that find the value again."""
    found: list[tuple[re.Pattern[str], str]] = []
    for english, message in REASONS.items():
        if "{" not in english:
            continue
        pattern = "".join(
            f"(?P<{part[1:-1]}>.+?)" if part.startswith("{") else re.escape(part)
            for part in re.split(r"(\{\w+\})", english)
            if part
        )
        found.append((re.compile(f"^{pattern}$"), message))
    return tuple(found)


def _one(reason: str, _: Gettext, name: Callable[[str], str]) -> str | None:
    message = REASONS.get(reason)
    if message is not None:
        return _(message)
    for pattern, message in _patterns():
        match = pattern.match(reason)
        if match:
            values = {key: name(value) for key, value in match.groupdict().items()}
            return _(message).format(**values)
    return None


def reason_text(reason: str, _: Gettext, name: Callable[[str], str]) -> str | None:
    """``reason`` in the language of ``_`` (``name``: a power's name for its code, any other
    value as it is); None when the table does not know it (nor each of its comma-joined parts)."""
    whole = _one(reason, _, name)
    if whole is not None:
        return whole
    parts = [part.strip() for part in reason.split(",")]
    said = [_one(part, _, name) for part in parts if part]
    if not said or any(part is None for part in said):
        return None
    return ", ".join(part for part in said if part is not None)


def shown_reason(reason: str, _: Gettext, name: Callable[[str], str], language: str) -> str:
    """What a results mail says of ``reason``: its message, or, unknown to the table, the core's
    English words to an English reader and nothing to any other (see the module's docstring)."""
    if not reason:
        return ""
    said = reason_text(reason, _, name)
    if said is not None:
        return said
    return reason if language == "en" else ""
