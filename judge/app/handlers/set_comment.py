"""SET COMMENT text / SET COMMENT BEGIN ... SIGNOFF: the game's brief and full comments.

The brief comment follows the game's name in the brief LIST, so it is kept
short (:data:`judge.app.game_state.setting_table.COMMENT_LENGTH`); the full one is printed
with the game's parameters. An empty text clears the comment.
"""

from __future__ import annotations

from judge.app.game_state.setting_table import COMMENT, COMMENT_FULL, COMMENT_LENGTH
from judge.app.games.masters import change_setting, check_may_set
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import SetComment


@handles(SetComment)
def handle(command: SetComment, session: MailSession) -> Next:
    _ = session.gettext
    setting = COMMENT_FULL if command.full else COMMENT
    game = check_may_set(session, setting, _(setting.label))
    text = command.text.strip() if not command.full else command.text.rstrip()
    if not command.full:
        text = " ".join(text.split())
        if len(text) > COMMENT_LENGTH:
            raise CommandRefused(
                _("The comment is {length} characters long; at most {limit} fit. "
                  "For a longer one use SET COMMENT BEGIN.").format(length=len(text), limit=COMMENT_LENGTH)
            )
    change_setting(session, game, setting, text)
    if not text:
        session.reply.ok(command.line, _("The comment of game '{game}' is cleared.").format(game=game.name))
    else:
        session.reply.ok(command.line, _("The comment of game '{game}' is set.").format(game=game.name))
    return Next.CONTINUE
