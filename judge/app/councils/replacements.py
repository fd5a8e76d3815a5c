"""Eliminations, the waiting list and replacements (seed 003, rules 7 and 8).

* :func:`after_eliminations` (one line in processing, council games only):
  the members of an eliminated power leave their council (``eliminated``);
  each spy whose true nation was eliminated is unmasked to the council he
  infiltrated and to the masters (rule 7a: the infiltrated power is told by
  the referee, and decides whether to keep him).
* The master carries out what the seed leaves to the referee, by mail:
  ``COUNCIL EXPEL <member>`` (the infiltrated power does not keep him),
  ``COUNCIL WAITLIST <member>`` (a player asks to join the waiting list:
  rule 7b for a spy whose true nation fell, any foreign power; rule 7c for
  a spy inside an eliminated power, his true nation only),
  ``COUNCIL VETO <member>`` (the infiltrated power's veto, rule 7b), and
  ``COUNCIL SEAT <member> <power>`` (a replacement from the waiting list,
  no sooner than a year after he left, only where the rules allow).

The waiting-list entry lives in ``council_members.extra["waitlist"]``:
``powers`` allowed, ``from_year``, ``reason``, ``vetoed_by``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from judge.app.councils.elections import mail_council, person_of
from judge.app.services import Services
from judge.core.councils import treason as rules
from judge.core.phase import Phase
from judge.db.database import UnitOfWork
from judge.db.enums import SeatStatus
from judge.db.models import CouncilMember, Game
from judge.db.repositories.councils import council_settings
from judge.i18n import N_

WAITLIST_KEY = "waitlist"

SPY_UNMASKED = N_(
    "The judge informs {power}'s council: {spy} is a spy working for {true_power}, which has just been "
    "eliminated (councils, rule 7a). Your council decides whether to keep him: tell the master, who "
    "carries out an expulsion (COUNCIL EXPEL) or a veto against his joining the waiting list (COUNCIL VETO)."
)


class ReplacementRefused(Exception):
    def __init__(self, reason: str, **fields: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.fields = fields


def _year(game: Game) -> int:
    return Phase.parse(game.current_phase).year if game.current_phase else 0


def after_eliminations(
    uow: UnitOfWork, services: Services, game: Game, now: datetime, eliminated: Iterable[str]
) -> None:
    """Members of eliminated powers leave; spies of eliminated powers are unmasked to their hosts."""
    fallen = set(eliminated)
    if not fallen:
        return
    year = _year(game)
    for member in uow.councils.members(game):
        if member.left_at is not None:
            continue
        if member.power in fallen:
            member.extra = {**(member.extra or {}), "left_year": year}
            uow.councils.set_status(member, "eliminated", now)
        elif member.true_power in fallen:
            member.extra = {**(member.extra or {}), "true_nation_eliminated_year": year}
            person = person_of(uow, member)
            from judge.app.game_facts import power_name

            mail_council(uow, services, game, member.power, now, SPY_UNMASKED,
                         spy=(person.name if person is not None else f"#{member.id}"),
                         true_power=power_name(member.true_power or ""))  # fmt: skip


def find_any_member(uow: UnitOfWork, game: Game, word: str) -> CouncilMember | None:
    """A member of the game, past ones included, by number (``12`` or ``#12``)."""
    wanted = word.strip().lstrip("#")
    if not wanted.isdigit():
        return None
    member = uow.councils.member(int(wanted))
    return member if member is not None and member.game_id == game.id else None


def _alive(game: Game) -> list[str]:
    return [s.power for s in game.seats if s.power is not None and s.status is not SeatStatus.ELIMINATED]


def expel(uow: UnitOfWork, game: Game, member: CouncilMember, now: datetime) -> None:
    """The infiltrated power does not keep an unmasked spy (rule 7a): he leaves the council."""
    if member.left_at is not None:
        raise ReplacementRefused(N_("Member {member} no longer sits on a council. Nothing was done."), member=str(member.id))
    member.extra = {**(member.extra or {}), "left_year": _year(game)}
    uow.councils.set_status(member, "left", now)


def add_to_waitlist(uow: UnitOfWork, game: Game, member: CouncilMember, now: datetime) -> dict[str, Any]:
    """Put a member on the waiting list under rule 7b or 7c; returns the entry."""
    year = _year(game)
    if member.status == "eliminated" and member.true_power is not None:
        reason = "infiltrated-eliminated"  # rule 7c
        since = int((member.extra or {}).get("left_year", year))
    elif member.true_power is not None and "true_nation_eliminated_year" in (member.extra or {}):
        reason = "true-nation-eliminated"  # rule 7b
        # a year after his exclusion if he was under arrest, else after the elimination
        since = int((member.extra or {}).get("left_year") or member.extra["true_nation_eliminated_year"])
    else:
        raise ReplacementRefused(
            N_("Member {member} may not join the waiting list under rule 7 (only an unmasked spy whose true "
               "nation fell, or a spy whose host power fell); an arrested member uses ESCAPE. Nothing was done."),
            member=str(member.id),
        )
    if member.left_at is None:
        member.extra = {**(member.extra or {}), "left_year": year}
        uow.councils.set_status(member, "left", now)
    powers = rules.waitlist_powers(
        former_power=member.power, true_power=member.true_power, reason=reason, alive=_alive(game)
    )
    entry = {
        "powers": powers,
        "from_year": rules.earliest_new_seat_year(since),
        "reason": reason,
        "vetoed_by": list(((member.extra or {}).get(WAITLIST_KEY) or {}).get("vetoed_by", [])),
    }
    member.extra = {**(member.extra or {}), WAITLIST_KEY: entry}
    uow.flush()
    return entry


def veto(uow: UnitOfWork, game: Game, member: CouncilMember) -> None:
    """The infiltrated power vetoes the spy's place on the waiting list (rule 7b)."""
    entry = dict((member.extra or {}).get(WAITLIST_KEY) or {"powers": [], "from_year": 0, "reason": "", "vetoed_by": []})
    entry["vetoed_by"] = sorted({*entry.get("vetoed_by", []), member.power})
    member.extra = {**(member.extra or {}), WAITLIST_KEY: entry}
    uow.flush()


def seat(uow: UnitOfWork, game: Game, member: CouncilMember, power: str, now: datetime) -> CouncilMember:
    """A waiting-list player takes a place on ``power``'s council; returns his new member row."""
    entry = (member.extra or {}).get(WAITLIST_KEY)
    if not isinstance(entry, dict) or member.left_at is None:
        raise ReplacementRefused(N_("Member {member} is not on the waiting list. Nothing was done."), member=str(member.id))
    refusal = rules.placement_refusal(
        power=power,
        allowed=list(entry.get("powers", [])),
        vetoed_by=entry.get("vetoed_by", []),
        left_in_year=int(entry.get("from_year", 0)) - rules.YEARS_BEFORE_NEW_SEAT,
        current_year=_year(game),
    )
    if refusal is not None:
        raise ReplacementRefused(PLACEMENT_REASONS[refusal], member=str(member.id), year=str(entry.get("from_year")))
    seated = uow.councils.seated(game, power=power)
    size = int((council_settings(game) or {}).get("size") or 3)
    if len([m for m in seated if m.status == "active"]) >= size:
        raise ReplacementRefused(N_("{power}'s council has no seat to fill. Nothing was done."), power=power)
    person = person_of(uow, member)
    new = uow.councils.add_member(
        game, power, person, now, rank=max((m.rank for m in seated), default=0) + 1,
        true_power=member.true_power if member.true_power not in (None, power) else None,
        password_hash=member.password_hash, extra={"replaces_member": member.id},
    )  # fmt: skip
    member.extra = {**(member.extra or {}), WAITLIST_KEY: {**entry, "seated_as": new.id}}
    uow.flush()
    return new


PLACEMENT_REASONS = {
    rules.WaitlistRefusal.VETOED: N_(
        "The power he infiltrated vetoed member {member}'s place on the waiting list (councils, rule 7b). "
        "Nothing was done."
    ),
    rules.WaitlistRefusal.NOT_TRUE_NATION: N_(
        "Member {member} may be placed only with his true nation (councils, rules 7c and 8). Nothing was done."
    ),
    rules.WaitlistRefusal.OWN_FORMER_POWER: N_(
        "Member {member} may not be placed with that power (councils, rules 7b and 8). Nothing was done."
    ),
    rules.WaitlistRefusal.TOO_SOON: N_(
        "Member {member} may take a seat from {year}, a year after leaving his council (councils, rules 7 "
        "and 8). Nothing was done."
    ),
}
