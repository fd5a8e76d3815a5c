"""SET VARIANT v [options] / SET VARIANT option / SET NOT VARIANT option: what is played, before the start.

Three kinds of words are read:

* a variant the judge has (``standard``...): the game's map. Its option
  words then replace the game's; the centres to win become the variant's;
* a game option (``gunboat``): kept in ``Game.rule_options``, which
  players must name when they join (the Judge's guard against joining a
  variant by mistake);
* an adjudicator rule option (``descartes``, ``paradox=descartes``; see
  :data:`judge.app.game_state.setting_table.RULE_WORDS`): kept in the game's rules, read by
  the processing through :func:`judge.app.game_state.game_rules.game_rules`.

``SET NOT VARIANT`` takes an option off (a rule option back to its
default). Only before the start, by the moderator. ``SET RULE name=value``
and ``SET DESCARTES`` (a ``SetChoice`` of option ``RULE``) come here too.
"""

from __future__ import annotations

from judge.app.game_state.game_facts import variant_title, waiting_seats
from judge.app.game_state.setting_table import (
    NUMBERS,
    OPTIONS,
    RULE_OPTIONS,
    RULE_WORDS,
    RULES,
    VARIANT,
    BadRuleOption,
    merged_rules,
    read_rule_word,
    rules_text,
)
from judge.app.games.lifecycle import GAME_OPTIONS
from judge.app.games.masters import change_setting, check_may_set
from judge.app.session.mail_session import MailSession
from judge.app.session.refusals import CommandRefused
from judge.app.session.registry import Next, handles
from judge.core.variants import load_map, offered_variants
from judge.db.models import Game
from judge.lang.commands import SetVariant


@handles(SetVariant)
def handle(command: SetVariant, session: MailSession) -> Next:
    _ = session.gettext
    game = check_may_set(session, VARIANT, _(VARIANT.label))
    if command.remove and command.variant is not None:
        raise CommandRefused(_("SET NOT VARIANT takes an option off; it cannot take the variant off."))
    options, rules = _read_words(session, command.options)
    messages: list[str] = []
    if command.variant is not None:
        _change_variant(session, game, command.variant)
        new_options = list(dict.fromkeys(options))
        messages.append(_("Game '{game}' will be played on the {variant} map.").format(
            game=game.name, variant=variant_title(game.variant)
        ))
    elif command.remove:
        new_options = [o for o in game.rule_options if o not in options]
    else:
        new_options = list(dict.fromkeys([*game.rule_options, *options]))
    change_setting(session, game, OPTIONS, new_options)
    if rules:
        change_rules(session, game, rules, remove=command.remove)
    messages.append(options_text(session, game))
    session.reply.ok(command.line, *messages)
    return Next.CONTINUE


def change_rules(session: MailSession, game: Game, rules: list[tuple[str, str]], *, remove: bool = False) -> None:
    """Set (or reset to default) adjudicator rule options; also what ``SET RULE x=y`` / ``SET DESCARTES`` do."""
    current = game.extra_settings.get(RULES) or {}
    change_setting(session, game, RULE_OPTIONS, merged_rules(current, rules, remove=remove))


def options_text(session: MailSession, game: Game) -> str:
    _ = session.gettext
    return _("Options: {options}. Rules: {rules}.").format(
        options=", ".join(game.rule_options) or "-",
        rules=rules_text(game.extra_settings.get(RULES) or {}),
    )


def _read_words(session: MailSession, words: tuple[str, ...]) -> tuple[list[str], list[tuple[str, str]]]:
    """The game options and the rule options among ``words``; a refusal naming any unknown word."""
    _ = session.gettext
    options: list[str] = []
    rules: list[tuple[str, str]] = []
    unknown: list[str] = []
    for word in words:
        if word in GAME_OPTIONS:
            options.append(word)
            continue
        try:
            rule = read_rule_word(word)
        except BadRuleOption as error:
            raise CommandRefused(
                _("{word} is not a rule option this judge has; choose from {choices}.").format(
                    word=error.word, choices=", ".join(error.allowed)
                )
            ) from error
        if rule is None:
            unknown.append(word)
        else:
            rules.append(rule)
    if unknown:
        raise CommandRefused(
            _("Unknown variant or option: {words}. Variants: {variants}. Options: {options}. "
              "Rules: {rules} (or name=value).").format(
                words=", ".join(unknown),
                variants=", ".join(offered_variants()),
                options=", ".join(GAME_OPTIONS),
                rules=", ".join(RULE_WORDS),
            )
        )
    return options, rules


def _change_variant(session: MailSession, game: Game, variant: str) -> None:
    _ = session.gettext
    if variant not in offered_variants():
        raise CommandRefused(
            _("This judge has no variant called {variant}. Variants: {variants}.").format(
                variant=variant, variants=", ".join(offered_variants())
            )
        )
    new_map = load_map(variant)
    joined = len(waiting_seats(game))
    if joined > len(new_map.powers):
        raise CommandRefused(
            _("{count} players have joined, more than the {powers} powers of {variant}.").format(
                count=joined, powers=len(new_map.powers), variant=variant_title(variant)
            )
        )
    change_setting(session, game, VARIANT, variant)
    if game.players_count is not None and game.players_count > len(new_map.powers):
        change_setting(session, game, NUMBERS["PLAYERS"], None)
    change_setting(session, game, NUMBERS["CENTERS"], new_map.win_centers)
