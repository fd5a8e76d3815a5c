"""SET WAIT / SET NOWAIT: hold the current phase until its deadline, or not.

The flag is the seat's, for the phase being played: processing clears it
when the next phase opens. A master acts on the power he BECAME. In a
council game only the General may (seed 003, rule 5: he alone says when
his orders are resolved).
"""

from __future__ import annotations

from judge.app.hooks.game_hooks import hooks_for
from judge.app.phases.planning import plan
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import GameState
from judge.db.models import Seat
from judge.lang.commands import SetWait


@handles(SetWait)
def handle(command: SetWait, session: MailSession) -> Next:
    _ = session.gettext
    seat = _target(session)
    if seat is None:
        raise CommandRefused(_("SET WAIT and SET NOWAIT are for a player signed on to a power."))
    hooks_for(session.game).check_wait(session)  # councils: the General's choice alone
    game = seat.game
    if game.state is not GameState.ACTIVE or game.current_phase is None:
        raise CommandRefused(_("The game is not being played now: there is no phase to wait for."))
    if session.future_phase is not None:
        raise CommandRefused(
            _("SET WAIT inside a PHASE block is not kept for later phases yet: send it during that phase.")
        )
    seat.wait = command.wait
    session.uow.flush()
    plan(session.uow, session.services, game, session.now)  # WAIT holds (NOWAIT frees) early processing
    if command.wait:
        message = _("WAIT set: the phase will not be processed before its deadline.")
    else:
        message = _("WAIT cleared: the phase may be processed as soon as all orders are in.")
    session.reply.ok(command.line, message)
    return Next.CONTINUE


def _target(session: MailSession) -> Seat | None:
    if session.game is None:
        return None
    if session.role is Role.POWER and session.seat is not None and session.seat.power is not None:
        return session.seat
    if session.role is Role.MASTER and session.acting_power is not None:
        return session.uow.seats.by_power(session.game, session.acting_power)
    return None
