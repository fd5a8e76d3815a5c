"""SET COUNCILS [size] [YEARS n] / SET NO COUNCILS: each power played by a council (seed 003, issue 17).

Before the start only, by a master of the game or by its creator (the
first player seated). The game then wants ``size`` players per power
(3 by default, as the seed has it): SET COUNCILS sets the number of players
to ``size`` times the powers of the variant, and the start deals the
players into councils (:mod:`judge.app.councils.formation`). ``YEARS n``
ends the game after n game years (through SET END YEAR, the house rule).
"""

from __future__ import annotations

from judge.app.game_state.variant_rules import game_map_of
from judge.app.games.masters import is_creator, is_master, signed_on_game
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.db.enums import GameState
from judge.db.repositories.councils import DEFAULT_SETTINGS, SETTINGS_KEY, council_settings
from judge.lang.commands import SetCouncils


@handles(SetCouncils)
def handle(command: SetCouncils, session: MailSession) -> Next:
    _ = session.gettext
    game = signed_on_game(session, "SET COUNCILS")
    if not (is_master(session) or is_creator(session, game)):
        raise CommandRefused(
            _("Only a master of game '{game}' or its creator may set councils.").format(
                game=game.name
            )
        )
    if game.state is not GameState.FORMING:
        raise CommandRefused(_("Councils can only be set before the game starts."))
    uow = session.uow
    powers = len(game_map_of(game).powers)
    if not command.enabled:
        uow.games.change_setting(
            game,
            "extra:" + SETTINGS_KEY,
            None,
            session.now,
            actor=session.sender,
            person=session.person,
        )
        uow.games.change_setting(
            game, "players_count", None, session.now, actor=session.sender, person=session.person
        )
        session.reply.ok(
            command.line,
            _("Game '{game}' is no longer played by councils: one player per power.").format(
                game=game.name
            ),
        )
        return Next.CONTINUE
    current = council_settings(game) or dict(DEFAULT_SETTINGS)
    size = command.size if command.size is not None else int(current["size"])
    years = command.years if command.years is not None else current.get("years")
    wanted = size * powers
    joined = len([seat for seat in game.seats if seat.power is None])
    if joined > wanted:
        raise CommandRefused(
            _("{count} players have already joined: councils of {size} take only {wanted}.").format(
                count=joined, size=size, wanted=wanted
            )
        )
    value = {
        **{k: v for k, v in current.items() if k in DEFAULT_SETTINGS},
        "enabled": True,
        "size": size,
        "years": years,
    }
    uow.games.change_setting(
        game,
        "extra:" + SETTINGS_KEY,
        value,
        session.now,
        actor=session.sender,
        person=session.person,
    )
    uow.games.change_setting(
        game, "players_count", wanted, session.now, actor=session.sender, person=session.person
    )
    messages = [
        _(
            "Game '{game}' will be played by councils of {size} players: {wanted} players in all ({powers} powers)."
        ).format(game=game.name, size=size, wanted=wanted, powers=powers)
    ]
    if years:
        messages.append(_("The game ends after {years} game years.").format(years=years))
    session.reply.ok(command.line, *messages)
    return Next.CONTINUE
