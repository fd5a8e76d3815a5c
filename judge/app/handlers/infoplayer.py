"""INFOPLAYER address: a player's dedication record and the games they play now.

The record is what games check at sign-on (dedication, on-time ratio, CD
ratio), so a master can see why someone was or was not let in. Gunboat
games are left out of the list of games: nobody may learn who plays them.
"""

from __future__ import annotations

from judge.app.reports.person import addresses_of, current_games_lines, dedication_lines
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import InfoPlayer


@handles(InfoPlayer)
def handle(command: InfoPlayer, session: MailSession) -> Next:
    _ = session.gettext
    person = session.uow.people.by_address(command.address)
    if person is None:
        raise CommandRefused(
            _("No registration has the address {address}.").format(address=command.address)
        )
    lines = [
        _("Player: {name} <{address}>").format(name=person.name, address=addresses_of(person)[0]),
        _("Registered on {date}.").format(date=person.registered_at.date().isoformat()),
        *dedication_lines(person, _),
        *current_games_lines(session.uow, person, session.language, _),
    ]
    session.reply.ok(command.line, "\n".join(lines))
    return Next.CONTINUE
