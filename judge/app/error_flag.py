"""A power's error flag follows the last mail signed on as that power (the Judge's rule).

The flag says "the last mail had an error": while it is set the power's
orders do not count as complete, so the phase is not processed early, and
at the end of grace a flagged power whose units all have orders is
accepted rather than put in civil disorder. The order area sets it when a
mail gives orders; this module settles it for every mail signed on as a
power, so that a clean mail without orders clears it, as the player's guide
promises ("until a mail without errors arrives"), and a mail whose only
error is elsewhere (refused press, a wrong SET) sets it.
"""

from __future__ import annotations

from judge.app import orders as kept
from judge.app.session import MailSession
from judge.db.enums import GameState
from judge.db.models import Game


def settle_when_the_mail_ends(session: MailSession, game: Game, power: str) -> None:
    """Set or clear ``power``'s flag once every command of the mail has run."""

    def settle() -> None:
        if game.state is not GameState.ACTIVE or game.current_phase is None:
            return
        flagged = session.reply.errors > 0
        if (power in kept.error_flags(game)) == flagged:
            return
        kept.set_error_flag(game, power, flagged)
        from judge.app.scheduler import plan  # the flag changes when the phase may be processed

        plan(session.uow, session.services, game, session.now)

    session.finishers.append(settle)
