"""What one council member does to his own place: RESIGN and SET ADDRESS touch that member alone.

Each member of a council is a person (seed 003, rule 1: "un Conseil
composé de 3 membres"); the power's seat is the council's, not his:

* :func:`resign`: the member leaves the game (the seed's "abandon sans
  remplacement de l'un des 3 joueurs", rule 4). His council and the masters
  are told; other powers are not (the power plays on). A General who
  resigns leaves his council without a General: an election names his
  successor at once, as when a General leaves otherwise
  (:func:`judge.app.councils.releases.open_successor_election`). Only the
  last member's resignation leaves the power itself, as an ordinary
  player's would.
* :func:`set_address`: where the judge's mail to *this member* goes (among
  the addresses of his own registration, as for any player); his
  council's mail to the others is not touched, nothing is announced (his
  address is his own), and ``SET ADDRESS`` alone puts it back to his
  registered address.
"""

from __future__ import annotations

from judge.app.audience.council_members import ADDRESS_KEY, person_of
from judge.app.councils.delays import LEFT_PHASE
from judge.app.councils.elections import (
    LAST_RANK,
    current_phase,
    mail_council,
    member_label,
    renumber,
)
from judge.app.councils.releases import open_successor_election
from judge.app.session.mail_session import MailSession
from judge.app.session.readers import person_address
from judge.core.councils.roles import AMBASSADOR, GENERAL
from judge.db.enums import AuditKind, SeatStatus
from judge.db.models import CouncilMember, Game
from judge.i18n import N_

LEFT = "left"

MEMBER_RESIGNED = N_(
    "{member} has resigned from {power}'s council and left the game (councils, rule 4: a member "
    "leaves without replacement)."
)
GENERAL_RESIGNED = N_(
    "{member}, {power}'s General-in-chief, has resigned and left the game: an early election names "
    "his successor (councils, rule 4)."
)


def resign(session: MailSession, game: Game, member: CouncilMember) -> bool:
    """``member`` leaves his council and the game; returns True when he was its last member."""
    uow = session.uow
    services = session.services
    was_general = member.role == GENERAL and member.status == "active"
    member.extra = {**(member.extra or {}), LEFT_PHASE: str(current_phase(game)), "resigned": True}
    uow.councils.set_status(member, LEFT, session.now)
    person = person_of(game, member)
    if person is not None:
        uow.people.add_to_record(person, resignations=1)
    name = member_label(uow, member)
    if not uow.councils.active_members(game, power=member.power):
        seat = uow.seats.by_power(game, member.power)
        if seat is not None and seat.status is SeatStatus.PLAYING:
            uow.seats.leave(seat, session.now, SeatStatus.RESIGNED, phase=game.current_phase)
        return True
    if was_general:
        uow.councils.set_role(member, AMBASSADOR, LAST_RANK)
        mail_council(uow, services, game, member.power, session.now, GENERAL_RESIGNED, member=name)
        open_successor_election(uow, services, game, member.power, session.now, excluded=[])
    else:
        mail_council(uow, services, game, member.power, session.now, MEMBER_RESIGNED, member=name)
    renumber(uow, game, member.power)
    return False


def set_address(session: MailSession, game: Game, member: CouncilMember, addresses: list[str]) -> None:
    """Where the judge's mail to ``member`` goes from now on (his registered address: the default)."""
    person = person_of(game, member)
    old = (member.extra or {}).get(ADDRESS_KEY)
    extra = {k: v for k, v in (member.extra or {}).items() if k != ADDRESS_KEY}
    if addresses != [person_address(person)]:  # his primary address alone is the default
        extra[ADDRESS_KEY] = addresses
    member.extra = extra
    session.uow.audit.record(
        AuditKind.SETTING, session.now, game=game, person=person, actor=session.sender,
        setting=f"council_member:{member.id}:address", old_value=",".join(old or []),
        new_value=",".join(addresses),
    )  # fmt: skip
    session.uow.flush()
