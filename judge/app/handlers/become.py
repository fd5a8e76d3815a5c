"""BECOME <power>: the master acts as that power for the rest of the mail.

Orders, SET WAIT, press and draw votes that follow are the power's, as if
its player had sent them; the player is sent a copy of what was done in
their name (:func:`judge.app.games.masters.become`). One BECOME per mail, and
only after SIGNON M<game>.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import power_name
from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.masters import became, become, require_master
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import GameState
from judge.lang.commands import Become


@handles(Become)
def handle(command: Become, session: MailSession) -> Next:
    _ = session.gettext
    game = require_master(session, "BECOME")
    if became(session) is not None:
        raise CommandRefused(_("Only one BECOME per mail: send another mail to act for another power."))
    if game.state is GameState.FORMING:
        raise CommandRefused(_("Game '{game}' has not started: no power has a player yet.").format(game=game.name))
    if command.power not in game_map_of(game).powers:
        raise CommandRefused(_("{power} is not a power of this game.").format(power=command.power))
    seat = session.uow.seats.by_power(game, command.power)
    if seat is None:
        raise CommandRefused(_("{power} is not a power of this game.").format(power=command.power))
    become(session, seat, command.line)
    session.reply.ok(
        command.line,
        _("You now act as {power} for the rest of this mail.").format(
            power=power_name(command.power, session.language)
        ),
    )
    return Next.CONTINUE
