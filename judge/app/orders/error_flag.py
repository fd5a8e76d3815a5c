"""A clean mail signed on as a power clears that power's error flag, orders or not.

The flag says "the last order mail had an error": while it is set the
power's orders do not count as complete, so the phase is not processed
early, and at the end of grace a flagged power whose units all have orders
is accepted rather than put in civil disorder. The order area sets and
clears it when a mail gives orders; this module clears it for any mail
without errors signed on as the power, as the player's guide promises
("until a mail without errors arrives"). It sets nothing: a mail with an
error and no orders leaves the flag as it was.
"""

from __future__ import annotations

from judge.app.game_state import order_sheets as kept
from judge.app.phases.planning import plan
from judge.app.session.mail_session import MailSession
from judge.db.enums import GameState
from judge.db.models import Game


def settle_when_the_mail_ends(session: MailSession, game: Game, power: str) -> None:
    """Clear ``power``'s flag once every command of the mail has run, if none had an error."""

    def settle() -> None:
        if game.state is not GameState.ACTIVE or game.current_phase is None:
            return
        if session.reply.errors > 0 or power not in kept.error_flags(game):
            return
        kept.set_error_flag(game, power, False)
        plan(session.uow, session.services, game, session.now)  # the flag decides whether the phase may be processed early

    session.finishers.append(settle)
