"""BECOME MASTER: the only player of a forming game becomes its master.

The Judge's way of starting a moderated game: CREATE, then BECOME MASTER
while nobody else has joined. The player's seat goes (a master plays no
power) and the same password now signs on as ``SIGNON M<game>``; the game
becomes Moderated and Rated (audited like any SET).
"""

from __future__ import annotations

from judge.app.game_state.setting_table import FLAGS
from judge.app.games.masters import change_setting
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import GameState
from judge.lang.commands import BecomeMaster


@handles(BecomeMaster)
def handle(command: BecomeMaster, session: MailSession) -> Next:
    _ = session.gettext
    game, seat, person = session.game, session.seat, session.person
    if game is None or seat is None or person is None or session.role is not Role.POWER:
        raise CommandRefused(_("BECOME MASTER is for the only player of a game you have just created."))
    if game.state is not GameState.FORMING:
        raise CommandRefused(_("Game '{game}' has started: its master can no longer change.").format(game=game.name))
    if game.masters:
        raise CommandRefused(_("Game '{game}' already has a master.").format(game=game.name))
    if len(game.seats) != 1 or game.seats[0] is not seat:
        raise CommandRefused(
            _("Only the game's only player may become its master; other players have joined already.")
        )
    uow = session.uow
    master = uow.games.add_master(game, person, "-", session.now)
    master.password_hash = seat.password_hash or master.password_hash  # the same password signs on as M
    game.seats.remove(seat)
    uow.flush()
    session.seat, session.role, session.master, session.acting_power = None, Role.MASTER, master, None
    change_setting(session, game, FLAGS["MODERATED"], True)
    change_setting(session, game, FLAGS["RATED"], True)
    session.reply.ok(
        command.line,
        _("You are now the master of game '{game}'; it is moderated. Sign on with SIGNON M{game} "
          "and the same password.").format(game=game.name),
    )
    return Next.CONTINUE
