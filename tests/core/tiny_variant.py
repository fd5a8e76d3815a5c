"""Tinyland, a made-up ten-province map (tests/data/tinyland.json), for variant tests.

Line of land provinces AAA-BBB-CCC-DDD-EEE-FFF, GGG beside CCC and DDD,
HHH beside GGG and EEE, coast KKK beside AAA and BBB with its sea WWW.
Centres: AAA (North's home), DDD, FFF (South's home), GGG (Frozen
Antarctica's home), HHH. Tests copy the data and add what they check.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from judge.core.adjudicator import AdjudicationResult, Rules, adjudicate
from judge.core.geography import GameMap
from judge.core.phase import Phase
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit
from judge.core.variants import parse_map
from judge.lang.orders import read_order

TINYLAND = Path(__file__).resolve().parent.parent / "data" / "tinyland.json"


def tiny_data(**extra: Any) -> dict[str, Any]:
    """A fresh copy of Tinyland's data with top-level fields added or replaced."""
    data: dict[str, Any] = json.loads(TINYLAND.read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    data.update(extra)
    return data


def tiny_map(**extra: Any) -> GameMap:
    return parse_map(tiny_data(**extra), source="tinyland")


def play(
    game_map: GameMap,
    phase: str,
    units: Sequence[Unit],
    orders: Mapping[str, Sequence[str]],
    centers: Mapping[str, frozenset[str]] | None = None,
    dislodged: Sequence[DislodgedUnit] = (),
) -> AdjudicationResult:
    """Adjudicate one phase on ``game_map``, orders read by the judge's own reader."""
    position = Position(game_map.name, Phase.parse(phase), tuple(units), dict(centers or {}), tuple(dislodged))
    typed = {
        power: [read_order(line, game_map, phase_type=position.phase.type).order for line in lines]
        for power, lines in orders.items()
    }
    return adjudicate(position, typed, Rules(), game_map)
