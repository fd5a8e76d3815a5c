"""A phase ruled by a variant with a flow of its own (the Renaissance game's): what processing keeps
and mails, handed back by the game hooks' ``rule_phase`` (:mod:`judge.app.hooks.game_hooks`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class VariantRuling:
    """The phase as the variant played it."""

    position_after: dict[str, Any]
    """The next phase's position as the variant keeps it (JSON): the phase record's ``position_before``."""
    results: dict[str, Any]
    """What the phase record keeps of the ruling (JSON; ``report``: the public text by language)."""
    mails: Mapping[str, str]
    """``{address: the results mail's text}``: each reader's, in their language, with what they may read."""
