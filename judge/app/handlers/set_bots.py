"""SET BOTS [SENSIBLE|NORMAL] / SET NO BOTS: a practice game's empty seats filled with bots before the start.

Issue 31: so that one person can play a whole game by mail against the
judge's bots (:mod:`judge.core.bots`). Before the start only, by a master of
the game or by its creator (the first player seated). SET BOTS seats as
many bots as the game still wants players (``normal`` bots by default;
the level is kept in ``extra_settings["bot_seat_level"]``); the game is then
full and starts as a full game does (at once, unless SET START MANUAL keeps
it for the master's FORCE BEGIN). At the start the bots take the powers the
players were not dealt; each gives its orders as each phase opens
(:mod:`judge.app.game_state.bot_seats`), never votes in a draw or a
concession, and anyone may take its seat over as an abandoned power's.
SET NO BOTS takes the bots out of a game that has not started.
The players already seated are told (the count and the level, which LIST
shows anyway).
"""

from __future__ import annotations

from judge.app.game_state.game_facts import players_needed, unseated_bots
from judge.app.game_state.setting_table import BOT_SEATS_KEY
from judge.app.games.masters import announce_to_game, is_creator, is_master, signed_on_game
from judge.app.hooks.game_hooks import hooks_for
from judge.app.people.signon_checks import start_if_ready
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import GameState, SeatStatus
from judge.db.models import Game, Seat
from judge.i18n import Gettext
from judge.lang.commands import SetBots

BOTS_EVENT = "Bots"


@handles(SetBots)
def handle(command: SetBots, session: MailSession) -> Next:
    _ = session.gettext
    game = signed_on_game(session, "SET BOTS")
    if not (is_master(session) or is_creator(session, game)):
        raise CommandRefused(
            _("Only a master of game '{game}' or its creator may seat bots in it.").format(game=game.name)
        )
    if game.state is not GameState.FORMING:
        raise CommandRefused(
            _("Bots can only be seated before the game starts; the master gives a power without a player "
              "to the bot with SET BOT.")
        )  # fmt: skip
    if hooks_for(game).members_sign_on:
        raise CommandRefused(_("Bots cannot sit in a game played by councils."))
    uow = session.uow
    seated = unseated_bots(game)
    if not command.enabled:
        for seat in seated:
            game.seats.remove(seat)
        uow.flush()
        session.reply.ok(
            command.line, _("Bots taken out of game '{game}': {count}.").format(game=game.name, count=len(seated))
        )
        if seated:
            _tell(session, game, len(seated), None)
        return Next.CONTINUE
    needed = players_needed(game)
    if needed == 0 and not seated:
        raise CommandRefused(_("Game '{game}' has no empty seat left for a bot.").format(game=game.name))
    level = command.level or "normal"
    uow.games.change_setting(
        game, "extra:" + BOT_SEATS_KEY, level, session.now, actor=session.sender, person=session.person
    )
    for _index in range(needed):
        game.seats.append(Seat(power=None, person=None, password_hash=None, status=SeatStatus.BOT,
                               joined_at=session.now))  # fmt: skip
    uow.flush()
    count = len(seated) + needed
    messages = [_("Game '{game}': {count} seats played by {level} bots.").format(
        game=game.name, count=count, level=level
    )]  # fmt: skip
    _tell(session, game, count, level)
    if start_if_ready(session, game) is not None:
        messages.append(_("Game '{game}' has started.").format(game=game.name))
    session.reply.ok(command.line, *messages)
    return Next.CONTINUE


def _tell(session: MailSession, game: Game, count: int, level: str | None) -> None:
    """The players already seated learn how many bots will play with them (LIST shows it too)."""

    def body(_: Gettext, language: str) -> str:
        if level is None:
            return _("The bots have been taken out of game '{game}'.").format(game=game.name)
        return _("{count} seats of game '{game}' will be played by {level} bots.").format(
            count=count, game=game.name, level=level
        )

    announce_to_game(session, game, BOTS_EVENT, body, exclude=[session.sender])
