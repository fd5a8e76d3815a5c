"""WHOGAME [game] [FULL]: the registration records of a game's players and masters (FULL: observers too).

Without a game name, the game signed on to. In a gunboat game only its
master, signed on as master, may ask: players must not learn who plays whom.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import is_gunboat
from judge.app.reports.listing import whogame_lines
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import Whogame


@handles(Whogame)
def handle(command: Whogame, session: MailSession) -> Next:
    _ = session.gettext
    if command.game is not None:
        game = session.uow.games.by_name(command.game)
        if game is None:
            raise CommandRefused(_("There is no game named '{game}' on this judge.").format(game=command.game))
    elif session.signed_on and session.game is not None:
        game = session.game
    else:
        raise CommandRefused(_("Name the game: WHOGAME game [FULL]."))
    master_here = session.role is Role.MASTER and session.game is not None and session.game.id == game.id
    if is_gunboat(game) and not master_here:
        raise CommandRefused(
            _("'{game}' is a gunboat game: only its master, signed on as master, may see who plays.").format(
                game=game.name
            )
        )
    lines = whogame_lines(game, full=command.full, language=session.language, _=_)
    session.reply.ok(command.line, "\n".join(lines))
    return Next.CONTINUE
