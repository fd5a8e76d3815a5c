"""Every DATC v3.1 case (183) through the engine with the default rules.

The official DATC run through the ``judge adjudicate`` CLI belongs to the
order-reader's tests; this one feeds Order objects straight to the engine, so
a failure here is the engine's.
"""

from __future__ import annotations

from typing import Any

import pytest

from judge.core.adjudicator import DEFAULT_RULES, adjudicate
from judge.core.phase import Phase
from judge.core.position import Position
from judge.core.units import Unit
from judge.core.variants import load_map
from tests.core.datc_orders import parse_orders, position_of, units_of
from tests.data_dir import datc_cases

CASES = datc_cases()


def _dislodged_keys(position: Position) -> set[tuple[Unit, str]]:
    return {(d.unit, d.attacker_from) for d in position.dislodged}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_datc_case(case: dict[str, Any]) -> None:
    game_map = load_map("standard")
    position = position_of(case)
    orders = parse_orders(case["orders"], position.phase)
    result = adjudicate(position, orders, DEFAULT_RULES, game_map)
    expected = case["expected"]
    assert set(result.position.units) == set(units_of(expected["units"])), case["title"]
    expected_dislodged = {
        (Unit(d["power"], d["type"], d["loc"]), d.get("attacker_from")) for d in expected["dislodged"]
    }
    got = {(d.unit, d.attacker_from) for d in result.position.dislodged}
    if all(attacker is not None for _, attacker in expected_dislodged):
        assert got == expected_dislodged, case["title"]
    else:
        assert {u for u, _ in got} == {u for u, _ in expected_dislodged}, case["title"]


PREVIOUS = [c for c in CASES if "previous_phase" in c]


@pytest.mark.parametrize("case", PREVIOUS, ids=[c["id"] for c in PREVIOUS])
def test_datc_retreat_case_previous_phase(case: dict[str, Any]) -> None:
    """The movement phase before a 6.H case leads to exactly the retreat position the case starts from."""
    game_map = load_map("standard")
    previous = case["previous_phase"]
    start = Position(
        variant="standard",
        phase=Phase.parse(previous["phase"]),
        units=units_of(previous["units"]),
        centers={},
    )
    result = adjudicate(start, parse_orders(previous["orders"], start.phase), DEFAULT_RULES, game_map)
    retreat_position = position_of(case)
    assert set(result.position.units) == set(retreat_position.units)
    # The case lists every dislodged unit, also those destroyed for lack of a retreat (6.H.15).
    assert {(d.unit, d.attacker_from) for d in result.dislodged} == _dislodged_keys(retreat_position)
    assert result.position.standoffs == retreat_position.standoffs
