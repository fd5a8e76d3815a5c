"""A phase ruled by a variant with a flow of its own (the Renaissance game's): what processing keeps
and mails, handed back by the game hooks' ``rule_phase`` (:mod:`judge.app.hooks.game_hooks`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
    eliminated: tuple[str, ...] = ()
    """The powers the variant's rules put out of the game in this phase (their seats leave it)."""
    winner: str | None = None
    """The power that won by the variant's victory rule in this phase (the game ends)."""
    centres: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Each power's supply centres after the phase as the variant counts them (the Renaissance game:
    its cities), for what the end of the game reports."""
    languages: Mapping[str, str] = field(default_factory=dict)
    """``{address: language}``: each reader's, for the map his mail carries (absent: English)."""
