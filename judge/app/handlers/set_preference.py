"""SET PREFERENCE list: the powers a player would like, best first, until the powers are dealt.

``f[ergti]a``: France first, then any of England, Russia, Germany, Turkey,
Italy, Austria last; ``*``: any power at random. The list is kept on the
seat in that short form and read when the game starts.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import power_name
from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.lifecycle import preference_text
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import SetPreference
from judge.lang.powers import power_letters


@handles(SetPreference)
def handle(command: SetPreference, session: MailSession) -> Next:
    _ = session.gettext
    seat, game = session.seat, session.game
    if game is None or seat is None or session.role is not Role.POWER:
        raise CommandRefused(_("SET PREFERENCE needs a SIGNON to a game you have joined first."))
    if seat.power is not None:
        raise CommandRefused(
            _("The powers have already been dealt: preferences can only be set before the game starts.")
        )
    letters = power_letters(game_map_of(game))
    seen: set[str] = set()
    for group in command.groups:
        for letter in group.upper().replace("*", ""):
            if letter not in letters:
                raise CommandRefused(
                    _("{letter} is not a power of this game; the letters are {letters}.").format(
                        letter=letter, letters="".join(letters)
                    )
                )
            if letter in seen:
                raise CommandRefused(
                    _("{letter} appears twice in the list.").format(letter=letter)
                )
            seen.add(letter)
    text = preference_text(command.groups)
    seat.preferences = text
    session.uow.flush()
    if text == "*":
        shown = _("any power, at random")
    else:
        ranked: list[str] = []
        for group in command.groups:
            names = [power_name(letters[c], session.language) for c in group.upper() if c in letters]
            if names:
                ranked.append(" = ".join(names))
        shown = ", ".join(ranked)
    session.reply.ok(command.line, _("Preference list set: {list}.").format(list=shown))
    return Next.CONTINUE
