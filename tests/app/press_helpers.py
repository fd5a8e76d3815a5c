"""Helpers for the press, draw and end-of-game tests: a started game, who got what, what was stored.

The game comes from :func:`tests.app.orders_helpers.start_game` (seven
players ``<power>@example.net``, a master ``master@example.net`` and an
observer ``watcher@example.net``), built straight in the database so these
tests depend only on SIGNON to reach it by mail.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from email.message import EmailMessage
from typing import Any

from judge.app.game_state.boards import opening_position
from judge.core.position import Position
from judge.core.variants import load_map
from judge.db.models import PressMessage
from tests.app.conftest import Harness
from tests.app.orders_helpers import MASTER, OBSERVER, StartedGame, address, plain, start_game

__all__ = ["MASTER", "OBSERVER", "address", "plain"]


def started(harness: Harness, **settings: Any) -> StartedGame:
    """A started game called ``demo`` with these game settings (column names)."""
    return start_game(harness, "demo", settings=settings)


def recipients(message: EmailMessage) -> set[str]:
    return {a.strip() for a in str(message["To"]).split(",")}


def by_reader(messages: list[EmailMessage]) -> dict[str, EmailMessage]:
    """Each recipient's copy (a mail to several readers is everyone's copy)."""
    out: dict[str, EmailMessage] = {}
    for message in messages:
        for reader in recipients(message):
            assert reader not in out, f"{reader} got two copies"
            out[reader] = message
    return out


def copy_of(harness: Harness, reader: str) -> str:
    """The body of the one press mail ``reader`` got from the last exchange."""
    return plain(by_reader(harness.others)[reader])


def player_addresses(*powers: str) -> set[str]:
    return {address(power) for power in powers}


ALL_PLAYERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def stored_press(harness: Harness) -> list[PressMessage]:
    """Every press message stored, oldest first (detached)."""
    with harness.db.unit_of_work(readonly=True) as uow:
        rows = uow.session.query(PressMessage).order_by(PressMessage.id).all()
        for row in rows:
            uow.session.expunge(row)
        return rows


def set_game(harness: Harness, name: str = "demo", **values: Any) -> None:
    """Change game columns directly (the SET handlers are another area's)."""
    with harness.db.unit_of_work() as uow:
        game = uow.games.require(name)
        for key, value in values.items():
            setattr(game, key, value)


def set_extra(harness: Harness, extra: Mapping[str, Any], name: str = "demo") -> None:
    with harness.db.unit_of_work() as uow:
        game = uow.games.require(name)
        game.extra_settings = {**game.extra_settings, **extra}


def board_without(*gone: str) -> Position:
    """The opening board with some powers wiped out (no units, no centres)."""
    start = opening_position(load_map("standard"))
    return dataclasses.replace(
        start,
        units=tuple(u for u in start.units if u.power not in gone),
        centers={p: c for p, c in start.centers.items() if p not in gone},
    )


def game_with(harness: Harness, position: Position | None = None, **settings: object) -> StartedGame:
    return start_game(harness, "demo", settings=settings, position=position)


def votes_stored(harness: Harness) -> list[tuple[int, str, str]]:
    with harness.db.unit_of_work(readonly=True) as uow:
        return [(v.seat_id, v.kind.value, v.powers) for v in uow.press.votes(uow.games.require("demo"))]
