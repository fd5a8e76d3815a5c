"""An order line of a variant whose orders are kept as sent (the Renaissance game's): the game's
hooks keep it (:meth:`judge.app.hooks.game_hooks.GameHooks.take_sheet_line`), and once the mail's
sheet is stored the game's clock is planned again, as after any order mail: the phase is
processed early when these orders complete the last power's
(:meth:`~judge.app.hooks.game_hooks.GameHooks.orders_completeness`)."""

from __future__ import annotations

from dataclasses import dataclass

from judge.app.hooks.game_hooks import hooks_for
from judge.app.phases.planning import plan
from judge.app.session.mail_session import MailSession
from judge.app.session.registry import Next, handles
from judge.db.models import Game
from judge.lang.commands import SheetLineCommand


@dataclass
class _Replanned:
    """The mail's sheet lines will re-plan their game once, after the sheet is stored."""


@handles(SheetLineCommand)
def handle(command: SheetLineCommand, session: MailSession) -> Next:
    hooks = hooks_for(session.game)
    hooks.check_order(session)
    hooks.take_sheet_line(session, command)  # its finisher stores the sheet at the mail's end
    if session.state_of(_Replanned) is None and session.game is not None:
        session.keep_state(_Replanned())
        game = session.game
        session.finishers.append(lambda: _replan(session, game))
    return Next.CONTINUE


def _replan(session: MailSession, game: Game) -> None:
    plan(session.uow, session.services, game, session.now)
