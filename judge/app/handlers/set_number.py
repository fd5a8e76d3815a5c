"""SET DEDICATION / ONTIMERAT / RESRAT / CENTERS / PLAYERS / MAX ABSENCE n: the game's numbers.

Bounds that do not depend on the game are in :data:`judge.app.game_state.setting_table.NUMBERS`;
the others are checked here: the centres to win cannot exceed the map's
supply centres, the players neither the powers nor fall below the number
already joined, and (the Judge's rule) nobody may ask a dedication higher
than their own.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import waiting_seats
from judge.app.game_state.setting_table import END_YEAR, NUMBERS
from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.masters import change_setting, check_may_set
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.models import Game
from judge.lang.commands import SetNumber


@handles(SetNumber)
def handle(command: SetNumber, session: MailSession) -> Next:
    _ = session.gettext
    setting = NUMBERS.get(command.option)
    if setting is None:
        raise CommandRefused(_("{option} is not a setting of this judge.").format(option=command.option))
    label = _(setting.label)
    game = check_may_set(session, setting, label)
    low, high = _bounds(session, game, command.option, setting.low, setting.high)
    value: float | int = command.value
    if command.option not in ("ONTIMERAT", "RESRAT"):
        if float(value) != int(value):
            raise CommandRefused(_("{setting} must be a whole number.").format(setting=label))
        value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise CommandRefused(
            _("{setting} must be from {low} to {high}; {value} is out of range.").format(
                setting=label, low=_number(low), high=_number(high), value=_number(value)
            )
        )
    first_year = game_map_of(game).first_phase.year
    if command.option == END_YEAR and 0 < value < first_year:
        raise CommandRefused(
            _("The last year cannot come before the game's first year, {year} (0 turns it off).").format(
                year=first_year
            )
        )
    if command.option == "DEDICATION" and session.person is not None and value > session.person.dedication:
        raise CommandRefused(
            _("You may not ask a dedication higher than your own ({dedication}).").format(
                dedication=session.person.dedication
            )
        )
    stored: float | int | None = float(value) if command.option in ("ONTIMERAT", "RESRAT") else value
    if command.option == "PLAYERS" and value == len(game_map_of(game).powers):
        stored = None  # one per power, the default: follows the variant
    shown = setting.shown(value)
    old = change_setting(session, game, setting, stored)
    if old is not None:
        session.reply.ok(command.line, _("{setting}: {value} (was {old}).").format(setting=label, value=shown, old=old))
    else:
        session.reply.ok(command.line, _("{setting}: already {value}.").format(setting=label, value=shown))
    return Next.CONTINUE


def _bounds(
    session: MailSession, game: Game, option: str, low: float | None, high: float | None
) -> tuple[float | None, float | None]:
    the_map = game_map_of(game)
    if option == "CENTERS":
        return low, len(the_map.supply_centers)
    if option == "PLAYERS":
        return max(low or 1, len(waiting_seats(game)), 1), len(the_map.powers)
    return low, high


def _number(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:g}"
