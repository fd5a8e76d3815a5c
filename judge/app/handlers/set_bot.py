"""SET BOT letters / SET NO BOT letters: the master gives powers without a player to the normal bot.

Issue 31: an abandoned power (abandoned, resigned, or in civil disorder) is
played by the judge's ``normal`` bot (:mod:`judge.core.bots`) from the next
processing on, until a player takes it over by the usual takeover, which
hands it back (:func:`judge.app.games.lifecycle.take_over`); SET NO BOT takes
it back at once. The powers are kept in ``extra_settings["bot_powers"]``; what
the bot plays is decided when a phase is processed, through the game hooks
(:func:`judge.app.game_state.house_rules.civil_disorder_orders`). Master only.
"""

from __future__ import annotations

from judge.app.game_state.bot_seats import WITHOUT_PLAYER
from judge.app.game_state.game_facts import power_name
from judge.app.game_state.setting_table import BOT_KEY, BOT_POWERS
from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.masters import change_setting, check_may_set
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import SetBot
from judge.lang.powers import power_letters


@handles(SetBot)
def handle(command: SetBot, session: MailSession) -> Next:
    _ = session.gettext
    game = check_may_set(session, BOT_POWERS, _(BOT_POWERS.label))
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
    if command.enabled:
        seats = {seat.power: seat for seat in game.seats if seat.power}
        for power in powers:
            seat = seats.get(power)
            if seat is None or seat.status not in WITHOUT_PLAYER:
                raise CommandRefused(
                    _("{power} has a player: only a power without one (abandoned, resigned or in civil "
                      "disorder) can be given to the bot.").format(power=power_name(power, session.language))
                )  # fmt: skip
    current = list(game.extra_settings.get(BOT_KEY) or [])
    if command.enabled:
        updated = sorted({*current, *powers})
    else:
        updated = [p for p in current if p not in powers]
    change_setting(session, game, BOT_POWERS, updated)
    names = ", ".join(power_name(p, session.language) for p in updated) or "-"
    session.reply.ok(command.line, _("Powers played by a bot: {powers}.").format(powers=names))
    return Next.CONTINUE
