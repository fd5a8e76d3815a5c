"""SET [NO] MONEY, LOANS, DICE... and SET MACHIAVELLI FIRST|SECOND|BASIC: a Renaissance game's options.

Not a registered handler: :mod:`judge.app.handlers.set_flag` and
:mod:`judge.app.handlers.set_choice` hand these options here. Whether a game plays them is its
hooks' answer (``own_options``): elsewhere they are refused as options of Machiavelli games.
Only a master of the game sets them, and only while it forms: they decide how every power's
treasury, control and year are played, so a game under way keeps the ones it started with.
What each option means, and how they are kept, is in :mod:`judge.app.machiavelli.game_options`
and :mod:`judge.core.machiavelli.option_sets`.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import variant_title
from judge.app.games.masters import Change, is_master, note_change, signed_on_game
from judge.app.hooks.game_hooks import hooks_for
from judge.app.machiavelli.game_options import (
    FIELD_OF_FLAG,
    KEY,
    game_options,
    kept,
    option_words,
)
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.core.machiavelli.option_sets import named_set, played_names, switched
from judge.db.enums import GameState
from judge.i18n import N_
from judge.lang.commands import SetChoice, SetFlag

LABEL = N_("Machiavelli options")


def set_machiavelli_option(command: SetFlag | SetChoice, session: MailSession) -> None:
    _ = session.gettext
    shown = _command_words(command)
    game = signed_on_game(session, "SET " + shown)
    if command.option not in hooks_for(game).own_options:
        raise CommandRefused(
            _("SET {option} is an option of Machiavelli games; game '{game}' plays the {variant} variant.").format(
                option=shown, game=game.name, variant=variant_title(game.variant)
            )
        )
    if not is_master(session):
        raise CommandRefused(
            _("Only a master of game '{game}' sets its Machiavelli options (SET {option}): they change "
              "the rules for every power.").format(game=game.name, option=shown)
        )
    if game.state is not GameState.FORMING:
        raise CommandRefused(
            _("The Machiavelli options of game '{game}' are set before it starts (SET {option}): its "
              "treasuries, its control of provinces and its years are played under the options it "
              "started with.").format(game=game.name, option=shown)
        )
    before = game_options(game)
    if isinstance(command, SetFlag):
        field = FIELD_OF_FLAG[command.option]
        if field not in played_names():
            raise CommandRefused(
                _("{option} is a Machiavelli option this judge does not play yet: its Machiavelli games are "
                  "played without it.").format(option=command.option)
            )
        after = switched(before, field, command.enabled)
    else:
        after = named_set(command.value)
    label = _(LABEL)
    if after == before:
        session.reply.ok(
            command.line, _("{setting}: already {value}.").format(setting=label, value=", ".join(option_words(after)))
        )
        return
    changed = frozenset(name for name in played_names() if getattr(before, name) != getattr(after, name))
    old, new = ", ".join(option_words(before, changed)), ", ".join(option_words(after, changed))
    session.uow.games.change_setting(
        game, "extra:" + KEY, kept(after), session.now, actor=session.sender, person=session.person
    )
    note_change(session, game, Change(LABEL, old, new))
    session.reply.ok(command.line, _("{setting}: {value} (was {old}).").format(setting=label, value=new, old=old))


def _command_words(command: SetFlag | SetChoice) -> str:
    """The command as the master wrote it, in its canonical words: ``NO MONEY``, ``MACHIAVELLI SECOND``."""
    if isinstance(command, SetFlag):
        return command.option if command.enabled else "NO " + command.option
    return f"{command.option} {command.value}"
