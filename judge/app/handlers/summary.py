"""SUMMARY [game] (STATUS): who played which power when, and the centres year by year.

Anyone may ask, before or after a sign-on; before it the game must be named
(conventions §2). The game's masters get the full report, with the players
of a gunboat game named.
"""

from __future__ import annotations

from judge.app.audience.blind_view import session_view
from judge.app.games.lifecycle import find_game
from judge.app.reports.summary_text import summary_lines
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.models import Game
from judge.lang.commands import Summary


def requested_game(session: MailSession, name: str | None, command_word: str) -> Game:
    """The game a report is about: the one named, else the one signed on to.

    Raises CommandRefused (with the command's name in the reason) when no game
    is named before a sign-on, or the named game does not exist.
    """
    _ = session.gettext
    if name is None:
        if session.game is None:
            raise CommandRefused(
                _("{command} needs a game name before SIGNON, e.g. '{command} mygame'.").format(
                    command=command_word
                )
            )
        return session.game
    game = find_game(session.uow, name)
    if game is None:
        raise CommandRefused(_("There is no game called '{game}' on this judge.").format(game=name))
    return game


def is_master_of(session: MailSession, game: Game) -> bool:
    """Whether the sender is signed on as a master of ``game`` in this mail."""
    return session.role is Role.MASTER and session.game is not None and session.game.id == game.id


@handles(Summary)
def handle(command: Summary, session: MailSession) -> Next:
    _ = session.gettext
    game = requested_game(session, command.game, "SUMMARY")
    lines = summary_lines(
        session.uow,
        game,
        viewer_is_master=is_master_of(session, game),
        language=session.language,
        zone=session.services.config.timezone,
        _=_,
        view=session_view(session, game),  # Fog of War: the asker's own centres alone
    )
    session.reply.ok(command.line, *lines)
    return Next.CONTINUE
