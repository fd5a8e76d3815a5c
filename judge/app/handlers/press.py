"""PRESS / BROADCAST / POSTAL PRESS: press between the players, observers and masters of a game.

The rules (modes, partial press, fakes, observers, limits, postal press)
live in :mod:`judge.app.mail_out.press_rules`; this handler only chooses between sending
now and holding postal press for the results.
"""

from __future__ import annotations

from judge.app.councils.permissions import is_council_game
from judge.app.councils.press_routing import send_council_press, send_observer_press
from judge.app.mail_out.press_rules import hold_postal_press, plan_press, send_press
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.registry import Next, handles
from judge.lang.commands import Press


@handles(Press)
def handle(command: Press, session: MailSession) -> Next:
    if session.role is Role.POWER and is_council_game(session.game):  # seed 003: Ambassadors to Ambassadors
        send_council_press(session, command)
        return Next.CONTINUE
    if session.role is Role.OBSERVER and is_council_game(session.game) and not command.postal:
        send_observer_press(session, command)  # powers read by their Ambassadors, never a General
        return Next.CONTINUE
    if command.postal:
        hold_postal_press(command, session)
    else:
        send_press(session, command, plan_press(command, session))
    return Next.CONTINUE
