"""A game's map with its variant rules as the game's settings leave them, and the SET options for them.

The Judge switches some variant rules per game (judge-conventions §2.1):
``SET [NO] RAILWAYS`` and ``SET [NO] HONG KONG`` (Colonial's railway and
Hong Kong), ``SET [NO] GATEWAYS`` (Colonial's Suez Canal, an njudge
"gateway"), ``SET [NO] NEUTRALS`` (a neutral army in every centre nobody
owns at the start; njudge sets it up on any map). Here:

* ``RAILWAYS``, ``HONG KONG``, ``GATEWAYS`` exist only in a variant whose
  file has the rule (``railway``, ``hong_kong``, ``suez_canal``), on by
  default; elsewhere they are refused with the reason. The Suez Canal is a
  border of the map itself, so it cannot be switched off.
* ``NEUTRALS`` works on every variant: on a variant whose file lists
  ``neutral_units`` it switches those units off and on again; on any other it
  puts a neutral army in every supply centre that no power owns and no unit
  stands in at the start (njudge's rule).

All before the start only. The Judge's SET ANY CENTRES / SET ONE CENTRE
(``Game.build_centres``) are applied here too, as the ``build_any_owned_centre``
rule. The switches live in ``Game.extra_settings``
under ``variant:<rule>`` (True/False; absent means the variant's default).
:func:`game_map_of` is the one way the application gets a game's map: the
variant's map, or a copy without the rules switched off (cached, so
identity-keyed caches of the core keep working).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any, Protocol

from judge.app.game_state.boards import opening_position, to_json
from judge.app.game_state.setting_table import Kind, Setting, When
from judge.core.geography import GameMap
from judge.core.special_rules import NEUTRAL
from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from judge.db.models import Game
from judge.i18n import N_

RULE_OF_FLAG = {"RAILWAYS": "railway", "HONG KONG": "hong_kong", "GATEWAYS": "suez_canal", "NEUTRALS": "neutral_units"}
"""The Judge's SET option -> the special rule of the variant file it switches."""

FIXED_RULES = frozenset({"suez_canal"})
"""Rules that are part of the map's borders: SET NO ... is refused."""

SETTINGS = {
    option: Setting(option, f"extra:variant:{rule}", Kind.FLAG, label, when=When.BEFORE_START, words=words)
    for option, rule, label, words in (
        ("RAILWAYS", "railway", N_("Railways"), ("Railways", "NoRailways")),
        ("HONG KONG", "hong_kong", N_("Hong Kong"), ("HongKong", "NoHongKong")),
        ("GATEWAYS", "suez_canal", N_("Gateways"), ("Gateways", "NoGateways")),
        ("NEUTRALS", "neutral_units", N_("Neutrals"), ("Neutrals", "NoNeutrals")),
    )
}
"""The Setting of each variant option (Parameter Change announcements, LIST)."""


class GameRules(Protocol):
    """What a game's map depends on (:func:`game_map_of`): its variant and the settings that switch
    its rules. A :class:`~judge.db.models.Game`, or those columns read alone (the sender's
    pictures, :mod:`judge.app.mail_out.results_maps`)."""

    @property
    def variant(self) -> str: ...

    @property
    def extra_settings(self) -> Mapping[str, Any] | None: ...

    @property
    def build_centres(self) -> str: ...


def variant_has(game_map: GameMap, rule: str) -> bool:
    return rule in game_map.special.names


def switch(game: GameRules, rule: str) -> bool | None:
    """The game's own switch for ``rule`` (None: the variant's default)."""
    value = (game.extra_settings or {}).get(f"variant:{rule}")
    return value if isinstance(value, bool) else None


def rule_in_play(game: Game, game_map: GameMap, rule: str) -> bool:
    """Whether ``rule`` applies in ``game``: the game's switch, else whether its variant has it."""
    chosen = switch(game, rule)
    if rule == "neutral_units":
        return bool(chosen) if chosen is not None else variant_has(game_map, rule)
    return variant_has(game_map, rule) and chosen is not False


def variant_map(game: GameRules) -> GameMap:
    """The map of ``game``'s variant as its file gives it, before the game's settings switch any
    rule off: what ``SET RAILWAYS`` asks about (whether the variant has the rule at all). Every
    other reader wants :func:`game_map_of`."""
    return load_map(game.variant)


def game_map_of(game: GameRules) -> GameMap:
    """The map ``game`` is played on, as its settings leave the variant's rules.

    Without the rules switched off (SET NO RAILWAYS, SET NO NEUTRALS...), and with the Judge's
    SET ANY CENTRES / SET ONE CENTRE (``Game.build_centres``): builds in any
    owned centre, for ONE only while a home centre is owned. SET HOME CENTRES
    (the default) keeps the variant's own rule (Chaos builds anywhere).
    """
    base = variant_map(game)
    off = frozenset(
        rule
        for rule in ("railway", "hong_kong", "neutral_units")
        if variant_has(base, rule) and switch(game, rule) is False
    )
    build = game.build_centres if game.build_centres in ("any", "one") else ""
    return _adjusted(base, off, build) if off or build else base


@functools.lru_cache(maxsize=32)
def _adjusted(base: GameMap, off: frozenset[str], build: str) -> GameMap:
    special = base.special
    special = dataclasses.replace(
        special,
        railway=None if "railway" in off else special.railway,
        hong_kong=None if "hong_kong" in off else special.hong_kong,
    )
    if "neutral_units" in off:  # SET NO NEUTRALS: none stand, none are raised again
        special = dataclasses.replace(special, neutral_units=(), neutral_rebuild=False)
    if build == "any":
        special = dataclasses.replace(special, build_any_owned_centre=True, builds_need_a_home_centre=False)
    elif build == "one" and not special.build_any_owned_centre:
        special = dataclasses.replace(special, build_any_owned_centre=True, builds_need_a_home_centre=True)
    return dataclasses.replace(base, special=special)


def opening_neutral_units(game: Game, game_map: GameMap) -> tuple[Unit, ...]:
    """The neutral units on the board at the start of ``game``."""
    if not rule_in_play(game, game_map, "neutral_units"):
        return ()
    if game_map.special.neutral_units:
        return game_map.special.neutral_units
    owned = {centre for centres in game_map.starting_centers.values() for centre in centres}
    occupied = {unit.province for unit in game_map.starting_units}
    return tuple(
        Unit(NEUTRAL, UnitType.ARMY, centre)
        for centre in sorted(game_map.supply_centers)
        if centre not in owned and centre not in occupied
    )




def plain_opening(game: Game, game_map: GameMap) -> dict[str, Any]:
    """The kept JSON of an ordinary game's first phase: the variant's starting board with the
    neutral units in play (what the game hooks' ``opening_position`` gives unless a variant of
    its own flow keeps more, as the Renaissance game's treasuries and garrisons)."""
    return to_json(opening_position(game_map, neutral_units=opening_neutral_units(game, game_map)))
