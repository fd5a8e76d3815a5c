"""SET ALLOW PLAYER [-]address / SET DENY PLAYER [-]address: the game's invitation lists.

With an allow list, only the listed addresses may join or take over; a
denied address never may (the sign-on checks both). ``-`` takes the
address off the list. The moderator's, at any time.
"""

from __future__ import annotations

import re

from judge.app.game_state.setting_table import ALLOWED, DENIED
from judge.app.games.masters import change_setting, check_may_set
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.repositories.people import normalise_address
from judge.lang.commands import SetInvitation

_ADDRESS = re.compile(r"^[^@\s,<>]+@[^@\s,<>]+\.[^@\s,<>]+$")


@handles(SetInvitation)
def handle(command: SetInvitation, session: MailSession) -> Next:
    _ = session.gettext
    setting = ALLOWED if command.allow else DENIED
    game = check_may_set(session, setting, _(setting.label))
    address = normalise_address(command.address)
    if not _ADDRESS.match(address):
        raise CommandRefused(_("This is not a mail address: {address}").format(address=command.address))
    current: list[str] = list(game.allowed_players if command.allow else game.denied_players)
    if command.remove:
        if address not in current:
            raise CommandRefused(_("{address} is not on that list.").format(address=address))
        updated = [a for a in current if a != address]
    else:
        updated = list(dict.fromkeys([*current, address]))
    change_setting(session, game, setting, updated)
    if command.allow:
        message = _("Players allowed in game '{game}': {addresses}.")
    else:
        message = _("Players denied from game '{game}': {addresses}.")
    session.reply.ok(command.line, message.format(game=game.name, addresses=", ".join(updated) or "-"))
    return Next.CONTINUE
