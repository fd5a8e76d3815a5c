"""SET [NO] RAILWAYS / HONG KONG / GATEWAYS / NEUTRALS: the variant rules a game may switch.

Not a registered handler: :mod:`judge.app.handlers.set_flag` hands these
``SetFlag`` options here. What each option means, and where it exists, is in
:mod:`judge.app.game_state.variant_rules`; this module checks who may set it (the
moderator, before the start) and whether the game's variant has the rule.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import variant_title
from judge.app.game_state.variant_rules import (
    FIXED_RULES,
    RULE_OF_FLAG,
    SETTINGS,
    rule_in_play,
    variant_has,
    variant_map,
)
from judge.app.games.masters import change_setting, check_may_set
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.lang.commands import SetFlag


def set_variant_rule(command: SetFlag, session: MailSession) -> None:
    _ = session.gettext
    setting = SETTINGS[command.option]
    rule = RULE_OF_FLAG[command.option]
    label = _(setting.label)
    game = check_may_set(session, setting, label)
    game_map = variant_map(game)
    if rule != "neutral_units" and not variant_has(game_map, rule):
        raise CommandRefused(
            _("{option} is a rule of variants that have it (such as Colonial); the {variant} variant "
              "of game '{game}' has no such rule.").format(
                option=command.option, variant=variant_title(game.variant), game=game.name
            )
        )
    if rule in FIXED_RULES and not command.enabled:
        raise CommandRefused(
            _("{option} cannot be switched off: it is a border of the {variant} map.").format(
                option=command.option, variant=variant_title(game.variant)
            )
        )
    shown = setting.shown(command.enabled)
    if rule_in_play(game, game_map, rule) == command.enabled:
        session.reply.ok(command.line, _("{setting}: already {value}.").format(setting=label, value=shown))
        return
    old = change_setting(session, game, setting, command.enabled)
    was = setting.shown(not command.enabled) if old is not None else shown
    session.reply.ok(command.line, _("{setting}: {value} (was {old}).").format(setting=label, value=shown, old=was))
