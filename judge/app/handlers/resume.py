"""RESUME: restart a paused game's clock, with a fresh deadline.

Who: any player or master of the game; only a master when the game is SET
NO RESUME (the Judge says "mod", which in an unmoderated game would let
every player resume anyway and make the setting pointless). The new deadline is computed from now like
a new phase's (``next``, ``clock``, ``days`` of the phase's schedule, out of
the absences that count), never earlier than the deadline before the
pause; the draw votes are cleared (the Judge's rule) and the phase's notices
start afresh. Everyone is told ("Game Resumed") with the new deadline.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from judge.app.game_state.clock_store import (
    clear_pause_notices,
    fresh_times,
    open_phase,
    set_times,
    stored_times,
)
from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.masters import (
    announce_dated_to_game,
    require_master,
    setter_name,
    signed_on_game,
)
from judge.app.phases.planning import plan
from judge.app.phases.processing import owing_powers
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind
from judge.lang.commands import Resume


@handles(Resume)
def handle(command: Resume, session: MailSession) -> Next:
    _ = session.gettext
    game = signed_on_game(session, "RESUME")
    if not game.players_may_resume:
        game = require_master(session, "RESUME")
    elif session.role is Role.OBSERVER:
        raise CommandRefused(_("Observers cannot resume a game: only its players and masters."))
    opened = open_phase(session.uow, game)
    if opened is None or game.paused_at is None:
        raise CommandRefused(_("Game '{game}' is not paused: there is nothing to resume.").format(game=game.name))
    record, position = opened
    zone = session.services.config.timezone
    times = fresh_times(
        session.uow, game, session.now, position.phase.type, zone,
        previous=stored_times(game), owing=owing_powers(game, position, record.position_before, game_map_of(game)),
        same_phase=True,
    )  # fmt: skip
    session.uow.audit.record(
        AuditKind.SETTING, session.now, game=game, person=session.person, actor=session.sender,
        setting="paused_at", old_value=game.paused_at, new_value=None,
    )  # fmt: skip
    game.paused_at = None
    clear_pause_notices(game)
    set_times(session.uow, game, times)
    session.uow.press.clear_votes(game)
    plan(session.uow, session.services, game, session.now)
    session.reply.ok(
        command.line,
        _("Game '{game}' is resumed. The new deadline is {deadline}.").format(
            game=game.name, deadline=session.tell_date(times.deadline)
        ),
    )

    def body(_: Callable[[str], str], language: str, tell: Callable[[datetime], str]) -> str:
        who = setter_name(session, game, language)
        head = (
            _("Game '{game}' has been resumed.").format(game=game.name)
            if who is None
            else _("Game '{game}' has been resumed by {who}.").format(game=game.name, who=who)
        )
        return "\n".join([head, _("The new deadline is {deadline}.").format(deadline=tell(times.deadline))])

    announce_dated_to_game(session, game, "Game Resumed", body, exclude=[session.sender])
    return Next.CONTINUE
