"""PRESS / BROADCAST / POSTAL PRESS: press between the players, observers and masters of a game.

The rules (modes, partial press, fakes, observers, limits, postal press)
live in :mod:`judge.app.mail_out.press_rules`; this handler only chooses between sending
now and holding postal press for the results.
"""

from __future__ import annotations

from judge.app.game_state.bot_seats import press_to_bots
from judge.app.game_state.game_facts import power_name
from judge.app.game_state.variant_rules import game_map_of
from judge.app.hooks.game_hooks import hooks_for
from judge.app.mail_out.press_rules import hold_postal_press, plan_press, resolve, send_press
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
    _bots_read_no_press(command, session)
    return Next.CONTINUE


def _bots_read_no_press(command: Press, session: MailSession) -> None:
    """A press that reaches a power a bot plays (SET BOTS, SET BOT) is answered, once a phase for each
    sender, with a line saying bots do not read press (the press itself went to its other readers)."""
    game = session.game
    if game is None or game.current_phase is None:
        return
    if command.recipients is None:
        powers: tuple[str, ...] = tuple(game_map_of(game).powers)
    else:
        powers = resolve(command.recipients, session, game, drop_own=True).powers
    bots = press_to_bots(game, powers, session.acting_power or session.sender)
    if bots:
        _ = session.gettext
        names = ", ".join(power_name(power, session.language) for power in bots)
        session.reply.ok(command.line, _("Bots do not read press: {powers} will not answer.").format(powers=names))
