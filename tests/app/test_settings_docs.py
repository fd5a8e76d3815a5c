"""docs/rule-options.md stays true to the settings table and the adjudicator's rule options."""

from __future__ import annotations

from pathlib import Path

from judge.app.game_state.setting_table import RULE_WORDS, read_rule_word
from judge.core.adjudicator.rules import Rules

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rule-options.md"


def test_every_rule_option_and_single_word_is_documented() -> None:
    page = PAGE.read_text(encoding="utf-8")
    for name in Rules().to_mapping():
        assert f"`{name}`" in page, name
    for word, (name, value) in RULE_WORDS.items():
        assert f"`{word}`" in page, word
        assert read_rule_word(word) == (name, value)
        assert f"`{value}`" in page


def test_the_documented_defaults_are_the_adjudicators() -> None:
    page = PAGE.read_text(encoding="utf-8")
    for name, default in Rules().to_mapping().items():
        shown = str(default).lower()
        assert f"| `{name}` | `{shown}`" in page, name
