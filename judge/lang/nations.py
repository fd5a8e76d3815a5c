"""The nationality a player writes before another power's unit: "ALLEMAGNE A RUH", "German A Ruh".

Postal rules ask players to name the nationality of a unit they support or
convoy (seed 000: "A BOU S ALLEMAGNE A RUH - BEL"; seed 001: "A Sil (S)
Russie A War-Pru"). Seed 002 rules that the nationality is information only:
the order stays valid whatever it says, and the judge tells the player when
it is wrong. This module only says which power a word names: a power's
code, English or French name or adjective (any case, with or without
accents), or an abbreviation of three letters or more ending with a full
stop ("ANG.", as seed 000 writes "F MOR C ANG. A LON-TUN") that starts the
names of one power only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from judge.core.geography import GameMap

__all__ = ["nation_named", "nation_words"]

_MIN_ABBREVIATION = 3  # letters before the full stop of an abbreviation ("ANG.")
_AMBIGUOUS = ""


def _fold(text: str) -> str:
    text = text.lower()
    if not text.isascii():
        text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return text


@lru_cache(maxsize=16)
def nation_words(game_map: GameMap) -> Mapping[str, str]:
    """Folded full names and adjectives (and codes) of the map's powers -> the power."""
    table: dict[str, str] = {}
    for power in game_map.powers:
        names = game_map.power_names[power].every_name()
        for name in (power, *names):
            folded = _fold(name)
            if " " in folded or "-" in folded:
                continue  # one word only: "austria-hungary" is read as a name run elsewhere
            table[folded] = _AMBIGUOUS if table.get(folded, power) != power else power
    return MappingProxyType({word: power for word, power in table.items() if power})


@lru_cache(maxsize=16)
def _abbreviations(game_map: GameMap) -> Mapping[str, str]:
    """Prefixes (three letters or more) of the nation words that start one power's words only."""
    table: dict[str, str] = {}
    for word, power in nation_words(game_map).items():
        for end in range(_MIN_ABBREVIATION, len(word) + 1):
            prefix = word[:end]
            table[prefix] = _AMBIGUOUS if table.get(prefix, power) != power else power
    return MappingProxyType({prefix: power for prefix, power in table.items() if power})


def nation_named(game_map: GameMap, word: str) -> str | None:
    """The power ``word`` names as a nationality, or None.

    A whole name or adjective in any case ("ALLEMAGNE", "german", "Russie",
    "turc"), or an abbreviation with a full stop ("ANG.", "Allem.").
    """
    folded = _fold(word)
    if folded.endswith("."):
        stem = folded.rstrip(".")
        if len(stem) >= _MIN_ABBREVIATION:
            return _abbreviations(game_map).get(stem)
        return None
    return nation_words(game_map).get(folded)
