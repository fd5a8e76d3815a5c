"""``GET info.VARIANT``: a variant's short description, in the reader's language.

The text is the variant file's ``info`` (English and French), followed by
facts the judge reads from the map itself, so they can never disagree with
what is played: each power with its letter, the number of supply centres,
the centres needed to win, the first phase and the special rules.
"""

from __future__ import annotations

from collections.abc import Callable

from judge.app.game_state.boards import opening_position
from judge.core.errors import VariantError
from judge.core.geography import GameMap
from judge.core.phase import Phase, Season
from judge.core.variants import load_map
from judge.i18n import N_, translation

PREFIX = "info."

RULE_NAMES = {
    "build_any_owned_centre": N_("builds in any owned supply centre"),
    "hong_kong": N_("Hong Kong is no supply centre for one power"),
    "railway": N_("a railway carries one power's armies"),
    "suez_canal": N_("a canal lets fleets cross a land province"),
    "neutral_units": N_("neutral units hold and defend"),
}

SEASONS = {Season.SPRING: N_("spring"), Season.FALL: N_("fall"), Season.WINTER: N_("winter")}


def ordinary_first_phase(game_map: GameMap) -> Phase:
    """The first phase of an ordinary game of ``game_map`` (Chaos: its empty first movement is skipped)."""
    return opening_position(game_map).phase


def variant_info(
    requested: str, language: str, first_phase: Callable[[GameMap], Phase] = ordinary_first_phase
) -> str | None:
    """The description ``requested`` (``info.colonial``, any case) names, or None if it names no variant.

    ``first_phase`` is the phase a new game of the variant opens with: the caller asks the game
    hooks, since a variant that sets up its own opening (the Renaissance game's winter) knows it."""
    key = requested.strip().lower()
    if not key.startswith(PREFIX):
        return None
    try:
        game_map = load_map(key.removeprefix(PREFIX))
    except VariantError:
        return None
    return describe(game_map, language, first_phase(game_map))


def describe(game_map: GameMap, language: str, first: Phase) -> str:
    _ = translation(language).gettext
    lines = []
    text = game_map.info.get(language) or game_map.info.get("en")
    if text:
        lines += [text, ""]
    powers = ", ".join(
        f"{game_map.power_display_name(power, language)} ({game_map.letters[power]})" for power in game_map.powers
    )
    lines.append(_("Powers (letter): {powers}.").format(powers=powers))
    lines.append(
        _("Supply centres: {centres}; {win} to win.").format(
            centres=len(game_map.supply_centers), win=game_map.win_centers
        )
    )
    lines.append(_("First phase: {season} {year} ({phase}).").format(
        season=_(SEASONS[first.season]), year=first.year, phase=first
    ))
    rules = [_(RULE_NAMES[name]) for name in game_map.special.names]
    lines.append(_("Special rules: {rules}.").format(rules="; ".join(rules) if rules else _("none")))
    return "\n".join(lines)
