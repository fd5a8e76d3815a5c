"""SET BN|MN|EP [NUMBER] id: the game's Boardman, Miller or Electronic Protocol number.

The hobby's archives number games; the master records the number so it
can be shown with the game. Master only; kept in ``extra_settings``.
"""

from __future__ import annotations

import re

from judge.app.game_state.setting_table import IDENTIFIERS
from judge.app.games.masters import change_setting, check_may_set
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import SetIdentifier

_IDENTIFIER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9/.\-]{0,19}$")


@handles(SetIdentifier)
def handle(command: SetIdentifier, session: MailSession) -> Next:
    _ = session.gettext
    setting = IDENTIFIERS.get(command.scheme)
    if setting is None:
        raise CommandRefused(_("{option} is not a setting of this judge.").format(option=command.scheme))
    label = _(setting.label)
    game = check_may_set(session, setting, label)
    value = command.value.strip()
    if not _IDENTIFIER.match(value):
        raise CommandRefused(
            _("{setting} must be letters, digits, '/', '.' or '-' (at most 20): {value}").format(
                setting=label, value=value
            )
        )
    old = change_setting(session, game, setting, value)
    if old is not None:
        session.reply.ok(command.line, _("{setting}: {value} (was {old}).").format(setting=label, value=value, old=old))
    else:
        session.reply.ok(command.line, _("{setting}: already {value}.").format(setting=label, value=value))
    return Next.CONTINUE
