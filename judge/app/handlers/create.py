"""CREATE ?game password [variant] [options]: a new game, with its creator as its first player.

Only registered people may create a game (the Judge also asks a dedication
of at least -10). The creator is seated like any player who joins; BECOME
MASTER makes them its master.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import describe_variant, players_needed
from judge.app.games.lifecycle import (
    GAME_OPTIONS,
    GameNameTaken,
    UnknownVariantOrOption,
    create_game,
)
from judge.app.people.password_rules import check_new_password
from judge.app.people.signon_checks import start_if_ready
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.core.variants import offered_variants
from judge.lang.commands import Create
from judge.timekeeping.dedication import PlayerRecord, check_may_create
from judge.timekeeping.errors import DedicationTooLowError


@handles(Create)
def handle(command: Create, session: MailSession) -> Next:
    _ = session.gettext
    if session.signed_on:
        raise CommandRefused(_("Only one sign-on per mail: this one was ignored."))
    person = session.person
    if person is None:
        raise CommandRefused(
            _("Only registered players may create a game: send REGISTER first (see HELP)."), stop=True
        )
    try:
        check_may_create(PlayerRecord(dedication=person.dedication))
    except DedicationTooLowError as error:
        raise CommandRefused(
            _("Creating a game needs a dedication of at least {minimum}; yours is {dedication}.").format(
                minimum=error.minimum, dedication=error.dedication
            ),
            stop=True,
        ) from error
    check_new_password(session, command.password, stop=True)
    try:
        game, seat = create_game(
            session.uow, command.game, person, command.password, session.now,
            variant=command.variant, options=command.options,
        )
    except GameNameTaken as error:
        raise CommandRefused(
            _("A game called '{game}' already exists. To join it: SIGNON ?{game} password.").format(
                game=error.name.lower()
            ),
            stop=True,
        ) from error
    except UnknownVariantOrOption as error:
        raise CommandRefused(
            _("Unknown variant or option: {words}. Variants: {variants}. Options: {options}.").format(
                words=", ".join(error.words),
                variants=", ".join(offered_variants()),
                options=", ".join(GAME_OPTIONS),
            ),
            stop=True,
        ) from error
    session.game, session.seat, session.role = game, seat, Role.POWER
    messages = [
        _("Game '{game}' ({variant}) has been created and you have joined it.").format(
            game=game.name, variant=describe_variant(game)
        ),
    ]
    if start_if_ready(session, game) is not None:
        messages.append(_("The game has started: see the Game Starting mail."))
    else:
        messages.append(
            _("Players still needed before the game can start: {count}.").format(
                count=players_needed(game)
            )
        )
        messages.append(_("To be its master, send BECOME MASTER while you are its only player."))
    session.reply.ok(command.line, *messages)
    return Next.CONTINUE
