"""DATC cases as engine inputs: positions and orders, read with the judge's own order reader.

The official DATC test runs the cases through ``judge adjudicate`` (tests/core/
test_datc.py); the engine's own tests use these helpers to call the engine
directly, with the same reader a player's mail goes through.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.core.orders import Order
from judge.core.phase import Phase, PhaseType
from judge.core.position import DislodgedUnit, Position
from judge.core.units import Unit, UnitType
from judge.core.variants import load_map
from judge.lang.orders import read_order


def parse_order(text: str, phase_type: PhaseType) -> Order:
    return read_order(text, load_map("standard"), phase_type=phase_type).order


def parse_orders(raw: Mapping[str, Sequence[str]], phase: Phase) -> dict[str, list[Order]]:
    return {power: [parse_order(o, phase.type) for o in orders] for power, orders in raw.items()}


def units_of(raw: Sequence[Mapping[str, str]]) -> tuple[Unit, ...]:
    return tuple(Unit(u["power"], UnitType(u["type"]), u["loc"]) for u in raw)


def position_of(case: Mapping[str, Any]) -> Position:
    phase = Phase.parse(case["phase"])
    return Position(
        variant="standard",
        phase=phase,
        units=units_of(case["units"]),
        centers={p: frozenset(c) for p, c in case.get("centers", {}).items()},
        dislodged=tuple(
            DislodgedUnit(
                Unit(d["power"], UnitType(d["type"]), d["loc"]),
                d["attacker_from"],
                d.get("attacker_via_convoy", False),
            )
            for d in case.get("dislodged", [])
        ),
        standoffs=frozenset(case.get("standoffs", [])),
    )
