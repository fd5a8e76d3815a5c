"""The Renaissance game's deadlines by mail (issue 33): the phase is processed early once every
power that owes orders has complete ones, by the game's own rule (its hooks'
``orders_completeness``: every unit and garrison ordered in a campaign, each maintained or
removed in the adjustments), and not before.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.app.conftest import Harness
from tests.app.deadlines_helpers import run_scheduler
from tests.app.games_helpers import register
from tests.app.masters_helpers import MASTER, MASTER_PASSWORD, read, state_of
from tests.app.test_machiavelli_mail import (
    BOARD,
    PLAYERS,
    as_power,
    exchange_ok,
    maintain_all,
    seats,
)

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def start(harness: Harness) -> None:
    """Game "mach", eight players, no manual processing: the clock decides."""
    register(harness, MASTER)
    exchange_ok(harness, MASTER, f"CREATE ?mach {MASTER_PASSWORD} machiavelli\nBECOME MASTER\n")
    for address in PLAYERS:
        register(harness, address)
    for n, address in enumerate(PLAYERS):
        exchange_ok(harness, address, f"SIGNON ?mach pw{n} machiavelli\n")
    assert state_of(harness, "mach").columns["current_phase"] == "W1453A"


def kept_position(harness: Harness) -> dict[str, Any]:
    with harness.db.unit_of_work(readonly=True) as uow:
        record = uow.phases.current(uow.games.require("mach"))
        assert record is not None
        return dict(record.position_before)


def phase_after_a_wake_up(harness: Harness) -> str:
    """The scheduler wakes once the phase may be processed early (its earliest time, and half an
    hour after the last orders; the deadline still days away); the game's phase after it."""
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("mach")
        assert game.earliest_at is not None and game.deadline_at is not None
        earliest, deadline = game.earliest_at, game.deadline_at
    when = max(harness.clock.now() + timedelta(minutes=31), earliest)
    assert when < deadline - timedelta(hours=12)
    harness.clock.set(when)
    run_scheduler(harness)
    return str(state_of(harness, "mach").columns["current_phase"])


def holds(kept: dict[str, Any], power: str, *, garrisons: bool = True) -> list[str]:
    lines = [f"{u['type']} {u['loc']} H" for u in kept["units"] if u["power"] == power]
    if garrisons:
        lines += [f"G {city} H" for city, owner in kept["garrisons"].items() if owner == power]
    return lines


def test_a_phase_is_processed_early_only_when_every_powers_orders_are_complete(harness: Harness) -> None:
    start(harness)
    powers = list(BOARD.game_map.powers)
    for power in powers[:-1]:
        maintain_all(harness, power)
    last = powers[-1]
    assert phase_after_a_wake_up(harness) == "W1453A"  # one power has sent nothing
    kept = kept_position(harness)
    units = [f"MAINTAIN {u['type']} {u['loc']}" for u in kept["units"] if u["power"] == last]
    as_power(harness, last, units[:-1])  # one unit neither maintained nor removed
    assert phase_after_a_wake_up(harness) == "W1453A"
    maintain_all(harness, last)
    assert phase_after_a_wake_up(harness) == "S1454M"

    kept = kept_position(harness)
    assert kept["garrisons"].get("VEN") == "VENICE"
    for power in powers:
        if power != "VENICE":
            as_power(harness, power, holds(kept, power))
    as_power(harness, "VENICE", holds(kept, "VENICE", garrisons=False))  # G VEN not ordered
    assert phase_after_a_wake_up(harness) == "S1454M"
    as_power(harness, "VENICE", [*holds(kept, "VENICE", garrisons=False), "EXPENSE 1: 0 DUCATS NONE"])
    assert phase_after_a_wake_up(harness) == "S1454M"  # a money order names no unit
    as_power(harness, "VENICE", holds(kept, "VENICE"))
    assert phase_after_a_wake_up(harness) == "U1454M"




def test_the_reminder_shows_a_powers_sheet_as_sent(harness: Harness) -> None:
    """The reminder's "orders received so far" are the sheet's lines as sent (a garrison's upkeep
    and an expense too), not what the ordinary game's reader would make of them."""
    start(harness)
    sent = ["MAINTAIN G VEN", "MAINTAIN A PAD"]
    as_power(harness, "VENICE", sent)  # incomplete: the other units are neither kept nor removed
    with harness.db.unit_of_work(readonly=True) as uow:
        deadline = uow.games.require("mach").deadline_at
    assert deadline is not None
    harness.clock.set(deadline - timedelta(hours=1))
    harness.new_mail()
    run_scheduler(harness)
    harness.drain()
    venice = seats(harness)["VENICE"]
    reminders = [m for m in harness.new_mail() if str(m["To"]) == venice and "Reminder" in str(m["Subject"])]
    assert reminders, "no reminder"
    text = read(reminders[0])
    assert "Orders received so far:" in text and all(f"  {line}" in text for line in sent), text
