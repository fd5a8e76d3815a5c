"""FORCE BEGIN: the master starts a forming game with the players it has.

The powers are dealt to those who joined, from their preference lists; the
powers nobody was dealt are left without a player (abandoned), open for
anyone to take over. Everyone gets the Game Starting mail.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import waiting_seats
from judge.app.games.lifecycle import start_game
from judge.app.games.masters import require_master
from judge.app.reports.game_start import queue_game_starting
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import GameState
from judge.lang.commands import ForceBegin


@handles(ForceBegin)
def handle(command: ForceBegin, session: MailSession) -> Next:
    _ = session.gettext
    game = require_master(session, "FORCE BEGIN")
    if game.state is not GameState.FORMING:
        raise CommandRefused(_("Game '{game}' has already started.").format(game=game.name))
    if not waiting_seats(game):
        raise CommandRefused(_("Nobody has joined game '{game}' yet: there is nobody to play.").format(
            game=game.name
        ))
    services = session.services
    started = start_game(session.uow, game, session.now, services.rng_factory(), zone=services.config.timezone)
    queue_game_starting(session, game)
    messages = [_("Game '{game}' has started.").format(game=game.name)]
    if started.dummies:
        messages.append(
            _("Powers without a player, open for takeover: {count}.").format(count=len(started.dummies))
        )
    session.reply.ok(command.line, *messages)
    return Next.CONTINUE
