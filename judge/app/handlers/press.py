"""PRESS / BROADCAST / POSTAL PRESS: press between the players, observers and masters of a game.

The rules (modes, partial press, fakes, observers, limits, postal press)
live in :mod:`judge.app.mail_out.press_rules`; this handler only chooses between sending
now and holding postal press for the results.
"""

from __future__ import annotations

from judge.app.hooks.game_hooks import hooks_for
from judge.app.mail_out.press_rules import hold_postal_press, plan_press, send_press
from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.lang.commands import Press


@handles(Press)
def handle(command: Press, session: MailSession) -> Next:
    if hooks_for(session.game).send_press(session, command):  # seed 003: Ambassadors to Ambassadors
        return Next.CONTINUE
    if command.postal:
        hold_postal_press(command, session)
    else:
        send_press(session, command, plan_press(command, session))
    return Next.CONTINUE
