"""How players name powers in commands: one letter, a name, or an adjective.

The variant files name powers in full (``"FRANCE"``); mails use the power's
letter (``SIGNON Fgame``, ``PRESS TO FRG``, ``SET DRAW AEF``) or, in IF
conditions and BECOME, a name or adjective cut down to two letters or more
("french", "fr", "Russe"). The letters follow the Judge: a power's letter is
the first letter of its name, or the next letter of its name when an earlier
power already took that one (Youngstown: Italy is I, India N).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

from judge.core.geography import GameMap, default_letters

OBSERVER_LETTER = "O"
MASTER_LETTER = "M"


def fold(text: str) -> str:
    """Lower case without accents: the form names are compared in."""
    text = text.lower()
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def assign_letters(powers: Sequence[str]) -> dict[str, str]:
    """Letter -> power by the Judge's rule, for powers a variant gives no letter (see
    :func:`judge.core.geography.default_letters`: the first free letter of the name,
    then a free letter, then a digit; never O or M)."""
    return {letter: power for power, letter in default_letters(powers).items()}


@lru_cache(maxsize=16)
def power_letters(game_map: GameMap) -> Mapping[str, str]:
    """Letter -> power for a map (cached per map object): the variant file's ``letters``,
    the Judge's rule for the powers it leaves out (:func:`judge.core.geography.default_letters`)."""
    return MappingProxyType({letter: power for power, letter in game_map.letters.items()})


_AMBIGUOUS = ""


@lru_cache(maxsize=16)
def _prefixes(game_map: GameMap) -> Mapping[str, str]:
    """Every prefix (two letters or more) of every power name and adjective -> the power.

    A prefix shared by two powers maps to ``_AMBIGUOUS``. Built once per map
    so that reading a word is one dict lookup.
    """
    table: dict[str, str] = {}
    for power in game_map.powers:
        names = game_map.power_names[power].every_name()
        for name in dict.fromkeys(fold(n) for n in (power, *names)):
            for end in range(2, len(name) + 1):
                prefix = name[:end]
                if table.get(prefix, power) != power:
                    table[prefix] = _AMBIGUOUS
                else:
                    table[prefix] = power
    return MappingProxyType(table)


def power_named(word: str, game_map: GameMap) -> str | None:
    """The power a word names (a name or adjective, two letters or more), or None.

    A word that starts more than one power's names ("a" in a map with Austria
    and Arabia) names none of them.
    """
    power = _prefixes(game_map).get(fold(word).rstrip(".:,"))
    return power or None


def power_by_letter_or_name(word: str, game_map: GameMap) -> str | None:
    """A power from its letter (``F``) or its name/adjective (``france``, ``fr``)."""
    if len(word) == 1:
        return power_letters(game_map).get(word.upper())
    return power_named(word, game_map)
