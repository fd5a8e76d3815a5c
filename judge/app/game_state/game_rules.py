"""A game's rule options as stored on it: read by the order mail and by the processing alike."""

from __future__ import annotations

from judge.core.adjudicator import Rules
from judge.db.models import Game


def game_rules(game: Game) -> Rules:
    """The game's rule options (``extra_settings["rules"]``), the DATC preferences by default."""
    stored = game.extra_settings.get("rules", {})
    return Rules.from_mapping(stored if isinstance(stored, dict) else {})
