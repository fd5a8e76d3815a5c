"""SET APPROVED letters / SET NOT APPROVED letters: the master vets the newcomers of these powers.

In a game with APPROVAL, a newcomer's sign-on to a power waits for the
master's word; the powers the master has approved are kept in
``extra_settings["approved_powers"]`` (the sign-on reads them). Master only.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import power_name
from judge.app.game_state.setting_table import APPROVED, APPROVED_POWERS
from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.masters import change_setting, check_may_set
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import SetApproved
from judge.lang.powers import power_letters


@handles(SetApproved)
def handle(command: SetApproved, session: MailSession) -> Next:
    _ = session.gettext
    game = check_may_set(session, APPROVED_POWERS, _(APPROVED_POWERS.label))
    if not command.letters:
        raise CommandRefused(_("SET APPROVED needs the letters of the powers (SET APPROVED FG)."))
    letters = power_letters(game_map_of(game))
    powers: list[str] = []
    for letter in command.letters.upper():
        if letter not in letters:
            raise CommandRefused(
                _("{letter} is not a power of this game; the letters are {letters}.").format(
                    letter=letter, letters="".join(letters)
                )
            )
        powers.append(letters[letter])
    current = list(game.extra_settings.get(APPROVED) or [])
    if command.approved:
        updated = list(dict.fromkeys([*current, *powers]))
    else:
        updated = [p for p in current if p not in powers]
    change_setting(session, game, APPROVED_POWERS, updated)
    names = ", ".join(power_name(p, session.language) for p in updated) or "-"
    session.reply.ok(command.line, _("Approved powers: {powers}.").format(powers=names))
    return Next.CONTINUE
