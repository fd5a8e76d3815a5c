"""Helpers for the masters' and settings tests: a moderated game, mail from its master, game state.

People are registered straight through the repository (REGISTER is another
area's); everything else goes through mail, as a master and players would
send it.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from judge.db.enums import AuditKind
from judge.db.models import Game, PhaseRecord
from tests.app.conftest import Harness, text
from tests.app.games_helpers import player, register

MASTER = "gm@example.net"
MASTER_PASSWORD = "mpw"


def read(message: EmailMessage) -> str:
    return text(message).replace("\r\n", "\n")


def moderated_game(harness: Harness, name: str = "modo", *, players: int = 7, language: str = "en") -> list[str]:
    """CREATE + BECOME MASTER by :data:`MASTER`, then ``players`` players join; returns their addresses.

    With seven players the game starts (the powers dealt, S1901M open).
    """
    register(harness, MASTER, language=language)
    reply = harness.exchange(MASTER, f"CREATE ?{name} {MASTER_PASSWORD}\nBECOME MASTER\n")
    assert "[Error Flag]" not in reply["Subject"], read(reply)
    addresses = [player(n) for n in range(players)]
    for n, address in enumerate(addresses):
        register(harness, address)
        reply = harness.exchange(address, f"SIGNON ?{name} pw{n}\n")
        assert "[Error Flag]" not in reply["Subject"], read(reply)
    harness.new_mail()
    return addresses


def as_master(harness: Harness, body: str, name: str = "modo") -> EmailMessage:
    """Mail from the master, signed on as M<game>; returns the reply."""
    return harness.exchange(MASTER, f"SIGNON M{name} {MASTER_PASSWORD}\n{body}")


@dataclass
class GameState:
    """A game's columns and seats as stored, read in their own transaction."""

    columns: dict[str, Any]
    seats: list[tuple[str | None, str | None, str]]
    masters: list[str]
    observers: list[str]
    settings_audit: list[tuple[str | None, Any, Any, str]]
    phases: list[tuple[int, str, str, int]]


def state_of(harness: Harness, name: str = "modo") -> GameState:
    with harness.db.unit_of_work(readonly=True) as uow:
        game: Game = uow.games.require(name)
        columns = {c.key: getattr(game, c.key) for c in Game.__table__.columns}
        columns["extra_settings"] = dict(game.extra_settings)
        return GameState(
            columns=columns,
            seats=[(s.person.primary_address if s.person else None, s.power, s.status.value) for s in game.seats],
            masters=[m.person.primary_address or "" for m in game.masters],
            observers=[o.address for o in game.observers],
            settings_audit=[
                (e.setting, e.old_value, e.new_value, e.actor)
                for e in uow.audit.for_game(game, kind=AuditKind.SETTING)
            ],
            phases=[(p.turn, p.name, p.state.value, p.epoch) for p in uow.phases.history(game)],
        )


def sent_to(messages: list[EmailMessage], address: str) -> list[EmailMessage]:
    return [m for m in messages if address in str(m["To"])]


def players_by_power(harness: Harness, name: str = "modo") -> dict[str, tuple[str, str]]:
    """Power -> (address, password) of a game formed by :func:`moderated_game`."""
    out: dict[str, tuple[str, str]] = {}
    for address, power, _status in state_of(harness, name).seats:
        if address is not None and power is not None:
            out[power] = (address, "pw" + address.split("@")[0].removeprefix("p"))
    return out


def as_power(harness: Harness, power: str, body: str, name: str = "modo") -> EmailMessage:
    """Mail from the player of ``power``, signed on; returns the reply."""
    address, password = players_by_power(harness, name)[power]
    return harness.exchange(address, f"SIGNON {power[0]}{name} {password}\n{body}")


def phase_rows(harness: Harness, name: str = "modo") -> list[dict[str, Any]]:
    """Every phase record of the game (rolled back ones too), oldest first."""
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require(name)
        rows = uow.session.query(PhaseRecord).filter_by(game_id=game.id).order_by(PhaseRecord.id).all()
        return [
            {"turn": r.turn, "name": r.name, "state": r.state.value, "epoch": r.epoch,
             "before": r.position_before, "after": r.position_after}
            for r in rows
        ]  # fmt: skip
