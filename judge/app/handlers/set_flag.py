"""SET <option> / SET NO <option>: the game's on/off settings (NMR, DIAS, MODERATED, LIST, QUIET...).

The option's column, who may change it and when are looked up in
:data:`judge.app.game_state.setting_table.FLAGS`. Three options need more than a column:

* ``MODERATED`` is the master's (so a moderated game always has one);
  ``SET UNMODERATED`` lets every player change the settings again;
* ``DIAS``: switching draw rules clears the draw votes cast so far (the
  Judge's rule: a vote means what the rules said when it was cast);
* ``BROADCAST`` is not the game's but the sender's (a master or observer
  who does not want the broadcasts); it is not announced.

The variant rules a game may switch (RAILWAYS, HONG KONG, GATEWAYS,
NEUTRALS) go to :mod:`judge.app.handlers.set_variant_rule`; the Machiavelli
options (MONEY, MACH2, SUMMER, DISBAND...) to
:mod:`judge.app.handlers.set_machiavelli_option`. Options the
reader knows but this judge does not play (the variant rules of other
judges, AUTO CREATE) are refused with the reason.
"""

from __future__ import annotations

from judge.app.game_state.setting_table import (
    FLAGS,
    NO_BROADCAST,
    REFUSED_WHEN_ON,
    UNSUPPORTED_FLAGS,
)
from judge.app.game_state.variant_rules import RULE_OF_FLAG as VARIANT_RULE_FLAGS
from judge.app.games.masters import change_setting, check_may_set, is_master, signed_on_game
from judge.app.handlers.set_machiavelli_option import set_machiavelli_option
from judge.app.handlers.set_variant_rule import set_variant_rule
from judge.app.machiavelli.game_options import FIELD_OF_FLAG as MACHIAVELLI_FLAGS
from judge.app.phases.planning import plan
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import SetFlag

CLOCK_FLAGS = frozenset({"NMR", "STRICT WAIT", "STRICT GRACE", "PROCESS", "RESUME"})
"""Flags the scheduler's decisions depend on: changing one re-plans the game's due time."""


@handles(SetFlag)
def handle(command: SetFlag, session: MailSession) -> Next:
    _ = session.gettext
    if command.option == "BROADCAST":
        _personal_broadcast(command, session)
        return Next.CONTINUE
    if command.option in VARIANT_RULE_FLAGS:
        set_variant_rule(command, session)
        return Next.CONTINUE
    if command.option in MACHIAVELLI_FLAGS:
        set_machiavelli_option(command, session)
        return Next.CONTINUE
    if command.option in UNSUPPORTED_FLAGS:
        raise CommandRefused(
            _("This judge does not play the {option} option, so it cannot be set.").format(
                option=command.option
            )
        )
    refusal = REFUSED_WHEN_ON.get(command.option)
    if refusal is not None and command.enabled:
        raise CommandRefused(_(refusal))
    setting = FLAGS.get(command.option)
    if setting is None:
        raise CommandRefused(_("{option} is not a setting of this judge.").format(option=command.option))
    label = _(setting.label)
    game = check_may_set(session, setting, label)
    old = change_setting(session, game, setting, command.enabled)
    if old is not None and command.option == "DIAS":
        session.uow.press.clear_votes(game)
    if old is not None and command.option in CLOCK_FLAGS and game.current_phase is not None:
        plan(session.uow, session.services, game, session.now)
    shown = setting.shown(command.enabled)
    if old is not None:
        session.reply.ok(command.line, _("{setting}: {value} (was {old}).").format(setting=label, value=shown, old=old))
    else:
        session.reply.ok(command.line, _("{setting}: already {value}.").format(setting=label, value=shown))
    return Next.CONTINUE


def _personal_broadcast(command: SetFlag, session: MailSession) -> None:
    """``SET [NO] BROADCAST``: whether this master or observer gets the game's broadcasts."""
    _ = session.gettext
    game = signed_on_game(session, "SET BROADCAST")
    if session.role is Role.OBSERVER and session.observer is not None:
        session.observer.receives_broadcasts = command.enabled
        session.uow.flush()
    elif is_master(session):
        addresses = [a for a in game.extra_settings.get(NO_BROADCAST, []) if a != session.sender]
        if not command.enabled:
            addresses.append(session.sender)
        session.uow.games.change_setting(
            game, "extra:" + NO_BROADCAST, addresses, session.now, actor=session.sender, person=session.person
        )
    else:
        raise CommandRefused(
            _("SET BROADCAST is for masters and observers: players always get the broadcasts.")
        )
    if command.enabled:
        session.reply.ok(command.line, _("You will get the broadcasts of game '{game}'.").format(game=game.name))
    else:
        session.reply.ok(
            command.line, _("You will no longer get the broadcasts of game '{game}'.").format(game=game.name)
        )
