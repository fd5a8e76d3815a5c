"""Small builders for database tests: a fixed clock and ready-made people and games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from judge.db import UnitOfWork
from judge.db.models import Game, Person, Seat
from judge.db.repositories import Registration

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    """``T0`` plus some minutes: tests pass time in, they never read the clock."""
    return T0 + timedelta(minutes=minutes)


def person(uow: UnitOfWork, address: str = "ann@example.org", name: str = "Ann") -> Person:
    return uow.people.register(Registration(name=name, site="Home", country="France"), address, T0)


def game_with_seats(
    uow: UnitOfWork, powers: str = "EFG", name: str = "demo"
) -> tuple[Game, list[Seat]]:
    """A game with one seat per power letter, each held by its own person."""
    game = uow.games.create(name, T0)
    seats = []
    for letter in powers:
        player = person(uow, f"{letter.lower()}@example.org", f"Player {letter}")
        seats.append(uow.seats.join(game, player, f"pw{letter}", T0, power=letter))
    return game, seats


def position(phase: str = "S1901M", **extra: Any) -> dict[str, Any]:
    """A position document in the ``judge adjudicate`` JSON shape."""
    document: dict[str, Any] = {
        "variant": "standard",
        "phase": phase,
        "units": [{"power": "France", "type": "A", "loc": "PAR"}],
        "centers": {"France": ["PAR", "MAR", "BRE"]},
        "dislodged": [],
        "standoffs": [],
    }
    document.update(extra)
    return document
