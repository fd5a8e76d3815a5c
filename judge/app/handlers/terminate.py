"""TERMINATE: the game stops for good (the Judge's "mod": the master of a moderated game).

A game that never started is taken off the public list; a started one
keeps its history and can still be read (LIST, SUMMARY, HISTORY). Nothing is
processed any more: its deadlines and its next due time are cleared. The
whole game is told ("Game Terminated").
"""

from __future__ import annotations

from judge.app.game_state.setting_table import FLAGS
from judge.app.games.masters import (
    announce_to_game,
    change_setting,
    require_moderator,
    setter_name,
)
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind, GameState
from judge.i18n import Gettext
from judge.lang.commands import Terminate


@handles(Terminate)
def handle(command: Terminate, session: MailSession) -> Next:
    _ = session.gettext
    game = require_moderator(session, "TERMINATE")
    if game.state in (GameState.FINISHED, GameState.TERMINATED):
        raise CommandRefused(_("Game '{game}' is already over.").format(game=game.name))
    if game.state is GameState.FORMING:
        change_setting(session, game, FLAGS["LIST"], False)
    game.state = GameState.TERMINATED
    game.finished_at = session.now
    game.deadline_at = game.grace_at = game.earliest_at = None
    session.uow.games.set_next_due(game, None)
    session.uow.audit.record(
        AuditKind.ADMIN, session.now,
        game=game, person=session.person, actor=session.sender, setting="state", new_value="terminated",
    )

    def body(_: Gettext, language: str) -> str:
        who = setter_name(session, game, language)
        if who is None:
            return _("Game '{game}' has been terminated.").format(game=game.name)
        return _("Game '{game}' has been terminated by {who}.").format(game=game.name, who=who)

    announce_to_game(session, game, "Game Terminated", body, exclude=[session.sender])
    session.reply.ok(command.line, _("Game '{game}' is terminated.").format(game=game.name))
    return Next.CONTINUE
