"""SET MAP ON|OFF: whether the results mails the sender gets carry the map (on by default).

Each reader chooses for himself: a player for his seat, a master for his
mastership, an observer for his watch; it changes nothing for anyone else.
The results' text is complete without the picture, so OFF loses nothing
but the picture (MAP still draws any phase on request).
"""

from __future__ import annotations

from judge.app.mail_out.results_maps import set_map_choice
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import SetMap


@handles(SetMap)
def handle(command: SetMap, session: MailSession) -> Next:
    _ = session.gettext
    game = session.game
    if game is None or session.role is None:
        raise CommandRefused(_("SET MAP is for a player, master or observer signed on to a game."))
    addresses = [session.sender]
    if session.person is not None:
        addresses += [a.address for a in session.person.addresses]
    if session.role is Role.POWER and session.seat is not None:
        reader = f"seat:{session.seat.id}"
        addresses += [a for a in (session.seat.report_address or "").split(",") if a]
    elif session.role is Role.MASTER and session.master is not None:
        reader = f"master:{session.master.id}"
    elif session.role is Role.OBSERVER and session.observer is not None:
        reader = f"observer:{session.observer.id}"
        addresses.append(session.observer.address)
    else:
        raise CommandRefused(_("SET MAP is for a player, master or observer signed on to a game."))
    set_map_choice(game, reader, addresses, command.enabled)
    if command.enabled:
        message = _("MAP ON: your results mails for {game} carry the map as a picture.")
    else:
        message = _("MAP OFF: your results mails for {game} come without the map (MAP still sends one on request).")
    session.reply.ok(command.line, message.format(game=game.name))
    return Next.CONTINUE
