"""A started seven-player game built straight through the repositories, for the orders tests.

The game is made the way a started game looks in the database (people
registered, seats with powers and passwords, S1901M open on the opening
position, deadline and due time set) without going through game formation,
so these tests depend only on SIGNON to reach it by mail.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from judge.app.game_state.boards import FIRST_PHASE, from_json, opening_position, to_json
from judge.app.game_state.clock_store import phase_schedule
from judge.app.phases.planning import plan
from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.variants import load_map
from judge.db.database import UnitOfWork
from judge.db.enums import GameState
from judge.db.models import Game
from judge.db.repositories import Registration
from judge.lang.powers import power_letters
from judge.timekeeping.deadlines import next_phase_times
from tests.app.conftest import Harness, text

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
LETTER = {power: letter for letter, power in power_letters(load_map("standard")).items()}
MASTER = "master@example.net"
OBSERVER = "watcher@example.net"


def plain(message: EmailMessage) -> str:
    """The body of a mail the judge sent, with plain new lines (the wire form has CRLF)."""
    return text(message).replace("\r\n", "\n")


def address(power: str) -> str:
    return f"{power.lower()}@example.net"


def password(power: str) -> str:
    return f"pw{power.lower()}"


@dataclass
class StartedGame:
    """A game in play and ways to talk to the judge about it."""

    harness: Harness
    name: str

    def signon(self, power: str) -> str:
        return f"SIGNON {LETTER[power]}{self.name} {password(power)}\n"

    def orders(self, power: str, body: str) -> EmailMessage:
        """Send ``body`` after the power's SIGNON; the reply."""
        return self.harness.exchange(address(power), self.signon(power) + body)

    def orders_text(self, power: str, body: str) -> str:
        return plain(self.orders(power, body))

    def master(self, body: str) -> EmailMessage:
        return self.harness.exchange(MASTER, f"SIGNON M{self.name} masterpw\n" + body)

    def game(self, uow: UnitOfWork) -> Game:
        game = uow.games.by_name(self.name)
        assert game is not None
        return game

    def state(self) -> dict[str, Any]:
        """A snapshot of what the orders and processing change, to check that a refusal changed nothing."""
        with self.harness.db.unit_of_work(readonly=True) as uow:
            game = self.game(uow)
            phases = [(p.name, p.state.value) for p in uow.phases.history(game)]
            orders = {
                phase: {power: (row.version, tuple(row.canonical)) for power, row in uow.orders.current(game, phase).items()}
                for phase, _state in phases
            }
            return {
                "phase": game.current_phase,
                "phases": phases,
                "orders": orders,
                "next_due_at": game.next_due_at,
                "state": game.state.value,
            }

    def position(self) -> Position:
        with self.harness.db.unit_of_work(readonly=True) as uow:
            record = uow.phases.current(self.game(uow))
            assert record is not None
            return from_json(record.position_before)


def start_game(
    harness: Harness,
    name: str = "demo",
    *,
    languages: Mapping[str, str] | None = None,
    settings: Mapping[str, Any] | None = None,
    position: Position | None = None,
    with_master: bool = True,
    with_observer: bool = True,
) -> StartedGame:
    """Seven registered players seated in a started Standard game, S1901M open (or ``position``)."""
    now: datetime = harness.clock.now()
    the_map = load_map("standard")
    languages = languages or {}
    with harness.db.unit_of_work() as uow:
        game = uow.games.create(name, now, settings=dict(settings or {}))
        for power in POWERS:
            person = uow.people.register(
                Registration(name=power.title(), site="Home", country="France",
                             language=languages.get(power, "en")),
                address(power), now,
            )  # fmt: skip
            uow.seats.join(game, person, password(power), now, power=power, phase=FIRST_PHASE)
        if with_master:
            master = uow.people.register(Registration(name="Master", site="Home", country="France"), MASTER, now)
            uow.games.add_master(game, master, "masterpw", now)
        if with_observer:
            uow.games.add_observer(game, OBSERVER, "watchpw", now)
        start = position or opening_position(the_map)
        times = next_phase_times(
            now, phase_schedule(game, start.phase.type), harness.services.config.timezone, game_start=True
        )
        uow.phases.open(game, str(start.phase), to_json(start), now, deadline_at=times.deadline)
        game.state = GameState.ACTIVE
        game.started_at = now
        game.deadline_at, game.grace_at, game.earliest_at = times.deadline, times.grace, times.start
        plan(uow, harness.services, game, now)
    return StartedGame(harness, name)


def phase_of(started: StartedGame) -> Phase:
    with started.harness.db.unit_of_work(readonly=True) as uow:
        return Phase.parse(started.game(uow).current_phase or "")
