"""The board of a game as the application sees it: read from and written to phase records.

Phase records keep positions as JSON in the ``judge adjudicate`` format
(:mod:`judge.core.serialization`), so a stored position can be fed straight
to the command-line adjudicator to check a ruling.
"""

from __future__ import annotations

from typing import Any

from judge.core.adjudicator import DEFAULT_RULES, adjudicate
from judge.core.geography import GameMap
from judge.core.phase import Phase, PhaseType
from judge.core.position import Position
from judge.core.serialization import position_from_json, position_to_json
from judge.core.units import Unit
from judge.db.database import UnitOfWork
from judge.db.models import Game, PhaseRecord

FIRST_PHASE = "S1901M"
"""The Standard game's first phase; a variant's is ``GameMap.first_phase`` (its file's ``start``)."""


def opening_position(
    game_map: GameMap, first_phase: str | None = None, *, neutral_units: tuple[Unit, ...] = ()
) -> Position:
    """The variant's starting board: its starting units, the neutral units in play, the centres owned at start.

    A variant whose board starts empty (Chaos: every power builds its first
    unit) starts at the first phase with something to do: the empty movement
    phase of its file's ``start`` is resolved here, so players are first asked
    for their builds.
    """
    position = Position(
        variant=game_map.name,
        phase=Phase.parse(first_phase) if first_phase else game_map.first_phase,
        units=game_map.starting_units + neutral_units,
        centers=dict(game_map.starting_centers),
    )
    while position.phase.type is PhaseType.MOVEMENT and not position.units:
        position = adjudicate(position, {}, DEFAULT_RULES, game_map).position
    return position


def to_json(position: Position) -> dict[str, Any]:
    return position_to_json(position)


def from_json(data: dict[str, Any]) -> Position:
    return position_from_json(data).position


class NoOpenPhase(LookupError):
    """The game has no phase collecting orders (not started, finished, or paused between phases)."""


def current(uow: UnitOfWork, game: Game) -> tuple[PhaseRecord, Position]:
    """The open phase of ``game`` and the board at its start."""
    record = uow.phases.current(game)
    if record is None:
        raise NoOpenPhase(game.name)
    return record, from_json(record.position_before)
