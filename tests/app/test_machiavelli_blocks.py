"""IF blocks and PHASE lines in a Renaissance game by mail (issue 33): refused with a clear reply
(its sheet is the open phase's lines, kept as sent: no board to decide a condition on, no later
phase's reader), the lines after a refused PHASE line not kept, and the power's sheet untouched;
a PHASE line naming the open phase is taken. The reply goes to the sender alone.
"""

from __future__ import annotations

import pytest

from tests.app.conftest import Harness
from tests.app.masters_helpers import read
from tests.app.test_machiavelli_deadlines import start
from tests.app.test_machiavelli_mail import PLAYERS, _letters, seats

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def sheets(harness: Harness) -> dict[str, dict[str, list[str]]]:
    with harness.db.unit_of_work(readonly=True) as uow:
        game = uow.games.require("mach")
        return {
            phase: {power: list(s.canonical) for power, s in uow.orders.current(game, phase).items()}
            for phase in ("W1453A", "S1454M")
        }


def test_if_blocks_and_later_phases_are_refused_and_the_sheet_is_kept(harness: Harness) -> None:
    start(harness)
    address = seats(harness)["FLORENCE"]
    letter = {power: x for x, power in _letters().items()}["FLORENCE"]
    sign = f"SIGNON {letter}mach pw{PLAYERS.index(address)}"
    harness.exchange(address, f"{sign}\nMAINTAIN A FLO\n")
    assert sheets(harness)["W1453A"] == {"FLORENCE": ["MAINTAIN A FLO"]}

    harness.new_mail()
    reply = harness.exchange(address, f"{sign}\nIF Milan Army Milan THEN\nA FLO H\nENDIF\nMAINTAIN A ARE\n")
    text = read(reply)
    assert "[Error Flag]" in reply["Subject"]
    assert "IF blocks are not taken in a Machiavelli game: send the open phase's orders as plain lines." in text
    assert sheets(harness)["W1453A"] == {"FLORENCE": ["MAINTAIN A ARE"]}  # the plain line after it is kept
    assert not harness.others  # nobody else hears of it

    reply = harness.exchange(address, f"{sign}\nMAINTAIN A FLO\nPHASE SPRING 1454 MOVEMENT\nA ARE - SIE\n")
    text = read(reply)
    assert "PHASE blocks for a later phase are not taken in a Machiavelli game" in text
    assert "Not kept: it follows a refused PHASE line." in text
    assert "You have no orders to give" not in text
    assert sheets(harness) == {"W1453A": {"FLORENCE": ["MAINTAIN A FLO"]}, "S1454M": {}}

    reply = harness.exchange(
        address, f"{sign}\nPHASE SPRING 1455 MOVEMENT\nA ARE - SIE\nPHASE WINTER 1453 ADJUSTMENTS\nMAINTAIN F PSA\n"
    )
    text = read(reply)
    assert "The orders that follow are for the current phase." in text, text
    assert sheets(harness)["W1453A"] == {"FLORENCE": ["MAINTAIN F PSA"]}

