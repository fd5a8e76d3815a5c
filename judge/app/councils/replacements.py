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
``powers`` allowed, ``from_phase`` (the first phase he may sit: the same
season a year after the event his delay counts from), ``reason``,
``vetoed_by``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from judge.app.councils.delays import (
    EXCLUDED_PHASE,
    LEFT_PHASE,
    TRUE_NATION_FELL_PHASE,
    WAITLIST_KEY,
    phase_in,
    waitlist_entry,
)
from judge.app.councils.elections import (
    LAST_RANK,
    current_phase,
    mail_council,
    mail_member,
    member_label,
    person_of,
    renumber,
)
from judge.app.councils.releases import open_successor_election
from judge.app.councils.treason import arrest_phase
from judge.app.game_state.game_facts import power_name
from judge.app.session.services import Services
from judge.core.councils import treason as rules
from judge.core.phase import Phase
from judge.db.database import UnitOfWork
from judge.db.enums import SeatStatus
from judge.db.models import CouncilMember, Game
from judge.db.repositories.councils import council_settings
from judge.i18n import N_

MEMBER_ELIMINATED = N_(
    "{power} is eliminated: you leave its council (councils, rule 7). If you were secretly working for "
    "another power, you may ask the master to join the waiting list for it."
)
MEMBER_LEFT = N_("You no longer sit on {power}'s council (councils, rule 7). You receive none of its mail now.")
GENERAL_LEFT = N_(
    "{member}, {power}'s General-in-chief, has left the council: an election names his successor (councils, "
    "rule 4)."
)
MEMBER_SEATED = N_(
    "You take a seat on {power}'s council as an Ambassador (member {number}), replacing a member who left "
    "(councils, rules 7 and 8). Sign on with the power's letter, the game's name and your own password."
)
COUNCIL_JOINED = N_("{member} takes a vacant seat on {power}'s council as an Ambassador (councils, rule 7).")

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


def after_eliminations(
    uow: UnitOfWork, services: Services, game: Game, now: datetime, eliminated: Iterable[str]
) -> None:
    """Members of eliminated powers leave (each told); spies of eliminated powers are unmasked to their hosts."""
    fallen = set(eliminated)
    if not fallen:
        return
    phase = str(current_phase(game))
    for member in uow.councils.members(game):
        if member.left_at is not None:
            continue
        if member.power in fallen:
            member.extra = {**(member.extra or {}), LEFT_PHASE: phase}
            uow.councils.set_status(member, "eliminated", now)
            mail_member(uow, services, game, member, now, MEMBER_ELIMINATED)
        elif member.true_power in fallen:
            arrested = _arrested_at(uow, game, member)
            member.extra = {
                **(member.extra or {}),
                TRUE_NATION_FELL_PHASE: phase,
                **({EXCLUDED_PHASE: str(arrested)} if arrested is not None else {}),
            }
            person = person_of(uow, member)
            mail_council(uow, services, game, member.power, now, SPY_UNMASKED,
                         spy=(person.name if person is not None else f"#{member.id}"),
                         true_power=power_name(member.true_power or ""))  # fmt: skip


def _arrested_at(uow: UnitOfWork, game: Game, member: CouncilMember) -> Phase | None:
    """When ``member``, now under arrest, was cut off from his council (rule 6b); None if he is not."""
    return arrest_phase(uow, game, member) if member.status == "accused" else None


def find_any_member(uow: UnitOfWork, game: Game, word: str) -> CouncilMember | None:
    """A member of the game, past ones included, by number (``12`` or ``#12``)."""
    wanted = word.strip().lstrip("#")
    if not wanted.isdigit():
        return None
    member = uow.councils.member(int(wanted))
    return member if member is not None and member.game_id == game.id else None


def _alive(game: Game) -> list[str]:
    return [s.power for s in game.seats if s.power is not None and s.status is not SeatStatus.ELIMINATED]


def leave_council(uow: UnitOfWork, services: Services, game: Game, member: CouncilMember, now: datetime) -> None:
    """``member`` leaves his council, told by mail; a General's council then elects his successor.

    A sitting General never leaves in silence: his council is told and an
    election of a new General opens at once (the master's kind, which a
    READY does not cancel), so the power is never left without one.
    """
    was_general = member.role == "general" and member.status == "active"
    member.extra = {**(member.extra or {}), LEFT_PHASE: str(current_phase(game))}
    uow.councils.set_status(member, "left", now)
    mail_member(uow, services, game, member, now, MEMBER_LEFT)
    if was_general:
        uow.councils.set_role(member, "ambassador", LAST_RANK)
        mail_council(uow, services, game, member.power, now, GENERAL_LEFT, member=member_label(uow, member))
        open_successor_election(uow, services, game, member.power, now, excluded=[])
    renumber(uow, game, member.power)


def expel(uow: UnitOfWork, services: Services, game: Game, member: CouncilMember, now: datetime) -> None:
    """The infiltrated power does not keep an unmasked spy (rule 7a): he leaves the council."""
    if member.left_at is not None:
        raise ReplacementRefused(N_("Member {member} no longer sits on a council. Nothing was done."), member=str(member.id))
    leave_council(uow, services, game, member, now)


