"""Helpers for council-B's tests: a started Standard game played by councils of three.

Each power's seat holder is its General (rank 0) and two more registered
people sit as Ambassadors (ranks 1 and 2), added straight through the
repository (formation is another area's); everything else goes through the
judge's functions or mail.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from judge.app.game_state.boards import opening_position
from judge.core.phase import Phase
from judge.core.variants import load_map
from judge.db.repositories.people import Registration
from tests.app.conftest import Harness
from tests.app.orders_helpers import POWERS, StartedGame, address, start_game


def ambassador(power: str, rank: int) -> str:
    return f"amb{rank}.{power.lower()}@example.net"


def council_game(
    harness: Harness, *, phase: str | None = None, languages: dict[str, str] | None = None, **options: Any
) -> StartedGame:
    """A started council game (S1901M, or ``phase`` with the opening units), three members per power."""
    position = None
    if phase is not None:
        position = dataclasses.replace(opening_position(load_map("standard")), phase=Phase.parse(phase))
    game = start_game(harness, position=position, languages=languages)
    now = harness.clock.now()
    with harness.db.unit_of_work() as uow:
        row = game.game(uow)
        uow.councils.configure(row, **options)
        for power in POWERS:
            general = uow.people.by_address(address(power))
            uow.councils.add_member(row, power, general, now, role="general", rank=0, password=f"g{power}")
            for rank in (1, 2):
                person = uow.people.register(
                    Registration(name=f"Amb{rank}{power.title()}", language=(languages or {}).get(power, "en")),
                    ambassador(power, rank),
                    now,
                )
                uow.councils.add_member(row, power, person, now, rank=rank, password=f"a{rank}{power}")
    return game


def member_ids(harness: Harness, game: StartedGame, power: str) -> dict[str, int]:
    """Address -> member id of ``power``'s council."""
    with harness.db.unit_of_work(readonly=True) as uow:
        row = game.game(uow)
        return {
            uow.people.get(m.person_id).primary_address or "": m.id
            for m in uow.councils.members(row, power=power)
            if m.person_id is not None
        }
