"""Helpers for the report tests (SUMMARY, HISTORY, DIARY): a started game built through the repositories.

The game is made directly in the database (registration, seats with their
powers and passwords, the first phase on the opening position), so these
tests do not depend on how a game forms; phases are processed with the
judge's own :func:`judge.app.phases.processing.process_phase`, so the results the
reports show are the ones players got.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta

from judge.app.game_state.boards import opening_position, to_json
from judge.app.phases.processing import process_phase
from judge.core.variants import load_map
from judge.db.enums import GameState, PressKind, SeatStatus
from judge.db.models import Game
from judge.db.repositories.people import Registration
from tests.app.conftest import Harness

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
LETTERS = dict(zip("AEFGIRT", POWERS, strict=True))
MASTER = "master@example.net"
OBSERVER = "watcher@example.net"


def address_of(power: str) -> str:
    """``france@example.net``: each power's first player."""
    return f"{power.lower()}@example.net"


def password_of(power: str) -> str:
    return f"pw{power.lower()}"


@dataclass(frozen=True)
class Started:
    name: str
    players: dict[str, str]  # power -> address


def register(harness: Harness, address: str, name: str, *, language: str = "en") -> None:
    """Register ``address`` (once: a second game with the same people reuses them)."""
    with harness.db.unit_of_work() as uow:
        if uow.people.by_address(address) is None:
            uow.people.register(Registration(name=name, language=language), address, harness.clock.now())


def start_game(
    harness: Harness,
    name: str = "demo",
    *,
    options: Sequence[str] = (),
    languages: Mapping[str, str] | None = None,
    observer: bool = True,
    reveal: bool = True,
) -> Started:
    """A started standard game: seven registered players, a master, an observer, S1901M open."""
    languages = languages or {}
    for power in POWERS:
        register(harness, address_of(power), f"{power.title()} Player", language=languages.get(power, "en"))
    register(harness, MASTER, "Game Master")
    now = harness.clock.now()
    with harness.db.unit_of_work() as uow:
        game = uow.games.create(name, now, rule_options=list(options), settings={"reveal": reveal})
        for power in POWERS:
            person = uow.people.by_address(address_of(power))
            uow.seats.join(game, person, password_of(power), now, power=power, phase="S1901M")
        master = uow.people.by_address(MASTER)
        assert master is not None
        uow.games.add_master(game, master, "masterpw", now)
        if observer:
            uow.games.add_observer(game, OBSERVER, "watchpw", now)
        game.state = GameState.ACTIVE
        game.started_at = now
        uow.phases.open(game, "S1901M", to_json(opening_position(load_map("standard"))), now)
    return Started(name, {power: address_of(power) for power in POWERS})


def submit(harness: Harness, name: str, orders: Mapping[str, Sequence[str]]) -> None:
    """Store each power's orders for the open phase (canonical lines, as the order handlers store them)."""
    with harness.db.unit_of_work() as uow:
        game = uow.games.require(name)
        phase = game.current_phase
        assert phase is not None
        for power, lines in orders.items():
            seat = uow.seats.by_power(game, power)
            assert seat is not None
            uow.orders.submit(game, seat, phase, "\n".join(lines), list(lines), harness.clock.now())


def process(harness: Harness, name: str, orders: Mapping[str, Sequence[str]] | None = None) -> str:
    """Process the open phase (after ``orders``), an hour later; returns the phase processed."""
    if orders:
        submit(harness, name, orders)
    harness.clock.advance(timedelta(hours=1))
    with harness.db.unit_of_work() as uow:
        game = uow.games.require(name)
        done = process_phase(uow, harness.services, game, harness.clock.now(), reason="test")
        return str(done.phase)


def take_over(harness: Harness, name: str, power: str, address: str, person_name: str) -> None:
    """``address`` (registered here) takes ``power`` over after its player resigned."""
    register(harness, address, person_name)
    now = harness.clock.now()
    with harness.db.unit_of_work() as uow:
        game = uow.games.require(name)
        seat = uow.seats.by_power(game, power)
        person = uow.people.by_address(address)
        assert seat is not None and person is not None
        uow.seats.leave(seat, now, SeatStatus.RESIGNED, phase=game.current_phase)
        uow.seats.take_over(seat, person, "newpw", now, phase=game.current_phase)


def post(harness: Harness, name: str, body: str, *, kind: PressKind, sender: str | None = None,
         recipients: Sequence[str] = (), grey: bool = False, shown: Sequence[str] | None = None) -> None:
    """Store a press message as the press handlers do (``sender``: a power, or None for the judge)."""
    with harness.db.unit_of_work() as uow:
        game = uow.games.require(name)
        seat = uow.seats.by_power(game, sender) if sender else None
        uow.press.post(
            game, body, harness.clock.now(), kind=kind, sender_seat=seat,
            sender_role="power" if seat is not None else "judge",
            sender_address=address_of(sender) if sender else None,
            recipients=recipients, grey=grey, shown_recipients=shown,
        )  # fmt: skip


def finish(harness: Harness, name: str) -> None:
    """End the game (as a draw or a victory would)."""
    with harness.db.unit_of_work() as uow:
        game = uow.games.require(name)
        game.state = GameState.FINISHED
        game.finished_at = harness.clock.now()


def game_state(harness: Harness, name: str) -> tuple[str, str | None, int, int]:
    """(state, phase, press rows, diary rows): what a refused report must leave unchanged."""
    from sqlalchemy import func, select

    from judge.db.models import DiaryEntry, PressMessage

    with harness.db.unit_of_work(readonly=True) as uow:
        game: Game = uow.games.require(name)
        press = uow.session.scalar(select(func.count()).select_from(PressMessage).where(PressMessage.game_id == game.id))
        diary = uow.session.scalar(select(func.count()).select_from(DiaryEntry).where(DiaryEntry.game_id == game.id))
        return game.state.value, game.current_phase, int(press or 0), int(diary or 0)
