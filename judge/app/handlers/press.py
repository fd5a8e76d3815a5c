"""PRESS / BROADCAST / POSTAL PRESS: press between the players, observers and masters of a game.

The rules (modes, partial press, fakes, observers, limits, postal press)
live in :mod:`judge.app.press`; this handler only chooses between sending
now and holding postal press for the results.
"""

from __future__ import annotations

from judge.app.press import hold_postal_press, plan_press, send_press
from judge.app.registry import Next, handles
from judge.app.session import MailSession
from judge.lang.commands import Press


@handles(Press)
def handle(command: Press, session: MailSession) -> Next:
    if command.postal:
        hold_postal_press(command, session)
    else:
        send_press(session, command, plan_press(command, session))
    return Next.CONTINUE
