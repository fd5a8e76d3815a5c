"""The one way the application gets a game's adjudication rules: the order mail, the processing
and the settings' texts all read them here (the game's map comes from
:func:`judge.app.game_state.variant_rules.game_map_of`, the other half of "the game's rules")."""

from __future__ import annotations

from judge.app.game_state.setting_table import RULES
from judge.core.adjudicator import Rules
from judge.db.models import Game


def game_rules(game: Game) -> Rules:
    """The game's rule options (``extra_settings["rules"]``, only those that differ from the
    defaults: see :func:`judge.app.game_state.setting_table.merged_rules`) over the DATC
    preferences; anything stored there that is not a mapping reads as no option at all."""
    stored = game.extra_settings.get(RULES, {})
    return Rules.from_mapping(stored if isinstance(stored, dict) else {})
