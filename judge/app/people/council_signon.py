"""``SIGNON <letter><game> <password>`` in a council game: each member with their own password.

The form is the ordinary power sign-on: the power's letter and the game's
name, then the member's own password (the one he joined with, or the one
he set with SET PASSWORD). The judge tries it against the members of that power's
council; the member it opens is who the rest of the mail speaks for, and
their role decides what they may do (:mod:`judge.app.councils.permissions`).
A wrong password gets the very answer of any wrong sign-on and counts
toward the power's lockout, as for ordinary powers; so does a member's
sign-on with another member's password (:func:`_who_signs_on`): nobody
signs on as another member.
"""

from __future__ import annotations

from judge.app.councils.formation import role_text
from judge.app.game_state.game_facts import power_name
from judge.app.game_state.variant_rules import game_map_of
from judge.app.people import throttle
from judge.app.people.signon_checks import check_impersonation, owns_address
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.readers import person_address
from judge.db.enums import GameState
from judge.db.models import CouncilMember, Game
from judge.lang.powers import power_letters


def council_signon(
    session: MailSession, game: Game, letter: str, password: str, unlock: str | None = None
) -> CouncilMember | None:
    """The member this sign-on opens (the session then speaks for them), or None (refused, counted)."""
    uow = session.uow
    power = (
        power_letters(game_map_of(game)).get(letter.upper())
        if game.state is not GameState.FORMING
        else None
    )
    members = uow.councils.seated(game, power=power) if power is not None else []
    holders = [a for m in members for a in [person_address(uow.councils.person_of(m))] if a]
    if throttle.refused(session, game, power, holders, unlock=unlock):
        throttle.count_failure(session, game if power else None, power)
        return None
    opened = [m for m in members if uow.councils.check_password(m, password)]
    member = _who_signs_on(session, game, opened)
    if member is None:
        throttle.count_failure(session, game if power else None, power)
        return None
    seat = uow.seats.by_power(game, member.power)
    session.game, session.seat, session.role = game, seat, Role.POWER
    session.acting_power = member.power
    session.council_member = member  # the mail's later commands act for this member
    person = uow.councils.person_of(member)
    check_impersonation(session, game, person, power_name(member.power))
    return member


def _who_signs_on(
    session: MailSession, game: Game, opened: list[CouncilMember]
) -> CouncilMember | None:
    """The one member the password opens for this sender, or None (answered as a wrong password).

    Each member is a person: a sender who is (or was) a member of this game
    signs on only as himself, whoever's password he holds; a sender the
    game does not know (a member writing from a new address) opens the one
    member whose password it is, and the impersonation rule then copies the
    reply to that member; a password several members share opens nobody for
    him, since the judge cannot tell whom he is. The refusal reads as a wrong
    password, so that it never confirms that someone else's password is right.
    """
    uow = session.uow
    own = [m for m in opened if (p := uow.councils.person_of(m)) is not None and owns_address(p, session.sender)]
    if own:
        return own[0]
    sender = uow.people.by_address(session.sender)
    if sender is not None and any(m.person_id == sender.id for m in uow.councils.members(game)):
        return None  # a member of this game with another member's password
    return opened[0] if len(opened) == 1 else None


def signon_message(session: MailSession, game: Game, member: CouncilMember) -> str:
    """``Signed on as France in game 'x': you are its Ambassador 1.`` (no word of spies)."""
    _ = session.gettext
    return _("Signed on as {power} in game '{game}': you are its {role}.").format(
        power=power_name(member.power, session.language),
        game=game.name,
        role=role_text(member, session.language),
    )
