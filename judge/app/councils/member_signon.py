"""``SIGNON <letter><game> <password>`` in a council game: each member with their own password.

The form is the ordinary power sign-on: the power's letter and the game's
name, then the password the member joined with (SET PASSWORD does not
change it yet). The judge tries it against the members of that power's
council; the member it opens is who the rest of the mail speaks for, and
their role decides what they may do (:mod:`judge.app.councils.permissions`).
A wrong password gets the very answer of any wrong sign-on and counts
toward the power's lockout, as for ordinary powers.
"""

from __future__ import annotations

from judge.app import throttle
from judge.app.game_facts import game_map, power_name
from judge.app.notify import person_address
from judge.app.session import MailSession, Role
from judge.app.signon import check_impersonation, owns_address
from judge.db.enums import GameState
from judge.db.models import CouncilMember, Game
from judge.lang.powers import power_letters


def council_signon(
    session: MailSession, game: Game, letter: str, password: str, unlock: str | None = None
) -> CouncilMember | None:
    """The member this sign-on opens (the session then speaks for them), or None (refused, counted)."""
    uow = session.uow
    power = (
        power_letters(game_map(game)).get(letter.upper())
        if game.state is not GameState.FORMING
        else None
    )
    members = uow.councils.seated(game, power=power) if power is not None else []
    holders = [a for m in members for a in [person_address(uow.councils.person_of(m))] if a]
    if throttle.refused(session, game, power, holders, unlock=unlock):
        throttle.count_failure(session, game if power else None, power)
        return None
    opened = [m for m in members if uow.councils.check_password(m, password)]
    if not opened:
        throttle.count_failure(session, game if power else None, power)
        return None
    own = [
        m
        for m in opened
        if (p := uow.councils.person_of(m)) is not None and owns_address(p, session.sender)
    ]
    member = (own or opened)[0]
    seat = uow.seats.by_power(game, member.power)
    session.game, session.seat, session.role = game, seat, Role.POWER
    session.acting_power = member.power
    from judge.app.councils.permissions import remember_member

    remember_member(session, member)
    person = uow.councils.person_of(member)
    check_impersonation(session, game, person, power_name(member.power))
    return member


def signon_message(session: MailSession, game: Game, member: CouncilMember) -> str:
    """``Signed on as France in game 'x': you are its Ambassador 1.`` (no word of spies)."""
    from judge.app.councils.formation import role_text

    _ = session.gettext
    return _("Signed on as {power} in game '{game}': you are its {role}.").format(
        power=power_name(member.power, session.language),
        game=game.name,
        role=role_text(member, session.language),
    )
