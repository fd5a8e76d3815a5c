"""UNSTART: the master takes a game that has just started back to forming.

Only during its first phase (nothing has been processed). The powers are
taken back (the players stay, waiting for a new deal), the seats left
empty at the start are removed, the first phase is set aside (its orders
no longer count: the game's epoch moves on), and the game waits for the
master: MANUAL START is set (SET AUTOSTART or FORCE BEGIN to start again).
The start is taken off the players' records. Everyone is told ("Unstart").
"""

from __future__ import annotations

from judge.app.game_state.setting_table import CHOICES
from judge.app.games.masters import announce_to_game, change_setting, require_master
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import AuditKind, GameState, PhaseState, SeatStatus
from judge.i18n import Gettext
from judge.lang.commands import Unstart


@handles(Unstart)
def handle(command: Unstart, session: MailSession) -> Next:
    _ = session.gettext
    game = require_master(session, "UNSTART")
    uow = session.uow
    history = uow.phases.history(game)
    if game.state is not GameState.ACTIVE or len(history) != 1 or history[0].state is not PhaseState.OPEN:
        raise CommandRefused(
            _("UNSTART is only possible during the first phase of a game, before anything is processed.")
        )
    first = history[0]
    first.state = PhaseState.ROLLED_BACK
    first.rolled_back_at = session.now
    game.epoch += 1
    for seat in list(game.seats):
        if seat.person is None:
            game.seats.remove(seat)
            continue
        uow.people.add_to_record(seat.person, games_started=-1)
        seat.power = None
        seat.status = SeatStatus.WAITING
        seat.wait = False
        seat.tenures.clear()
    game.state = GameState.FORMING
    game.current_phase = None
    game.started_at = None
    game.deadline_at = game.grace_at = game.earliest_at = None
    uow.games.set_next_due(game, None)
    uow.audit.record(
        AuditKind.ADMIN, session.now, game=game, person=session.person, actor=session.sender,
        setting="state", old_value="active", new_value="forming", detail="unstart",
    )
    change_setting(session, game, CHOICES["START"], True)

    def body(_: Gettext, language: str) -> str:
        return _(
            "The master has taken game '{game}' back to before its start. The powers will be "
            "dealt again when the master starts it."
        ).format(game=game.name)

    announce_to_game(session, game, "Unstart", body, exclude=[session.sender])
    session.reply.ok(
        command.line,
        _("Game '{game}' is forming again; MANUAL START is set. Send FORCE BEGIN (or SET AUTOSTART) "
          "to start it.").format(game=game.name),
    )
    return Next.CONTINUE
