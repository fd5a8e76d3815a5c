"""Bots: one power's full set of orders for a phase, chosen from the board alone.

:func:`bot_orders` is a pure function of (map, position, power, rules, seed,
level): no I/O, no clock, nothing kept between calls but tables of the map
itself. The same arguments give the same orders. Written for this judge from
the published ideas of how a Diplomacy bot values provinces (centres near and
far, threats, supports); no other bot's code or weights are used.

Levels (:data:`LEVELS`):

``sensible``
    The civil-disorder player (:mod:`judge.core.bots.sensible`): defends its
    threatened centres with holds and supports, retreats to keep centres,
    builds where threatened, removes the units farthest from its centres.
    It never attacks.
``normal``
    Plays to win (:mod:`judge.core.bots.normal`): values provinces by the
    centres they hold and can reach, supports its own moves, convoys when an
    army has nothing better by land, builds toward its fronts.

Every order given is legal on the board by the core's own validation, and
complete as the judge counts it: one order for each unit (each dislodged
unit in a retreat phase), as many builds as the power may make (never more
than its free build sites), as many removals as it owes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal

from judge.core.adjudicator.rules import DEFAULT_RULES, Rules
from judge.core.bots import normal, sensible
from judge.core.bots.board_view import View
from judge.core.geography import GameMap
from judge.core.orders import Order
from judge.core.phase import PhaseType
from judge.core.position import Position

__all__ = ["LEVELS", "Level", "bot_orders"]

Level = Literal["sensible", "normal"]
LEVELS: tuple[Level, ...] = ("sensible", "normal")

_Player = Callable[[View, random.Random], list[Order]]

_PLAYERS: dict[tuple[str, PhaseType], _Player] = {
    ("sensible", PhaseType.MOVEMENT): sensible.movement,
    ("sensible", PhaseType.RETREAT): sensible.retreats,
    ("sensible", PhaseType.ADJUSTMENT): sensible.adjustments,
    ("normal", PhaseType.MOVEMENT): normal.movement,
    ("normal", PhaseType.RETREAT): normal.retreats,
    ("normal", PhaseType.ADJUSTMENT): normal.adjustments,
}


def bot_orders(
    game_map: GameMap,
    position: Position,
    power: str,
    rules: Rules = DEFAULT_RULES,
    seed: int = 0,
    level: Level = "normal",
) -> list[Order]:
    """The orders ``power`` gives in the phase of ``position`` when a bot of ``level`` plays it.

    A power with nothing to order (no units, no dislodged unit, no
    adjustment owed) gets an empty list. ``seed`` only breaks ties and adds a
    little noise; the orders are a function of the arguments.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: expected one of {', '.join(LEVELS)}")
    player = _PLAYERS[(level, position.phase.type)]
    view = View(game_map, position, power, rules)
    return player(view, random.Random(seed))
