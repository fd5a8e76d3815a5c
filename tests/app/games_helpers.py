"""Helpers for the game-formation tests: registered people, games filled with players.

Registration goes straight to the repository (REGISTER is another area's
handler), everything else through mail, as players would do it.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage

from judge.db.models import Game
from judge.db.repositories.people import Registration
from tests.app.conftest import Harness, text

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
LETTERS = "AEFGIRT"


def register(harness: Harness, address: str, *, name: str = "", language: str = "en") -> None:
    """A registered person writing from ``address``."""
    with harness.db.unit_of_work() as uow:
        uow.people.register(
            Registration(name=name or address.split("@")[0].title(), language=language),
            address,
            harness.clock.now(),
        )


def player(n: int) -> str:
    return f"p{n}@example.net"


@dataclass
class GameSnapshot:
    """What a test checks about a game, read in its own transaction."""

    state: str
    current_phase: str | None
    seats: list[tuple[str | None, str | None, str]]  # (address, power, status)
    observers: list[str]
    extra: dict[str, object]


def snapshot(harness: Harness, name: str) -> GameSnapshot:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require(name)
        return GameSnapshot(
            state=game.state.value,
            current_phase=game.current_phase,
            seats=[
                (s.person.primary_address if s.person else None, s.power, s.status.value)
                for s in game.seats
            ],
            observers=[o.address for o in game.observers],
            extra=dict(game.extra_settings),
        )


def game_row(harness: Harness, name: str) -> Game:
    """The game as stored (detached: read its columns, not its relationships)."""
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require(name)
        uow.session.expunge(game)
        return game


def form_game(
    harness: Harness, name: str = "demo", *, players: int = 7, preferences: dict[int, str] | None = None
) -> list[str]:
    """Register ``players`` people, the first CREATEs ``name``, the others join; returns their addresses.

    ``preferences`` maps a player's number (0 = the creator) to a SET PREFERENCE list.
    """
    preferences = preferences or {}
    addresses = [player(n) for n in range(players)]
    for address in addresses:
        register(harness, address)
    for n, address in enumerate(addresses):
        command = f"CREATE ?{name} pw{n}" if n == 0 else f"SIGNON ?{name} pw{n}"
        lines = [command]
        if n in preferences:
            lines.append(f"SET PREFERENCE {preferences[n]}")
        reply = harness.exchange(address, "\n".join(lines) + "\n")
        assert "[Error Flag]" not in reply["Subject"], text(reply)
    return addresses


def powers_of(harness: Harness, name: str) -> dict[str, str]:
    """Address -> power of a started game."""
    return {
        address: power
        for address, power, _status in snapshot(harness, name).seats
        if address is not None and power is not None
    }


def password_of(addresses: list[str], address: str) -> str:
    return f"pw{addresses.index(address)}"


def read(message: EmailMessage) -> str:
    """The plain-text body with the wire's CRLF line ends turned into ``\\n``."""
    return text(message).replace("\r\n", "\n")
