"""SET of a one-of-several setting: press mode, fakes, observer press, LEVEL, ACCESS, MANUAL/AUTO...

The option, its stored values, who may change it and when are in
:data:`judge.app.game_state.setting_table.CHOICES`; the handler only checks and stores.
``SET RULE name=value`` and ``SET DESCARTES`` set an adjudicator rule
option (see :mod:`judge.app.handlers.set_variant`). When ``SET AUTOSTART`` finds the seats full, the game starts at once.
``SET ALL PRESS`` / ``SET NORMAL PRESS`` are the sender's own (a master,
or an observer when the game lets observers watch all press): whether they
get a copy of every partial press; kept with the game, not announced.
``SET MACHIAVELLI FIRST|SECOND|BASIC`` (a Renaissance game's named set of options) goes to
:mod:`judge.app.handlers.set_machiavelli_option`.
"""

from __future__ import annotations

from judge.app.game_state.setting_table import (
    ALL_PRESS,
    CHOICES,
    RULE_OPTIONS,
    BadRuleOption,
    read_rule_word,
)
from judge.app.games.masters import change_setting, check_may_set, is_master, signed_on_game
from judge.app.handlers.set_machiavelli_option import set_machiavelli_option
from judge.app.handlers.set_variant import change_rules, options_text
from judge.app.machiavelli.game_options import PRESET as MACHIAVELLI_SET
from judge.app.people.signon_checks import start_if_ready
from judge.app.phases.planning import plan
from judge.app.session.mail_session import MailSession, Role
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.lang.commands import SetChoice


@handles(SetChoice)
def handle(command: SetChoice, session: MailSession) -> Next:
    _ = session.gettext
    if command.option == "MASTER PRESS":
        _all_press(command, session)
        return Next.CONTINUE
    if command.option == "RULE":
        _rule(command, session)
        return Next.CONTINUE
    if command.option == MACHIAVELLI_SET:
        set_machiavelli_option(command, session)
        return Next.CONTINUE
    setting = CHOICES.get(command.option)
    if setting is None:
        raise CommandRefused(_("{option} is not a setting of this judge.").format(option=command.option))
    label = _(setting.label)
    if command.value not in setting.values:
        raise CommandRefused(
            _("{setting} cannot be {value}: choose one of {choices}.").format(
                setting=label, value=command.value, choices=", ".join(setting.values)
            )
        )
    game = check_may_set(session, setting, label)
    value = setting.values[command.value]
    shown = setting.shown(value)
    old = change_setting(session, game, setting, value)
    if old is not None and command.option == "PROCESS" and game.current_phase is not None:
        plan(session.uow, session.services, game, session.now)  # MANUAL/AUTO PROCESS changes what the scheduler may do
    if old is not None:
        session.reply.ok(command.line, _("{setting}: {value} (was {old}).").format(setting=label, value=shown, old=old))
        if command.option == "START" and start_if_ready(session, game) is not None:
            session.reply.ok(command.line, _("The game has started: see the Game Starting mail."))
    else:
        session.reply.ok(command.line, _("{setting}: already {value}.").format(setting=label, value=shown))
    return Next.CONTINUE


def _all_press(command: SetChoice, session: MailSession) -> None:
    _ = session.gettext
    game = signed_on_game(session, "SET ALL PRESS")
    observer = session.role is Role.OBSERVER and session.observer is not None
    if not is_master(session) and not (observer and game.watch_all_press):
        raise CommandRefused(
            _("SET ALL PRESS is for the master (and observers, when the game has WATCH ALL PRESS).")
        )
    addresses = [a for a in game.extra_settings.get(ALL_PRESS, []) if a != session.sender]
    if command.value == "ALL":
        addresses.append(session.sender)
    session.uow.games.change_setting(
        game, "extra:" + ALL_PRESS, addresses, session.now, actor=session.sender, person=session.person
    )
    if command.value == "ALL":
        session.reply.ok(command.line, _("You will get a copy of every press message of this game."))
    else:
        session.reply.ok(command.line, _("You will get only the press sent to you."))


def _rule(command: SetChoice, session: MailSession) -> None:
    """``SET RULE paradox=descartes`` / ``SET DESCARTES``: one adjudicator rule option, before the start."""
    _ = session.gettext
    game = check_may_set(session, RULE_OPTIONS, _(RULE_OPTIONS.label))
    try:
        rule = read_rule_word(command.value)
    except BadRuleOption as error:
        raise CommandRefused(
            _("{word} is not a rule option this judge has; choose from {choices}.").format(
                word=error.word, choices=", ".join(error.allowed)
            )
        ) from error
    if rule is None:
        raise CommandRefused(_("{option} is not a setting of this judge.").format(option=command.value))
    change_rules(session, game, [rule])
    session.reply.ok(command.line, options_text(session, game))