def add_to_waitlist(
    uow: UnitOfWork, services: Services, game: Game, member: CouncilMember, now: datetime
) -> dict[str, Any]:
    """Put a member on the waiting list under rule 7b or 7c; returns the entry.

    Rule 7b: the infiltrated power's veto keeps him off the list ("SAUF si
    la nation infiltrée y oppose son véto"): a vetoed spy is refused and
    stays where he is.
    """
    entry_before = dict((member.extra or {}).get(WAITLIST_KEY) or {})
    fell = phase_in(member.extra, TRUE_NATION_FELL_PHASE)
    since: Phase
    if member.status == "eliminated" and member.true_power is not None:
        reason = "infiltrated-eliminated"  # rule 7c: a year after he left the fallen council
        since = phase_in(member.extra, LEFT_PHASE) or current_phase(game)
    elif member.true_power is not None and fell is not None:
        reason = "true-nation-eliminated"  # rule 7b
        if entry_before.get("vetoed_by"):
            raise ReplacementRefused(PLACEMENT_REASONS[rules.WaitlistRefusal.VETOED], member=str(member.id))
        # a year after his exclusion if he was under arrest, else after the elimination
        since = phase_in(member.extra, EXCLUDED_PHASE) or fell
    else:
        raise ReplacementRefused(
            N_("Member {member} may not join the waiting list under rule 7 (only an unmasked spy whose true "
               "nation fell, or a spy whose host power fell); an arrested member uses ESCAPE. Nothing was done."),
            member=str(member.id),
        )
    if member.left_at is None:
        leave_council(uow, services, game, member, now)
    powers = rules.waitlist_powers(
        former_power=member.power, true_power=member.true_power, reason=reason, alive=_alive(game)
    )
    entry = waitlist_entry(powers, rules.a_year_after(since), reason, entry_before.get("vetoed_by", []))
    member.extra = {**(member.extra or {}), WAITLIST_KEY: entry}
    uow.flush()
    return entry


def veto(uow: UnitOfWork, game: Game, member: CouncilMember) -> None:
    """The infiltrated power vetoes the spy's place on the waiting list (rule 7b).

    Only a spy whose true nation fell may be vetoed, by the power he
    infiltrated (rule 7c gives no veto). Before ``COUNCIL WAITLIST`` it
    keeps him off the list; after, it takes him off it.
    """
    if member.true_power is None or phase_in(member.extra, TRUE_NATION_FELL_PHASE) is None:
        raise ReplacementRefused(
            N_("Only a spy whose true nation fell may be vetoed by the power he infiltrated (councils, rule 7b). "
               "Nothing was done."),
            member=str(member.id),
        )
    entry = dict((member.extra or {}).get(WAITLIST_KEY) or {"powers": [], "from_phase": None, "reason": ""})
    entry["vetoed_by"] = sorted({*entry.get("vetoed_by", []), member.power})
    member.extra = {**(member.extra or {}), WAITLIST_KEY: entry}
    uow.flush()


def seat(uow: UnitOfWork, services: Services, game: Game, member: CouncilMember, power: str,
         now: datetime) -> CouncilMember:  # fmt: skip
    """A waiting-list player takes a place on ``power``'s council; returns his new member row (he is told)."""
    entry = (member.extra or {}).get(WAITLIST_KEY)
    from_phase = phase_in(entry if isinstance(entry, dict) else None, "from_phase")
    if not isinstance(entry, dict) or member.left_at is None or from_phase is None:
        raise ReplacementRefused(N_("Member {member} is not on the waiting list. Nothing was done."), member=str(member.id))
    refusal = rules.placement_refusal(
        power=power,
        allowed=list(entry.get("powers", [])),
        vetoed_by=entry.get("vetoed_by", []),
        from_phase=from_phase,
        now=current_phase(game),
    )
    if refusal is not None:
        raise ReplacementRefused(PLACEMENT_REASONS[refusal], member=str(member.id), phase=str(from_phase))
    seated = uow.councils.seated(game, power=power)
    size = int((council_settings(game) or {}).get("size") or 3)
    if len([m for m in seated if m.status == "active"]) >= size:
        raise ReplacementRefused(N_("{power}'s council has no seat to fill. Nothing was done."), power=power)
    person = person_of(uow, member)
    mail_council(uow, services, game, power, now, COUNCIL_JOINED,
                 member=(person.name if person is not None else None) or f"#{member.id}")  # fmt: skip
    new = uow.councils.add_member(
        game, power, person, now, rank=LAST_RANK,
        true_power=member.true_power if member.true_power not in (None, power) else None,
        password_hash=member.password_hash, extra={"replaces_member": member.id},
    )  # fmt: skip
    member.extra = {**(member.extra or {}), WAITLIST_KEY: {**entry, "seated_as": new.id}}
    renumber(uow, game, power)
    mail_member(uow, services, game, new, now, MEMBER_SEATED, number=str(new.id))
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
        "Member {member} may take a seat from the {phase}, the same season a year after the event his delay "
        "counts from (councils, rules 7 and 8). Nothing was done."
    ),
}
