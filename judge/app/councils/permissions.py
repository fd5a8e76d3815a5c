"""What a signed-on council member may do, asked by the ordinary handlers.

The sign-on of a council member (``SIGNON <letter><game> <own password>``)
stores the member on the mail's session (``MailSession.council_member``). The
order, draw, concede, wait and press handlers then call :func:`check_order`,
:func:`check_draw`, :func:`check_concede`, :func:`check_wait` or :func:`press_refusal`; in a game
without councils these return at once, without touching the database.
Refusals carry the rule's reason in the sender's language.
"""

from __future__ import annotations

from collections.abc import Callable

from judge.app.audience.council_members import rule_member
from judge.app.councils.releases import come_back_if_due, mail_has_ready, watch_release
from judge.app.game_state.game_facts import power_letter, power_name
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.core.councils.roles import (
    Member,
    PressRequest,
    Refusal,
    may_concede,
    may_order,
    may_press,
    may_vote_draw,
    may_wait,
    sits_alone,
)
from judge.db.enums import GameState
from judge.db.models import CouncilMember
from judge.i18n import N_

REASONS: dict[Refusal, str] = {
    Refusal.ORDERS_GENERAL_ONLY: N_(
        "Only your council's General-in-chief submits orders for {power} (councils, rule 1); "
        "Ambassadors negotiate but do not order. Nothing was recorded."
    ),
    Refusal.DRAW_GENERAL_ONLY: N_(
        "Only your council's General-in-chief proposes and votes draws for {power} (councils, rule 1). "
        "Your vote was not recorded."
    ),
    Refusal.CONCEDE_GENERAL_ONLY: N_(
        "Only your council's General-in-chief may concede for {power} (councils, rule 10). "
        "Nothing was recorded."
    ),
    Refusal.GENERAL_PRESS_OWN_AMBASSADORS_ONLY: N_(
        "The General-in-chief may write only to the Ambassadors of his own council (councils, rule 1): "
        "send PRESS TO {letter} (your own power's letter). The press was not sent."
    ),
    Refusal.WAIT_GENERAL_ONLY: N_(
        "Only your council's General-in-chief decides whether {power}'s orders wait for the deadline "
        "(councils, rule 5). Nothing was changed."
    ),
    Refusal.CUT_OFF: N_(
        "You are under accusation and cut off from your council and from negotiation (councils, rule 6). "
        "Nothing was done."
    ),
    Refusal.PRESS_TO_OBSERVERS: N_(
        "In a council game Ambassadors negotiate with Ambassadors: press to observers is not allowed. "
        "The press was not sent."
    ),
}


def _acting_member(session: MailSession) -> CouncilMember | None:
    """The council member a player's command speaks for; None when the rules do not apply.

    Masters (also after BECOME) and observers are not council members. Reached through the
    councils' game hooks only, so only in games played by councils.
    """
    game = session.game
    if game is None or session.role is not Role.POWER:
        return None
    return session.council_member


def _refuse(session: MailSession, refusal: Refusal, power: str) -> CommandRefused:
    _ = session.gettext
    return CommandRefused(
        _(REASONS[refusal]).format(power=power_name(power, session.language), letter="")
    )


RuleCheck = Callable[[Member], Refusal | None]


def _check(session: MailSession, rule: RuleCheck, refusal_without_member: Refusal) -> None:
    member = _acting_member(session)
    if member is None:
        game = session.game
        started = game is not None and game.state is not GameState.FORMING
        if started and session.role is Role.POWER:
            # a started council game signed on without a member (SIGNON never does this): refuse
            raise _refuse(session, refusal_without_member, session.acting_power or "")
        return
    refusal = rule(rule_member(member))
    if refusal is not None:
        raise _refuse(session, refusal, member.power)


def check_order(session: MailSession) -> None:
    """Refuse orders from anyone but the General of a council game; watch what they do to his release.

    The incumbent of a running grace whose orders come with a READY comes back first
    (:func:`judge.app.councils.releases.come_back_if_due`): they are his to hand in.
    """
    member = _acting_member(session)
    if member is not None and session.game is not None:
        come_back_if_due(session, session.game, member, ready_in_mail=mail_has_ready(session))
    _check(session, may_order, Refusal.ORDERS_GENERAL_ONLY)
    if member is not None:
        watch_release(session, member)


def check_draw(session: MailSession) -> None:
    """Refuse draw votes from anyone but the General of a council game."""
    _check(session, may_vote_draw, Refusal.DRAW_GENERAL_ONLY)


def check_wait(session: MailSession) -> None:
    """Refuse SET WAIT / SET NOWAIT from anyone but the General of a council game."""
    _check(session, may_wait, Refusal.WAIT_GENERAL_ONLY)


def check_concede(session: MailSession) -> None:
    """Refuse concessions from anyone but the General of a council game."""
    _check(session, may_concede, Refusal.CONCEDE_GENERAL_ONLY)


def press_refusal(session: MailSession, member: CouncilMember, request: PressRequest) -> str | None:
    """The sentence refusing ``request`` from ``member``, or None when it may go.

    A member alone on his council is its General and its Ambassador at once
    (:func:`judge.core.councils.roles.negotiators`): he negotiates.
    """
    game = session.game
    council = [rule_member(m) for m in session.uow.councils.seated(game, power=member.power)] if game else []
    refusal = may_press(rule_member(member), request, alone=sits_alone(rule_member(member), council))
    if refusal is None:
        return None
    _ = session.gettext
    letter = power_letter(game, member.power) if game is not None else ""
    return _(REASONS[refusal]).format(
        power=power_name(member.power, session.language), letter=letter
    )

