"""A Renaissance game's master's options as the judge keeps them, and the words that show them.

The options (:class:`judge.core.machiavelli.options.MachiavelliOptions`) are kept in
``Game.extra_settings["machiavelli"]`` as the options that differ from the first edition's (field
name -> on/off), so a game's stored options read as what is special about it, and a game that
never set one plays the first edition. :func:`game_options` is the one reader: the game's hooks
give its result to the core at the start and in every phase, and LIST shows it.

The master sets them before the start with the Judge's flags (``SET [NO] MONEY``...), each the
field of :data:`FIELD_OF_FLAG`, or a named set of the rules (``SET MACHIAVELLI SECOND``:
:mod:`judge.core.machiavelli.option_sets`). A flag whose field the core does not have yet is
refused as not played; it is played as soon as the core has the field, with no change here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, replace
from types import MappingProxyType

from judge.core.machiavelli.option_sets import SET_VALUES, named_set, played_names
from judge.core.machiavelli.options import FIRST_EDITION, MachiavelliOptions
from judge.db.models import Game

KEY = "machiavelli"
"""``Game.extra_settings`` key: the options that differ from the first edition's."""

PRESET = "MACHIAVELLI"
"""The option of ``SET MACHIAVELLI FIRST|SECOND|BASIC`` (a ``SetChoice``): a named set."""

FIELD_OF_FLAG: Mapping[str, str] = MappingProxyType({
    "MONEY": "money", "LOANS": "loans", "DICE": "dice", "FAMINE": "famine", "PLAGUE": "plague",
    "STORMS": "storms", "ASSASSINATIONS": "assassinations", "GARRISONS": "garrisons",
    "SPECIAL": "special", "FORTRESSES": "fortresses", "ADJACENCY": "adjacency", "SUMMER": "summer",
    "MACH2": "mach2", "COASTAL CONVOYS": "coastal_convoys", "DISBAND": "disband",
})  # fmt: skip
"""The Judge's SET flag of the family -> the core's option it switches."""

WORDS: Mapping[str, tuple[str, str]] = MappingProxyType({
    "mach2": ("Mach2", "NoMach2"), "money": ("Money", "NoMoney"), "loans": ("Loans", "NoLoans"),
    "dice": ("Dice", "NoDice"), "famine": ("Famine", "NoFamine"), "plague": ("Plague", "NoPlague"),
    "storms": ("Storms", "NoStorms"),
    "assassinations": ("Assassinations", "NoAssassinations"), "special": ("Special", "NoSpecial"),
    "garrisons": ("Garrisons", "NoGarrisons"), "fortresses": ("Fortresses", "NoFortresses"),
    "adjacency": ("Adjacency", "NoAdjacency"), "summer": ("Summer", "NoSummer"),
    "coastal_convoys": ("CoastalConvoys", "NoCoastalConvoys"), "disband": ("Disband", "NoDisband"),
})  # fmt: skip
"""Each option as LIST shows it, on and off: the SET keywords, as for every flag (in every language)."""

OWN_OPTIONS = frozenset({*FIELD_OF_FLAG, PRESET})
"""The SET options a Renaissance game plays itself (its hooks' ``own_options``)."""


def game_options(game: Game) -> MachiavelliOptions:
    """The options ``game`` is played with: the first edition's, changed by what its master set."""
    stored = (game.extra_settings or {}).get(KEY) or {}
    played = played_names()
    return replace(
        FIRST_EDITION,
        **{name: bool(on) for name, on in stored.items() if name in played},
    )


def kept(options: MachiavelliOptions) -> dict[str, bool]:
    """What :data:`KEY` keeps of ``options``: those that differ from the first edition's."""
    first = asdict(FIRST_EDITION)
    return {name: on for name, on in sorted(asdict(options).items()) if first[name] != on}


def option_words(options: MachiavelliOptions, names: frozenset[str] | None = None) -> list[str]:
    """``["NoMach2", "Money", ...]``: the options (only ``names``, when given) in the listing's order."""
    values = asdict(options)
    return [
        WORDS[name][0 if values[name] else 1]
        for name in WORDS
        if name in values and (names is None or name in names)
    ]


def changed_words(options: MachiavelliOptions) -> list[str]:
    """``["NoDice", "NoSummer"]``: the options that differ from the first edition's (what the game's
    master changed), in the listing's order; none for a first-edition game."""
    return option_words(options, frozenset(kept(options)))


def set_name(options: MachiavelliOptions) -> str | None:
    """The named set ``options`` are (``FIRST``, ``SECOND``, ``BASIC``), None if none."""
    return next((name for name in SET_VALUES if named_set(name) == options), None)
