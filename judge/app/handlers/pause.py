"""PAUSE (SUSPEND): stop the game's clock until RESUME.

Who: the Judge's "mod" — the master of a moderated game, any player of an
unmoderated one. While paused nothing is processed and no deadline passes
(no reminder, no late notice, no abandonment); press may go to the master
only; orders may still be sent, ready for when the game resumes. Everyone
is told ("Game Paused") and reminded every three days. The game stays
"active" with its ``paused_at`` set: the phase is still the one being
played, and RESUME gives it a fresh deadline.
"""

from __future__ import annotations

from collections.abc import Callable

from judge.app.game_state.clock_store import clear_pause_notices, open_phase
from judge.app.games.masters import announce_to_game, require_moderator, setter_name
from judge.app.phases.planning import plan
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind
from judge.lang.commands import Pause


@handles(Pause)
def handle(command: Pause, session: MailSession) -> Next:
    _ = session.gettext
    game = require_moderator(session, "PAUSE")
    if open_phase(session.uow, game) is None:
        raise CommandRefused(_("Game '{game}' is not being played: there is nothing to pause.").format(game=game.name))
    if game.paused_at is not None:
        raise CommandRefused(
            _("Game '{game}' has been paused since {date}.").format(
                game=game.name, date=session.tell_date(game.paused_at)
            )
        )
    game.paused_at = session.now
    clear_pause_notices(game)
    session.uow.audit.record(
        AuditKind.SETTING, session.now, game=game, person=session.person, actor=session.sender,
        setting="paused_at", new_value=session.now,
    )  # fmt: skip
    plan(session.uow, session.services, game, session.now)
    session.reply.ok(
        command.line,
        _("Game '{game}' is paused: nothing will be processed and no deadline will pass until RESUME.").format(
            game=game.name
        ),
    )

    def body(_: Callable[[str], str], language: str) -> str:
        who = setter_name(session, game, language)
        head = (
            _("Game '{game}' has been paused.").format(game=game.name)
            if who is None
            else _("Game '{game}' has been paused by {who}.").format(game=game.name, who=who)
        )
        return "\n".join([head, _("Nothing will be processed and no deadline will pass until it is resumed (RESUME).")])

    announce_to_game(session, game, "Game Paused", body, exclude=[session.sender])
    return Next.CONTINUE
