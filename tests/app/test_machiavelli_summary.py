"""SUMMARY of a Renaissance game (issue 33): its table of cities by year lists every year played,
each with the cities the powers controlled at its end (the kept positions carry them:
:func:`judge.app.machiavelli.stored_phase.kept_json`), never the scenario's opening counts again."""

from __future__ import annotations

import pytest

from tests.app.conftest import Harness
from tests.app.masters_helpers import MASTER, MASTER_PASSWORD, read
from tests.app.test_machiavelli_deadlines import kept_position, start
from tests.app.test_machiavelli_mail import BOARD, as_power, maintain_all, process

pytestmark = pytest.mark.engine_blind  # replies and wording the engine cannot change: SQLite only


def _rows(summary: str) -> dict[int, dict[str, int]]:
    """The table's rows: year -> each power's count, in the map's order of powers."""
    table = summary.split("Cities at the end of each year:")[1]
    rows: dict[int, dict[str, int]] = {}
    for line in table.splitlines()[2:]:
        fields = line.split()
        if len(fields) != len(BOARD.game_map.powers) + 1 or not fields[0].isdigit():
            break
        rows[int(fields[0])] = dict(zip(BOARD.game_map.powers, map(int, fields[1:]), strict=True))
    return rows


def _cities(kept: dict[str, object]) -> dict[str, int]:
    control = kept["control"]
    assert isinstance(control, dict)
    owners = [owner for city, owner in control["cities"].items() if city in BOARD.cities]
    return {power: owners.count(power) for power in BOARD.game_map.powers}


def test_a_game_over_two_years_lists_both_years_with_the_cities_controlled(harness: Harness) -> None:
    start(harness)
    opening = _cities(kept_position(harness))
    for power in BOARD.game_map.powers:
        maintain_all(harness, power)
    process(harness)  # W1453A
    as_power(harness, "MILAN", ["A PAV - TUR"])  # the empty city of Turin
    process(harness)  # S1454M
    for _phase in ("U1454M", "F1454M"):
        process(harness)
    after_1454 = _cities(kept_position(harness))
    assert after_1454["MILAN"] == opening["MILAN"] + 1
    for power in BOARD.game_map.powers:
        maintain_all(harness, power)
    process(harness)  # W1454A
    as_power(harness, "MILAN", ["A TUR - SAV"])  # the autonomous city of Savoy keeps its garrison
    for _phase in ("S1455M", "U1455M", "F1455M"):
        process(harness)
    after_1455 = _cities(kept_position(harness))
    assert kept_position(harness)["phase"] == "W1455A"
    harness.new_mail()
    reply = read(harness.exchange(MASTER, f"SIGNON Mmach {MASTER_PASSWORD}\nSUMMARY mach\n"))
    rows = _rows(reply)
    assert sorted(rows) == [1453, 1454, 1455], reply
    assert rows[1453] == opening and rows[1454] == after_1454 and rows[1455] == after_1455, reply
