"""After a mail changes a game's clock, the scheduler's due time is computed again.

Its own small module, apart from :mod:`judge.app.game_state.clock_store`, because it
needs the scheduler, which itself reads the clock through
:mod:`judge.app.game_state.clock_store`: kept there, the two imported each other.
"""

from __future__ import annotations

from judge.app.phases import scheduler
from judge.app.session.mail_session import MailSession
from judge.db.models import Game


def replan(session: MailSession, game: Game) -> None:
    """The game's clock changed: the scheduler's due time is computed again."""
    scheduler.plan(session.uow, session.services, game, session.now)
